package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The taint-eviction controller's {@code TaintManagerEviction} events (kubernetes
 * {@code pkg/controller/tainteviction/taint_eviction.go} {@code emitPodDeletionEvent} when a pod's deletion comes
 * due, {@code emitCancelPodDeletionEvent} from {@code cancelWorkWithEvent} when a scheduled one is cancelled).
 */
final class TaintEvictionEventsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private final List<String> events = new ArrayList<>();
  private final EventRecorder recorder = (regarding, related, type, reason, action, note) -> events.add(type + " "
      + reason + " " + action + " " + regarding.kind() + "/" + regarding.namespace() + "/" + regarding.name() + ": "
      + note);
  private final TaintEvictionController tc = TaintEvictionController.create(store, clock, recorder);

  @AfterEach
  void close() {
    tc.close();
    store.close();
  }

  private static final Taint TAINT = Taint.of("dedicated", "x", TaintEffect.NoExecute);

  private static Pod pod(String name, String node, Long tolerationSeconds, boolean tolerates) {
    PodSpec.Builder s = PodSpec.builder().container("c", "img", ResourceList.EMPTY).nodeName(node);
    if (tolerates) {
      s.toleration(new Toleration("dedicated", TolerationOperator.Equal, "x", TaintEffect.NoExecute,
          tolerationSeconds));
    }
    return Pod.builder().namespace("default").name(name).spec(s.build()).build();
  }

  private void run(int seconds) {
    tc.sync();
    for (int i = 0; i < seconds; i++) {
      clock.advance(Duration.ofSeconds(1));
      tc.sync();
    }
  }

  @Test
  void untoleratedTaint_markingForDeletion() {
    store.create(Node.builder().name("n1").taints(List.of(TAINT)).build());
    tc.start();
    store.create(pod("p1", "n1", null, false));
    run(1);
    assertThat(events).containsExactly(
        "Normal TaintManagerEviction Delete Pod/default/p1: Marking for deletion Pod default/p1");
  }

  @Test
  void taintRemovedBeforeTolerationEnds_cancellingDeletion_noMarking() {
    store.create(Node.builder().name("n1").taints(List.of(TAINT)).build());
    tc.start();
    store.create(pod("p1", "n1", 60L, true));
    run(10);
    Node n = store.require(Node.class, "", "n1");
    store.update(n.withSpec(new NodeSpec(false, List.of(), "")));
    run(70);
    assertThat(events).containsExactly(
        "Normal TaintManagerEviction Cancel Pod/default/p1: Cancelling deletion of Pod default/p1");
  }

  @Test
  void toleratedForever_noEvent() {
    store.create(Node.builder().name("n1").taints(List.of(TAINT)).build());
    tc.start();
    store.create(pod("p1", "n1", null, true));
    run(30);
    assertThat(events).isEmpty();
  }

  @Test
  void podDeletedWhileItsEvictionIsScheduled_cancellingDeletion() {
    store.create(Node.builder().name("n1").taints(List.of(TAINT)).build());
    tc.start();
    store.create(pod("p1", "n1", 60L, true));
    run(5);
    store.delete(Pod.class, "default", "p1", io.fleetkit.api.store.DeleteOptions.gracePeriod(0));
    run(70);
    assertThat(events).containsExactly(
        "Normal TaintManagerEviction Cancel Pod/default/p1: Cancelling deletion of Pod default/p1");
  }
}
