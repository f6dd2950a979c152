package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.DeleteOptions;
import java.time.Instant;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Graceful deletion, ported from upstream's tables:
 *
 * <ul>
 *   <li>kubernetes/kubernetes {@code pkg/registry/core/pod/strategy_test.go} TestCheckGracefulDelete, 5 of its 6
 *       cases, through {@link GracefulDeletion#podGracePeriod}: "has negative grace period" cannot be built, FleetKit's
 *       pod validation refuses a negative {@code spec.terminationGracePeriodSeconds} (the rule that a negative asked
 *       grace period counts as 1 is covered by TestBeforeDelete's cases);</li>
 *   <li>kubernetes/apiserver (the staging copy of {@code staging/src/k8s.io/apiserver}) at commit
 *       24a394e516bfda066d7e2221d7d92c052de27c54, {@code pkg/registry/rest/delete_test.go} TestBeforeDelete, all 18
 *       cases, through {@link GracefulDeletion#beforeDelete};</li>
 *   <li>the same commit's {@code pkg/registry/generic/registry/store_test.go}
 *       TestGracefulStoreCanDeleteIfExistingGracePeriodZero (the store-level graceful tests of that file are in
 *       {@code ObjectStoreGracefulDeletionContract}).</li>
 * </ul>
 *
 * Upstream's pods in TestCheckGracefulDelete have no {@code terminationGracePeriodSeconds} (nil, which the strategy
 * reads as 0); FleetKit's pod spec always has one (30 by default), which the 5 cases that ask for 30 seconds never
 * read. TestBeforeDelete's mock strategy is graceful, as FleetKit's pods are; its pods are all marked already.
 */
final class GracefulDeletionUpstreamTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final long DEFAULT_GRACE_PERIOD = 30;

  private static Pod pod(String nodeName, PodPhase phase) {
    return Pod.builder().namespace("test").name("foo").nodeName(nodeName).phase(phase)
        .container("c", "img", ResourceList.EMPTY).build();
  }

  // ------------------------------------------------------------------------------------ TestCheckGracefulDelete

  static Stream<Arguments> checkGracefulDelete() {
    return Stream.of(
        Arguments.of("in pending phase with has node name", pod("something", PodPhase.Pending),
            DEFAULT_GRACE_PERIOD, DEFAULT_GRACE_PERIOD),
        Arguments.of("in failed phase with has node name", pod("something", PodPhase.Failed),
            DEFAULT_GRACE_PERIOD, 0L),
        Arguments.of("in failed phase", pod("", PodPhase.Pending), DEFAULT_GRACE_PERIOD, 0L),
        Arguments.of("in succeeded phase", pod("", PodPhase.Succeeded), DEFAULT_GRACE_PERIOD, 0L),
        // upstream's "no phase" is the zero value, Pending here
        Arguments.of("no phase", pod("", PodPhase.Pending), DEFAULT_GRACE_PERIOD, 0L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("checkGracefulDelete")
  void checkGracefulDelete(String name, Pod pod, @Nullable Long deleteGracePeriod, long gracePeriod) {
    assertThat(GracefulDeletion.podGracePeriod(pod, deleteGracePeriod)).as(name).isEqualTo(gracePeriod);
  }

  @Test
  void checkGracefulDelete_noGracePeriodAsked_podsOwnTerminationGracePeriod() {
    Pod pod = pod("node-1", PodPhase.Running);
    assertThat(pod.spec().terminationGracePeriodSeconds()).isEqualTo(PodSpec.DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
    assertThat(GracefulDeletion.podGracePeriod(pod, null)).isEqualTo(30);
    Pod quick = pod.withSpec(pod.spec().toBuilder().terminationGracePeriodSeconds(5).build());
    assertThat(GracefulDeletion.podGracePeriod(quick, null)).isEqualTo(5);
    assertThat(GracefulDeletion.podGracePeriod(quick, 0L)).isEqualTo(0);
  }

  // ------------------------------------------------------------------------------------------ TestBeforeDelete

  /** A bound pod marked at {@code deletionTimestamp} with {@code deletionGracePeriodSeconds}. */
  private static Pod marked(Instant deletionTimestamp, long deletionGracePeriodSeconds) {
    Pod pod = pod("node", PodPhase.Running);
    ObjectMeta m = pod.metadata().toBuilder().uid("u").resourceVersion("5").generation(2)
        .deletionTimestamp(deletionTimestamp).deletionGracePeriodSeconds(deletionGracePeriodSeconds).build();
    return pod.withMetadata(m);
  }

  /** upstream's makePod: marked at now plus the grace period. */
  private static Pod makePod(long deletionGracePeriodSeconds) {
    return marked(NOW.plusSeconds(deletionGracePeriodSeconds), deletionGracePeriodSeconds);
  }

  static Stream<Arguments> beforeDelete() {
    return Stream.of(
        // name, pod, options' grace, want graceful, want pending, want options' grace, want object's grace,
        // want deletionTimestamp (null: not checked)
        Arguments.of("when DeletionGracePeriodSeconds=-1, GracePeriodSeconds=-1", makePod(-1), -1L, false, true,
            1L, 1L, null),
        Arguments.of("when DeletionGracePeriodSeconds=-1, GracePeriodSeconds=0", makePod(-1), 0L, true, false,
            0L, 0L, null),
        Arguments.of("when DeletionGracePeriodSeconds=-1, GracePeriodSeconds=1", makePod(-1), 1L, false, true,
            1L, 1L, null),
        Arguments.of("when DeletionGracePeriodSeconds=-1, GracePeriodSeconds=2", makePod(-1), 2L, false, true,
            2L, 1L, null),

        Arguments.of("when DeletionGracePeriodSeconds=0, GracePeriodSeconds=-1", makePod(0), -1L, false, false,
            1L, 0L, null),
        Arguments.of("when DeletionGracePeriodSeconds=0, GracePeriodSeconds=0", makePod(0), 0L, false, false,
            0L, 0L, null),
        Arguments.of("when DeletionGracePeriodSeconds=0, GracePeriodSeconds=1", makePod(0), 1L, false, false,
            1L, 0L, null),
        Arguments.of("when DeletionGracePeriodSeconds=0, GracePeriodSeconds=2", makePod(0), 2L, false, false,
            2L, 0L, null),

        Arguments.of("when DeletionGracePeriodSeconds=1, GracePeriodSeconds=-1", makePod(1), -1L, false, true,
            1L, 1L, null),
        Arguments.of("when DeletionGracePeriodSeconds=1, GracePeriodSeconds=0", makePod(1), 0L, true, false,
            0L, 0L, null),
        Arguments.of("when DeletionGracePeriodSeconds=1, GracePeriodSeconds=1", makePod(1), 1L, false, true,
            1L, 1L, null),
        Arguments.of("when DeletionGracePeriodSeconds=1, GracePeriodSeconds=2", makePod(1), 2L, false, true,
            2L, 1L, null),

        Arguments.of("when DeletionGracePeriodSeconds=2, GracePeriodSeconds=-1", makePod(2), -1L, true, false,
            1L, 1L, null),
        Arguments.of("when DeletionGracePeriodSeconds=2, GracePeriodSeconds=0", makePod(2), 0L, true, false,
            0L, 0L, null),
        Arguments.of("when DeletionGracePeriodSeconds=2, GracePeriodSeconds=1", makePod(2), 1L, true, false,
            1L, 1L, null),
        Arguments.of("when DeletionGracePeriodSeconds=2, GracePeriodSeconds=2", makePod(2), 2L, false, true,
            2L, 2L, null),

        Arguments.of("when a shorter non-zero grace period would move into the past",
            marked(NOW.minusSeconds(60), 60), 50L, true, false, 50L, 1L, NOW),
        Arguments.of("when a zero grace period would move into the past",
            marked(NOW.minusSeconds(60), 60), 0L, true, false, 0L, 0L, NOW));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("beforeDelete")
  void beforeDelete(String name, Pod pod, long gracePeriodSeconds, boolean wantGraceful, boolean wantPending,
      long wantGracePeriodSeconds, long wantDeletionGracePeriodSeconds, @Nullable Instant wantDeletionTimestamp) {
    GracefulDeletion.Decision d = GracefulDeletion.beforeDelete(pod,
        DeleteOptions.gracePeriod(gracePeriodSeconds), NOW);

    assertThat(d.outcome() == GracefulDeletion.Outcome.GRACEFUL).as(name + ": graceful").isEqualTo(wantGraceful);
    assertThat(d.outcome() == GracefulDeletion.Outcome.PENDING).as(name + ": pending").isEqualTo(wantPending);
    assertThat(d.meta().deletionGracePeriodSeconds()).as(name + ": metadata.deletionGracePeriodSeconds")
        .isEqualTo(wantDeletionGracePeriodSeconds);
    assertThat(d.gracePeriodSeconds()).as(name + ": options.gracePeriodSeconds").isEqualTo(wantGracePeriodSeconds);
    if (wantDeletionTimestamp != null) {
      assertThat(d.meta().deletionTimestamp()).as(name + ": deletionTimestamp").isEqualTo(wantDeletionTimestamp);
    }
    // a deletion of an object already marked never bumps generation (BeforeDelete's "no need to update generation")
    assertThat(d.meta().generation()).as(name + ": generation").isEqualTo(2);
  }

  @Test
  void beforeDelete_firstGracefulDeletion_marksAtNowPlusGraceAndBumpsGeneration() {
    Pod pod = pod("node", PodPhase.Running);
    pod = pod.withMetadata(pod.metadata().toBuilder().generation(1).build());

    GracefulDeletion.Decision d = GracefulDeletion.beforeDelete(pod, DeleteOptions.DEFAULT, NOW);

    assertThat(d.outcome()).isEqualTo(GracefulDeletion.Outcome.GRACEFUL);
    assertThat(d.gracePeriodSeconds()).isEqualTo(30);
    assertThat(d.meta().deletionTimestamp()).isEqualTo(NOW.plusSeconds(30));
    assertThat(d.meta().deletionGracePeriodSeconds()).isEqualTo(30);
    assertThat(d.meta().generation()).isEqualTo(2);
  }

  @Test
  void beforeDelete_pendingWithoutGracePeriod_reportsTheStoredOne() {
    GracefulDeletion.Decision d = GracefulDeletion.beforeDelete(makePod(20), DeleteOptions.DEFAULT, NOW);

    assertThat(d.outcome()).isEqualTo(GracefulDeletion.Outcome.PENDING);
    assertThat(d.gracePeriodSeconds()).isEqualTo(20);
  }

  @Test
  void beforeDelete_otherKinds_neverGraceful() {
    io.fleetkit.api.core.ConfigMap cm = new io.fleetkit.api.core.ConfigMap(ObjectMeta.of("test", "cm"),
        java.util.Map.of(), java.util.Map.of(), false);

    GracefulDeletion.Decision d = GracefulDeletion.beforeDelete(cm, DeleteOptions.gracePeriod(30), NOW);

    assertThat(d.outcome()).isEqualTo(GracefulDeletion.Outcome.NOT_GRACEFUL);
    assertThat(d.meta()).isEqualTo(cm.metadata());
  }

  // ------------------------------------------------------- TestGracefulStoreCanDeleteIfExistingGracePeriodZero

  /**
   * Recovery from an update that set grace period 0 whose deletion then failed: the next deletion with grace period
   * 0 is neither graceful nor pending, so the store removes the pod.
   */
  @Test
  void gracefulStoreCanDeleteIfExistingGracePeriodZero() {
    Pod pod = marked(NOW, 0);

    GracefulDeletion.Decision d = GracefulDeletion.beforeDelete(pod, DeleteOptions.gracePeriod(0), NOW);

    assertThat(d.outcome()).as("graceful should be false if object has DeletionTimestamp and"
        + " DeletionGracePeriodSeconds is 0").isNotEqualTo(GracefulDeletion.Outcome.GRACEFUL);
    assertThat(d.outcome()).as("gracefulPending should be false if object has DeletionTimestamp and"
        + " DeletionGracePeriodSeconds is 0").isNotEqualTo(GracefulDeletion.Outcome.PENDING);
    assertThat(WriteRules.delete(pod, DeleteOptions.gracePeriod(0), NOW).effect())
        .isEqualTo(WriteRules.Effect.REMOVE);
  }
}
