package io.fleetkit.autoscale.hpa;

import static io.fleetkit.autoscale.hpa.HorizontalControllerCase.cool;
import static io.fleetkit.autoscale.hpa.HorizontalControllerCase.hot;
import static io.fleetkit.autoscale.hpa.HorizontalControllerCase.milli;
import static io.fleetkit.autoscale.hpa.HorizontalControllerCase.statusOkWith;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.MetricIdentifier;
import io.fleetkit.api.autoscaling.MetricSpec;
import io.fleetkit.api.autoscaling.MetricTarget;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceNames;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The controller tests of kubernetes/kubernetes {@code pkg/controller/podautoscaler/horizontal_test.go} (commit
 * 003e86297d18a8538c9da3619871393f9703bf70), one method per upstream test function, each through
 * {@link HorizontalControllerCase} (upstream's {@code testCase}). Upstream's monitor labels are checked as the
 * controller's Prometheus metrics: action {@code scale_up}, {@code scale_down}, {@code none}; error {@code none},
 * {@code internal}, {@code spec}.
 *
 * <p>Not ported: the cases with {@code minReplicas: 0} (TestScaleUpFromZeroCMObject,
 * TestScaleUpFromZeroIgnoresToleranceCMObject, TestScaleDownToZeroCMObject, TestScaleDownToZeroCMExternal,
 * TestZeroMinReplicasDesiredZero, TestScaleUpFromZeroOneMetricInvalid): scale to zero is upstream's
 * {@code HPAScaleToZero} feature gate, FleetKit has no feature gates and its validation refuses {@code minReplicas}
 * 0 as upstream's does with the gate off (upstream's fake client skips validation); the cases with a metric of type
 * {@code "CheddarCheese"} (TestScaleUpOneMetricInvalid, TestScaleUpBothMetricsEmpty): {@code MetricSourceType} is a
 * closed enum, an unknown type cannot be written.
 */
final class HorizontalControllerUpstreamTest {
  private static final String UP = "scale_up";
  private static final String DOWN = "scale_down";
  private static final String NONE = "none";
  private static final ConditionStatus T = ConditionStatus.True;
  private static final ConditionStatus F = ConditionStatus.False;
  private static final CrossVersionObjectReference SOME_DEPLOYMENT =
      CrossVersionObjectReference.of("apps/v1", "Deployment", "some-deployment");

  private static HorizontalControllerCase tc(int min, int max, int spec, int status, int expected) {
    HorizontalControllerCase c = new HorizontalControllerCase();
    c.minReplicas = min;
    c.maxReplicas = max;
    c.specReplicas = spec;
    c.statusReplicas = status;
    c.expectedDesiredReplicas = expected;
    return c;
  }

  private static long[] requests(long... milli) {
    return milli;
  }

  private static long[] ones(int n) {
    long[] r = new long[n];
    java.util.Arrays.fill(r, 1000);
    return r;
  }

  private static ConditionStatus[] ready(ConditionStatus... v) {
    return v;
  }

  private static Instant[] starts(Instant... v) {
    return v;
  }

  private static MetricSpec podsQps(long averageMilli) {
    return MetricSpec.pods(MetricIdentifier.of("qps"), Quantity.ofMilli(averageMilli));
  }

  private static MetricSpec objectQps(MetricTarget target) {
    return MetricSpec.object(SOME_DEPLOYMENT, MetricIdentifier.of("qps"), target);
  }

  private static MetricSpec externalQps(MetricTarget target) {
    return MetricSpec.external(MetricIdentifier.of("qps"), target);
  }

  /** Upstream's {@code recommendations: []timestampedRecommendation{}}: no initial recommendation recorded. */
  private static void noRecommendations(HorizontalControllerCase c) {
    c.recommendations = new ReplicaNormalizer.Recommendation[0];
  }

