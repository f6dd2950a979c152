package io.fleetkit.api.store.spi;

import static io.fleetkit.api.store.DeletionPropagation.FOREGROUND_FINALIZER;
import static io.fleetkit.api.store.DeletionPropagation.ORPHAN_FINALIZER;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletionPropagation;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The API server's generic registry store, ported through {@link WriteRules#delete}: kubernetes/apiserver (the
 * staging copy of kubernetes/kubernetes {@code staging/src/k8s.io/apiserver}) at commit
 * 24a394e516bfda066d7e2221d7d92c052de27c54, {@code pkg/registry/generic/registry/store_test.go}:
 *
 * <ul>
 *   <li>TestStoreDeleteWithOrphanDependents, all 24 cases (pod1..pod24);</li>
 *   <li>TestStoreDeletionPropagation, all 24 cases;</li>
 *   <li>TestMarkAsDeleting, its 3 cases;</li>
 *   <li>TestDeletionFinalizersForGarbageCollection, the apps/v1 case (the other three ask for ReplicaSets of
 *       extensions/v1beta1, apps/v1beta1 and apps/v1beta2, versions FleetKit does not serve).</li>
 * </ul>
 *
 * Upstream's {@code defaultDeleteStrategy} (no {@code GarbageCollectionDeleteStrategy}) is
 * {@link GarbageCollectionPolicy#DELETE_DEPENDENTS} here (the store treats an absent default and DeleteDependents
 * alike) and its {@code testOrphanDeleteStrategy} is {@link GarbageCollectionPolicy#ORPHAN_DEPENDENTS}; the kind is a
 * ConfigMap in place of upstream's example Pod (the rules do not look at the kind when the policy is given). Nil
 * DeleteOptions and DeleteOptions without a policy are both {@link DeleteOptions#DEFAULT}. Upstream's secondary
 * checks are kept (deletionTimestamp set, deletionGracePeriodSeconds 0, generation increased). The graceful-deletion
 * tests of the same file are in {@link GracefulDeletionUpstreamTest}.
 */
final class GenericStoreDeletionUpstreamTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final long INITIAL_GENERATION = 1;

  private static final GarbageCollectionPolicy DEFAULT_STRATEGY = GarbageCollectionPolicy.DELETE_DEPENDENTS;
  private static final GarbageCollectionPolicy ORPHAN_STRATEGY = GarbageCollectionPolicy.ORPHAN_DEPENDENTS;

  private static final DeleteOptions ORPHAN_OPTIONS = DeleteOptions.DEFAULT.withOrphanDependents(true);
  private static final DeleteOptions NON_ORPHAN_OPTIONS = DeleteOptions.DEFAULT.withOrphanDependents(false);
  private static final DeleteOptions NIL_ORPHAN_OPTIONS = DeleteOptions.DEFAULT;

  /** An object as stored: uid, version, generation 1, the given finalizers. */
  private static ConfigMap stored(String name, List<String> finalizers) {
    return new ConfigMap(ObjectMeta.of("test", name).toBuilder().uid("uid-" + name).resourceVersion("10")
        .generation(INITIAL_GENERATION).creationTimestamp(NOW.minusSeconds(60)).finalizers(finalizers).build(),
        Map.of(), Map.of(), false);
  }

  private static List<String> withOrphan() {
    return List.of("foo.com/x", ORPHAN_FINALIZER, "bar.com/y");
  }

  private static List<String> otherFinalizers() {
    return List.of("foo.com/x", "bar.com/y");
  }

  private static List<String> onlyOrphan() {
    return List.of(ORPHAN_FINALIZER);
  }

  /** Upstream's checks after Delete then Get. */
  private static void assertDeleted(String name, WriteRules.Change<ConfigMap> change, boolean expectNotFound,
      List<String> expectedFinalizers) {
    if (expectNotFound) {
      assertThat(change.effect()).as(name + ": removed").isEqualTo(WriteRules.Effect.REMOVE);
      return;
    }
    assertThat(change.effect()).as(name + ": kept, marked").isEqualTo(WriteRules.Effect.PUT);
    ObjectMeta m = change.object().metadata();
    assertThat(m.deletionTimestamp()).as(name + ": Expect the object to have DeletionTimestamp set").isEqualTo(NOW);
    assertThat(m.deletionGracePeriodSeconds()).as(name + ": Expect the object to have 0 DeletionGracePeriodSecond")
        .isEqualTo(0L);
    assertThat(m.generation()).as(name + ": Deletion didn't increase Generation.")
        .isGreaterThan(INITIAL_GENERATION);
    assertThat(m.finalizers()).as(name + ": finalizers").containsExactlyElementsOf(expectedFinalizers);
  }

  // ------------------------------------------------------------------------ TestStoreDeleteWithOrphanDependents

  static Stream<Arguments> deleteWithOrphanDependents() {
    return Stream.of(
        // cases run with DeleteOptions.OrphanDependents=true
        Arguments.of("pod1", withOrphan(), ORPHAN_OPTIONS, DEFAULT_STRATEGY, false, withOrphan()),
        Arguments.of("pod2", otherFinalizers(), ORPHAN_OPTIONS, DEFAULT_STRATEGY, false,
            List.of("foo.com/x", "bar.com/y", ORPHAN_FINALIZER)),
        Arguments.of("pod3", List.of(), ORPHAN_OPTIONS, DEFAULT_STRATEGY, false, onlyOrphan()),
        Arguments.of("pod4", onlyOrphan(), ORPHAN_OPTIONS, DEFAULT_STRATEGY, false, onlyOrphan()),
        // cases run with DeleteOptions.OrphanDependents=false: the orphan strategy is ignored
        Arguments.of("pod5", withOrphan(), NON_ORPHAN_OPTIONS, ORPHAN_STRATEGY, false, otherFinalizers()),
        Arguments.of("pod6", otherFinalizers(), NON_ORPHAN_OPTIONS, ORPHAN_STRATEGY, false, otherFinalizers()),
        Arguments.of("pod7", List.of(), NON_ORPHAN_OPTIONS, ORPHAN_STRATEGY, true, List.of()),
        Arguments.of("pod8", onlyOrphan(), NON_ORPHAN_OPTIONS, ORPHAN_STRATEGY, true, List.of()),
        // nil DeleteOptions.OrphanDependents: an orphan finalizer wins over the strategy, else the strategy decides
        Arguments.of("pod9", withOrphan(), NIL_ORPHAN_OPTIONS, DEFAULT_STRATEGY, false, withOrphan()),
        Arguments.of("pod10", withOrphan(), NIL_ORPHAN_OPTIONS, ORPHAN_STRATEGY, false, withOrphan()),
        Arguments.of("pod11", otherFinalizers(), NIL_ORPHAN_OPTIONS, DEFAULT_STRATEGY, false, otherFinalizers()),
        Arguments.of("pod12", otherFinalizers(), NIL_ORPHAN_OPTIONS, ORPHAN_STRATEGY, false,
            List.of("foo.com/x", "bar.com/y", ORPHAN_FINALIZER)),
        Arguments.of("pod13", List.of(), NIL_ORPHAN_OPTIONS, DEFAULT_STRATEGY, true, List.of()),
        Arguments.of("pod14", List.of(), NIL_ORPHAN_OPTIONS, ORPHAN_STRATEGY, false, onlyOrphan()),
        Arguments.of("pod15", onlyOrphan(), NIL_ORPHAN_OPTIONS, DEFAULT_STRATEGY, false, onlyOrphan()),
        Arguments.of("pod16", onlyOrphan(), NIL_ORPHAN_OPTIONS, ORPHAN_STRATEGY, false, onlyOrphan()),
        // nil DeleteOptions: exactly as the cases above
        Arguments.of("pod17", withOrphan(), DeleteOptions.DEFAULT, DEFAULT_STRATEGY, false, withOrphan()),
        Arguments.of("pod18", withOrphan(), DeleteOptions.DEFAULT, ORPHAN_STRATEGY, false, withOrphan()),
        Arguments.of("pod19", otherFinalizers(), DeleteOptions.DEFAULT, DEFAULT_STRATEGY, false, otherFinalizers()),
        Arguments.of("pod20", otherFinalizers(), DeleteOptions.DEFAULT, ORPHAN_STRATEGY, false,
            List.of("foo.com/x", "bar.com/y", ORPHAN_FINALIZER)),
        Arguments.of("pod21", List.of(), DeleteOptions.DEFAULT, DEFAULT_STRATEGY, true, List.of()),
        Arguments.of("pod22", List.of(), DeleteOptions.DEFAULT, ORPHAN_STRATEGY, false, onlyOrphan()),
        Arguments.of("pod23", onlyOrphan(), DeleteOptions.DEFAULT, DEFAULT_STRATEGY, false, onlyOrphan()),
        Arguments.of("pod24", onlyOrphan(), DeleteOptions.DEFAULT, ORPHAN_STRATEGY, false, onlyOrphan()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("deleteWithOrphanDependents")
  void storeDeleteWithOrphanDependents(String name, List<String> existing, DeleteOptions options,
      GarbageCollectionPolicy strategy, boolean expectNotFound, List<String> updatedFinalizers) {
    WriteRules.Change<ConfigMap> change = WriteRules.delete(stored(name, existing), options, NOW, strategy);

    assertDeleted(name, change, expectNotFound, updatedFinalizers);
  }

  // ---------------------------------------------------------------------------- TestStoreDeletionPropagation

  static Stream<Arguments> deletionPropagation() {
    DeleteOptions fg = DeleteOptions.foreground();
    DeleteOptions bg = DeleteOptions.background();
    DeleteOptions orphan = DeleteOptions.orphan();
    DeleteOptions dflt = DeleteOptions.DEFAULT;
    List<String> none = List.of();
    List<String> o = List.of(ORPHAN_FINALIZER);
    List<String> d = List.of(FOREGROUND_FINALIZER);
    return Stream.of(
        Arguments.of("no existing finalizers, PropagationPolicy=Foreground, defaultDeleteStrategy", fg,
            DEFAULT_STRATEGY, none, false, d),
        Arguments.of("no existing finalizers, PropagationPolicy=Foreground, orphanDeleteStrategy", fg,
            ORPHAN_STRATEGY, none, false, d),
        Arguments.of("no existing finalizers, PropagationPolicy=Background, defaultDeleteStrategy", bg,
            DEFAULT_STRATEGY, none, true, none),
        Arguments.of("no existing finalizers, PropagationPolicy=Background, orphanDeleteStrategy", bg,
            ORPHAN_STRATEGY, none, true, none),
        Arguments.of("no existing finalizers, PropagationPolicy=OrphanDependents, defaultDeleteStrategy", orphan,
            DEFAULT_STRATEGY, none, false, o),
        Arguments.of("no existing finalizers, PropagationPolicy=OrphanDependents, orphanDeleteStrategy", orphan,
            ORPHAN_STRATEGY, none, false, o),
        Arguments.of("no existing finalizers, PropagationPolicy=Default, defaultDeleteStrategy", dflt,
            DEFAULT_STRATEGY, none, true, none),
        Arguments.of("no existing finalizers, PropagationPolicy=Default, orphanDeleteStrategy", dflt,
            ORPHAN_STRATEGY, none, false, o),
        // existing orphan finalizer
        Arguments.of("existing orphan finalizer, PropagationPolicy=Foreground, defaultDeleteStrategy", fg,
            DEFAULT_STRATEGY, o, false, d),
        Arguments.of("existing orphan finalizer, PropagationPolicy=Foreground, orphanDeleteStrategy", fg,
            ORPHAN_STRATEGY, o, false, d),
        Arguments.of("existing orphan finalizer, PropagationPolicy=Background, defaultDeleteStrategy", bg,
            DEFAULT_STRATEGY, o, true, none),
        Arguments.of("existing orphan finalizer, PropagationPolicy=Background, orphanDeleteStrategy", bg,
            ORPHAN_STRATEGY, o, true, none),
        Arguments.of("existing orphan finalizer, PropagationPolicy=OrphanDependents, defaultDeleteStrategy", orphan,
            DEFAULT_STRATEGY, o, false, o),
        Arguments.of("existing orphan finalizer, PropagationPolicy=OrphanDependents, orphanDeleteStrategy", orphan,
            ORPHAN_STRATEGY, o, false, o),
        Arguments.of("existing orphan finalizer, PropagationPolicy=Default, defaultDeleteStrategy", dflt,
            DEFAULT_STRATEGY, o, false, o),
        Arguments.of("existing orphan finalizer, PropagationPolicy=Default, orphanDeleteStrategy", dflt,
            ORPHAN_STRATEGY, o, false, o),
        // existing deleteDependents finalizer
        Arguments.of("existing deleteDependents finalizer, PropagationPolicy=Foreground, defaultDeleteStrategy", fg,
            DEFAULT_STRATEGY, d, false, d),
        Arguments.of("existing deleteDependents finalizer, PropagationPolicy=Foreground, orphanDeleteStrategy", fg,
            ORPHAN_STRATEGY, d, false, d),
        Arguments.of("existing deleteDependents finalizer, PropagationPolicy=Background, defaultDeleteStrategy", bg,
            DEFAULT_STRATEGY, d, true, none),
        Arguments.of("existing deleteDependents finalizer, PropagationPolicy=Background, orphanDeleteStrategy", bg,
            ORPHAN_STRATEGY, d, true, none),
        Arguments.of("existing deleteDependents finalizer, PropagationPolicy=OrphanDependents, defaultDeleteStrategy",
            orphan, DEFAULT_STRATEGY, d, false, o),
        Arguments.of("existing deleteDependents finalizer, PropagationPolicy=OrphanDependents, orphanDeleteStrategy",
            orphan, ORPHAN_STRATEGY, d, false, o),
        Arguments.of("existing deleteDependents finalizer, PropagationPolicy=Default, defaultDeleteStrategy", dflt,
            DEFAULT_STRATEGY, d, false, d),
        Arguments.of("existing deleteDependents finalizer, PropagationPolicy=Default, orphanDeleteStrategy", dflt,
            ORPHAN_STRATEGY, d, false, d));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("deletionPropagation")
  void storeDeletionPropagation(String title, DeleteOptions options, GarbageCollectionPolicy strategy,
      List<String> existing, boolean expectedNotFound, List<String> expectedFinalizers) {
    WriteRules.Change<ConfigMap> change = WriteRules.delete(stored("pod", existing), options, NOW, strategy);

    assertDeleted(title, change, expectedNotFound, expectedFinalizers);
  }

  // -------------------------------------------------------------------------------------- TestMarkAsDeleting

  static Stream<Arguments> markAsDeleting() {
    return Stream.of(
        Arguments.of("unset", null, NOW),
        Arguments.of("set to future", NOW.plusSeconds(1), NOW),
        Arguments.of("set to past", NOW.minusSeconds(1), NOW.minusSeconds(1)));
  }

  /**
   * Upstream compares a value with a pointer, so its check can never fail; this asserts what its table says: the
   * mark is set to now unless an earlier one is kept, and the grace period is 0. Generation is bumped only by the
   * first mark. An object already marked with grace period 0 at the kept time is not written again.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("markAsDeleting")
  void markAsDeleting(String name, Instant deletionTimestamp, Instant expected) {
    ConfigMap cm = stored("rs", List.of("foo.com/x"));
    cm = cm.withMetadata(cm.metadata().toBuilder().deletionTimestamp(deletionTimestamp).build());

    WriteRules.Change<ConfigMap> change = WriteRules.delete(cm, DeleteOptions.DEFAULT, NOW);

    ObjectMeta m = change.object().metadata();
    assertThat(m.deletionTimestamp()).as(name).isEqualTo(expected);
    assertThat(m.deletionGracePeriodSeconds()).as(name).isEqualTo(0L);
    assertThat(m.generation()).isEqualTo(deletionTimestamp == null ? INITIAL_GENERATION + 1 : INITIAL_GENERATION);
    assertThat(change.effect()).isEqualTo(WriteRules.Effect.PUT); // the grace period is new

    WriteRules.Change<ConfigMap> again = WriteRules.delete(change.object(), DeleteOptions.DEFAULT, NOW);
    assertThat(again.effect()).as(name + ": deleted again").isEqualTo(WriteRules.Effect.NONE);
  }

  // ---------------------------------------------------------------- TestDeletionFinalizersForGarbageCollection

  @Test
  void deletionFinalizersForGarbageCollection_appsV1ReplicaSet_noFinalizerAdded() {
    ReplicaSet rs = ReplicaSet.builder().namespace("test").name("rs").matchLabels(Map.of("app", "web"))
        .podSpec(io.fleetkit.api.core.PodSpec.builder().container("c", "busybox",
            io.fleetkit.api.resource.ResourceList.EMPTY).build()).build();

    assertThat(DeletionFinalizers.defaultPolicy(rs)).isEqualTo(GarbageCollectionPolicy.DELETE_DEPENDENTS);
    assertThat(DeletionFinalizers.forDeletion(List.of(), DeleteOptions.DEFAULT,
        DeletionFinalizers.defaultPolicy(rs))).as("apps/v1: no new finalizers").isNull();
    assertThat(WriteRules.delete(rs, DeleteOptions.DEFAULT, NOW).effect()).isEqualTo(WriteRules.Effect.REMOVE);
  }

  /** FleetKit's one orphaning default: Jobs of batch/v1 (job strategy's DefaultGarbageCollectionPolicy). */
  @Test
  void defaultPolicy_batchV1Job_orphans_otherKindsDeleteDependents() {
    io.fleetkit.api.batch.Job job = io.fleetkit.api.batch.Job.builder().namespace("test").name("pi")
        .podSpec(io.fleetkit.api.core.PodSpec.builder().restartPolicy(io.fleetkit.api.core.RestartPolicy.Never)
            .container("c", "busybox", io.fleetkit.api.resource.ResourceList.EMPTY).build()).build();

    assertThat(DeletionFinalizers.defaultPolicy(job)).isEqualTo(GarbageCollectionPolicy.ORPHAN_DEPENDENTS);
    assertThat(DeletionFinalizers.defaultPolicy(stored("cm", List.of())))
        .isEqualTo(GarbageCollectionPolicy.DELETE_DEPENDENTS);
    assertThat(WriteRules.delete(job, DeleteOptions.DEFAULT, NOW).object().metadata().finalizers())
        .containsExactly(ORPHAN_FINALIZER);
    assertThat(WriteRules.delete(job, DeleteOptions.background(), NOW).effect()).isEqualTo(WriteRules.Effect.REMOVE);
  }

  /** The store's own unsupported policy: no GC finalizer is ever set or removed by a deletion. */
  @Test
  void unsupportedPolicy_optionsIgnored() {
    for (DeletionPropagation p : DeletionPropagation.values()) {
      assertThat(WriteRules.delete(stored("u", List.of()), DeleteOptions.propagation(p), NOW,
          GarbageCollectionPolicy.UNSUPPORTED).effect()).as(p.value()).isEqualTo(WriteRules.Effect.REMOVE);
    }
  }
}
