package io.fleetkit.simulator;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import io.fleetkit.autoscale.cluster.InstanceCreation;
import io.fleetkit.autoscale.cluster.InstanceErrorClass;
import io.fleetkit.autoscale.provisioner.ConsolidationCommand;
import io.fleetkit.autoscale.provisioner.DrainEvent;
import io.fleetkit.autoscale.provisioner.InstanceType;
import io.fleetkit.autoscale.provisioner.Provisioner;
import io.fleetkit.autoscale.provisioner.ProvisionerOptions;
import io.fleetkit.autoscale.provisioner.ProvisionerResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Karpenter-style {@link Provisioner} in a scenario run, in place of the cluster autoscaler: every NodePool
 * becomes one instance type (its template's allocatable, labels, taints and device templates, its price; the pool's
 * label so that the series count its nodes and cost per pool, and the run's driver publisher gives them the pool's
 * slices), and a launched node starts in its pool's start-up delay (the
 * provisioner has one delay for all types, so the node's ready time is set per pool after each loop). The pools'
 * sizes are not limits here: Karpenter has no node groups. Runs every {@link ClusterSimulation#AUTOSCALER_PERIOD},
 * so its batch windows (1 s/10 s by default, the scenario's {@code spec.provisioner} otherwise:
 * {@link ProvisionerChoice}) close on that tick, and its budgets' schedules are read at the run's clock. Every node
 * is asked of the run's cloud ({@link CapacityStockouts}); a refused launch is a {@code LaunchFailed} line. A node
 * older than the provisioner's {@code expireAfter} (720 h unless the scenario sets it) is terminated, an
 * {@code Expire} line; its pods' controllers recreate them and the provisioner launches for them as for any pending
 * pods. A consolidated or expired node is drained before its deletion (the {@code ScaleDown} line): an eviction a
 * PodDisruptionBudget refuses is a {@code FailedDraining} line on the node (once per pod and refusal), a pod deleted to
 * end by the {@code terminationGracePeriod} a {@code DrainDeadline} line on the pod. A spot interruption warning
 * about one of its nodes begins that node's termination at once ({@link #interrupt}), as Karpenter's interruption
 * controller does. Not thread-safe.
 */
final class ProvisionerLoop {
  /** The provisioner's name (its nodes are {@code fleetkit-1}, {@code fleetkit-2}, ...). */
  static final String NAME = "fleetkit";

  private final ObjectStore store;
  private final ManualClock clock;
  private final Provisioner provisioner;
  private final Map<String, Duration> delays = new HashMap<>();
  /** The provisioner's {@code expireAfter}, for the {@code Expire} lines (never {@code null} when one is written). */
  private final Duration expireAfter;
  /** The provisioner's {@code terminationGracePeriod}, for the {@code DrainDeadline} lines (set when one is written). */
  private final Duration terminationGracePeriod;

  ProvisionerLoop(ObjectStore store, ManualClock clock, List<NodePool> pools, InstanceCreation cloud,
      ProvisionerOptions options) {
    this.store = store;
    this.clock = clock;
    List<InstanceType> types = new ArrayList<>();
    Duration longest = Duration.ZERO;
    for (NodePool p : pools) {
      String pool = p.metadata().name();
      Map<String, String> labels = new TreeMap<>(p.spec().template().labels());
      labels.put(NodePool.POOL_LABEL, pool);
      types.add(new InstanceType(pool, p.spec().template().allocatable(), labels, p.spec().template().taints(),
          p.spec().pricePerHour(), p.spec().template().resourceSlices()));
      delays.put(pool, p.spec().startupDelay());
      longest = longest.compareTo(p.spec().startupDelay()) < 0 ? p.spec().startupDelay() : longest;
    }
    this.expireAfter = options.expireAfter() == null ? Duration.ZERO : options.expireAfter();
    this.terminationGracePeriod = options.terminationGracePeriod() == null ? Duration.ZERO
        : options.terminationGracePeriod();
    this.provisioner = Provisioner.builder(store).name(NAME).clock(clock.asClock()).instanceTypes(types)
        .options(options.withStartupDelay(longest)).instanceCreation(cloud).build();
  }

  /**
   * Karpenter's interruption handling on a spot interruption warning ({@link Provisioner#interrupt}): the node's
   * termination begins now. Whether it did (false for a node that is not the provisioner's).
   */
  boolean interrupt(String node) {
    return provisioner.interrupt(node);
  }

  /** One provisioner loop; the timeline lines it produced (kind, object, message), in order. */
  List<String[]> runOnce() {
    ProvisionerResult r = provisioner.runOnce();
    Instant now = clock.now();
    List<String[]> out = new ArrayList<>();
    Map<String, List<String>> byType = new TreeMap<>();
    r.launched().forEach((node, type) -> byType.computeIfAbsent(type, k -> new ArrayList<>()).add(node));
    for (Map.Entry<String, List<String>> e : byType.entrySet()) {
      e.getValue().sort(null);
      for (String node : e.getValue()) {
        startIn(node, delays.getOrDefault(e.getKey(), Duration.ZERO), now);
      }
      out.add(new String[] {"ScaleUp", "NodePool/" + e.getKey(), "provisioner launching " + e.getValue().size()
          + " node(s): " + String.join(", ", e.getValue())});
    }
    // Karpenter deletes a NodeClaim whose launch failed; an out-of-capacity offering is skipped for a while
    for (ProvisionerResult.LaunchFailure f : r.launchFailures()) {
      boolean capacity = f.error().errorClass() == InstanceErrorClass.OUT_OF_RESOURCES;
      out.add(new String[] {"LaunchFailed", "NodePool/" + f.instanceType(), "provisioner's node " + f.node()
          + " not launched: " + f.error().errorCode() + (capacity ? "; offering " + f.instanceType()
          + (f.zone().isEmpty() ? "" : " in zone " + f.zone()) + " skipped for "
          + io.fleetkit.api.Violations.durationText(Provisioner.UNAVAILABLE_OFFERINGS_TTL) : "")});
    }
    for (ConsolidationCommand c : r.commands()) {
      out.add(new String[] {"Consolidate", "Provisioner/" + NAME, c.method() + ": " + String.join(", ", c.candidates())
          + (c.replacement() == null ? " removed" : " replaced by a " + c.replacement())
          + String.format(java.util.Locale.ROOT, " (saves %.2f $/h)", c.savingsPerHour())});
    }
    // Karpenter's expiration deletes the NodeClaim whatever the budgets; nothing is launched ahead of the pods
    for (String n : r.expiredNodes()) {
      out.add(new String[] {"Expire", "Node/" + n, "expired: older than the provisioner's expireAfter ("
          + io.fleetkit.api.Violations.durationText(expireAfter) + "); draining, its pods to be rescheduled"});
    }
    // the termination controller's drain: what stops it (Karpenter's FailedDraining warning on the node), and the pods
    // deleted so that they end by the node's terminationGracePeriod (its Disrupted event on the pod)
    for (DrainEvent e : r.drainEvents()) {
      switch (e.kind()) {
        case EVICTION_REFUSED -> out.add(new String[] {"FailedDraining", "Node/" + e.node(), "eviction of pod "
            + e.pod() + " refused, retried: " + e.message()});
        case DELETED -> out.add(new String[] {"DrainDeadline", "Pod/" + e.pod(), "deleted from " + e.node()
            + " to end by its terminationGracePeriod (" + io.fleetkit.api.Violations.durationText(
                terminationGracePeriod) + "), bypassing its PodDisruptionBudget and do-not-disrupt: " + e.message()});
        case EVICTED -> { } // an eviction is the pod's own deletion: a PodEvicted line where pod events are on
      }
    }
    if (!r.deletedNodes().isEmpty()) {
      out.add(new String[] {"ScaleDown", "Provisioner/" + NAME, "removed " + String.join(", ", r.deletedNodes())});
    }
    for (String n : r.timedOutNodes()) {
      out.add(new String[] {"NodeProvisionTimeout", "Node/" + n, "not ready within the provisioner's registration TTL ("
          + io.fleetkit.api.Violations.durationText(Provisioner.REGISTRATION_TTL) + "); deleted"});
    }
    return out;
  }

  /** Nodes launched in this loop, sorted, for the start-up phases. */
  static List<String> launched(List<String[]> lines) {
    List<String> out = new ArrayList<>();
    for (String[] l : lines) {
      if (l[0].equals("ScaleUp")) {
        out.addAll(List.of(l[2].substring(l[2].indexOf(": ") + 2).split(", ")));
      }
    }
    return out;
  }

  /** Sets the launched node's ready time to its pool's start-up delay after its request. */
  private void startIn(String name, Duration delay, Instant now) {
    Node n = store.get(Node.class, "", name).orElse(null);
    if (n == null || !SimulatedNodes.isStarting(n)) {
      return;
    }
    Instant requested = SimulatedNodes.requestedAt(n);
    Instant readyAt = (requested == null ? now : requested).plus(delay);
    if (!readyAt.equals(SimulatedNodes.readyAt(n))) {
      store.update(n.toBuilder().annotation(SimulatedNodes.READY_AT, readyAt.toString()).build());
    }
  }
}
