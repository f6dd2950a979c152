package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.DeploymentCondition;
import io.fleetkit.api.apps.DeploymentStrategy;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ConditionStatus;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Deployment and ReplicaSet controllers together in stepping mode, pods made ready by hand. */
final class DeploymentControllerTest {

  private static ReplicaSet only(List<ReplicaSet> sets, String image) {
    return sets.stream().filter(rs -> rs.spec().template().spec().containers().get(0).image().equals(image))
        .findFirst().orElseThrow();
  }

  private static long activePods(Cluster c) {
    return c.pods().stream().filter(ActivePods::isActive).count();
  }

  @Test
  void create_deployment_makesHashedReplicaSetRevisionOneAndBecomesAvailable() {
    try (Cluster c = new Cluster()) {
      c.store.create(Cluster.web(3));
      c.settle();
      List<ReplicaSet> sets = c.replicaSets();
      assertThat(sets).hasSize(1);
      ReplicaSet rs = sets.get(0);
      String hash = rs.metadata().labels().get(WorkloadLabels.POD_TEMPLATE_HASH);
      assertThat(hash).isNotBlank();
      assertThat(rs.metadata().name()).isEqualTo("web-" + hash);
      assertThat(rs.spec().selector().matchLabels()).containsEntry(WorkloadLabels.POD_TEMPLATE_HASH, hash);
      assertThat(rs.metadata().annotations()).containsEntry(WorkloadLabels.REVISION, "1");
      assertThat(c.pods()).hasSize(3).allMatch(p -> hash.equals(p.metadata().labels()
          .get(WorkloadLabels.POD_TEMPLATE_HASH)));
      c.readyAll();
      c.settle();
      Deployment d = c.deployment("web");
      assertThat(d.metadata().annotations()).containsEntry(WorkloadLabels.REVISION, "1");
      assertThat(d.status().availableReplicas()).isEqualTo(3);
      assertThat(d.status().updatedReplicas()).isEqualTo(3);
      DeploymentCondition progressing = d.status().condition(DeploymentCondition.PROGRESSING);
      assertThat(progressing).isNotNull();
      assertThat(progressing.reason()).isEqualTo(WorkloadLabels.REASON_NEW_RS_AVAILABLE);
      assertThat(d.status().condition(DeploymentCondition.AVAILABLE).status()).isEqualTo(ConditionStatus.True);
    }
  }

  @Test
  void rollingUpdate_newImage_replacesPodsWithinSurgeAndUnavailability() {
    try (Cluster c = new Cluster()) {
      c.store.create(Cluster.web(4)); // 25%/25% of 4: surge 1, unavailable 1
      c.settle();
      c.readyAll();
      c.settle();
      c.setImage("web", "nginx:2");
      for (int round = 0; round < 20; round++) {
        c.settle();
        assertThat(activePods(c)).isLessThanOrEqualTo(5);
        assertThat(c.pods().stream().filter(Pod::isReady).count()).isGreaterThanOrEqualTo(3);
        c.readyAll();
      }
      c.settle();
      ReplicaSet v2 = only(c.replicaSets(), "nginx:2");
      ReplicaSet v1 = only(c.replicaSets(), "nginx:1");
      assertThat(v2.spec().replicas()).isEqualTo(4);
      assertThat(v2.metadata().annotations()).containsEntry(WorkloadLabels.REVISION, "2");
      assertThat(v1.spec().replicas()).isZero();
      assertThat(c.pods()).hasSize(4).allMatch(p -> p.spec().containers().get(0).image().equals("nginx:2"));
      Deployment d = c.deployment("web");
      assertThat(d.metadata().annotations()).containsEntry(WorkloadLabels.REVISION, "2");
      assertThat(d.status().condition(DeploymentCondition.PROGRESSING).reason())
          .isEqualTo(WorkloadLabels.REASON_NEW_RS_AVAILABLE);
    }
  }

  /**
   * deploymentutil.Revision is strconv.ParseInt(v, 10, 64) and MaxRevision skips a ReplicaSet whose revision does not
   * parse: "\u0663" (Arabic-Indic three; Long.parseLong read it as 3) is no revision, so the next one is 1, not 4.
   */
  @Test
  void rollingUpdate_oldRevisionInDigitsOfAnotherScript_skippedSoTheNextIsOne() {
    try (Cluster c = new Cluster()) {
      c.store.create(Cluster.web(2));
      c.settle();
      ReplicaSet v1 = c.replicaSets().get(0);
      c.store.update(v1.withMetadata(v1.metadata().toBuilder().annotation(WorkloadLabels.REVISION, "\u0663")
          .build()));
      c.setImage("web", "nginx:2");
      c.settle();
      assertThat(only(c.replicaSets(), "nginx:2").metadata().annotations())
          .containsEntry(WorkloadLabels.REVISION, "1");
    }
  }