  // TestScaleUp
  @Test
  void scaleUp() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 5);
    c.cpuTarget = 30;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(300, 500, 700);
    c.reportedCpuRequests = ones(3);
    c.expectedAction = UP;
    c.computation("Resource", UP, NONE).run();
  }

  // TestScaleUpContainer
  @Test
  void scaleUpContainer() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 5);
    c.metricsTarget.add(MetricSpec.containerResource(ResourceNames.CPU, "container1", MetricTarget.utilization(30)));
    c.reportedLevels = milli(300, 500, 700);
    c.reportedCpuRequests = ones(3);
    c.expectedAction = UP;
    c.computation("ContainerResource", UP, NONE).run();
  }

  // TestScaleUpUnreadyLessScale
  @Test
  void scaleUpUnreadyLessScale() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 4);
    c.cpuTarget = 30;
    c.cpuCurrent = 60;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(300, 500, 700);
    c.reportedCpuRequests = ones(3);
    c.reportedPodReadiness = ready(F, T, T);
    c.expectedAction = UP;
    c.computation("Resource", UP, NONE).run();
  }

  // TestScaleUpHotCpuLessScale
  @Test
  void scaleUpHotCpuLessScale() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 4);
    c.cpuTarget = 30;
    c.cpuCurrent = 60;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(300, 500, 700);
    c.reportedCpuRequests = ones(3);
    c.reportedPodStartTime = starts(hot(), cool(), cool());
    c.expectedAction = UP;
    c.computation("Resource", UP, NONE).run();
  }

  // TestScaleUpUnreadyNoScale
  @Test
  void scaleUpUnreadyNoScale() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 3);
    c.cpuTarget = 30;
    c.cpuCurrent = 40;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(400, 500, 700);
    c.reportedCpuRequests = ones(3);
    c.reportedPodReadiness = ready(T, F, F);
    c.expectedConditions = statusOkWith("AbleToScale True ReadyForNewScale");
    c.expectedAction = NONE;
    c.computation("Resource", NONE, NONE).run();
  }

  // TestScaleUpHotCpuNoScale
  @Test
  void scaleUpHotCpuNoScale() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 3);
    c.cpuTarget = 30;
    c.cpuCurrent = 40;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(400, 500, 700);
    c.reportedCpuRequests = ones(3);
    c.reportedPodReadiness = ready(T, F, F);
    c.reportedPodStartTime = starts(cool(), hot(), hot());
    c.expectedConditions = statusOkWith("AbleToScale True ReadyForNewScale");
    c.expectedAction = NONE;
    c.computation("Resource", NONE, NONE).run();
  }

  // TestScaleUpIgnoresFailedPods
  @Test
  void scaleUpIgnoresFailedPods() {
    HorizontalControllerCase c = tc(2, 6, 2, 2, 4);
    c.cpuTarget = 30;
    c.cpuCurrent = 60;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(500, 700);
    c.reportedCpuRequests = ones(4);
    c.reportedPodReadiness = ready(T, T, F, F);
    c.reportedPodPhase = new PodPhase[] {PodPhase.Running, PodPhase.Running, PodPhase.Failed, PodPhase.Failed};
    c.expectedAction = UP;
    c.computation("Resource", UP, NONE).run();
  }

  // TestScaleUpIgnoresDeletionPods
  @Test
  void scaleUpIgnoresDeletionPods() {
    HorizontalControllerCase c = tc(2, 6, 2, 2, 4);
    c.cpuTarget = 30;
    c.cpuCurrent = 60;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(500, 700);
    c.reportedCpuRequests = ones(4);
    c.reportedPodReadiness = ready(T, T, F, F);
    c.reportedPodPhase = new PodPhase[] {PodPhase.Running, PodPhase.Running, PodPhase.Running, PodPhase.Running};
    c.reportedPodDeletionTimestamp = new boolean[] {false, false, true, true};
    c.expectedAction = UP;
    c.computation("Resource", UP, NONE).run();
  }

  // TestScaleUpDeployment
  @Test
  void scaleUpDeployment() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 5);
    c.cpuTarget = 30;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(300, 500, 700);
    c.reportedCpuRequests = ones(3);
    c.resourceName = "test-dep";
    c.expectedAction = UP;
    c.computation("Resource", UP, NONE).run();
  }

  // TestScaleUpReplicaSet
  @Test
  void scaleUpReplicaSet() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 5);
    c.cpuTarget = 30;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(300, 500, 700);
    c.reportedCpuRequests = ones(3);
    c.resourceKind = ReplicaSet.KIND;
    c.resourceName = "test-replicaset";
    c.expectedAction = UP;
    c.computation("Resource", UP, NONE).run();
  }

  // TestScaleUpCM
  @Test
  void scaleUpCM() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 4);
    c.metricsTarget.add(podsQps(15000));
    c.reportedLevels = milli(20000, 10000, 30000);
    c.reportedCpuRequests = ones(3);
    c.expectedAction = UP;
    c.computation("Pods", UP, NONE).run();
  }

  // TestScaleUpCMUnreadyAndHotCpuNoLessScale
  @Test
  void scaleUpCMUnreadyAndHotCpuNoLessScale() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 6);
    c.metricsTarget.add(podsQps(15000));
    c.reportedLevels = milli(50000, 10000, 30000);
    c.reportedPodReadiness = ready(T, T, F);
    c.reportedPodStartTime = starts(cool(), cool(), hot());
    c.reportedCpuRequests = ones(3);
    c.expectedAction = UP;
    c.computation("Pods", UP, NONE).run();
  }

  // TestScaleUpCMUnreadyandCpuHot
  @Test
  void scaleUpCMUnreadyandCpuHot() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 6);
    c.metricsTarget.add(podsQps(15000));
    c.reportedLevels = milli(50000, 15000, 30000);
    c.reportedPodReadiness = ready(F, T, F);
    c.reportedPodStartTime = starts(hot(), cool(), hot());
    c.reportedCpuRequests = ones(3);
    c.expectedConditions = statusOkWith("AbleToScale True SucceededRescale", "ScalingLimited True TooManyReplicas");
    c.expectedAction = UP;
    c.computation("Pods", UP, NONE).run();
  }

  // TestScaleUpHotCpuNoScaleWouldScaleDown
  @Test
  void scaleUpHotCpuNoScaleWouldScaleDown() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 6);
    c.metricsTarget.add(podsQps(15000));
    c.reportedLevels = milli(50000, 15000, 30000);
    c.reportedCpuRequests = ones(3);
    c.reportedPodStartTime = starts(hot(), cool(), hot());
    c.expectedConditions = statusOkWith("AbleToScale True SucceededRescale", "ScalingLimited True TooManyReplicas");
    c.expectedAction = UP;
    c.computation("Pods", UP, NONE).run();
  }

  // TestScaleUpCMObject
  @Test
  void scaleUpCMObject() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 4);
    c.metricsTarget.add(objectQps(MetricTarget.value(Quantity.ofMilli(15000))));
    c.reportedLevels = milli(20000);
    c.expectedAction = UP;
    c.computation("Object", UP, NONE).run();
  }

  // TestScaleUpPerPodCMObject
  @Test
  void scaleUpPerPodCMObject() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 4);
    c.metricsTarget.add(objectQps(MetricTarget.averageValue(Quantity.ofMilli(10000))));
    c.reportedLevels = milli(40000);
    c.expectedAction = UP;
    c.computation("Object", UP, NONE).run();
  }

  // TestScaleUpCMExternal
  @Test
  void scaleUpCMExternal() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 4);
    c.metricsTarget.add(externalQps(MetricTarget.value(Quantity.ofMilli(6666))));
    c.reportedLevels = milli(8600);
    c.expectedAction = UP;
    c.computation("External", UP, NONE).run();
  }

  // TestScaleUpPerPodCMExternal
  @Test
  void scaleUpPerPodCMExternal() {
    HorizontalControllerCase c = tc(2, 6, 3, 3, 4);
    c.metricsTarget.add(externalQps(MetricTarget.averageValue(Quantity.ofMilli(2222))));
    c.reportedLevels = milli(8600);
    c.expectedAction = UP;
    c.computation("External", UP, NONE).run();
  }

  // TestScaleDown
  @Test
  void scaleDown() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 3);
    c.cpuTarget = 50;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(100, 300, 500, 250, 250);
    c.reportedCpuRequests = ones(5);
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("Resource", DOWN, NONE).run();
  }

  // TestScaleDownContainerResource
  @Test
  void scaleDownContainerResource() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 3);
    c.reportedLevels = milli(100, 300, 500, 250, 250);
    c.reportedCpuRequests = ones(5);
    c.metricsTarget.add(MetricSpec.containerResource(ResourceNames.CPU, "container2", MetricTarget.utilization(50)));
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("ContainerResource", DOWN, NONE).run();
  }

  // TestScaleDownWithScalingRules
  @Test
  void scaleDownWithScalingRules() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 3);
    c.scaleUpRules = ReplicaNormalizerTest.rules(0, 0, 100, 15, 30);
    c.cpuTarget = 50;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(100, 300, 500, 250, 250);
    c.reportedCpuRequests = ones(5);
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("Resource", DOWN, NONE).run();
  }

  // TestScaleDownStabilizeInitialSize
  @Test
  void scaleDownStabilizeInitialSize() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 5);
    c.cpuTarget = 50;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(100, 300, 500, 250, 250);
    c.reportedCpuRequests = ones(5);
    c.expectedConditions = statusOkWith("AbleToScale True ReadyForNewScale", "AbleToScale True ScaleDownStabilized");
    c.expectedAction = NONE;
    c.computation("Resource", DOWN, NONE).run();
  }

  // TestScaleDownCM
  @Test
  void scaleDownCM() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 3);
    c.metricsTarget.add(podsQps(20000));
    c.reportedLevels = milli(12000, 12000, 12000, 12000, 12000);
    c.reportedCpuRequests = ones(5);
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("Pods", DOWN, NONE).run();
  }

  // TestScaleDownCMObject
  @Test
  void scaleDownCMObject() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 3);
    c.metricsTarget.add(objectQps(MetricTarget.value(Quantity.ofMilli(20000))));
    c.reportedLevels = milli(12000);
    c.reportedCpuRequests = ones(5);
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("Object", DOWN, NONE).run();
  }

  // TestScaleDownPerPodCMObject
  @Test
  void scaleDownPerPodCMObject() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 3);
    c.metricsTarget.add(objectQps(MetricTarget.averageValue(Quantity.ofMilli(20000))));
    c.reportedLevels = milli(60000);
    c.reportedCpuRequests = ones(5);
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("Object", DOWN, NONE).run();
  }

  // TestScaleDownCMExternal
  @Test
  void scaleDownCMExternal() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 3);
    c.metricsTarget.add(externalQps(MetricTarget.value(Quantity.ofMilli(14400))));
    c.reportedLevels = milli(8600);
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("External", DOWN, NONE).run();
  }

  // TestScaleDownPerPodCMExternal
  @Test
  void scaleDownPerPodCMExternal() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 3);
    c.metricsTarget.add(externalQps(MetricTarget.averageValue(Quantity.ofMilli(3000))));
    c.reportedLevels = milli(8600);
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("External", DOWN, NONE).run();
  }

  // TestScaleDownIncludeUnreadyPods
  @Test
  void scaleDownIncludeUnreadyPods() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 2);
    c.cpuTarget = 50;
    c.cpuCurrent = 30;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(100, 300, 500, 250, 250);
    c.reportedCpuRequests = ones(5);
    c.reportedPodReadiness = ready(T, T, T, F, F);
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("Resource", DOWN, NONE).run();
  }

  // TestScaleDownIgnoreHotCpuPods
  @Test
  void scaleDownIgnoreHotCpuPods() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 2);
    c.cpuTarget = 50;
    c.cpuCurrent = 30;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(100, 300, 500, 250, 250);
    c.reportedCpuRequests = ones(5);
    c.reportedPodStartTime = starts(cool(), cool(), cool(), hot(), hot());
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("Resource", DOWN, NONE).run();
  }

  // TestScaleDownIgnoresFailedPods
  @Test
  void scaleDownIgnoresFailedPods() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 3);
    c.cpuTarget = 50;
    c.cpuCurrent = 28;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(100, 300, 500, 250, 250);
    c.reportedCpuRequests = ones(7);
    c.reportedPodReadiness = ready(T, T, T, T, T, F, F);
    c.reportedPodPhase = new PodPhase[] {PodPhase.Running, PodPhase.Running, PodPhase.Running, PodPhase.Running,
        PodPhase.Running, PodPhase.Failed, PodPhase.Failed};
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("Resource", DOWN, NONE).run();
  }

  // TestScaleDownIgnoresDeletionPods
  @Test
  void scaleDownIgnoresDeletionPods() {
    HorizontalControllerCase c = tc(2, 6, 5, 5, 3);
    c.cpuTarget = 50;
    c.cpuCurrent = 28;
    c.verifyCpuCurrent = true;
    c.reportedLevels = milli(100, 300, 500, 250, 250);
    c.reportedCpuRequests = ones(7);
    c.reportedPodReadiness = ready(T, T, T, T, T, F, F);
    c.reportedPodPhase = new PodPhase[] {PodPhase.Running, PodPhase.Running, PodPhase.Running, PodPhase.Running,
        PodPhase.Running, PodPhase.Running, PodPhase.Running};
    c.reportedPodDeletionTimestamp = new boolean[] {false, false, false, false, false, true, true};
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("Resource", DOWN, NONE).run();
  }

  // TestTolerance
  @Test
  void tolerance() {
    HorizontalControllerCase c = tc(1, 5, 3, 3, 3);
    c.cpuTarget = 100;
    c.reportedLevels = milli(1010, 1030, 1020);
    c.reportedCpuRequests = requests(900, 1000, 1100);
    c.expectedConditions = statusOkWith("AbleToScale True ReadyForNewScale");
    c.expectedAction = NONE;
    c.computation("Resource", NONE, NONE).run();
  }

  // TestToleranceCM
  @Test
  void toleranceCM() {
    HorizontalControllerCase c = tc(1, 5, 3, 3, 3);
    c.metricsTarget.add(podsQps(20000));
    c.reportedLevels = milli(20000, 20001, 21000);
    c.reportedCpuRequests = requests(900, 1000, 1100);
    c.expectedConditions = statusOkWith("AbleToScale True ReadyForNewScale");
    c.expectedAction = NONE;
    c.computation("Pods", NONE, NONE).run();
  }

  // TestToleranceCMObject
  @Test
  void toleranceCMObject() {
    HorizontalControllerCase c = tc(1, 5, 3, 3, 3);
    c.metricsTarget.add(objectQps(MetricTarget.value(Quantity.ofMilli(20000))));
    c.reportedLevels = milli(20050);
    c.reportedCpuRequests = requests(900, 1000, 1100);
    c.expectedConditions = statusOkWith("AbleToScale True ReadyForNewScale");
    c.expectedAction = NONE;
    c.computation("Object", NONE, NONE).run();
  }

  // TestToleranceCMExternal
  @Test
  void toleranceCMExternal() {
    HorizontalControllerCase c = tc(2, 6, 4, 4, 4);
    c.metricsTarget.add(externalQps(MetricTarget.value(Quantity.ofMilli(8666))));
    c.reportedLevels = milli(8600);
    c.expectedConditions = statusOkWith("AbleToScale True ReadyForNewScale");
    c.expectedAction = NONE;
    c.computation("External", NONE, NONE).run();
  }

  // TestTolerancePerPodCMObject
  @Test
  void tolerancePerPodCMObject() {
    HorizontalControllerCase c = tc(2, 6, 4, 4, 4);
    c.metricsTarget.add(objectQps(MetricTarget.averageValue(Quantity.ofMilli(2200))));
    c.reportedLevels = milli(8600);
    c.expectedConditions = statusOkWith("AbleToScale True ReadyForNewScale");
    c.expectedAction = NONE;
    c.computation("Object", NONE, NONE).run();
  }

  // TestTolerancePerPodCMExternal
  @Test
  void tolerancePerPodCMExternal() {
    HorizontalControllerCase c = tc(2, 6, 4, 4, 4);
    c.metricsTarget.add(externalQps(MetricTarget.averageValue(Quantity.ofMilli(2200))));
    c.reportedLevels = milli(8600);
    c.expectedConditions = statusOkWith("AbleToScale True ReadyForNewScale");
    c.expectedAction = NONE;
    c.computation("External", NONE, NONE).run();
  }

  // TestMinReplicas
  @Test
  void minReplicas() {
    HorizontalControllerCase c = tc(2, 5, 3, 3, 2);
    c.cpuTarget = 90;
    c.reportedLevels = milli(10, 95, 10);
    c.reportedCpuRequests = requests(900, 1000, 1100);
    c.expectedConditions = statusOkWith("ScalingLimited True TooFewReplicas");
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("Resource", DOWN, NONE).run();
  }

  // TestMinReplicasDesiredZero
  @Test
  void minReplicasDesiredZero() {
    HorizontalControllerCase c = tc(2, 5, 3, 3, 2);
    c.cpuTarget = 90;
    c.reportedLevels = milli(0, 0, 0);
    c.reportedCpuRequests = requests(900, 1000, 1100);
    c.expectedConditions = statusOkWith("ScalingLimited True TooFewReplicas");
    noRecommendations(c);
    c.expectedAction = DOWN;
    c.computation("Resource", DOWN, NONE).run();
  }
}
