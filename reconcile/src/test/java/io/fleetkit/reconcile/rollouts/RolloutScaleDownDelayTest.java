package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutPhase;
import io.fleetkit.api.rollouts.RolloutStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/**
 * Scale-down deadlines ({@code argo-rollouts.argoproj.io/scale-down-deadline}) of old versions after an update
 * ({@code scaleDownDelaySeconds}, {@code scaleDownDelayRevisionLimit}) and of the new version after an abort
 * ({@code abortScaleDownDelaySeconds}). Cases of argo-rollouts (commit 9f8d111d) {@code rollout/bluegreen_test.go}:
 * TestBlueGreenAddScaleDownDelay, TestBlueGreenUnableToReadScaleDownAt, TestBlueGreenNotReadyToScaleDownOldReplica,
 * TestBlueGreenReadyToScaleDownOldReplica, TestFastRollback, TestBlueGreenScaleDownLimit, TestBlueGreenAbort; and
 * {@code rollout/trafficrouting_test.go}: TestCanaryWithTrafficRoutingAddScaleDownDelay,
 * TestCanaryWithTrafficRoutingScaleDownLimit. Upstream checks the fake client's actions and the status patch; here
 * the ReplicaSets and Services in the store and the status are checked (stepping mode, no ReplicaSet controller), and
 * FleetKit's cases follow a deadline through to its end on the clock.
 */
final class RolloutScaleDownDelayTest extends RolloutControllerFixture {
  private RolloutStatus.Builder blueGreenStatus(String active, String stable) {
    return RolloutStatus.builder().currentPodHash(active).stableRs(stable).activeSelector(active);
  }

  /** TestBlueGreenAddScaleDownDelay: the previous active version gets a deadline 30 s away and keeps its pods. */
  @Test
  void blueGreen_previousActive_getsADeadlineThirtySecondsAway() {
    Rollout r1 = blueGreen("web:1", b -> b);
    Rollout r2 = blueGreen("web:2", b -> b);
    replicaSet(r1, 1, 1, null);
    replicaSet(r2, 1, 1, null);
    service("bar", hash(r2));
    rollout(r2, blueGreenStatus(hash(r2), hash(r2)));
    Instant start = clock.instant();
    rc.runUntilIdle();
    assertThat(deadline(r1)).isEqualTo(start.plusSeconds(30).truncatedTo(ChronoUnit.SECONDS).toString());
    assertThat(rs(r1).spec().replicas()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(30));
    rc.runUntilIdle();
    assertThat(rs(r1).spec().replicas()).as("scaled down at its deadline").isZero();
    assertThat(deadline(r1)).as("a full scale-down drops the deadline").isNull();
    assertThat(rs(r2).spec().replicas()).isEqualTo(1);
  }

  /** TestBlueGreenUnableToReadScaleDownAt: an unreadable deadline scales the old version down. */
  @Test
  void blueGreen_unreadableDeadline_scaledDown() {
    Rollout r1 = blueGreen("web:1", b -> b);
    Rollout r2 = blueGreen("web:2", b -> b);
    replicaSet(r1, 1, 1, "Abcd123");
    replicaSet(r2, 1, 1, null);
    service("bar", hash(r2));
    rollout(r2, blueGreenStatus(hash(r2), hash(r2)));
    rc.runUntilIdle();
    assertThat(rs(r1).spec().replicas()).isZero();
    assertThat(rs(r2).spec().replicas()).isEqualTo(1);
  }

  /** TestBlueGreenNotReadyToScaleDownOldReplica: a deadline 10 s away keeps the old version (until then). */
  @Test
  void blueGreen_futureDeadline_keptUntilIt() {
    Rollout r1 = blueGreen("web:1", b -> b);
    Rollout r2 = blueGreen("web:2", b -> b);
    replicaSet(r1, 1, 1, inSeconds(12));
    replicaSet(r2, 1, 1, null);
    service("bar", hash(r2));
    rollout(r2, blueGreenStatus(hash(r2), hash(r2)));
    rc.runUntilIdle();
    assertThat(rs(r1).spec().replicas()).isEqualTo(1);
    assertThat(deadline(r1)).isNotNull();
    clock.advance(Duration.ofSeconds(10));
    rc.runUntilIdle();
    assertThat(rs(r1).spec().replicas()).isZero();
  }

  /** TestBlueGreenReadyToScaleDownOldReplica: a past deadline scales down and is removed. */
  @Test
  void blueGreen_pastDeadline_scaledDownAndDeadlineRemoved() {
    Rollout r1 = blueGreen("web:1", b -> b);
    Rollout r2 = blueGreen("web:2", b -> b);
    replicaSet(r1, 1, 1, inSeconds(-10));
    replicaSet(r2, 1, 1, null);
    service("bar", hash(r2));
    rollout(r2, blueGreenStatus(hash(r2), hash(r2)));
    rc.runUntilIdle();
    assertThat(rs(r1).spec().replicas()).isZero();
    assertThat(deadline(r1)).isNull();
  }

