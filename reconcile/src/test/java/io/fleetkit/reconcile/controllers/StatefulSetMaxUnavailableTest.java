package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.PodManagementPolicy;
import io.fleetkit.api.apps.RollingUpdateStatefulSetStrategy;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetUpdateStrategy;
import io.fleetkit.api.apps.StatefulSetUpdateStrategyType;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.reconcile.controllers.internal.StatefulSetPods;
import io.fleetkit.reconcile.metrics.StatefulSetMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rolling updates with {@code maxUnavailable}, ported from upstream {@code pkg/controller/statefulset}:
 * {@code stateful_set_control_test.go} {@code TestStatefulSetControlRollingUpdateWithMaxUnavailable} (its 2 cases,
 * OrderedReady and Parallel) and {@code
 * TestStatefulSetControlRollingUpdateWithMaxUnavailableInOrderedModeVerifyInvariant} (10 cases), and {@code
 * stateful_set_utils_test.go} {@code TestGetStatefulSetMaxUnavailable} (10 cases). Upstream's fake pod control removes
 * a deleted pod at once; here the deleted pods are Terminating until {@code Sim.finishTerminating} plays the kubelet.
 */
final class StatefulSetMaxUnavailableTest {

  /** Upstream's set: 6 replicas, partition 3, maxUnavailable 2, scaled up and ready. */
  private static StatefulSetHarness scaledUp(PodManagementPolicy policy) {
    StatefulSet set = StatefulSetHarness.newStatefulSet(6);
    set = set.withSpec(set.spec().withPodManagementPolicy(policy));
    set = StatefulSetHarness.withStrategy(set, new StatefulSetUpdateStrategy(
        StatefulSetUpdateStrategyType.RollingUpdate, new RollingUpdateStatefulSetStrategy(3, IntOrPercent.of(2))));
    StatefulSetHarness h = new StatefulSetHarness();
    h.store.create(set);
    h.scaleUp(StatefulSetHarness::burstInvariants);
    return h;
  }

  private static List<String> uids(List<Pod> pods) {
    return pods.stream().map(p -> p.metadata().name() + "/" + p.metadata().uid()).toList();
  }

  private static void setRunning(StatefulSetHarness h, int ordinal) {
    Sim.run(h.store, pod(h, ordinal), "node-" + ordinal);
  }

  private static void setReady(StatefulSetHarness h, int ordinal) {
    Sim.ready(h.store, h.clock, pod(h, ordinal), "node-" + ordinal);
  }

  private static Pod pod(StatefulSetHarness h, int ordinal) {
    return h.store.require(Pod.class, "default", "foo-" + ordinal);
  }

