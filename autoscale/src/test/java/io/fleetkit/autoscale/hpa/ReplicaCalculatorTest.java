package io.fleetkit.autoscale.hpa;

import static io.fleetkit.autoscale.hpa.ReplicaCalcCase.cool;
import static io.fleetkit.autoscale.hpa.ReplicaCalcCase.hot;
import static io.fleetkit.autoscale.hpa.ReplicaCalcCase.metric;
import static io.fleetkit.autoscale.hpa.ReplicaCalcCase.resource;

import io.fleetkit.autoscale.hpa.ReplicaCalcCase.MetricType;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.ConditionStatus;
import org.junit.jupiter.api.Test;

/**
 * The single cases of kubernetes/kubernetes {@code pkg/controller/podautoscaler/replica_calculator_test.go}, one test
 * per upstream {@code TestReplicaCalc*} function (named in each comment), with upstream's inputs and expectations.
 * Requests are in millicores per container ({@code "1.0"} = 1000); levels are per container.
 */
final class ReplicaCalculatorTest {
  private static final ConditionStatus T = ConditionStatus.True;
  private static final ConditionStatus F = ConditionStatus.False;
  private static final PodPhase RUN = PodPhase.Running;
  private static final PodPhase FAIL = PodPhase.Failed;
  private static final PodPhase PEND = PodPhase.Pending;
  private static final int N = ReplicaCalcCase.CONTAINERS_PER_POD;

  @Test // TestReplicaCalcDisjointResourcesMetrics
  void resource_metricsOnlyForUnknownPods_fails() {
    resource(1).requests(1000).levels(100).podNames("an-older-pod-name").target(100)
        .expectError("no metrics returned matched known pods");
  }

  @Test // TestReplicaCalcScaleUp
  void resource_aboveTarget_scalesUp() {
    resource(3).requests(1000, 1000, 1000).levels(300, 500, 700).target(30).expect(5, 50, N * 500);
  }

  @Test // TestReplicaCalcContainerScaleUp
  void containerResource_aboveTarget_scalesUp() {
    resource(3).requests(1000, 1000, 1000).containerLevels(new long[] {1000, 300}, new long[] {1000, 500},
        new long[] {1000, 700}).target(30).container("container2").expect(5, 50, 500);
  }

  @Test // TestReplicaCalcScaleUpUnreadyLessScale
  void resource_unreadyPodOnScaleUp_countsAsZero() {
    resource(3).readiness(F, T, T).requests(1000, 1000, 1000).levels(300, 500, 700).target(30)
        .expect(4, 60, N * 600);
  }

  @Test // TestReplicaCalcScaleUpContainerHotCpuLessScale
  void containerResource_hotCpuPodOnScaleUp_countsAsZero() {
    resource(3).startTimes(hot(), cool(), cool()).requests(1000, 1000, 1000)
        .containerLevels(new long[] {0, 300}, new long[] {0, 500}, new long[] {0, 700}).target(30)
        .container("container2").expect(4, 60, 600);
  }

  @Test // TestReplicaCalcScaleUpHotCpuLessScale
  void resource_hotCpuPodOnScaleUp_countsAsZero() {
    resource(3).startTimes(hot(), cool(), cool()).requests(1000, 1000, 1000).levels(300, 500, 700).target(30)
        .expect(4, 60, N * 600);
  }

  @Test // TestReplicaCalcScaleUpUnreadyNoScale
  void resource_unreadyPodsPullRatioBelowOne_keepsCurrent() {
    resource(3).readiness(T, F, F).requests(1000, 1000, 1000).levels(400, 500, 700).target(30)
        .expect(3, 40, N * 400);
  }

  @Test // TestReplicaCalcScaleHotCpuNoScale
  void resource_hotUnreadyPods_keepsCurrent() {
    resource(3).readiness(T, F, F).startTimes(cool(), hot(), hot()).requests(1000, 1000, 1000)
        .levels(400, 500, 700).target(30).expect(3, 40, N * 400);
  }

