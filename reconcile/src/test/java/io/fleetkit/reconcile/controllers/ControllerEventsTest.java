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
}
