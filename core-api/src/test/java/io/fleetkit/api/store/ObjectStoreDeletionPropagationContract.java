package io.fleetkit.api.store;

import static io.fleetkit.api.store.DeletionPropagation.FOREGROUND_FINALIZER;
import static io.fleetkit.api.store.DeletionPropagation.ORPHAN_FINALIZER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a store applies a deletion's {@link DeleteOptions}: the {@code orphan} and {@code foregroundDeletion}
 * finalizers it sets or removes, the per-kind default (Jobs orphan), marking instead of removing, and a later
 * deletion switching the policy. Kubernetes' own tables are ported in {@code GenericStoreDeletionUpstreamTest} and
 * {@code NamespaceRegistryUpstreamTest} (store.spi) through the shared rules; these run the same rules through whole
 * stores (in-memory here, etcd in store-etcd), with their versions and events.
 */
public abstract class ObjectStoreDeletionPropagationContract extends StoreContract {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final PodSpec WORK = PodSpec.builder().restartPolicy(RestartPolicy.Never)
      .container("work", "busybox", ResourceList.EMPTY).build();

  private final ManualClock clock = new ManualClock(T0);
  private final ObjectStore store = builder().clock(clock).directDelivery().build();
  private final Recorder<Widget> events = new Recorder<>();

  protected ObjectStoreDeletionPropagationContract() {
    store.watch(Widget.class, "", events);
  }

  private Widget create(String name, String... finalizers) {
    return store.create(new Widget(ObjectMeta.of("ns", name).toBuilder().finalizers(List.of(finalizers)).build(),
        1, ""));
  }

  private Widget withFinalizers(Widget w, String... finalizers) {
    return w.withMetadata(w.metadata().toBuilder().finalizers(List.of(finalizers)).build());
  }

  @Test
  void delete_orphan_marksWithOrphanFinalizer_removedWhenItIsCleared() {
    create("a");
    clock.advance(Duration.ofSeconds(10));

    Widget marked = store.delete(Widget.class, "ns", "a", DeleteOptions.orphan());
    Widget gone = store.update(withFinalizers(marked));

    assertThat(marked.metadata().finalizers()).containsExactly(ORPHAN_FINALIZER);
    assertThat(marked.metadata().deletionTimestamp()).isEqualTo(T0.plusSeconds(10));
    assertThat(marked.metadata().generation()).isEqualTo(2);
    assertThat(gone.metadata().finalizers()).isEmpty();
    assertThat(store.get(Widget.class, "ns", "a")).isEmpty();
    assertThat(events.summary()).containsExactly("ADDED a@2", "MODIFIED a@3", "DELETED a@4");
  }

  @Test
  void delete_foreground_marksWithForegroundFinalizerAfterTheOthers() {
    create("a", "x.io/keep");

    Widget marked = store.delete(Widget.class, "ns", "a", DeleteOptions.foreground());

    assertThat(marked.metadata().finalizers()).containsExactly("x.io/keep", FOREGROUND_FINALIZER);
    assertThat(store.require(Widget.class, "ns", "a")).isEqualTo(marked);
    assertThat(events.summary()).containsExactly("ADDED a@2", "MODIFIED a@3");
  }

  @Test
  void delete_background_removesAtOnce_orMarksWithoutGcFinalizer() {
    create("a");
    create("b", "x.io/keep", ORPHAN_FINALIZER);

    Widget a = store.delete(Widget.class, "ns", "a", DeleteOptions.background());
    Widget b = store.delete(Widget.class, "ns", "b", DeleteOptions.background());

    assertThat(a.metadata().deletionTimestamp()).isNull();
    assertThat(store.get(Widget.class, "ns", "a")).isEmpty();
    assertThat(b.metadata().finalizers()).as("Background takes the orphan finalizer away").containsExactly("x.io/keep");
    assertThat(b.metadata().deletionTimestamp()).isEqualTo(T0);
    assertThat(events.summary()).containsExactly("ADDED a@2", "ADDED b@3", "DELETED a@4", "MODIFIED b@5");
  }

  @Test
  void delete_withoutOptions_objectsOwnGcFinalizerWins() {
    create("a", FOREGROUND_FINALIZER);

    Widget marked = store.delete(Widget.class, "ns", "a");

    assertThat(marked.metadata().finalizers()).containsExactly(FOREGROUND_FINALIZER);
    assertThat(marked.metadata().deletionTimestamp()).isEqualTo(T0);
  }

