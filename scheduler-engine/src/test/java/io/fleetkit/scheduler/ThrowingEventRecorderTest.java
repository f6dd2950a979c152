package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A recorder given by an embedder that throws never fails a scheduling attempt: events are best effort. */
final class ThrowingEventRecorderTest {
  @Test
  void bindingAndFailureStillHappenWhenTheRecorderThrows() {
    ManualClock clock = ManualClock.atEpoch2026();
    List<String> reasons = new ArrayList<>();
    EventRecorder throwing = (regarding, related, type, reason, action, note) -> {
      reasons.add(reason);
      throw new IllegalStateException("event sink is down");
    };
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      StoreBinder binder = new StoreBinder(store, clock);
      try (Scheduler s = Scheduler.builder().clock(clock).events(throwing).binder(binder).evictor(binder).build();
          StoreScheduler feed = s.attach(store)) {
        store.create(node("node1", 1000, 4096, 110));
        store.create(pod("fits", 100, 10));
        store.create(pod("toobig", 5000, 10));
        s.scheduleOne();
        s.scheduleOne();
        assertThat(store.require(Pod.class, "default", "fits").spec().nodeName()).isEqualTo("node1");
        assertThat(store.require(Pod.class, "default", "toobig").spec().nodeName()).isNullOrEmpty();
        assertThat(reasons).containsExactlyInAnyOrder(EventRecorder.SCHEDULED, EventRecorder.FAILED_SCHEDULING);
      }
    }
  }
}
