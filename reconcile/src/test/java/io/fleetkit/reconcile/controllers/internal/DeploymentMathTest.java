package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.apps.DeploymentCondition;
import io.fleetkit.api.apps.DeploymentSpec;
import io.fleetkit.api.apps.DeploymentStatus;
import io.fleetkit.api.apps.DeploymentStrategy;
import io.fleetkit.api.apps.DeploymentStrategyType;
import io.fleetkit.api.apps.RollingUpdateDeployment;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import io.fleetkit.reconcile.controllers.internal.DeploymentMath.RsView;
import io.fleetkit.reconcile.controllers.internal.DeploymentMath.ScaleDown;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ported from kubernetes/kubernetes pkg/controller/deployment/util/deployment_util_test.go (TestResolveFenceposts 7,
 * TestNewRSNewReplicas 3, TestMaxUnavailable 8, TestDeploymentComplete 6, TestDeploymentProgressing 7,
 * TestDeploymentTimedOut 4 of 5) and pkg/controller/deployment/rolling_test.go
 * (TestDeploymentController_reconcileNewReplicaSet 5, _reconcileOldReplicaSets 5, _cleanupUnhealthyReplicas 4,
 * _scaleDownOldReplicaSetsForRollingUpdate 5).
 */
final class DeploymentMathTest {

  private static @Nullable IntOrPercent parse(String s) {
    return s.equals("nil") ? null : IntOrPercent.parse(s);
  }

  // TestResolveFenceposts: maxSurge, maxUnavailable, desired, surge, unavailable ("error" when invalid)
  @ParameterizedTest
  @CsvSource({"0%,0%,0,0,1", "39%,39%,10,4,3", "oops,39%,10,error,error", "55%,urg,10,error,error",
      "nil,39%,10,0,3", "39%,nil,10,4,0", "nil,nil,10,0,1"})
  void resolveFenceposts_upstreamCases(String surge, String unavailable, int desired, String expSurge,
      String expUnavailable) {
    if (expSurge.equals("error")) {
      assertThatThrownBy(() -> DeploymentMath.resolveFenceposts(parse(surge), parse(unavailable), desired))
          .isInstanceOf(IllegalArgumentException.class);
      return;
    }
    int[] r = DeploymentMath.resolveFenceposts(parse(surge), parse(unavailable), desired);
    assertThat(r).containsExactly(Integer.parseInt(expSurge), Integer.parseInt(expUnavailable));
  }

  // TestNewRSNewReplicas: allRSs = [rs5] (5 replicas); maxUnavailable 1
  @ParameterizedTest
  @CsvSource({"RollingUpdate,1,5,1,5", "RollingUpdate,6,2,10,6", "Recreate,3,1,1,3"})
  void newRSNewReplicas_upstreamCases(DeploymentStrategyType type, int depReplicas, int newRsReplicas,
      int maxSurge, int expected) {
    assertThat(DeploymentMath.newRSNewReplicas(type, depReplicas, maxSurge, 5, newRsReplicas)).isEqualTo(expected);
  }

  static DeploymentSpec spec(int replicas, DeploymentStrategy strategy) {
    return new DeploymentSpec(replicas, LabelSelector.of(Map.of("a", "b")),
        PodTemplateSpec.of(Map.of("a", "b"), PodSpec.builder().build()), strategy, 0, 10, 600, false);
  }

  // TestMaxUnavailable: replicas, maxUnavailable ("recreate" for the Recreate case), expected; maxSurge 1
  @ParameterizedTest
  @CsvSource({"10,5,5", "10,10,10", "5,10,5", "0,10,0", "0,recreate,0", "10,50%,5", "10,100%,10", "5,100%,5"})
  void maxUnavailable_upstreamCases(int replicas, String maxUnavailable, int expected) {
    DeploymentStrategy s = maxUnavailable.equals("recreate") ? DeploymentStrategy.RECREATE
        : DeploymentStrategy.rollingUpdate(new RollingUpdateDeployment(IntOrPercent.ONE,
            maxUnavailable.endsWith("%") ? IntOrPercent.parse(maxUnavailable)
                : IntOrPercent.of(Integer.parseInt(maxUnavailable))));
    assertThat(DeploymentMath.maxUnavailable(spec(replicas, s))).isEqualTo(expected);
  }

  static DeploymentStatus status(int current, int updated, int ready, int available) {
    return new DeploymentStatus(0, current, updated, ready, available, 0, List.of(), null);
  }

  // TestDeploymentComplete: desired, current, updated, available, (maxUnavailable, maxSurge unused), expected
  @ParameterizedTest
  @CsvSource({"5,5,5,4,false", "5,5,5,3,false", "5,5,5,5,true", "5,5,4,5,false", "1,2,1,1,false", "1,1,1,0,false"})
  void deploymentComplete_upstreamCases(int desired, int current, int updated, int available, boolean expected) {
    assertThat(DeploymentMath.deploymentComplete(desired, 0, status(current, updated, 0, available)))
        .isEqualTo(expected);
  }

  // TestDeploymentProgressing: old (current, updated, ready, available), new (...), expected
  @ParameterizedTest
  @CsvSource({"10,4,4,4,10,6,4,4,true", "10,4,4,4,10,4,4,4,false", "10,4,6,6,8,4,6,6,true",
      "10,7,3,3,10,6,3,3,false", "10,4,7,7,8,8,5,5,true", "10,10,9,8,10,10,10,8,true",
      "10,10,10,9,10,10,10,10,true"})
  void deploymentProgressing_upstreamCases(int c0, int u0, int r0, int a0, int c1, int u1, int r1, int a1,
      boolean expected) {
    assertThat(DeploymentMath.deploymentProgressing(status(c0, u0, r0, a0), status(c1, u1, r1, a1)))
        .isEqualTo(expected);
  }

