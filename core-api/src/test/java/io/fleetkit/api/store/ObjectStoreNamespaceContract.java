package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.NamespaceSpec;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a store creates, deletes and finalizes namespaces: the namespace registry's two finalizer lists
 * ({@code spec.finalizers}, emptied by {@link ObjectStore#finalizeNamespace}, and {@code metadata.finalizers}, ordinary
 * object finalizers). Kubernetes' own cases are ported in {@code NamespaceRegistryUpstreamTest} (store.spi); these run
 * the rules through a whole store, with its events.
 */
public abstract class ObjectStoreNamespaceContract extends StoreContract {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final ManualClock clock = new ManualClock(T0);
  private final ObjectStore store = builder().clock(clock).directDelivery().build();
  private final Recorder<Namespace> events = new Recorder<>();

  protected ObjectStoreNamespaceContract() {
    store.watch(Namespace.class, "", events);
  }

  private Namespace withMetadataFinalizers(Namespace ns, String... finalizers) {
    return ns.withMetadata(ns.metadata().toBuilder().finalizers(List.of(finalizers)).build());
  }

  @Test
  void create_addsTheKubernetesFinalizerAndIsActive() {
    Namespace created = store.create(new Namespace(ObjectMeta.of("a"), new NamespaceSpec(List.of("example.com/x")),
        NamespaceStatus.TERMINATING));

    assertThat(created.spec().finalizers()).containsExactly("example.com/x", Namespace.KUBERNETES_FINALIZER);
    assertThat(created.status()).isEqualTo(NamespaceStatus.ACTIVE);
    assertThat(created.metadata().finalizers()).isEmpty();
    assertThat(store.require(Namespace.class, "", "a")).isEqualTo(created);
  }

  @Test
  void delete_marksTerminating_finalizeRemovesIt() {
    store.create(Namespace.of("a"));

    Namespace marked = store.delete(Namespace.class, "", "a");
    assertThat(marked.metadata().deletionTimestamp()).isEqualTo(T0);
    assertThat(marked.status().phase()).isEqualTo(NamespacePhase.Terminating);
    assertThat(marked.metadata().generation()).isEqualTo(2);
    assertThat(store.delete(Namespace.class, "", "a")).isEqualTo(marked); // spec.finalizers hold it: no change

    Namespace last = store.finalizeNamespace(marked.withSpec(NamespaceSpec.EMPTY));

    assertThat(last.spec().finalizers()).isEmpty();
    assertThat(store.get(Namespace.class, "", "a")).isEmpty();
    assertThat(events.summary()).containsExactly("ADDED a@2", "MODIFIED a@3", "DELETED a@4");
  }

  @Test
  void update_keepsSpecFinalizers_andRemovesNothingWhileTheyHold() {
    Namespace created = store.create(withMetadataFinalizers(Namespace.of("a"), "example.com/hold"));
    Namespace relabelled = store.update(created.withSpec(NamespaceSpec.EMPTY)
        .withMetadata(created.metadata().withLabels(java.util.Map.of("team", "x"))));
    assertThat(relabelled.spec().finalizers()).containsExactly(Namespace.KUBERNETES_FINALIZER);
    assertThat(relabelled.metadata().generation()).isEqualTo(1); // the spec did not change

    Namespace marked = store.delete(Namespace.class, "", "a");
    Namespace released = store.update(withMetadataFinalizers(marked));

    assertThat(released.metadata().finalizers()).isEmpty();
    assertThat(store.get(Namespace.class, "", "a")).isPresent(); // spec.finalizers still hold it
    store.finalizeNamespace(released.withSpec(NamespaceSpec.EMPTY));
    assertThat(store.get(Namespace.class, "", "a")).isEmpty();
  }

  @Test
  void finalize_leavesANamespaceHeldByMetadataFinalizers_untilTheyGo() {
    store.create(withMetadataFinalizers(Namespace.of("a"), "example.com/hold"));
    Namespace marked = store.delete(Namespace.class, "", "a");

    Namespace finalized = store.finalizeNamespace(marked.withSpec(NamespaceSpec.EMPTY));
    assertThat(finalized.metadata().finalizers()).containsExactly("example.com/hold");
    // the metadata finalizer holds it; the generic deletion marks it with grace period 0 (markAsDeleting)
    Namespace held = store.delete(Namespace.class, "", "a");
    assertThat(held.metadata().deletionGracePeriodSeconds()).isEqualTo(0L);
    assertThat(held.metadata().deletionTimestamp()).isEqualTo(finalized.metadata().deletionTimestamp());
    assertThat(held.withMetadata(finalized.metadata())).isEqualTo(finalized);
    assertThat(store.delete(Namespace.class, "", "a")).isEqualTo(held);
    finalized = held;

    store.update(withMetadataFinalizers(finalized));
    assertThat(store.get(Namespace.class, "", "a")).isEmpty();
  }

  @Test
  void finalizeBeforeDeletion_thenTwoDeletions_markThenRemove() {
    Namespace created = store.create(Namespace.of("a"));
    Namespace finalized = store.finalizeNamespace(created.withSpec(NamespaceSpec.EMPTY));
    assertThat(finalized.metadata().generation()).isEqualTo(2);
    assertThat(finalized.status()).isEqualTo(NamespaceStatus.ACTIVE);

    Namespace marked = store.delete(Namespace.class, "", "a"); // the first deletion only marks, as upstream
    assertThat(marked.terminating()).isTrue();
    assertThat(store.get(Namespace.class, "", "a")).isPresent();
    store.delete(Namespace.class, "", "a");
    assertThat(store.get(Namespace.class, "", "a")).isEmpty();
  }

  @Test
  void finalize_keepsTheStoredStatus_andMissingNamespaceIsNotFound() {
    Namespace created = store.create(Namespace.of("a"));
    Namespace finalized = store.finalizeNamespace(created.withSpec(new NamespaceSpec(List.of("example.com/org")))
        .withStatus(NamespaceStatus.TERMINATING));

    assertThat(finalized.status()).isEqualTo(NamespaceStatus.ACTIVE);
    assertThat(finalized.spec().finalizers()).containsExactly("example.com/org");
    assertThatThrownBy(() -> store.finalizeNamespace(Namespace.of("missing")))
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("missing not found");
  }
}
