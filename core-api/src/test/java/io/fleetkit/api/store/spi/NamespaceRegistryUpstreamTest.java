package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.NamespaceSpec;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kubernetes' namespace registry, ported through {@link WriteRules} (the stored states are built as upstream writes
 * them straight into etcd with {@code storage.store.Storage.Create}):
 *
 * <ul>
 *   <li>{@code pkg/registry/core/namespace/strategy_test.go} at commit e4b6dc5a70de2c18b80897d104473342bc5452e5:
 *       TestNamespaceStrategy, TestNamespaceStatusStrategy, TestNamespaceFinalizeStrategy (3 of 4; left out:
 *       TestSelectableFieldLabelConversions, no field selectors). TestNamespaceStrategy's expected validation error
 *       comes from renaming the namespace on update, which is the store key here, so that half is left out.</li>
 *   <li>{@code pkg/registry/core/namespace/storage/storage_test.go}, the stored version with the
 *       {@code namespaces/finalize} cases and TestDeleteWithGCFinalizers (20,270 characters; the code index names
 *       no commit for it): TestCreateSetsFields, TestDeleteNamespaceWithIncompleteFinalizers,
 *       TestUpdateDeletingNamespaceWithIncompleteMetadataFinalizers,
 *       TestUpdateDeletingNamespaceWithIncompleteSpecFinalizers,
 *       TestUpdateDeletingNamespaceWithCompleteFinalizers, TestFinalizeDeletingNamespaceWithCompleteFinalizers,
 *       TestFinalizeDeletingNamespaceWithIncompleteMetadataFinalizers, TestDeleteNamespaceWithCompleteFinalizers and
 *       TestDeleteWithGCFinalizers' three cases without DeleteOptions (the store has no propagation policy or
 *       orphanDependents option: the other 12 cases are left out, see docs/conformance.md).</li>
 * </ul>
 */
final class NamespaceRegistryUpstreamTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  /** A namespace as upstream's tests write it into storage: with a uid and a version, maybe marked. */
  private static Namespace stored(boolean deleting, List<String> metadataFinalizers, List<String> specFinalizers,
      NamespacePhase phase) {
    ObjectMeta.Builder m = ObjectMeta.of("foo").toBuilder().uid("uid-foo").resourceVersion("10").generation(1)
        .creationTimestamp(NOW.minusSeconds(60)).finalizers(metadataFinalizers);
    if (deleting) {
      m.deletionTimestamp(NOW);
    }
    return new Namespace(m.build(), new NamespaceSpec(specFinalizers), new NamespaceStatus(phase));
  }

  /** What a client sends back after a get: the stored object without the store-owned version. */
  private static Namespace asSent(Namespace ns) {
    return ns.withMetadata(ns.metadata().toBuilder().resourceVersion("").build());
  }

  // ----------------------------------------------------------------------------------------- strategy_test.go

  @Test
  void namespaceStrategy_createIsActiveWithKubernetesFinalizer_updateKeepsSpecFinalizers() {
    Namespace request = new Namespace(ObjectMeta.of("foo"), NamespaceSpec.EMPTY, NamespaceStatus.TERMINATING);

    Namespace created = WriteRules.created(request, "uid-foo", "10", NOW);

    assertThat(created.status().phase()).as("Namespaces do not allow setting phase on create")
        .isEqualTo(NamespacePhase.Active);
    assertThat(created.spec().finalizers()).as("PrepareForCreate should have added kubernetes finalizer")
        .containsExactly(Namespace.KUBERNETES_FINALIZER);
    Namespace update = new Namespace(ObjectMeta.of("foo").toBuilder().resourceVersion("").build(),
        NamespaceSpec.EMPTY, NamespaceStatus.ACTIVE);
    Namespace updated = WriteRules.update(created, update).object();
    assertThat(updated.spec().finalizers()).as("PrepareForUpdate should have preserved old.spec.finalizers")
        .containsExactly(Namespace.KUBERNETES_FINALIZER);
    assertThat(update.spec().finalizers()).as("the request is not mutated").isEmpty();
  }

  @Test
  void namespaceStatusStrategy_phaseChanges_specFinalizersPreserved() {
    Namespace old = stored(true, List.of(), List.of(Namespace.KUBERNETES_FINALIZER), NamespacePhase.Active);
    Namespace request = asSent(stored(true, List.of(), List.of(), NamespacePhase.Terminating));

    Namespace updated = WriteRules.updateStatus(old, request).object(); // no validation error

    assertThat(updated.status().phase()).as("Namespace status updates should allow change of phase")
        .isEqualTo(NamespacePhase.Terminating);
    assertThat(updated.spec().finalizers()).as("PrepareForUpdate should have preserved old finalizers")
        .containsExactly(Namespace.KUBERNETES_FINALIZER);
  }

  @Test
  void namespaceFinalizeStrategy_finalizersReplaced_phaseKept() {
    Namespace old = stored(false, List.of(), List.of(Namespace.KUBERNETES_FINALIZER, "example.com/org"),
        NamespacePhase.Active);
    Namespace request = asSent(stored(false, List.of(), List.of("example.com/foo"), NamespacePhase.Terminating));

    Namespace finalized = WriteRules.finalizeNamespace(old, request).object(); // no validation error

    assertThat(finalized.status().phase()).as("finalize updates should not allow change of phase")
        .isEqualTo(NamespacePhase.Active);
    assertThat(finalized.spec().finalizers()).as("PrepareForUpdate should have modified finalizers")
        .containsExactly("example.com/foo");
  }

  // ------------------------------------------------------------------------------------------ storage_test.go

  @Test
  void createSetsFields() {
    try (ObjectStore store = ObjectStore.inMemory()) {
      store.create(new Namespace(ObjectMeta.of("foo"), NamespaceSpec.EMPTY, NamespaceStatus.ACTIVE));

      Namespace actual = store.require(Namespace.class, "", "foo");
      assertThat(actual.metadata().name()).isEqualTo("foo");
      assertThat(actual.metadata().uid()).as("expected namespace UID to be set").isNotEmpty();
      assertThat(actual.status().phase()).as("expected namespace phase to be set to active")
          .isEqualTo(NamespacePhase.Active);
    }
  }

  @Test
  void deleteNamespaceWithIncompleteFinalizers_returnsItAndKeepsIt() {
    Namespace ns = stored(true, List.of(), List.of(Namespace.KUBERNETES_FINALIZER), NamespacePhase.Active);

    WriteRules.Change<Namespace> change = WriteRules.delete(ns, DeletePreconditions.NONE, NOW.plusSeconds(5));

    assertThat(change.effect()).as("should still exist").isEqualTo(WriteRules.Effect.NONE);
    assertThat(change.object().metadata().name()).as("object returned by delete").isEqualTo("foo");
  }

  @Test
  void updateDeletingNamespaceWithIncompleteMetadataFinalizers_keepsIt() {
    Namespace ns = stored(true, List.of("example.com/foo"), List.of(), NamespacePhase.Active);

    assertThat(WriteRules.update(ns, asSent(ns)).effect()).as("should still exist")
        .isNotEqualTo(WriteRules.Effect.REMOVE);
  }

  @Test
  void updateDeletingNamespaceWithIncompleteSpecFinalizers_keepsIt() {
    Namespace ns = stored(true, List.of(), List.of(Namespace.KUBERNETES_FINALIZER), NamespacePhase.Active);

    WriteRules.Change<Namespace> change = WriteRules.update(ns, asSent(ns));

    assertThat(change.effect()).as("should still exist").isNotEqualTo(WriteRules.Effect.REMOVE);
    assertThat(change.object().spec().finalizers()).containsExactly(Namespace.KUBERNETES_FINALIZER);
  }

  @Test
  void updateDeletingNamespaceWithCompleteFinalizers_removesIt() {
    Namespace ns = stored(true, List.of("example.com/foo"), List.of(), NamespacePhase.Active);
    Namespace request = asSent(ns.withMetadata(ns.metadata().toBuilder().finalizers(List.of()).build()));

    assertThat(WriteRules.update(ns, request).effect()).as("should not exist").isEqualTo(WriteRules.Effect.REMOVE);
  }

  @Test
  void finalizeDeletingNamespaceWithCompleteFinalizers_removesIt() {
    Namespace ns = stored(true, List.of(), List.of(Namespace.KUBERNETES_FINALIZER), NamespacePhase.Active);

    WriteRules.Change<Namespace> change = WriteRules.finalizeNamespace(ns, asSent(ns.withSpec(NamespaceSpec.EMPTY)));

    assertThat(change.effect()).as("should not exist").isEqualTo(WriteRules.Effect.REMOVE);
  }

  @Test
  void finalizeDeletingNamespaceWithIncompleteMetadataFinalizers_keepsIt() {
    Namespace ns = stored(true, List.of("example.com/foo"), List.of(Namespace.KUBERNETES_FINALIZER),
        NamespacePhase.Active);

    WriteRules.Change<Namespace> change = WriteRules.finalizeNamespace(ns, asSent(ns.withSpec(NamespaceSpec.EMPTY)));

    assertThat(change.effect()).as("should still exist").isEqualTo(WriteRules.Effect.PUT);
    assertThat(change.object().spec().finalizers()).isEmpty();
    assertThat(change.object().metadata().finalizers()).containsExactly("example.com/foo");
  }

  @Test
  void deleteNamespaceWithCompleteFinalizers_removesIt() {
    Namespace ns = stored(true, List.of(), List.of(), NamespacePhase.Active);

    assertThat(WriteRules.delete(ns, DeletePreconditions.NONE, NOW.plusSeconds(5)).effect())
        .as("should not exist").isEqualTo(WriteRules.Effect.REMOVE);
  }

  static Stream<Arguments> gcFinalizersWithoutDeleteOptions() {
    return Stream.of(
        Arguments.of("nil-with-orphan", List.of("orphan"), List.of("orphan")),
        Arguments.of("nil-with-delete", List.of("foregroundDeletion"), List.of("foregroundDeletion")),
        Arguments.of("nil-without-finalizers", List.of(), List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("gcFinalizersWithoutDeleteOptions")
  void deleteWithGCFinalizers(String name, List<String> existing, List<String> remaining) {
    Namespace ns = stored(false, existing, List.of(), NamespacePhase.Active);

    WriteRules.Change<Namespace> change = WriteRules.delete(ns, DeletePreconditions.NONE, NOW);

    assertThat(change.object().metadata().finalizers()).as(name + ": remaining finalizers")
        .containsExactlyInAnyOrderElementsOf(remaining);
    // the first deletion marks, whatever the finalizers (upstream's GuaranteedUpdate in REST.Delete)
    assertThat(change.effect()).isEqualTo(WriteRules.Effect.PUT);
    assertThat(change.object().metadata().deletionTimestamp()).isEqualTo(NOW);
    assertThat(change.object().status().phase()).isEqualTo(NamespacePhase.Terminating);
  }
}
