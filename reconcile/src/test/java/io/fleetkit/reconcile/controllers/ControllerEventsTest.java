package io.fleetkit.reconcile.controllers;

import static io.fleetkit.reconcile.controllers.ReplicaSetControllerTest.rs;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The workload controllers' events: kube's ReplicaSet controller reasons and notes ({@code controller_utils.go}). */
final class ControllerEventsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final List<String> events = Collections.synchronizedList(new ArrayList<>());
  private final EventRecorder recorder = new EventRecorder() {
    @Override
    public void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
        String action, String note) {
      events.add(regarding.kind() + " " + regarding.name() + " " + type + " " + reason + " " + action + ": " + note);
    }
  };

  @Test
  void replicaSet_scaleUpAndDown_recordsSuccessfulCreateAndDelete() {
    try (ObjectStore store = Sim.store(clock);
        ReplicaSetController c = ReplicaSetController.builder(store).clock(clock).stepping().events(recorder)
            .build()) {
      c.start().join();
      store.create(rs("web", 2));
      c.runUntilIdle();
      List<Pod> pods = store.list(Pod.class).items();
      assertThat(events).containsExactlyInAnyOrder(
          "ReplicaSet web Normal SuccessfulCreate Create: Created pod: " + pods.get(0).metadata().name(),
          "ReplicaSet web Normal SuccessfulCreate Create: Created pod: " + pods.get(1).metadata().name());
      events.clear();
      ReplicaSet cur = store.require(ReplicaSet.class, "ns", "web");
      store.update(cur.withSpec(cur.spec().withReplicas(1)));
      c.runUntilIdle();
      assertThat(events).singleElement().asString()
          .startsWith("ReplicaSet web Normal SuccessfulDelete Delete: Deleted pod: web-");
    }
  }

  /** kube's deployment controller {@code scaleReplicaSet}: "Scaled %s replica set %s to %d from %d". */
  @Test
  void deployment_scaleUpAndDown_recordsScalingReplicaSet() {
    try (ObjectStore store = Sim.store(clock);
        ReplicaSetController rsc = ReplicaSetController.builder(store).clock(clock).stepping().build();
        DeploymentController dc = DeploymentController.builder(store).clock(clock).stepping().events(recorder)
            .build()) {
      rsc.start().join();
      dc.start().join();
      store.create(Cluster.web(2));
      dc.runUntilIdle();
      rsc.runUntilIdle();
      String rsName = store.list(ReplicaSet.class).items().get(0).metadata().name();
      events.clear();
      var d = store.require(io.fleetkit.api.apps.Deployment.class, "ns", "web");
      store.update(d.withSpec(d.spec().withReplicas(5)));
      dc.runUntilIdle();
      assertThat(events).containsExactly(
          "Deployment web Normal ScalingReplicaSet Scale: Scaled up replica set " + rsName + " to 5 from 2");
      events.clear();
      d = store.require(io.fleetkit.api.apps.Deployment.class, "ns", "web");
      store.update(d.withSpec(d.spec().withReplicas(1)));
      dc.runUntilIdle();
      assertThat(events).containsExactly(
          "Deployment web Normal ScalingReplicaSet Scale: Scaled down replica set " + rsName + " to 1 from 5");
    }
  }

  /** A recorder that throws never fails a reconcile: each pod is created once and nothing is retried. */
  @Test
  void replicaSet_throwingRecorder_createsEveryPodOnce() {
    List<String> tried = Collections.synchronizedList(new ArrayList<>());
    EventRecorder throwing = (regarding, related, type, reason, action, note) -> {
      tried.add(reason);
      throw new IllegalStateException("event sink is down");
    };
    try (ObjectStore store = Sim.store(clock);
        ReplicaSetController c = ReplicaSetController.builder(store).clock(clock).stepping().events(throwing)
            .build()) {
      c.start().join();
      store.create(rs("web", 3));
      c.runUntilIdle();
      assertThat(store.list(Pod.class).items()).hasSize(3);
      assertThat(tried).containsExactly("SuccessfulCreate", "SuccessfulCreate", "SuccessfulCreate");
      assertThat(store.require(ReplicaSet.class, "ns", "web").status().replicas()).isEqualTo(3);
    }
  }
}
