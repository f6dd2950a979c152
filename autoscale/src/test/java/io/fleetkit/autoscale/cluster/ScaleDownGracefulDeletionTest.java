package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.ActuationFixtures.removablePod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How scale-down actuation deletes pods, over a store with graceful deletion and no kubelet: a drain evicts each pod
 * with its grace period (its {@code terminationGracePeriodSeconds}, at most {@code maxGracefulTerminationSec}), so the
 * pod stays, Terminating, with {@code deletionTimestamp} = now + grace until its kubelet ends it; removing the node
 * deletes the pods left on it with grace period 0 (the kubelet is gone), so they disappear at once.
 */
final class ScaleDownGracefulDeletionTest {
  private static final int MAX_GRACEFUL_TERMINATION = 60;

  private final ActuationFixtures f = new ActuationFixtures();

  @AfterEach
  void close() {
    f.store.close();
  }

  private ScaleDownActuator actuator() {
    AutoscalerOptions opts = AutoscalerOptions.defaults().withMaxGracefulTerminationSec(MAX_GRACEFUL_TERMINATION)
        .withMaxPodEvictionTime(Duration.ofMinutes(5)).withDaemonSetEvictionForEmptyNodes(false)
        .withDaemonSetEvictionForOccupiedNodes(false).withNodeDeleteDelayAfterTaint(Duration.ZERO);
    return ScaleDownActuator.overStore(f.store, opts, new ScaleDownEvictor.Timing(MAX_GRACEFUL_TERMINATION,
        Duration.ofMinutes(5), Duration.ZERO, ScaleDownEvictor.POD_EVICTION_HEADROOM));
  }

  private Node node(String name) {
    return f.nodes(ActuationFixtures.pool("p", false), name, 0, 1).get(0);
  }

  private Optional<Pod> pod(String name) {
    return f.store.get(Pod.class, "default", name);
  }

  @Test
  void drain_evictsEachPodWithItsGracePeriod_podsStayTerminating_untilTheirKubeletEndsThem() {
    Node n = node("drained");
    f.create(List.of(removablePod("short", n.name(), 45), removablePod("long", n.name(), 120),
        removablePod("default-grace", n.name())));
    ScaleDownActuator a = actuator();
    Instant t0 = f.clock.instant();
    a.startDeletion(List.of(), List.of(n), t0);
    a.advance(t0);

    assertThat(f.evictedPods).containsExactlyInAnyOrder("short", "long", "default-grace");
    // evicted, not removed: each is Terminating with the grace period the drain gave it
    Pod shortPod = pod("short").orElseThrow();
    assertThat(shortPod.metadata().deletionTimestamp()).isEqualTo(t0.plusSeconds(45));
    assertThat(shortPod.metadata().deletionGracePeriodSeconds()).isEqualTo(45L);
    Pod longPod = pod("long").orElseThrow();
    assertThat(longPod.metadata().deletionTimestamp()).as("capped at maxGracefulTerminationSec")
        .isEqualTo(t0.plusSeconds(MAX_GRACEFUL_TERMINATION));
    assertThat(longPod.metadata().deletionGracePeriodSeconds()).isEqualTo((long) MAX_GRACEFUL_TERMINATION);
    Pod defaultPod = pod("default-grace").orElseThrow();
    assertThat(defaultPod.metadata().deletionTimestamp()).as("the pod's default 30 s")
        .isEqualTo(t0.plusSeconds(30));
    assertThat(defaultPod.metadata().deletionGracePeriodSeconds()).isEqualTo(30L);
    // the drain waits for them: the node stays while they do
    f.clock.advance(Duration.ofSeconds(10));
    a.advance(f.clock.instant());
    assertThat(f.store.get(Node.class, "", n.name())).isPresent();
    assertThat(pod("short")).isPresent();

    // their kubelet ends them: the drain completes and the node is removed
    f.runUntilIdle(a);
    assertThat(f.store.get(Node.class, "", n.name())).isEmpty();
    assertThat(f.store.list(Pod.class, "default").items()).isEmpty();
  }

  @Test
  void nodeRemoval_deletesThePodsLeftOnTheNode_withGracePeriodZero() {
    Node n = node("drained");
    // a DaemonSet pod is not evicted from an occupied node (daemonSetEvictionForOccupiedNodes false); it is left on
    // the node until the node goes
    Pod ds = removablePod("ds-pod", n.name(), 120).toBuilder().ownerReference(ActuationFixtures.DS).build();
    f.create(List.of(removablePod("app", n.name(), 45), ds));
    ScaleDownActuator a = actuator();
    a.startDeletion(List.of(), List.of(n), f.clock.instant());
    a.advance(f.clock.instant());
    assertThat(pod("ds-pod").orElseThrow().metadata().deletionTimestamp()).as("not evicted").isNull();
    assertThat(pod("app").orElseThrow().metadata().deletionTimestamp()).as("evicted").isNotNull();

    f.finishTerminating(); // the kubelet ends the evicted pod; nothing ends pods afterwards
    for (int i = 0; i < 600 && f.store.get(Node.class, "", n.name()).isPresent(); i++) {
      f.clock.advance(Duration.ofSeconds(1));
      a.advance(f.clock.instant());
    }
    assertThat(f.store.get(Node.class, "", n.name())).isEmpty();
    // removed at once (a graceful deletion would leave it Terminating for 120 s: no kubelet ends it)
    assertThat(pod("ds-pod")).isEmpty();
    assertThat(f.evictedPods).containsExactly("app");
  }

  @Test
  void emptyNodeRemoval_deletesItsDaemonSetPods_withGracePeriodZero() {
    Node n = node("empty");
    Pod ds = removablePod("ds-pod", n.name(), 120).toBuilder().ownerReference(ActuationFixtures.DS).build();
    f.create(List.of(ds));
    ScaleDownActuator a = actuator();
    Instant t0 = f.clock.instant();
    a.startDeletion(List.of(n), List.of(), t0);
    a.advance(t0);
    assertThat(f.store.get(Node.class, "", n.name())).isEmpty();
    assertThat(pod("ds-pod")).as("gone with the node, at once").isEmpty();
    assertThat(f.clock.instant()).isEqualTo(t0);
  }
}