  @Test
  void rollingUpdate_oldRevisionWithASign_readAsParseIntDoes() {
    try (Cluster c = new Cluster()) {
      c.store.create(Cluster.web(2));
      c.settle();
      ReplicaSet v1 = c.replicaSets().get(0);
      c.store.update(v1.withMetadata(v1.metadata().toBuilder().annotation(WorkloadLabels.REVISION, "+3").build()));
      c.setImage("web", "nginx:2");
      c.settle();
      assertThat(only(c.replicaSets(), "nginx:2").metadata().annotations())
          .containsEntry(WorkloadLabels.REVISION, "4");
    }
  }

  @Test
  void recreate_newImage_killsAllOldPodsBeforeCreatingNewOnes() {
    try (Cluster c = new Cluster()) {
      Deployment d = Deployment.builder().namespace("ns").name("web").replicas(3)
          .matchLabels(java.util.Map.of("app", "web")).podSpec(Cluster.podSpec("nginx:1"))
          .strategy(DeploymentStrategy.RECREATE).build();
      c.store.create(d);
      c.settle();
      c.readyAll();
      c.settle();
      c.setImage("web", "nginx:2");
      c.step(); // deployment scales old to 0, ReplicaSet controller deletes its pods
      assertThat(c.pods()).noneMatch(p -> p.spec().containers().get(0).image().equals("nginx:2"));
      c.step(); // the old pods are terminating: Recreate still waits for them to be gone
      assertThat(c.pods()).hasSize(3).allMatch(p -> p.metadata().deletionTimestamp() != null);
      c.settle();
      assertThat(c.pods()).hasSize(3).allMatch(p -> p.spec().containers().get(0).image().equals("nginx:2"));
      assertThat(only(c.replicaSets(), "nginx:1").spec().replicas()).isZero();
    }
  }

  @Test
  void rollback_toRevisionOne_reusesItsReplicaSetWithTheNextRevision() {
    try (Cluster c = new Cluster()) {
      c.store.create(Cluster.web(2));
      c.settle();
      c.readyAll();
      c.settle();
      c.setImage("web", "nginx:2");
      for (int i = 0; i < 10; i++) {
        c.settle();
        c.readyAll();
      }
      c.settle();
      String v1Name = only(c.replicaSets(), "nginx:1").metadata().name();
      DeploymentController.rollback(c.store, "ns", "web", 1);
      for (int i = 0; i < 10; i++) {
        c.settle();
        c.readyAll();
      }
      c.settle();
      assertThat(c.replicaSets()).hasSize(2);
      ReplicaSet v1 = only(c.replicaSets(), "nginx:1");
      assertThat(v1.metadata().name()).isEqualTo(v1Name);
      assertThat(v1.metadata().annotations()).containsEntry(WorkloadLabels.REVISION, "3");
      assertThat(v1.spec().replicas()).isEqualTo(2);
      assertThat(only(c.replicaSets(), "nginx:2").spec().replicas()).isZero();
      assertThat(c.deployment("web").metadata().annotations()).containsEntry(WorkloadLabels.REVISION, "3");
    }
  }

  @Test
  void rollback_unknownRevision_notFound() {
    try (Cluster c = new Cluster()) {
      c.store.create(Cluster.web(1));
      c.settle();
      assertThatThrownBy(() -> DeploymentController.rollback(c.store, "ns", "web", 7))
          .isInstanceOf(NotFoundException.class).hasMessageContaining("revision 7");
      assertThatThrownBy(() -> DeploymentController.rollback(c.store, "ns", "web", 0))
          .isInstanceOf(NotFoundException.class);
    }
  }

  @Test
  void paused_templateChange_noRolloutUntilResumedButScalingApplies() {
    try (Cluster c = new Cluster()) {
      c.store.create(Cluster.web(2));
      c.settle();
      c.update("web", s -> Cluster.paused(s, true));
      c.settle();
      c.setImage("web", "nginx:2");
      c.update("web", s -> s.withReplicas(3));
      c.settle();
      assertThat(c.replicaSets()).hasSize(1);
      assertThat(c.pods()).hasSize(3).allMatch(p -> p.spec().containers().get(0).image().equals("nginx:1"));
      assertThat(c.deployment("web").status().condition(DeploymentCondition.PROGRESSING).reason())
          .isEqualTo(WorkloadLabels.REASON_PAUSED);
      c.update("web", s -> Cluster.paused(s, false));
      c.settle();
      assertThat(c.replicaSets()).hasSize(2);
      assertThat(c.pods()).anyMatch(p -> p.spec().containers().get(0).image().equals("nginx:2"));
    }
  }