  /** {@code pods} without the pod of {@code ordinal}. */
  private static List<String> without(List<Pod> pods, int ordinal) {
    return uids(pods.stream().filter(p -> StatefulSetPods.ordinal(p) != ordinal).toList());
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(PodManagementPolicy.class)
  void rollingUpdateWithMaxUnavailable(PodManagementPolicy policy) {
    try (StatefulSetHarness h = scaledUp(policy)) {
      List<Pod> original = h.pods();
      h.update(s -> StatefulSetHarness.withImage(s, "foo"));

      // since maxUnavailable is 2, pods 4 and 5 are deleted together
      h.controller.runUntilIdle();
      assertThat(h.pods()).filteredOn(StatefulSetPods::isTerminating).extracting(p -> p.metadata().name())
          .containsExactly("foo-4", "foo-5");
      Sim.finishTerminating(h.store);
      assertThat(uids(h.pods())).isEqualTo(uids(original.subList(0, 4)));

      // create new pods
      h.controller.runUntilIdle();
      if (policy == PodManagementPolicy.OrderedReady) {
        // only one pod gets created at a time
        assertThat(h.pods()).hasSize(5);
        setRunning(h, 4);
        setReady(h, 4);
        h.controller.runUntilIdle(); // creates pod 5
        assertThat(h.pods()).hasSize(6);
        // pod 5 ready: pod 3 is updated
        setRunning(h, 5);
        setReady(h, 5);
      } else {
        // in burst mode both deleted pods are created at once
        assertThat(h.pods()).hasSize(6);
        // pod 4 ready: pod 3 is updated, though pod 5 is not ready
        setRunning(h, 4);
        setRunning(h, 5);
        setReady(h, 4);
      }
      List<Pod> before = h.pods();
      h.controller.runUntilIdle();
      Sim.finishTerminating(h.store);
      // pods 0, 1, 2, 4, 5 remain (3 was deleted)
      assertThat(uids(h.pods())).isEqualTo(without(before, 3));

      // create new pod 3
      h.controller.runUntilIdle();
      assertThat(h.pods()).hasSize(6);
      assertThat(h.images()).containsExactly("nginx", "nginx", "nginx", "foo", "foo", "foo");

      // pods 3, 4, 5 ready: no other pod is updated (the partition keeps 0, 1 and 2)
      setRunning(h, 3);
      setRunning(h, 5);
      setReady(h, 5);
      setReady(h, 3);
      List<Pod> settled = h.pods();
      h.controller.runUntilIdle();
      assertThat(uids(h.pods())).isEqualTo(uids(settled));
      assertThat(h.pods()).noneMatch(StatefulSetPods::isTerminating);
    }
  }

  static Stream<Arguments> invariantCases() {
    return Stream.of(List.of(), List.of(5), List.of(3), List.of(4), List.of(5, 4), List.of(5, 3), List.of(4, 3),
        List.of(5, 4, 3), List.of(2), List.of(1)).map(Arguments::of);
  }

  /**
   * Upstream's {@code ...InOrderedModeVerifyInvariant}: with some pods Terminating (upstream's
   * {@code addTerminatingPod}), the update step alone deletes {@code maxUnavailable} less the unavailable pods, and
   * none when they are as many as {@code maxUnavailable} or more. Upstream calls the step with an empty update
   * revision, so every pod is of another revision.
   */
  @ParameterizedTest(name = "terminating pod at ordinal {0}")
  @MethodSource("invariantCases")
  void updateStepKeepsMaxUnavailable(List<Integer> terminating) {
    try (StatefulSetHarness h = scaledUp(PodManagementPolicy.OrderedReady)) {
      for (int ordinal : terminating) {
        h.store.delete(Pod.class, "default", "foo-" + ordinal);
      }
      List<Pod> pods = h.pods();
      assertThat(pods).filteredOn(StatefulSetPods::isTerminating).hasSize(terminating.size());
      StatefulSet set = h.set();
      int maxUnavailable = StatefulSetPods.maxUnavailable(set.spec().updateStrategy().rollingUpdate(), 6);
      assertThat(maxUnavailable).isEqualTo(2);

      List<Pod> deleted = StatefulSetPods.rollingUpdateDeletions(pods.toArray(Pod[]::new), 3, maxUnavailable, "",
          0, h.clock.now());

      assertThat(deleted).hasSize(Math.max(0, maxUnavailable - terminating.size()));
      // not upstream's assertion: the highest ordinals at or above the partition that are not terminating
      List<Integer> expected = Stream.of(5, 4, 3).filter(o -> !terminating.contains(o))
          .limit(Math.max(0, maxUnavailable - terminating.size())).toList();
      assertThat(deleted).extracting(StatefulSetPods::ordinal).containsExactlyElementsOf(expected);
    }
  }

  static Stream<Arguments> maxUnavailableCases() {
    return Stream.of(
        Arguments.of(null, 10, 1),
        Arguments.of(IntOrPercent.of(3), 10, 3),
        Arguments.of(IntOrPercent.of(3), 0, 3),
        Arguments.of(IntOrPercent.of(0), 0, 1),
        Arguments.of(IntOrPercent.ofPercent(10), 25, 2),
        Arguments.of(IntOrPercent.ofPercent(100), 5, 5),
        Arguments.of(IntOrPercent.ofPercent(50), 5, 2),
        Arguments.of(IntOrPercent.ofPercent(10), 5, 1),
        Arguments.of(IntOrPercent.ofPercent(1), 0, 1),
        Arguments.of(IntOrPercent.ofPercent(0), 0, 1));
  }

  /** Upstream's {@code TestGetStatefulSetMaxUnavailable}; no rolling update bounds stands for a nil maxUnavailable. */
  @ParameterizedTest(name = "maxUnavailable {0} of {1} replicas: {2}")
  @MethodSource("maxUnavailableCases")
  void getStatefulSetMaxUnavailable(IntOrPercent maxUnavailable, int replicas, int expected) {
    RollingUpdateStatefulSetStrategy ru = maxUnavailable == null ? null
        : new RollingUpdateStatefulSetStrategy(0, maxUnavailable);
    assertThat(StatefulSetPods.maxUnavailable(ru, replicas)).isEqualTo(expected);
  }

  /** A percentage: 50 % of 6 replicas replaces three pods at once, from the highest ordinal. */
  @Test
  void percentMaxUnavailable_deletesThatManyAtOnce() {
    StatefulSet set = StatefulSetHarness.burst(StatefulSetHarness.newStatefulSet(6));
    set = StatefulSetHarness.withStrategy(set, new StatefulSetUpdateStrategy(
        StatefulSetUpdateStrategyType.RollingUpdate, new RollingUpdateStatefulSetStrategy(0,
            IntOrPercent.ofPercent(50))));
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(set);
      h.scaleUp(StatefulSetHarness::burstInvariants);
      h.update(s -> StatefulSetHarness.withImage(s, "foo"));
      h.controller.runUntilIdle();
      assertThat(h.pods()).filteredOn(StatefulSetPods::isTerminating).extracting(p -> p.metadata().name())
          .containsExactly("foo-3", "foo-4", "foo-5");
      h.updateUntilSettled(StatefulSetHarness::burstInvariants);
      assertThat(h.images()).containsOnly("foo").hasSize(6);
    }
  }