  /**
   * TestFastRollback: back to version 1 while both versions carry deadlines; version 1 (new and stable again) loses
   * its deadline, and version 2 keeps its own.
   */
  @Test
  void blueGreen_fastRollback_newVersionLosesItsDeadline() {
    Rollout r1 = blueGreen("web:1", b -> b);
    Rollout r2 = blueGreen("web:2", b -> b);
    replicaSet(r1, 1, 1, inSeconds(10));
    replicaSet(r2, 1, 1, inSeconds(10));
    service("bar", hash(r1));
    rollout(r1, blueGreenStatus(hash(r1), hash(r1)));
    rc.runUntilIdle();
    assertThat(deadline(r1)).isNull();
    assertThat(rs(r1).spec().replicas()).isEqualTo(1);
    assertThat(deadline(r2)).isNotNull();
    assertThat(rs(r2).spec().replicas()).isEqualTo(1);
  }

  /** TestBlueGreenScaleDownLimit: with a limit of 1, the older of two delayed versions is scaled down at once. */
  @Test
  void blueGreen_revisionLimitOne_olderDelayedVersionScaledDown() {
    Rollout r1 = blueGreen("web:1", b -> b);
    Rollout r2 = blueGreen("web:2", b -> b);
    Rollout r3 = blueGreen("web:3", b -> b.withScaleDownDelayRevisionLimit(1));
    String future = inSeconds(10);
    replicaSet(r1, 1, 1, future);
    replicaSet(r2, 1, 1, future);
    replicaSet(r3, 1, 1, null);
    service("bar", hash(r3));
    rollout(r3, blueGreenStatus(hash(r3), hash(r3)));
    rc.runUntilIdle();
    assertThat(rs(r1).spec().replicas()).isZero();
    assertThat(rs(r2).spec().replicas()).isEqualTo(1);
    assertThat(deadline(r2)).isEqualTo(future);
  }

