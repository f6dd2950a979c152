package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The collector on the clock: its period's grid, the quarantine in passes, and an idle collector's silence. */
final class PodGcControllerTest {
  private final ManualClock clock = new ManualClock(Instant.EPOCH);
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private final PodGcController gc = PodGcController.builder(store, clock).build();

  @AfterEach
  void close() {
    gc.close();
    store.close();
  }

  private Pod runningPod(String name, String node) {
    Pod p = store.create(Pod.builder().namespace("default").name(name)
        .spec(PodSpec.builder().container("c", "img", ResourceList.EMPTY).nodeName(node).build()).build());
    return store.updateStatus(p.withStatus(p.status().withPhase(PodPhase.Running)));
  }

  /** Advances the clock to {@code t}, syncing at every timer as a simulation's settle does. */
  private void runTo(Duration t) {
    Instant target = Instant.EPOCH.plus(t);
    while (true) {
      Instant next = clock.nextDeadline().orElse(null);
      if (next == null || next.isAfter(target)) {
        break;
      }
      clock.advanceTo(next);
      gc.sync();
    }
    clock.advanceTo(target);
    gc.sync();
  }

  @Test
  void idleCollector_runsItsFirstPassAndSchedulesNothing() {
    store.create(Node.builder().name("n1").build());
    runningPod("web", "n1");
    gc.start();
    assertThat(gc.sync()).isZero();
    assertThat(gc.passes()).isEqualTo(1);
    assertThat(clock.pendingTasks()).as("nothing to collect: no wake-up").isZero();
    runTo(Duration.ofMinutes(10));
    assertThat(gc.passes()).isEqualTo(1);
  }

  @Test
  void deletedNode_itsPodsGoAtTheFirstPassAfterTheQuarantineFromThePassThatSawItMissing() {
    store.create(Node.builder().name("n1").build());
    runningPod("web", "n1");
    List<String> events = new ArrayList<>();
    store.watch(Pod.class, "0", e -> events.add(e.type() + " " + e.object().status().phase() + " "
        + (e.object().status().condition(PodCondition.DISRUPTION_TARGET) != null)));
    gc.start();
    gc.sync();
    runTo(Duration.ofSeconds(5));
    store.delete(Node.class, "", "n1");
    gc.sync(); // the next pass, at 20 s, quarantines n1 until 60 s
    runTo(Duration.ofSeconds(59));
    assertThat(gc.quarantinedNodes()).containsExactly("n1");
    assertThat(store.get(Pod.class, "default", "web")).isPresent();
    runTo(Duration.ofSeconds(60));
    assertThat(store.get(Pod.class, "default", "web")).isEmpty();
    assertThat(events).containsExactly("MODIFIED Failed true", "DELETED Failed true");
    assertThat(gc.deletedCount()).isEqualTo(1);
    assertThat(gc.passes()).as("passes at 0, 20, 40, 60 s").isEqualTo(4);
    assertThat(clock.pendingTasks()).as("nothing left: no wake-up").isZero();
  }

  @Test
  void terminatedBeyondTheThreshold_collectedAtTheNextTickOfTheGrid() {
    try (PodGcController small = PodGcController.builder(store, clock).terminatedPodThreshold(1).build()) {
      store.create(Node.builder().name("n1").build());
      small.start();
      small.sync();
      clock.advance(Duration.ofSeconds(3));
      for (String name : List.of("a", "b")) {
        Pod p = runningPod(name, "n1");
        store.updateStatus(p.withStatus(p.status().withPhase(PodPhase.Succeeded)));
      }
      small.sync();
      assertThat(clock.nextDeadline()).contains(Instant.EPOCH.plusSeconds(20));
      clock.advanceTo(Instant.EPOCH.plusSeconds(20));
      assertThat(small.sync()).isEqualTo(1);
      assertThat(store.list(Pod.class).items()).extracting(p -> p.metadata().name()).containsExactly("b");
    }
  }

  @Test
  void builder_rejectsAPeriodBelowAMillisecond_andAStartTwice() {
    assertThatThrownBy(() -> PodGcController.builder(store, clock).gcCheckPeriod(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gcCheckPeriod PT0S must be at least 1ms");
    gc.start();
    assertThatThrownBy(gc::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("already started");
  }
}