  /** Upstream's metrics.go: names, types, labels and help texts. */
  @Test
  void metricDescriptors_matchUpstream() {
    assertThat(StatefulSetMetrics.ALL.stream().map(d -> d.name() + " " + d.type() + " " + d.labelNames()).toList())
        .containsExactly(
            "statefulset_controller_statefulset_max_unavailable GAUGE [statefulset_namespace, statefulset_name,"
                + " pod_management_policy]",
            "statefulset_controller_statefulset_unavailable_replicas GAUGE [statefulset_namespace,"
                + " statefulset_name, pod_management_policy]");
    assertThat(StatefulSetMetrics.MAX_UNAVAILABLE.help())
        .isEqualTo("Maximum number of unavailable pods allowed during StatefulSet rolling updates");
    assertThat(StatefulSetMetrics.UNAVAILABLE_REPLICAS.help())
        .isEqualTo("Current number of unavailable pods in StatefulSet");
  }

  /** The gauges follow the update: maxUnavailable as pods, and the replicas down while it runs. */
  @Test
  void gauges_showMaxUnavailableAndUnavailableReplicas() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    StatefulSet set = StatefulSetHarness.burst(StatefulSetHarness.newStatefulSet(6));
    set = StatefulSetHarness.withStrategy(set, new StatefulSetUpdateStrategy(
        StatefulSetUpdateStrategyType.RollingUpdate, new RollingUpdateStatefulSetStrategy(0,
            IntOrPercent.ofPercent(50))));
    try (StatefulSetHarness h = new StatefulSetHarness(MicrometerMetrics.of(prometheus))) {
      h.store.create(set);
      h.scaleUp(StatefulSetHarness::burstInvariants);
      String series = "{pod_management_policy=\"Parallel\",statefulset_name=\"foo\",statefulset_namespace=\"default\"}";
      assertThat(prometheus.scrape()).contains("statefulset_controller_statefulset_max_unavailable" + series + " 3.0")
          .contains("statefulset_controller_statefulset_unavailable_replicas" + series + " 0.0");
      h.update(s -> StatefulSetHarness.withImage(s, "foo"));
      h.controller.runUntilIdle();
      // the pass after the three deletions saw them Terminating
      assertThat(prometheus.scrape()).contains("statefulset_controller_statefulset_unavailable_replicas" + series
          + " 3.0");
    }
  }
}