  @Test // TestReplicaCalcScaleUpIgnoresFailedPods
  void resource_failedPods_ignored() {
    resource(2).readiness(T, T, F, F).phases(RUN, RUN, FAIL, FAIL).requests(1000, 1000, 1000, 1000)
        .levels(500, 700).target(30).expect(4, 60, N * 600);
  }

  @Test // TestReplicaCalcMissingContainerMetricScaleUpIgnoresFailedPods
  void containerResource_failedPodsWithoutContainerMetric_ignored() {
    resource(2).readiness(T, T, F, F).phases(RUN, RUN, FAIL, FAIL).requests(1000, 1000, 1000, 1000)
        .containerLevels(new long[] {1000, 500}, new long[] {9000, 700}, new long[] {1000}, new long[] {9000})
        .target(30).container("container2").expect(4, 60, 600);
  }

  @Test // TestReplicaCalcScaleUpContainerIgnoresFailedPods
  void containerResource_failedPods_ignored() {
    resource(2).readiness(T, T, F, F).phases(RUN, RUN, FAIL, FAIL).requests(1000, 1000, 1000, 1000)
        .containerLevels(new long[] {1000, 500}, new long[] {9000, 700}).target(30).container("container2")
        .expect(4, 60, 600);
  }

  @Test // TestReplicaCalcScaleUpIgnoresDeletionPods
  void resource_deletedPods_ignored() {
    resource(2).readiness(T, T, F, F).phases(RUN, RUN, RUN, RUN).deleted(false, false, true, true)
        .requests(1000, 1000, 1000, 1000).levels(500, 700).target(30).expect(4, 60, N * 600);
  }

  @Test // TestReplicaCalcScaleUpContainerIgnoresDeletionPods
  void containerResource_deletedPods_ignored() {
    resource(2).readiness(T, T, F, F).phases(RUN, RUN, RUN, RUN).deleted(false, false, true, true)
        .requests(1000, 1000, 1000, 1000).levels(500, 700).target(30).container("container1")
        .expect(4, 60, 600);
  }

  @Test // TestReplicaCalcScaleUpCM
  void pods_aboveTarget_scalesUp() {
    metric(3, MetricType.POD).metricLevels(20000, 10000, 30000).targetUsage(15000).expect(4, 20000);
  }

  @Test // TestReplicaCalcScaleUpCMUnreadyHotCpuNoLessScale
  void pods_readinessIgnoredForNonCpuMetric_scalesUp() {
    metric(3, MetricType.POD).readiness(T, T, F).startTimes(cool(), cool(), hot())
        .metricLevels(50000, 10000, 30000).targetUsage(15000).expect(6, 30000);
  }

  @Test // TestReplicaCalcScaleUpCMUnreadyHotCpuScaleWouldScaleDown
  void pods_unreadyHotPodsStillCount_scalesUp() {
    metric(3, MetricType.POD).readiness(F, T, F).startTimes(hot(), cool(), hot())
        .metricLevels(50000, 15000, 30000).targetUsage(15000).expect(7, 31666);
  }

  @Test // TestReplicaCalcScaleUpCMObject
  void object_aboveTarget_scalesUp() {
    metric(3, MetricType.OBJECT).metricLevels(20000).targetUsage(15000).expect(4, 20000);
  }

  @Test // TestReplicaCalcScaleUpCMPerPodObject
  void objectPerPod_aboveTarget_scalesUp() {
    metric(3, MetricType.OBJECT_PER_POD).metricLevels(20000).perPodTargetUsage(5000).expect(4, 6667);
  }

  @Test // TestReplicaCalcScaleUpCMObjectIgnoresUnreadyPods
  void object_unreadyPods_notCountedAsReady() {
    metric(3, MetricType.OBJECT).readiness(F, T, F).metricLevels(50000).targetUsage(10000).expect(5, 50000);
  }

