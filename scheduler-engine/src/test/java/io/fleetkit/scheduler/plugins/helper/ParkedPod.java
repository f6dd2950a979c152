package io.fleetkit.scheduler.plugins.helper;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreScheduler;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * A scheduler with the default profile, fed from a store with direct delivery, holding one pod parked as
 * unschedulable: the harness for showing a plugin's queueing hints at work. After the first attempt the clock moves a
 * minute on (past any backoff, well before the five-minute flush of unschedulable pods) and the pod must still be
 * parked, so every later attempt is one a cluster event caused, and a re-queued pod is tried at once.
 */
public final class ParkedPod implements AutoCloseable {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store;
  private final Scheduler scheduler;
  private final StoreScheduler feed;
  private final String key;

  private ParkedPod(List<Node> nodes, List<Pod> bound, Pod pod) {
    store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
    scheduler = Scheduler.builder().clock(clock).store(store).profile(DefaultPlugins.profile()).build();
    nodes.forEach(store::create);
    bound.forEach(store::create);
    store.create(pod);
    key = pod.metadata().key();
    feed = scheduler.attach(store);
    scheduler.runUntilIdle();
    clock.advance(Duration.ofMinutes(1));
    scheduler.runUntilIdle();
  }

  /** Creates {@code nodes} and {@code pod}, and checks that the pod is parked as unschedulable by {@code plugin}. */
  public static ParkedPod park(List<Node> nodes, Pod pod, String plugin, String reason) {
    return park(nodes, List.of(), pod, plugin, reason);
  }

  /** {@link #park(List, Pod, String, String)} with pods already bound to the nodes. */
  public static ParkedPod park(List<Node> nodes, List<Pod> bound, Pod pod, String plugin, String reason) {
    ParkedPod p = new ParkedPod(nodes, bound, pod);
    PendingPod parked = p.pending();
    assertThat(parked.queue()).as("queue of %s", p.key).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
    assertThat(parked.message()).as("message of %s (rejected by %s)", p.key, plugin).contains(reason);
    return p;
  }

  public ObjectStore store() {
    return store;
  }

  /** The pod's entry in the scheduling queue; fails when it left the queue. */
  public PendingPod pending() {
    return scheduler.pending().stream().filter(q -> q.podKey().equals(key)).findFirst()
        .orElseThrow(() -> new AssertionError(key + " is no longer pending"));
  }

  /** Scheduling attempts so far. */
  public int attempts() {
    return pending().attempts();
  }

  /**
   * Replaces node {@code name} by {@code change} applied to its builder (metadata and spec, then status, as a
   * controller and a node agent would write them), then lets the scheduler run.
   */
  public void updateNode(String name, Consumer<Node.Builder> change) {
    Node.Builder b = store.require(Node.class, "", name).toBuilder();
    change.accept(b);
    Node changed = b.build();
    Node updated = store.update(changed);
    if (!updated.status().equals(changed.status())) {
      store.updateStatus(updated.withStatus(changed.status()));
    }
    scheduler.runUntilIdle();
  }

  /** Creates {@code node}, then lets the scheduler run. */
  public void addNode(Node node) {
    store.create(node);
    scheduler.runUntilIdle();
  }

  /** The node the pod is bound to, empty while pending. */
  public String boundNode() {
    int slash = key.indexOf('/');
    return store.require(Pod.class, key.substring(0, slash), key.substring(slash + 1)).spec().nodeName();
  }

  /** The store's current version of the parked pod. */
  public Pod pod() {
    int slash = key.indexOf('/');
    return store.require(Pod.class, key.substring(0, slash), key.substring(slash + 1));
  }

  /** Replaces a pod by {@code pod} (of the parked pod itself, or of another), then lets the scheduler run. */
  public void updatePod(Pod pod) {
    store.update(pod);
    scheduler.runUntilIdle();
  }

  /** Resizes a pod's containers in place ({@code pods/resize}), then lets the scheduler run. */
  public void resizePod(Pod pod) {
    store.resize(pod);
    scheduler.runUntilIdle();
  }

  /** Lets the scheduler run after a change made through {@link #store()}. */
  public void run() {
    scheduler.runUntilIdle();
  }

  @Override
  public void close() {
    feed.close();
    scheduler.close();
    store.close();
  }
}
