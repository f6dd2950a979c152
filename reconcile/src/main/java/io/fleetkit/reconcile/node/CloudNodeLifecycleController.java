package io.fleetkit.reconcile.node;

import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.TimerClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The cloud controller manager's node lifecycle controller (kubernetes
 * {@code staging/src/k8s.io/cloud-provider/controllers/nodelifecycle}): every node monitor period (5 s) it looks at
 * the nodes that are not Ready and asks the cloud ({@link CloudInstances}) about their machines. A node whose machine
 * no longer exists is deleted (event {@value #DELETING_NODE}); one whose machine is shut down gets the
 * {@value CloudNodeRules#SHUTDOWN_TAINT}:NoSchedule taint, which goes again once the node is Ready. The decision for
 * one node is {@link CloudNodeRules#decide}.
 *
 * <p>Upstream lists every node at every pass; a Ready node without the shutdown taint needs nothing, so this
 * controller keeps, from a node watch, the names of the others and visits only those (in name order): the same
 * outcome at a cost that does not grow with the healthy nodes. Not thread-safe: made for single-threaded simulations
 * driven by {@link #sync} on the thread that advances the clock.
 */
public final class CloudNodeLifecycleController implements AutoCloseable {
  /** The event of a node deleted because its machine is gone (upstream {@code deleteNodeEvent}). */
  public static final String DELETING_NODE = "DeletingNode";
  /** The event of a failed deletion (upstream {@code deleteNodeFailedEvent}). */
  public static final String DELETING_NODE_FAILED = "DeletingNodeFailed";

  private final ObjectStore store;
  private final TimerClock clock;
  private final CloudInstances cloud;
  private final Duration monitorPeriod;
  private final EventRecorder events;
  /** The nodes that are not Ready or carry the shutdown taint, by name. */
  private final Set<String> watched = new TreeSet<>();
  private @Nullable Watch nodeWatch;
  private TimerClock.@Nullable Timer timer;
  private boolean started;
  private boolean monitorDue;

  private CloudNodeLifecycleController(Builder b) {
    this.store = b.store;
    this.clock = b.clock;
    this.cloud = b.cloud;
    this.monitorPeriod = b.monitorPeriod;
    this.events = EventRecorder.bestEffort(b.events);
  }

  /** A builder over {@code store} and {@code clock}, asking {@code cloud}. */
  public static Builder builder(ObjectStore store, TimerClock clock, CloudInstances cloud) {
    return new Builder(store, clock, cloud);
  }

  /**
   * Opens the node watch and schedules the passes: the first at the next {@link #sync}, then one every monitor
   * period.
   *
   * @throws IllegalStateException if already started
   */
  public void start() {
    if (started) {
      throw new IllegalStateException("cloud node lifecycle controller: already started");
    }
    started = true;
    ListResult<Node> nodes = store.list(Node.class);
    for (Node n : nodes.items()) {
      if (CloudNodeRules.watched(n)) {
        watched.add(n.name());
      }
    }
    nodeWatch = store.watch(Node.class, nodes.resourceVersion(), e -> {
      Node n = e.object();
      if (e.type() != WatchEventType.DELETED && CloudNodeRules.watched(n)) {
        watched.add(n.name());
      } else {
        watched.remove(n.name());
      }
    });
    monitorDue = true;
    arm();
  }

  private void arm() {
    timer = clock.schedule(monitorPeriod, () -> {
      monitorDue = true;
      arm();
    });
  }

  /**
   * Runs the pass if one is due.
   *
   * @return how many writes it made
   */
  public int sync() {
    if (!monitorDue) {
      return 0;
    }
    monitorDue = false;
    return monitor();
  }

  /**
   * One pass (upstream {@code MonitorNodes}) over the nodes that are not Ready or carry the shutdown taint; public for
   * tests that drive it directly.
   *
   * @return how many writes it made
   * @throws IllegalStateException if the controller was not started
   */
  public int monitor() {
    if (!started) {
      throw new IllegalStateException("cloud node lifecycle controller: monitor before start");
    }
    int writes = 0;
    for (String name : List.copyOf(watched)) {
      Node node = store.get(Node.class, "", name).orElse(null);
      if (node == null) {
        watched.remove(name);
        continue;
      }
      switch (CloudNodeRules.decide(node, clock.now(), cloud)) {
        case NONE -> { }
        case DELETE -> writes += delete(node);
        case ADD_SHUTDOWN_TAINT -> {
          List<Taint> taints = new ArrayList<>(node.spec().taints());
          taints.add(Taint.of(CloudNodeRules.SHUTDOWN_TAINT, "", TaintEffect.NoSchedule));
          store.update(withTaints(node, taints));
          writes++;
        }
        case REMOVE_SHUTDOWN_TAINT -> {
          List<Taint> taints = new ArrayList<>(node.spec().taints());
          taints.removeIf(t -> t.key().equals(CloudNodeRules.SHUTDOWN_TAINT) && t.effect() == TaintEffect.NoSchedule);
          store.update(withTaints(node, taints));
          writes++;
        }
      }
    }
    return writes;
  }

  private int delete(Node node) {
    ObjectReference ref = ObjectReference.to(node);
    events.event(ref, null, Event.NORMAL, DELETING_NODE, "DeleteNode", "Deleting node " + node.name()
        + " because it does not exist in the cloud provider");
    try {
      store.delete(Node.class, "", node.name());
      return 1;
    } catch (NotFoundException e) {
      events.event(ref, null, Event.WARNING, DELETING_NODE_FAILED, "DeleteNode", "Failed deleting node "
          + node.name() + ": " + e.getMessage());
      return 0;
    }
  }

  private static Node withTaints(Node node, List<Taint> taints) {
    NodeSpec s = node.spec();
    return node.withSpec(new NodeSpec(s.unschedulable(), taints, s.providerID(), s.podCIDRs()));
  }

  /** Cancels the timer and closes the node watch. Idempotent. */
  @Override
  public void close() {
    if (nodeWatch != null) {
      nodeWatch.close();
      nodeWatch = null;
    }
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
  }

  /** Builder with upstream's defaults; not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private final TimerClock clock;
    private final CloudInstances cloud;
    private Duration monitorPeriod = Duration.ofSeconds(5);
    private EventRecorder events = EventRecorder.NOOP;

    private Builder(ObjectStore store, TimerClock clock, CloudInstances cloud) {
      this.store = Objects.requireNonNull(store, "store");
      this.clock = Objects.requireNonNull(clock, "clock");
      this.cloud = Objects.requireNonNull(cloud, "cloud");
    }

    /** {@code --node-monitor-period}: 5 s. */
    public Builder monitorPeriod(Duration v) {
      Objects.requireNonNull(v, "monitorPeriod");
      if (v.isNegative() || v.isZero()) {
        throw new IllegalArgumentException("cloud node lifecycle controller: monitorPeriod " + v
            + " must be positive");
      }
      monitorPeriod = v;
      return this;
    }

    /** Where the {@value #DELETING_NODE} and {@value #DELETING_NODE_FAILED} events go (default: dropped). */
    public Builder events(EventRecorder v) {
      events = Objects.requireNonNull(v, "events");
      return this;
    }

    public CloudNodeLifecycleController build() {
      return new CloudNodeLifecycleController(this);
    }
  }
}