  @Test // TestReplicaCalcScaleUpCMExternal
  void external_asPodsMetric_scalesUp() {
    metric(1, MetricType.POD).metricLevels(8600).targetUsage(4400).expect(2, 8600);
  }

  @Test // TestReplicaCalcScaleUpCMExternalIgnoresUnreadyPods
  void external_unreadyPods_notCountedAsReady() {
    metric(3, MetricType.EXTERNAL).readiness(F, T, F).metricLevels(8600).targetUsage(4400).expect(2, 8600);
  }

  @Test // TestReplicaCalcScaleUpCMExternalNoLabels
  void external_withoutLabels_scalesUp() {
    metric(1, MetricType.POD).metricLevels(8600).targetUsage(4400).expect(2, 8600);
  }

  @Test // TestReplicaCalcScaleUpPerPodCMExternal
  void externalPerPod_aboveTarget_scalesUp() {
    metric(3, MetricType.EXTERNAL_PER_POD).metricLevels(8600).perPodTargetUsage(2150).expect(4, 2867);
  }

  @Test // TestReplicaCalcScaleDown
  void resource_belowTarget_scalesDown() {
    resource(5).requests(1000, 1000, 1000, 1000, 1000).levels(100, 300, 500, 250, 250).target(50)
        .expect(3, 28, N * 280);
  }

  @Test // TestReplicaCalcContainerScaleDown
  void containerResource_belowTarget_scalesDown() {
    resource(5).requests(1000, 1000, 1000, 1000, 1000).containerLevels(new long[] {1000, 100},
        new long[] {1000, 300}, new long[] {1000, 500}, new long[] {1000, 250}, new long[] {1000, 250})
        .target(50).container("container2").expect(3, 28, 280);
  }

  @Test // TestReplicaCalcScaleDownCM
  void pods_belowTarget_scalesDown() {
    metric(5, MetricType.POD).metricLevels(12000, 12000, 12000, 12000, 12000).targetUsage(20000).expect(3, 12000);
  }

  @Test // TestReplicaCalcScaleDownPerPodCMObject
  void objectPerPod_belowTarget_scalesDown() {
    metric(5, MetricType.OBJECT_PER_POD).metricLevels(6000).perPodTargetUsage(2000).expect(3, 1200);
  }

  @Test // TestReplicaCalcScaleDownCMObject
  void object_belowTarget_scalesDown() {
    metric(5, MetricType.OBJECT).metricLevels(12000).targetUsage(20000).expect(3, 12000);
  }

  @Test // TestReplicaCalcScaleDownCMExternal
  void external_belowTarget_scalesDown() {
    metric(5, MetricType.EXTERNAL).metricLevels(8600).targetUsage(14334).expect(3, 8600);
  }

  @Test // TestReplicaCalcScaleDownPerPodCMExternal
  void externalPerPod_belowTarget_scalesDown() {
    metric(5, MetricType.EXTERNAL_PER_POD).metricLevels(8600).perPodTargetUsage(2867).expect(3, 1720);
  }

  @Test // TestReplicaCalcScaleDownExcludeUnreadyPods
  void resource_unreadyPodsOnScaleDown_excluded() {
    resource(5).readiness(T, T, T, F, F).requests(1000, 1000, 1000, 1000, 1000).levels(100, 300, 500, 250, 250)
        .target(50).expect(2, 30, N * 300);
  }

  @Test // TestReplicaCalcScaleDownContainerExcludeUnreadyPods
  void containerResource_unreadyPodsOnScaleDown_excluded() {
    resource(5).readiness(T, T, T, F, F).requests(1000, 1000, 1000, 1000, 1000).containerLevels(
        new long[] {1000, 100}, new long[] {1000, 300}, new long[] {1000, 500}, new long[] {1000, 250},
        new long[] {1000, 250}).target(50).container("container2").expect(2, 30, 300);
  }