  // TestDeploymentTimedOut (the nil-deadline case does not apply: progressDeadlineSeconds is never null here)
  @ParameterizedTest
  @CsvSource({"2147483647,,1,9,false", "10,,1,9,true", "10,,1,11,false", "600,NewReplicaSetAvailable,0,0,false"})
  void deploymentTimedOut_upstreamCases(int pds, @Nullable String reason, int min, int sec, boolean expected) {
    Instant from = Instant.parse("2016-01-01T00:00:00Z").plusSeconds(min * 60L + sec);
    Instant now = Instant.parse("2016-01-01T00:01:20Z");
    DeploymentStatus s = new DeploymentStatus(0, 0, 0, 0, 0, 0, List.of(new DeploymentCondition(
        DeploymentCondition.PROGRESSING, ConditionStatus.True, reason == null ? "" : reason, "", from, null)), null);
    assertThat(DeploymentMath.deploymentTimedOut(pds, s, now)).isEqualTo(expected);
    assertThat(WorkloadLabels.REASON_NEW_RS_AVAILABLE).isEqualTo("NewReplicaSetAvailable");
  }

  // rolling_test.go TestDeploymentController_reconcileNewReplicaSet: replicas, maxSurge, old, new, expected (-1 none)
  @ParameterizedTest
  @CsvSource({"10,0,10,0,-1", "10,2,10,0,2", "10,2,5,0,7", "10,2,10,2,-1", "10,2,2,11,10"})
  void reconcileNewReplicaSet_upstreamCases(int replicas, int maxSurge, int oldReplicas, int newReplicas,
      int expected) {
    RsView newRs = new RsView("foo-v2", newReplicas, 0, null);
    RsView oldRs = new RsView("foo-v2", oldReplicas, 0, null);
    int surge = DeploymentMath.resolveFenceposts(IntOrPercent.of(maxSurge), IntOrPercent.ZERO, replicas)[0];
    int current = DeploymentMath.replicaCount(List.of(newRs, oldRs));
    assertThat(DeploymentMath.reconcileNewReplicaSet(replicas, surge, current, newRs)).isEqualTo(expected);
  }

  // TestDeploymentController_reconcileOldReplicaSets: replicas, maxUnavailable, old, new, readyOld, readyNew,
  // scaleExpected, expectedOldReplicas (-1: not checked upstream)
  @ParameterizedTest
  @CsvSource({"10,0,10,0,10,0,true,9", "10,2,10,0,10,0,true,8", "10,2,10,0,8,0,true,8", "10,2,10,0,9,0,true,8",
      "10,2,8,2,8,0,false,-1"})
  void reconcileOldReplicaSets_upstreamCases(int replicas, int maxUnavailable, int oldReplicas, int newReplicas,
      int readyOld, int readyNew, boolean scaleExpected, int expectedOld) {
    RsView newRs = new RsView("foo-new", newReplicas, readyNew, null);
    RsView oldRs = new RsView("foo-old", oldReplicas, readyOld, null);
    int unavailable = DeploymentMath.resolveFenceposts(IntOrPercent.ZERO, IntOrPercent.of(maxUnavailable),
        replicas)[1];
    ScaleDown r = DeploymentMath.reconcileOldReplicaSets(replicas, unavailable, List.of(oldRs, newRs),
        List.of(oldRs), newRs);
    assertThat(r.count() > 0).isEqualTo(scaleExpected);
    if (expectedOld >= 0) {
      assertThat(r.replicaSets().get(0).replicas()).isEqualTo(expectedOld);
    }
  }

  // TestDeploymentController_cleanupUnhealthyReplicas: old, ready, (unhealthy), maxCleanup, expected
  @ParameterizedTest
  @CsvSource({"10,8,1,1", "10,8,3,2", "10,8,0,0", "10,10,3,0"})
  void cleanupUnhealthyReplicas_upstreamCases(int oldReplicas, int ready, int maxCleanup, int expected) {
    ScaleDown r = DeploymentMath.cleanupUnhealthyReplicas(List.of(new RsView("foo-v2", oldReplicas, ready, null)),
        maxCleanup);
    assertThat(r.count()).isEqualTo(expected);
    assertThat(r.replicaSets().get(0).replicas()).isEqualTo(oldReplicas - expected);
  }

  // TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate: replicas, maxUnavailable, ready, old,
  // scaleExpected, expectedOld
  @ParameterizedTest
  @CsvSource({"10,0,10,10,true,9", "10,2,10,10,true,8", "10,2,8,10,false,10", "10,2,10,0,false,0",
      "10,2,1,10,false,10"})
  void scaleDownOldReplicaSetsForRollingUpdate_upstreamCases(int replicas, int maxUnavailable, int ready,
      int oldReplicas, boolean scaleExpected, int expectedOld) {
    RsView oldRs = new RsView("foo-v2", oldReplicas, ready, null);
    int unavailable = DeploymentMath.resolveFenceposts(IntOrPercent.ZERO, IntOrPercent.of(maxUnavailable),
        replicas)[1];
    ScaleDown r = DeploymentMath.scaleDownOldReplicaSetsForRollingUpdate(replicas, unavailable, List.of(oldRs),
        List.of(oldRs));
    assertThat(r.count() > 0).isEqualTo(scaleExpected);
    assertThat(r.replicaSets().get(0).replicas()).isEqualTo(expectedOld);
  }
}
