package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.autoscale.cluster.Drainability.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/autoscaler:
 * <ul>
 *   <li>{@code cluster-autoscaler/utils/drain/drain_test.go} (commit 4e42fe78), TestIsPodLongTerminating (7 cases),
 *       against {@link TerminatingPods#isLongTerminating}. Upstream's "no grace period defined" is a pod whose
 *       {@code terminationGracePeriodSeconds} is nil, which upstream takes as the default 30 s; FleetKit's pods carry
 *       the defaulted value, 30 s.
 *   <li>{@code cluster-autoscaler/simulator/drainability/rules/longterminating/rule_test.go} (commit 6f03ca0f),
 *       TestDrainable (5 cases), through {@link Drainability}'s whole rule chain: the rule's "skip" is the chain's
 *       {@link Outcome#SKIP}; its "undefined" lets the next rules decide, which block these pods without a controller
 *       ({@value Drainability#NOT_REPLICATED}), as upstream's chain would.
 *   <li>{@code cluster-autoscaler/simulator/drain_test.go} (commit f2b5b039), the three TestGetPodsToMove cases about
 *       terminating pods ("Pod termination", "long terminating pod with 0 grace period", "long terminating pod with
 *       extended grace period"), against {@link Drainability#drain}: the pods to move, none blocking.
 * </ul>
 * Pod names are lower-cased for FleetKit's validation.
 */
final class TerminatingPodsTest {
  /** Upstream's {@code testTime}. */
  private static final Instant TEST_TIME = Instant.parse("2020-12-18T17:00:00Z");
  private static final Duration THRESHOLD = TerminatingPods.EXTRA_THRESHOLD;
  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "rs", "rs-uid", true, true);
  private static final OwnerReference RC = new OwnerReference("v1", "ReplicationController", "rc", "rc-uid", true,
      true);

  private static Pod deleted(Pod p, @Nullable Instant at) {
    return at == null ? p : p.withMetadata(p.metadata().toBuilder().deletionTimestamp(at).build());
  }

  private static Pod withGrace(@Nullable Instant deletedAt, long grace) {
    return deleted(Pod.builder().name("p").namespace("default").terminationGracePeriodSeconds(grace)
        .container("c", "pause", ResourceList.ofCpuMemory(100, 1 << 20)).build(), deletedAt);
  }

  private record LongCase(String name, Pod pod, boolean want) {}

  @Test
  void isLongTerminating_upstreamIsPodLongTerminating() {
    long twoMin = 2 * 60;
    long defaultGrace = 30; // upstream's nil, defaulted
    List<LongCase> cases = List.of(
        new LongCase("No deletion timestamp", withGrace(null, 0), false),
        new LongCase("Just deleted no grace period defined", withGrace(TEST_TIME, defaultGrace), false),
        new LongCase("Deleted for longer than PodLongTerminatingExtraThreshold with no grace period",
            withGrace(TEST_TIME.minus(THRESHOLD.multipliedBy(3)), defaultGrace), true),
        new LongCase("Just deleted with grace period defined to 0", withGrace(TEST_TIME, 0), false),
        new LongCase("Deleted for longer than PodLongTerminatingExtraThreshold with grace period defined to 0",
            withGrace(TEST_TIME.minus(THRESHOLD.multipliedBy(2)), 0), true),
        new LongCase("Deleted for longer than PodLongTerminatingExtraThreshold but not longer than grace period (2 min)",
            withGrace(TEST_TIME.minus(THRESHOLD.multipliedBy(2)), twoMin), false),
        new LongCase("Deleted for longer than grace period (2 min) and PodLongTerminatingExtraThreshold",
            withGrace(TEST_TIME.minus(THRESHOLD.multipliedBy(2)).minusSeconds(twoMin), twoMin), true));
    for (LongCase c : cases) {
      assertThat(TerminatingPods.isLongTerminating(c.pod(), TEST_TIME)).as(c.name()).isEqualTo(c.want());
    }
  }

  @Test
  void longTerminatingAfter_isDeletionPlusGracePlusThreshold_strictlyAfter() {
    Instant deleted = Instant.parse("2026-01-01T00:00:00Z");
    Pod p = withGrace(deleted, 45);
    Instant after = TerminatingPods.longTerminatingAfter(p);
    assertThat(after).isEqualTo(deleted.plusSeconds(45 + 30));
    assertThat(TerminatingPods.isLongTerminating(p, after)).as("at the instant: not yet").isFalse();
    assertThat(TerminatingPods.isLongTerminating(p, after.plusNanos(1))).isTrue();
    assertThat(TerminatingPods.longTerminatingAfter(withGrace(null, 45))).isNull();
    assertThat(TerminatingPods.longTerminatingAfter(withGrace(deleted, Long.MAX_VALUE))).isEqualTo(Instant.MAX);
  }

  /** Upstream's rule_test pods: {@code bar} in {@code default}, OnFailure, phase Unknown, the given grace. */
  private static Pod rulePod(Instant deletedAt, long grace) {
    return deleted(Pod.builder().name("bar").namespace("default").restartPolicy(RestartPolicy.OnFailure)
        .terminationGracePeriodSeconds(grace).phase(PodPhase.Unknown)
        .container("c", "pause", ResourceList.ofCpuMemory(100, 1 << 20)).build(), deletedAt);
  }

  private record RuleCase(String name, Pod pod, boolean skip) {}

  @Test
  void check_upstreamLongTerminatingRuleCases() {
    long extended = 6 * 60;
    Pod regular = Pod.builder().name("pod").namespace("ns")
        .container("c", "pause", ResourceList.ofCpuMemory(100, 1 << 20)).build();
    List<RuleCase> cases = List.of(
        new RuleCase("regular pod", regular, false),
        new RuleCase("long terminating pod with 0 grace period", rulePod(TEST_TIME.plus(THRESHOLD.dividedBy(2)), 0),
            false),
        new RuleCase("expired long terminating pod with 0 grace period",
            rulePod(TEST_TIME.minus(THRESHOLD.multipliedBy(2)), 0), true),
        new RuleCase("long terminating pod with extended grace period",
            rulePod(TEST_TIME.plusSeconds(extended / 2), extended), false),
        new RuleCase("expired long terminating pod with extended grace period",
            rulePod(TEST_TIME.minusSeconds(2 * extended), extended), true));
    Drainability rules = Drainability.withBudgets(List.of(), TEST_TIME);
    for (RuleCase c : cases) {
      Drainability.Decision d = rules.check(c.pod());
      if (c.skip()) {
        assertThat(d).as(c.name()).isEqualTo(Drainability.Decision.SKIP);
      } else {
        // undefined: the chain goes on; these pods have no controller, so the replicated rule blocks them
        assertThat(d.outcome()).as(c.name()).isEqualTo(Outcome.BLOCK);
        assertThat(d.reason()).as(c.name()).isEqualTo(Drainability.NOT_REPLICATED);
      }
      assertThat(rules.check(c.pod(), Drainability.PodRules.of(c.pod()))).as(c.name() + ", kept rules").isEqualTo(d);
    }
  }

  @Test
  void drain_upstreamGetPodsToMoveTerminationCases() {
    Drainability rules = Drainability.withBudgets(List.of(), TEST_TIME);
    ResourceList none = ResourceList.EMPTY;
    Pod rsPod = Pod.builder().name("bar").namespace("default").ownerReference(RS).nodeName("node")
        .container("c", "pause", none).build();
    // deleted 90 s ago with the default 30 s grace: long-terminating; deleted 30 s from now: still terminating
    Pod terminatedPod = deleted(Pod.builder().name("terminatedpod").namespace("ns").ownerReference(RS)
        .container("c", "pause", none).build(), TEST_TIME.minus(THRESHOLD).minus(Duration.ofMinutes(1)));
    Pod terminatingPod = deleted(Pod.builder().name("terminatingpod").namespace("ns").ownerReference(RS)
        .container("c", "pause", none).build(), TEST_TIME.minus(THRESHOLD).plus(Duration.ofMinutes(1)));
    Drainability.NodeDrain termination = rules.drain(List.of(rsPod, terminatedPod, terminatingPod));
    assertThat(termination.blocked()).as("Pod termination").isFalse();
    assertThat(termination.evict()).as("Pod termination").containsExactly(rsPod, terminatingPod);

    Pod longTerminating = deleted(Pod.builder().name("bar").namespace("default").ownerReference(RC).nodeName("node")
        .restartPolicy(RestartPolicy.OnFailure).terminationGracePeriodSeconds(0).phase(PodPhase.Unknown)
        .container("c", "pause", none).build(), TEST_TIME.minus(THRESHOLD.multipliedBy(2)));
    Drainability.NodeDrain zero = rules.drain(List.of(longTerminating));
    assertThat(zero.blocked()).as("long terminating pod with 0 grace period").isFalse();
    assertThat(zero.evict()).as("long terminating pod with 0 grace period").isEmpty();

    long extended = 6 * 60;
    Pod withExtended = deleted(Pod.builder().name("bar").namespace("default").ownerReference(RC).nodeName("node")
        .restartPolicy(RestartPolicy.OnFailure).terminationGracePeriodSeconds(extended).phase(PodPhase.Unknown)
        .container("c", "pause", none).build(), TEST_TIME.minusSeconds(extended / 2));
    Drainability.NodeDrain ext = rules.drain(List.of(withExtended));
    assertThat(ext.blocked()).as("long terminating pod with extended grace period").isFalse();
    assertThat(ext.evict()).as("long terminating pod with extended grace period").containsExactly(withExtended);
  }
}