  @Test // TestReplicaCalcScaleDownExcludeUnscheduledPods
  void resource_pendingPods_excluded() {
    resource(5).readiness(T, F, F, F, F).phases(RUN, PEND, PEND, PEND, PEND).requests(1000, 1000, 1000, 1000, 1000)
        .levels(100).target(50).expect(1, 10, N * 100);
  }

  @Test // TestReplicaCalcScaleDownContainerExcludeUnscheduledPods
  void containerResource_pendingPods_excluded() {
    resource(5).readiness(T, F, F, F, F).phases(RUN, PEND, PEND, PEND, PEND).requests(1000, 1000, 1000, 1000, 1000)
        .containerLevels(new long[] {1000, 100}, new long[] {1000, 300}, new long[] {1000, 500},
            new long[] {1000, 250}, new long[] {1000, 250})
        .target(50).container("container2").expect(1, 10, 100);
  }

  @Test // TestReplicaCalcScaleDownIgnoreHotCpuPods
  void resource_hotCpuPodsOnScaleDown_excluded() {
    resource(5).startTimes(cool(), cool(), cool(), hot(), hot()).requests(1000, 1000, 1000, 1000, 1000)
        .levels(100, 300, 500, 250, 250).target(50).expect(2, 30, N * 300);
  }

  @Test // TestReplicaCalcScaleDownContainerIgnoreHotCpuPods
  void containerResource_hotCpuPodsOnScaleDown_excluded() {
    resource(5).startTimes(cool(), cool(), cool(), hot(), hot()).requests(1000, 1000, 1000, 1000, 1000)
        .containerLevels(new long[] {1000, 100}, new long[] {1000, 300}, new long[] {1000, 500},
            new long[] {1000, 1000}, new long[] {1000, 1000})
        .target(50).container("container2").expect(2, 30, 300);
  }

  @Test // TestReplicaCalcScaleDownIgnoresFailedPods
  void resource_failedPodsOnScaleDown_ignored() {
    resource(5).readiness(T, T, T, T, T, F, F).phases(RUN, RUN, RUN, RUN, RUN, FAIL, FAIL)
        .requests(1000, 1000, 1000, 1000, 1000, 1000, 1000).levels(100, 300, 500, 250, 250).target(50)
        .expect(3, 28, N * 280);
  }

  @Test // TestReplicaCalcScaleDownContainerIgnoresFailedPods
  void containerResource_failedPodsOnScaleDown_ignored() {
    resource(5).readiness(T, T, T, T, T, F, F).phases(RUN, RUN, RUN, RUN, RUN, FAIL, FAIL)
        .requests(1000, 1000, 1000, 1000, 1000, 1000, 1000).containerLevels(new long[] {1000, 100},
            new long[] {1000, 300}, new long[] {1000, 500}, new long[] {1000, 250}, new long[] {1000, 250})
        .target(50).container("container2").expect(3, 28, 280);
  }

  @Test // TestReplicaCalcScaleDownIgnoresDeletionPods
  void resource_deletedPodsOnScaleDown_ignored() {
    resource(5).readiness(T, T, T, T, T, F, F).phases(RUN, RUN, RUN, RUN, RUN, RUN, RUN)
        .deleted(false, false, false, false, false, true, true).requests(1000, 1000, 1000, 1000, 1000, 1000, 1000)
        .levels(100, 300, 500, 250, 250).target(50).expect(3, 28, N * 280);
  }

  @Test // TestReplicaCalcScaleDownIgnoresDeletionPods_StillRunning (regression for kubernetes#83561)
  void containerResource_deletedRunningPods_ignored() {
    resource(5).readiness(T, T, T, T, T, F, F).phases(RUN, RUN, RUN, RUN, RUN, RUN, RUN)
        .deleted(false, false, false, false, false, true, true).requests(1000, 1000, 1000, 1000, 1000, 1000, 1000)
        .containerLevels(new long[] {1000, 100}, new long[] {1000, 300}, new long[] {1000, 500},
            new long[] {1000, 250}, new long[] {1000, 250})
        .target(50).container("container2").expect(3, 28, 280);
  }

