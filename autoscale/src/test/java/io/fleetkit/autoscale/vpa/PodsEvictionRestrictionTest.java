package io.fleetkit.autoscale.vpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's cases for the updater's replica-group restriction, as data, from kubernetes/autoscaler (master 55c37cd5):
 * <ul>
 *   <li>{@code vertical-pod-autoscaler/pkg/updater/restriction/pods_eviction_restriction_test.go}:
 *       TestEvictTooFewReplicas, TestEvictionTolerance, TestEvictAtLeastOne, TestEvictEmitEvent (its two cases; the events are checked in
 *       {@code VpaUpdaterTest} as the updater's actions);</li>
 *   <li>{@code vertical-pod-autoscaler/pkg/updater/restriction/pods_restriction_factory_test.go}:
 *       TestDisruptReplicatedByController (13 of its 18 cases, named as upstream); its per-kind tests
 *       (TestEvictReplicatedByReplicaSet, ...) are in {@code ReplicaGroupsTest}, with their controllers.</li>
 * </ul>
 * Each case is checked as upstream does: first the decision for every pod of the group ({@code CanEvict}, or
 * {@code CanInPlaceUpdate} for an InPlaceOrRecreate VPA), then the pods disrupted in order, each one succeeding or
 * failing as listed (upstream's {@code Evict} error is {@link PodsEvictionRestriction#recordEviction} refusing). For
 * the in-place cases upstream asserts only the successes (its fake patch calculator does not ask the restriction
 * again); here a listed failure is also checked to be refused, as the updater's loop asks before each resize.
 * Upstream's test pods have no phase, which its rules count as running; they are Running here. The older layout's
 * {@code pkg/updater/eviction/pods_eviction_restriction_test.go} (commit 1ec082de) holds a subset of these cases.
 */
final class PodsEvictionRestrictionTest {
  /** Upstream's default {@code --min-replicas} in these tests. */
  private static final int MIN = 2;

  enum Mode { EVICT, IN_PLACE }

  /** One pod of the group: its phase, the first decision and whether disrupting it in turn succeeds. */
  record Expect(PodPhase phase, boolean can, boolean success) {}

  record Case(String upstream, int replicas, double tolerance, int minReplicas, Mode mode, List<Expect> pods) {
    @Override
    public String toString() {
      return upstream;
    }
  }

  private static Expect pod(boolean can, boolean success) {
    return new Expect(PodPhase.Running, can, success);
  }

  private static Expect pending(boolean can, boolean success) {
    return new Expect(PodPhase.Pending, can, success);
  }

  /** {@code n} running pods, all allowed at first, of which the first {@code succeeding} succeed. */
  private static List<Expect> firstSucceed(int n, int succeeding, boolean can) {
    return IntStream.range(0, n).mapToObj(i -> pod(can, i < succeeding)).toList();
  }

  private static Case evict(String name, int replicas, double tolerance, int minReplicas, Expect... pods) {
    return new Case(name, replicas, tolerance, minReplicas, Mode.EVICT, List.of(pods));
  }

  private static Case inPlace(String name, int replicas, double tolerance, int minReplicas, Expect... pods) {
    return new Case(name, replicas, tolerance, minReplicas, Mode.IN_PLACE, List.of(pods));
  }

  static Stream<Case> cases() {
    String ctl = "TestDisruptReplicatedByController/";
    return Stream.of(
        // pods_eviction_restriction_test.go
        new Case("TestEvictTooFewReplicas", 5, 0.5, 10, Mode.EVICT, firstSucceed(5, 0, false)),
        new Case("TestEvictionTolerance", 5, 0.8, MIN, Mode.EVICT, firstSucceed(5, 4, true)),
        new Case("TestEvictAtLeastOne", 5, 0.1, MIN, Mode.EVICT, firstSucceed(5, 1, true)),
        evict("TestEvictEmitEvent/Pods that can be evicted", 4, 0.5, MIN,
            pending(true, true), pending(true, true)),
        evict("TestEvictEmitEvent/Pod that can not be evicted", 4, 0.5, MIN,
            pod(false, false)),
        // pods_restriction_factory_test.go
        evict(ctl + "Evict only first pod (half of 3).", 3, 0.5, MIN,
            pod(true, true), pod(true, false), pod(true, false)),
        evict(ctl + "Evict two pods (half of 4).", 4, 0.5, MIN,
            pod(true, true), pod(true, true), pod(true, false), pod(true, false)),
        evict(ctl + "Half of the population can be evicted. One pod is missing already.", 4, 0.5, MIN,
            pod(true, true), pod(true, false), pod(true, false)),
        evict(ctl + "For small eviction tolerance at least one pod is evicted.", 3, 0.1, MIN,
            pod(true, true), pod(true, false), pod(true, false)),
        evict(ctl + "Only 2 pods in replica of 3 and tolerance is 0. None of pods can be evicted.", 3, 0.1, MIN,
            pod(false, false), pod(false, false)),
        evict(ctl + "Only pending pod can be evicted without violation of tolerance.", 3, 0.5, MIN,
            pod(false, false), pending(true, true), pod(false, false)),
        evict(ctl + "Pending pods are always evictable.", 4, 0.5, MIN,
            pod(false, false), pending(true, true), pending(true, true), pending(true, true)),
        evict(ctl + "Cannot evict a single Pod under default settings.", 1, 0.5, MIN,
            pod(false, false)),
        evict(ctl + "Can evict even a single Pod using PodUpdatePolicy.MinReplicas.", 1, 0.5, 1,
            pod(true, true)),
        inPlace(ctl + "In-place update only first pod (half of 3).", 3, 0.5, MIN,
            pod(true, true), pod(true, false), pod(true, false)),
        inPlace(ctl + "For small eviction tolerance at least one pod is in-place resized.", 3, 0.1, MIN,
            pod(true, true), pod(true, false), pod(true, false)),
        inPlace(ctl + "Cannot in-place a single Pod under default settings.", 1, 0.5, MIN,
            pod(false, false)),
        inPlace(ctl + "Can in-place even a single Pod using PodUpdatePolicy.MinReplicas.", 1, 0.5, 1,
            pod(true, true)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void restriction_upstreamCase_decisionsThenDisruptionsInOrder(Case c) {
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < c.pods().size(); i++) {
      pods.add(Pod.builder().namespace("default").name("test-" + (i + 1)).container("app", "nginx:1", ResourceList.EMPTY)
          .status(PodStatus.of(c.pods().get(i).phase())).build());
    }
    PodsEvictionRestriction r = PodsEvictionRestriction.of(c.replicas(), pods, c.minReplicas(), c.tolerance());

    for (int i = 0; i < pods.size(); i++) {
      boolean can = c.mode() == Mode.EVICT ? r.canEvict(pods.get(i)) : r.canInPlaceUpdate(pods.get(i));
      assertThat(can).as("decision for pod-%d", i).isEqualTo(c.pods().get(i).can());
    }
    for (int i = 0; i < pods.size(); i++) {
      Pod p = pods.get(i);
      boolean success = c.pods().get(i).success();
      if (c.mode() == Mode.EVICT) {
        assertThat(r.canEvict(p)).as("eviction of pod-%d", i).isEqualTo(success);
        if (success) {
          r.recordEviction(p);
        } else {
          assertThatThrownBy(() -> r.recordEviction(p)).isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("default/test-" + (i + 1)).hasMessageContaining("may not be evicted now");
        }
      } else {
        assertThat(r.canInPlaceUpdate(p)).as("in-place update of pod-%d", i).isEqualTo(success);
        if (success) {
          r.recordInPlaceUpdate(p);
        } else {
          assertThatThrownBy(() -> r.recordInPlaceUpdate(p)).isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("may not be resized now");
        }
      }
    }
  }

  @Test
  void restriction_pendingPod_neverResizedInPlace() {
    Pod pending = Pod.builder().namespace("default").name("p").container("app", "nginx:1", ResourceList.EMPTY).build();
    Pod running = pending.withStatus(PodStatus.of(PodPhase.Running));
    PodsEvictionRestriction r = PodsEvictionRestriction.of(2, List.of(pending, running), MIN, 1.0);

    assertThat(r.canInPlaceUpdate(pending)).isFalse();
    assertThat(r.canEvict(pending)).isTrue();
    assertThat(r.canInPlaceUpdate(running)).isTrue();
  }

  @Test
  void of_badArguments_refusedNamingTheRule() {
    assertThatThrownBy(() -> PodsEvictionRestriction.of(-1, List.of(), MIN, 0.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("configured replicas -1");
    assertThatThrownBy(() -> PodsEvictionRestriction.of(1, List.of(), -2, 0.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minReplicas -2");
    assertThatThrownBy(() -> PodsEvictionRestriction.of(1, List.of(), MIN, 1.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("evictionTolerance 1.5 must be in [0, 1]");
  }
}