  /**
   * TestBlueGreenAbort: the active Service goes back to the stable version and the rollout is Degraded. The new
   * version is then kept for {@code abortScaleDownDelaySeconds} (default 30) and scaled to 0.
   */
  @Test
  void blueGreen_abort_activeBackToStable_newKeptThirtySecondsThenScaledDown() {
    Rollout r1 = blueGreen("web:1", b -> b);
    Rollout r2 = blueGreen("web:2", b -> b);
    replicaSet(r1, 1, 1, null);
    replicaSet(r2, 1, 1, null);
    service("bar", hash(r2));
    rollout(r2, blueGreenStatus(hash(r2), hash(r1)).abort(true).abortedAt(clock.instant()));
    Instant start = clock.instant();
    rc.runUntilIdle();
    Rollout now = store.require(Rollout.class, "default", "foo");
    assertThat(now.status().activeSelector()).isEqualTo(hash(r1));
    assertThat(store.require(Service.class, "default", "bar").spec().selector())
        .containsEntry(Rollout.POD_TEMPLATE_HASH_LABEL, hash(r1));
    assertThat(now.status().phase()).isEqualTo(RolloutPhase.Degraded);
    assertThat(rs(r2).spec().replicas()).isEqualTo(1);
    assertThat(deadline(r2)).isEqualTo(start.plusSeconds(30).truncatedTo(ChronoUnit.SECONDS).toString());
    clock.advance(Duration.ofSeconds(29));
    rc.runUntilIdle();
    assertThat(rs(r2).spec().replicas()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    rc.runUntilIdle();
    assertThat(rs(r2).spec().replicas()).isZero();
    assertThat(rs(r1).spec().replicas()).isEqualTo(1);
  }

  /** {@code abortScaleDownDelaySeconds: 0}: the aborted new version stays up. */
  @Test
  void blueGreen_abortDelayZero_newVersionStaysUp() {
    Rollout r1 = blueGreen("web:1", b -> b);
    Rollout r2 = blueGreen("web:2", b -> b.withAbortScaleDownDelaySeconds(0));
    replicaSet(r1, 1, 1, null);
    replicaSet(r2, 1, 1, null);
    service("bar", hash(r2));
    rollout(r2, blueGreenStatus(hash(r2), hash(r1)).abort(true).abortedAt(clock.instant()));
    rc.runUntilIdle();
    clock.advance(Duration.ofHours(1));
    rc.runUntilIdle();
    assertThat(rs(r2).spec().replicas()).isEqualTo(1);
    assertThat(deadline(r2)).isNull();
  }

  /** A retry after an abort removes the new version's deadline (Argo's removeScaleDownDeadlines). */
  @Test
  void blueGreen_retryAfterAbort_deadlineRemoved() {
    Rollout r1 = blueGreen("web:1", b -> b);
    Rollout r2 = blueGreen("web:2", b -> b);
    replicaSet(r1, 1, 1, null);
    replicaSet(r2, 1, 1, null);
    service("bar", hash(r2));
    rollout(r2, blueGreenStatus(hash(r2), hash(r1)).abort(true).abortedAt(clock.instant()));
    rc.runUntilIdle();
    assertThat(deadline(r2)).isNotNull();
    RolloutController.retry(store, "default", "foo");
    rc.runUntilIdle();
    assertThat(deadline(r2)).isNull();
    assertThat(rs(r2).spec().replicas()).isEqualTo(1);
  }

  private RolloutStatus.Builder canaryStatus(String current, String stable, int step) {
    return RolloutStatus.builder().currentPodHash(current).stableRs(stable).currentStepIndex(step);
  }

  /** TestCanaryWithTrafficRoutingAddScaleDownDelay: the previous stable gets a deadline 30 s away. */
  @Test
  void routedCanary_previousStable_getsADeadlineThirtySecondsAway() {
    Rollout r1 = canary("web:1", 1, c -> c);
    Rollout r2 = canary("web:2", 1, c -> c);
    replicaSet(r1, 1, 1, null);
    replicaSet(r2, 1, 1, null);
    service("canary", hash(r2));
    service("stable", hash(r2));
    rollout(r2, canaryStatus(hash(r2), hash(r2), 1));
    Instant start = clock.instant();
    rc.runUntilIdle();
    assertThat(deadline(r1)).isEqualTo(start.plusSeconds(30).truncatedTo(ChronoUnit.SECONDS).toString());
    assertThat(rs(r1).spec().replicas()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(30));
    rc.runUntilIdle();
    assertThat(rs(r1).spec().replicas()).isZero();
  }

  /** TestCanaryWithTrafficRoutingScaleDownLimit: past the limit, the older version goes to 0, its deadline removed. */
  @Test
  void routedCanary_revisionLimitOne_olderVersionScaledDownAndDeadlineRemoved() {
    Rollout r1 = canary("web:1", 1, c -> c.withScaleDownDelay(null, 1));
    Rollout r2 = canary("web:2", 1, c -> c.withScaleDownDelay(null, 1));
    Rollout r3 = canary("web:3", 1, c -> c.withScaleDownDelay(null, 1));
    String future = inSeconds(10);
    replicaSet(r1, 1, 1, future);
    replicaSet(r2, 1, 1, future);
    replicaSet(r3, 1, 1, null);
    service("canary", hash(r3));
    service("stable", hash(r3));
    rollout(r3, canaryStatus(hash(r3), hash(r3), 1));
    rc.runUntilIdle();
    assertThat(rs(r1).spec().replicas()).isZero();
    assertThat(deadline(r1)).as("annotation removed").isNull();
    assertThat(rs(r2).spec().replicas()).isEqualTo(1);
  }

  /** A routed canary aborted: the canary keeps its pods for 30 s, then goes to 0; the stable stays full. */
  @Test
  void routedCanary_abort_canaryKeptThirtySecondsThenScaledDown() {
    Rollout r1 = canary("web:1", 4, c -> c);
    Rollout r2 = canary("web:2", 4, c -> c);
    replicaSet(r1, 4, 4, null);
    replicaSet(r2, 1, 1, null);
    service("canary", hash(r2));
    service("stable", hash(r1));
    rollout(r2, canaryStatus(hash(r2), hash(r1), 1).abort(true).abortedAt(clock.instant()));
    rc.runUntilIdle();
    assertThat(rs(r2).spec().replicas()).isEqualTo(1);
    assertThat(deadline(r2)).isNotNull();
    clock.advance(Duration.ofSeconds(30));
    rc.runUntilIdle();
    assertThat(rs(r2).spec().replicas()).isZero();
    assertThat(deadline(r2)).as("kept while the abort lasts").isNotNull();
    assertThat(rs(r1).spec().replicas()).isEqualTo(4);
  }

  /** A basic canary (no traffic routing) has no abort delay: the canary goes back within the availability bounds. */
  @Test
  void basicCanary_abort_noDelay() {
    Rollout r1 = canary("web:1", 4, c -> c.withTrafficRouting(null).withSurge(IntOrPercent.of(1),
        IntOrPercent.of(4)));
    Rollout r2 = canary("web:2", 4, c -> c.withTrafficRouting(null).withSurge(IntOrPercent.of(1),
        IntOrPercent.of(4)));
    replicaSet(r1, 3, 3, null);
    replicaSet(r2, 1, 1, null);
    rollout(r2, canaryStatus(hash(r2), hash(r1), 1).abort(true).abortedAt(clock.instant()));
    rc.runUntilIdle();
    assertThat(rs(r2).spec().replicas()).as("a basic canary has no abort delay").isZero();
    assertThat(deadline(r2)).isNull();
  }
}