  @Test // TestReplicaCalcTolerance
  void resource_withinTolerance_keepsCurrent() {
    resource(3).requests(900, 1000, 1100).levels(1010, 1030, 1020).target(100).expect(3, 102, N * 1020);
  }

  @Test // TestReplicaCalcToleranceCM
  void pods_withinTolerance_keepsCurrent() {
    metric(3, MetricType.POD).metricLevels(20000, 21000, 21000).targetUsage(20000).expect(3, 20666);
  }

  @Test // TestReplicaCalcToleranceCMObject
  void object_withinTolerance_keepsCurrent() {
    metric(3, MetricType.OBJECT).metricLevels(20666).targetUsage(20000).expect(3, 20666);
  }

  @Test // TestReplicaCalcTolerancePerPodCMObject
  void objectPerPod_withinTolerance_keepsCurrent() {
    metric(4, MetricType.OBJECT_PER_POD).metricLevels(20166).perPodTargetUsage(5000).expect(4, 5042);
  }

  @Test // TestReplicaCalcToleranceCMExternal
  void external_withinTolerance_keepsCurrent() {
    metric(3, MetricType.EXTERNAL).metricLevels(8600).targetUsage(8888).expect(3, 8600);
  }

  @Test // TestReplicaCalcTolerancePerPodCMExternal
  void externalPerPod_withinTolerance_keepsCurrent() {
    metric(3, MetricType.EXTERNAL_PER_POD).metricLevels(8600).perPodTargetUsage(2900).expect(3, 2867);
  }

  @Test // TestReplicaCalcSuperfluousMetrics
  void resource_metricsForUnknownPods_ignoredInRatio() {
    resource(4).requests(1000, 1000, 1000, 1000).levels(4000, 9500, 3000, 7000, 3200, 2000).target(100)
        .expect(24, 587, N * 5875);
  }

  @Test // TestReplicaCalcMissingMetrics
  void resource_missingMetricsOnScaleDown_countAsRequest() {
    resource(4).requests(1000, 1000, 1000, 1000).levels(400, 95).target(100).expect(3, 24, 495);
  }

  @Test // TestReplicaCalcEmptyMetrics
  void resource_noMetrics_fails() {
    resource(4).requests(1000, 1000, 1000).levels().target(100)
        .expectError("unable to get metrics for resource cpu: no metrics returned from resource metrics API");
  }

  @Test // TestReplicaCalcEmptyCPURequest
  void resource_noRequest_fails() {
    resource(1).requests().levels(200).target(100).expectError("missing request for");
  }

  @Test // TestPlainMetricReplicaCalcMissingMetricsNoChangeEq
  void pods_missingMetricsAtTarget_keepsCurrent() {
    metric(5, MetricType.POD).metricLevels(20000, 19000, 21000).targetUsage(20000).expect(5, 20000);
  }

  @Test // TestReplicaCalcMissingMetricsNoChangeEq
  void resource_missingMetricAtTarget_keepsCurrent() {
    resource(2).requests(1000, 1000).levels(1000).target(100).expect(2, 100, N * 1000);
  }

  @Test // TestReplicaCalcMissingMetricsNoChangeGt
  void resource_missingMetricAboveTarget_keepsCurrent() {
    resource(2).requests(1000, 1000).levels(1900).target(100).expect(2, 190, N * 1900);
  }

  @Test // TestReplicaCalcMissingMetricsNoChangeLt
  void resource_missingMetricBelowTarget_keepsCurrent() {
    resource(2).requests(1000, 1000).levels(600).target(100).expect(2, 60, N * 600);
  }

  @Test // TestReplicaCalcMissingMetricsUnreadyChange
  void resource_missingAndUnready_keepsCurrent() {
    resource(3).readiness(F, T, T).requests(1000, 1000, 1000).levels(100, 450).target(50).expect(3, 45, N * 450);
  }