  @Test
  void progressDeadline_newPodsNeverReady_progressingFalseDeadlineExceeded() {
    try (Cluster c = new Cluster()) {
      c.store.create(Deployment.builder().namespace("ns").name("web").replicas(2)
          .matchLabels(java.util.Map.of("app", "web")).podSpec(Cluster.podSpec("nginx:1"))
          .progressDeadlineSeconds(30).build());
      c.settle();
      c.readyAll();
      c.settle();
      c.setImage("web", "nginx:2");
      c.settle();
      c.clock.advance(Duration.ofSeconds(20));
      c.settle();
      assertThat(c.deployment("web").status().condition(DeploymentCondition.PROGRESSING).status())
          .isEqualTo(ConditionStatus.True);
      c.clock.advance(Duration.ofSeconds(15));
      c.settle();
      DeploymentCondition cond = c.deployment("web").status().condition(DeploymentCondition.PROGRESSING);
      assertThat(cond.status()).isEqualTo(ConditionStatus.False);
      assertThat(cond.reason()).isEqualTo(WorkloadLabels.REASON_PROGRESS_DEADLINE_EXCEEDED);
      // the old pods are kept: no automatic rollback, availability is held
      assertThat(c.pods().stream().filter(Pod::isReady).count()).isGreaterThanOrEqualTo(1);
    }
  }

  @Test
  void revisionHistoryLimit_oneOld_oldestIdleReplicaSetsDeleted() {
    try (Cluster c = new Cluster()) {
      c.store.create(Deployment.builder().namespace("ns").name("web").replicas(1)
          .matchLabels(java.util.Map.of("app", "web")).podSpec(Cluster.podSpec("nginx:1"))
          .revisionHistoryLimit(1).build());
      for (int v = 2; v <= 4; v++) {
        c.settle();
        c.readyAll();
        c.settle();
        c.setImage("web", "nginx:" + v);
        for (int i = 0; i < 6; i++) {
          c.settle();
          c.readyAll();
        }
      }
      c.settle();
      assertThat(c.replicaSets()).extracting(rs -> rs.spec().template().spec().containers().get(0).image())
          .containsExactlyInAnyOrder("nginx:3", "nginx:4");
      assertThat(c.pods().stream().filter(ActivePods::isActive).map(Pod::spec)
          .map(s -> s.containers().get(0).image())).containsOnly("nginx:4");
    }
  }

  /** The proportional-scaling example of the Kubernetes docs and e2e (testProportionalScalingDeployment). */
  @Test
  void scaleDuringStuckRollout_tenToThirty_oldTwentyNewThirteen() {
    try (Cluster c = new Cluster()) {
      c.store.create(Deployment.builder().namespace("ns").name("web").replicas(10)
          .matchLabels(java.util.Map.of("app", "web")).podSpec(Cluster.podSpec("nginx:1"))
          .strategy(DeploymentStrategy.rollingUpdate(new io.fleetkit.api.apps.RollingUpdateDeployment(
              io.fleetkit.api.meta.IntOrPercent.of(3), io.fleetkit.api.meta.IntOrPercent.of(2)))).build());
      c.settle();
      c.readyAll();
      c.settle();
      c.setImage("web", "nginx:does-not-exist"); // its pods never become ready
      c.settle();
      assertThat(only(c.replicaSets(), "nginx:1").spec().replicas()).isEqualTo(8);
      assertThat(only(c.replicaSets(), "nginx:does-not-exist").spec().replicas()).isEqualTo(5);
      c.update("web", s -> s.withReplicas(30));
      c.settle();
      assertThat(only(c.replicaSets(), "nginx:1").spec().replicas()).isEqualTo(20);
      assertThat(only(c.replicaSets(), "nginx:does-not-exist").spec().replicas()).isEqualTo(13);
    }
  }

  /** Upstream's addReplicaSet for an orphan: every Deployment whose selector matches it is queued and adopts it. */
  @Test
  void orphanReplicaSet_matchingSelector_isAdoptedThroughItsEvent() {
    try (Cluster c = new Cluster()) {
      c.store.create(Cluster.web(1));
      c.settle();
      ReplicaSet orphan = c.store.create(ReplicaSet.builder().namespace("ns").name("leftover").label("app", "web").replicas(0)
          .matchLabels(java.util.Map.of("app", "web")).podSpec(Cluster.podSpec("nginx:0")).build());
      assertThat(Sim.drain(c.dc.controller())).containsExactly(io.fleetkit.reconcile.ObjectKey.of("ns", "web"));
      c.dc.controller().enqueue(io.fleetkit.reconcile.ObjectKey.of("ns", "web"));
      c.settle();
      ReplicaSet adopted = c.store.require(ReplicaSet.class, "ns", "leftover");
      assertThat(adopted.metadata().controllerRef()).isNotNull();
      assertThat(adopted.metadata().controllerRef().uid()).isEqualTo(c.deployment("web").metadata().uid());
      assertThat(orphan.metadata().controllerRef()).isNull();
    }
  }
}