  @Test
  void delete_jobWithoutOptions_orphansByDefault_backgroundRemovesIt() {
    store.create(Job.builder().namespace("ns").name("orphaned").podSpec(WORK).build());
    store.create(Job.builder().namespace("ns").name("removed").podSpec(WORK).build());

    Job orphaned = store.delete(Job.class, "ns", "orphaned");
    store.delete(Job.class, "ns", "removed", DeleteOptions.background());

    assertThat(orphaned.metadata().finalizers()).as("batch/v1 Jobs default to OrphanDependents")
        .containsExactly(ORPHAN_FINALIZER);
    assertThat(orphaned.metadata().deletionTimestamp()).isEqualTo(T0);
    assertThat(store.require(Job.class, "ns", "orphaned")).isEqualTo(orphaned);
    assertThat(store.get(Job.class, "ns", "removed")).isEmpty();
  }

  @Test
  void deleteAgain_otherPolicy_switchesGcFinalizer_keepsMarkAndGeneration() {
    create("a");
    Widget orphaning = store.delete(Widget.class, "ns", "a", DeleteOptions.orphan());
    clock.advance(Duration.ofSeconds(30));

    Widget foreground = store.delete(Widget.class, "ns", "a", DeleteOptions.foreground());

    assertThat(foreground.metadata().finalizers()).containsExactly(FOREGROUND_FINALIZER);
    assertThat(foreground.metadata().deletionTimestamp()).isEqualTo(orphaning.metadata().deletionTimestamp());
    assertThat(foreground.metadata().generation()).isEqualTo(orphaning.metadata().generation());
    assertThat(events.summary()).containsExactly("ADDED a@2", "MODIFIED a@3", "MODIFIED a@4");
  }

  @Test
  void deleteAgain_background_lastFinalizerWasGc_removesIt() {
    create("a");
    store.delete(Widget.class, "ns", "a", DeleteOptions.foreground());

    Widget last = store.delete(Widget.class, "ns", "a", DeleteOptions.background());

    assertThat(store.get(Widget.class, "ns", "a")).isEmpty();
    assertThat(last.metadata().finalizers()).as("the last stored state").containsExactly(FOREGROUND_FINALIZER);
    assertThat(events.summary()).containsExactly("ADDED a@2", "MODIFIED a@3", "DELETED a@4");
  }

  @Test
  void deleteAgain_sameOrNoPolicy_writesNothing() {
    create("a");
    Widget marked = store.delete(Widget.class, "ns", "a", DeleteOptions.orphan());
    String version = store.resourceVersion();
    clock.advance(Duration.ofSeconds(5));

    Widget same = store.delete(Widget.class, "ns", "a", DeleteOptions.orphan());
    Widget plain = store.delete(Widget.class, "ns", "a");

    assertThat(same).isEqualTo(marked);
    assertThat(plain).isEqualTo(marked);
    assertThat(store.resourceVersion()).isEqualTo(version);
    assertThat(events.size()).isEqualTo(2);
  }

  @Test
  void delete_optionsWithStalePrecondition_conflict_objectUnchanged() {
    Widget a = create("a");

    assertThatThrownBy(() -> store.delete(Widget.class, "ns", "a",
        DeleteOptions.foreground().withPreconditions(DeletePreconditions.uid("stale-uid"))))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("Precondition failed: UID in precondition: stale-uid");
    assertThat(store.require(Widget.class, "ns", "a")).isEqualTo(a);

    Widget marked = store.delete(Widget.class, "ns", "a",
        DeleteOptions.foreground().withPreconditions(DeletePreconditions.uid(a.metadata().uid())));
    assertThat(marked.metadata().finalizers()).containsExactly(FOREGROUND_FINALIZER);
  }

  @Test
  void delete_orphanDependentsFalse_removesOrphanFinalizer() {
    create("a", ORPHAN_FINALIZER, "x.io/keep");

    Widget marked = store.delete(Widget.class, "ns", "a", DeleteOptions.DEFAULT.withOrphanDependents(false));

    assertThat(marked.metadata().finalizers()).containsExactly("x.io/keep");
  }

  @Test
  void deleteNamespace_foreground_marksTerminatingWithFinalizer() {
    store.create(Namespace.of("team"));

    Namespace marked = store.delete(Namespace.class, "", "team", DeleteOptions.foreground());

    assertThat(marked.status().phase()).isEqualTo(NamespacePhase.Terminating);
    assertThat(marked.metadata().finalizers()).containsExactly(FOREGROUND_FINALIZER);
    assertThat(marked.spec().finalizers()).containsExactly(Namespace.KUBERNETES_FINALIZER);
  }
}
