package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.NamespaceSpec;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.DeleteOptions;
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
 *       TestDeleteWithGCFinalizers' 15 cases (nil options, {@code propagationPolicy} Background, Foreground and
 *       Orphan, and {@code orphanDependents: true}, each with the orphan finalizer, the foregroundDeletion one and
 *       none).</li>
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

  static Stream<Arguments> gcFinalizers() {
    DeleteOptions bg = DeleteOptions.background();
    DeleteOptions fg = DeleteOptions.foreground();
    DeleteOptions orphan = DeleteOptions.orphan();
    DeleteOptions orphanDependents = DeleteOptions.DEFAULT.withOrphanDependents(true);
    List<String> o = List.of("orphan");
    List<String> d = List.of("foregroundDeletion");
    List<String> none = List.of();
    return Stream.of(
        Arguments.of("nil-with-orphan", DeleteOptions.DEFAULT, o, o),
        Arguments.of("nil-with-delete", DeleteOptions.DEFAULT, d, d),
        Arguments.of("nil-without-finalizers", DeleteOptions.DEFAULT, none, none),
        Arguments.of("propagation-background-with-orphan", bg, o, none),
        Arguments.of("propagation-background-with-delete", bg, d, none),
        Arguments.of("propagation-background-without-finalizers", bg, none, none),
        Arguments.of("propagation-foreground-with-orphan", fg, o, d),
        Arguments.of("propagation-foreground-with-delete", fg, d, d),
        Arguments.of("propagation-foreground-without-finalizers", fg, none, d),
        Arguments.of("propagation-orphan-with-orphan", orphan, o, o),
        Arguments.of("propagation-orphan-with-delete", orphan, d, o),
        Arguments.of("propagation-orphan-without-finalizers", orphan, none, o),
        Arguments.of("orphan-dependents-with-orphan", orphanDependents, o, o),
        Arguments.of("orphan-dependents-with-delete", orphanDependents, d, o),
        Arguments.of("orphan-dependents-without-finalizers", orphanDependents, none, o));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("gcFinalizers")
  void deleteWithGCFinalizers(String name, DeleteOptions options, List<String> existing, List<String> remaining) {
    Namespace ns = stored(false, existing, List.of(), NamespacePhase.Active);

    WriteRules.Change<Namespace> change = WriteRules.delete(ns, options, NOW);

    // upstream compares as a set (remainingFinalizers is a map) and checks the length
    assertThat(change.object().metadata().finalizers()).as(name + ": remaining finalizers")
        .containsExactlyInAnyOrderElementsOf(remaining);
    // the first deletion marks, whatever the finalizers (upstream's GuaranteedUpdate in REST.Delete)
    assertThat(change.effect()).isEqualTo(WriteRules.Effect.PUT);
    assertThat(change.object().metadata().deletionTimestamp()).isEqualTo(NOW);
    assertThat(change.object().status().phase()).isEqualTo(NamespacePhase.Terminating);
  }

  /**
   * Not upstream's: a later deletion of a marked namespace whose {@code spec.finalizers} are empty is the generic
   * store's ({@code r.store.Delete}), so it may switch the GC finalizers; while {@code spec.finalizers} hold the
   * namespace it changes nothing.
   */
  @Test
  void deleteAgain_specFinalizersEmpty_genericRulesSwitchPolicy_elseNoChange() {
    Namespace marked = stored(true, List.of("orphan"), List.of(), NamespacePhase.Terminating);
    Namespace held = stored(true, List.of("orphan"), List.of(Namespace.KUBERNETES_FINALIZER),
        NamespacePhase.Terminating);

    WriteRules.Change<Namespace> switched = WriteRules.delete(marked, DeleteOptions.foreground(), NOW.plusSeconds(5));
    WriteRules.Change<Namespace> released = WriteRules.delete(marked, DeleteOptions.background(), NOW.plusSeconds(5));

    assertThat(switched.effect()).isEqualTo(WriteRules.Effect.PUT);
    assertThat(switched.object().metadata().finalizers()).containsExactly("foregroundDeletion");
    assertThat(switched.object().metadata().deletionTimestamp()).as("the first mark is kept").isEqualTo(NOW);
    assertThat(released.effect()).as("no finalizer left").isEqualTo(WriteRules.Effect.REMOVE);
    assertThat(WriteRules.delete(held, DeleteOptions.foreground(), NOW).effect()).isEqualTo(WriteRules.Effect.NONE);
  }
}