  @Test // TestReplicaCalcMissingMetricsHotCpuNoChange
  void resource_missingAndHotCpu_keepsCurrent() {
    resource(3).startTimes(hot(), cool(), cool()).requests(1000, 1000, 1000).levels(100, 450).target(50)
        .expect(3, 45, N * 450);
  }

  @Test // TestReplicaCalcMissingMetricsUnreadyScaleUp
  void resource_missingAndUnreadyOnScaleUp_scalesUp() {
    resource(3).readiness(F, T, T).requests(1000, 1000, 1000).levels(100, 2000).target(50)
        .expect(4, 200, N * 2000);
  }

  @Test // TestReplicaCalcMissingMetricsHotCpuScaleUp
  void resource_missingAndHotCpuOnScaleUp_scalesUp() {
    resource(3).readiness(F, T, T).startTimes(hot(), cool(), cool()).requests(1000, 1000, 1000).levels(100, 2000)
        .target(50).expect(4, 200, N * 2000);
  }

  @Test // TestReplicaCalcMissingMetricsUnreadyScaleDown
  void resource_missingAndUnreadyOnScaleDown_scalesDown() {
    resource(4).readiness(F, T, T, T).requests(1000, 1000, 1000, 1000).levels(100, 100, 100).target(50)
        .expect(3, 10, N * 100);
  }

  @Test // TestReplicaCalcMissingMetricsScaleDownTargetOver100
  void resource_missingOnScaleDownWithTargetOver100_countsAtTarget() {
    resource(4).readiness(F, T, T, T).requests(1000, 1000, 2000, 2000).levels(200, 100, 100).target(300)
        .expect(2, 6, N * 100);
  }

  @Test // TestReplicaCalcDuringRollingUpdateWithMaxSurge
  void resource_surgePodWithoutMetrics_keepsCurrent() {
    resource(2).phases(RUN, RUN, RUN).requests(1000, 1000, 1000).levels(100, 100).target(50)
        .expect(2, 10, N * 100);
  }

  @Test // TestReplicaCalcDuringRollingUpdateWithMaxSurgeCM
  void pods_surgePodWithoutMetrics_keepsCurrent() {
    metric(2, MetricType.POD).phases(RUN, RUN, RUN).metricLevels(10000, 10000).targetUsage(17000)
        .expect(2, 10000);
  }

  @Test // TestReplicaCalcComputedToleranceAlgImplementation
  void resource_justOutsideAndInsideTolerance_scalesThenHolds() {
    int startPods = 10;
    long totalUsed = startPods * 150L;
    int totalRequested = (int) (2 * totalUsed);
    double requestedToUsed = (double) (totalRequested / (int) totalUsed);
    int perPodRequested = totalRequested / startPods;
    double target = Math.abs(1 / (requestedToUsed * (1 - 0.1))) + .01;
    int finalCpuPercentTarget = (int) (target * 100);
    double resourcesUsedRatio = (double) totalUsed / ((double) totalRequested * target);
    int finalPods = (int) Math.ceil(resourcesUsedRatio * startPods);
    long level = totalUsed / 10;
    long[] levels = {level, level, level, level, level, level, level, level, level, level};
    long[] requests = {perPodRequested + 100, perPodRequested - 100, perPodRequested + 10, perPodRequested - 10,
        perPodRequested + 2, perPodRequested - 2, perPodRequested + 1, perPodRequested - 1, perPodRequested,
        perPodRequested};
    int expectedUtilization = (int) (totalUsed * 100) / totalRequested;
    resource(startPods).levels(levels).requests(requests).target(finalCpuPercentTarget)
        .expect(finalPods, expectedUtilization, N * totalUsed / 10);

    target = Math.abs(1 / (requestedToUsed * (1 - 0.1))) + .004;
    finalCpuPercentTarget = (int) (target * 100);
    resource(startPods).levels(levels).requests(requests).target(finalCpuPercentTarget)
        .expect(startPods, expectedUtilization, N * totalUsed / 10);
  }
}
