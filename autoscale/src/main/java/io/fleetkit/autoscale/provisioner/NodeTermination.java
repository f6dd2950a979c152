package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.GoDurations;
import io.fleetkit.autoscale.cluster.Drainability;
import io.fleetkit.autoscale.cluster.NodeTaintWrites;
import io.fleetkit.autoscale.cluster.TemplateNodes;
import io.fleetkit.reconcile.controllers.EvictionDecision;
import io.fleetkit.reconcile.controllers.Evictions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The termination of the provisioner's nodes, as Karpenter's node termination controller, terminator and eviction
 * queue ({@code pkg/controllers/node/termination/controller.go}, {@code terminator/terminator.go},
 * {@code terminator/eviction.go}) do it, on the provisioner's clock: {@link #start} taints the node
 * {@value #DISRUPTED_TAINT_KEY}{@code :NoSchedule} and notes its deadline (the start plus the NodePool's
 * {@code terminationGracePeriod}, none when unset); each {@link #advance} then drains it:
 * <ol>
 *   <li>The pods it waits for ({@code IsWaitingEviction}): not Succeeded or Failed, not tolerating the disrupted
 *       taint (DaemonSet pods usually tolerate every taint), not owned by the Node (static pods, mirror pods) and not
 *       terminating for more than {@value #STUCK_TERMINATING_SECONDS} s past their deletion timestamp.
 *   <li>Those that must go by the deadline ({@code needsForceDelete}): a pod not yet deleted once the deadline minus
 *       its {@code terminationGracePeriodSeconds} has passed, a terminating one whose deletion timestamp is past the
 *       deadline. They are deleted (not evicted: whatever their budgets and {@code do-not-disrupt}) with a grace
 *       period of the time left to the deadline, at least 1 s; all of them, whatever their priority.
 *   <li>The others are evicted through the eviction API ({@link Evictions}, which honours PodDisruptionBudgets) by
 *       groups, each only once the groups before it are gone (Kubernetes' graceful node shutdown order): non-critical
 *       non-DaemonSet pods, non-critical DaemonSet pods, critical ({@code system-cluster-critical},
 *       {@code system-node-critical}) non-DaemonSet pods, critical DaemonSet pods. A pod being deleted is waited
 *       for; a pod with an active {@value Provisioner#DO_NOT_DISRUPT} is not evicted (the drain waits on it until the
 *       deadline deletes it); a refused eviction is tried again at the next loop (Karpenter's queue requeues it with
 *       a backoff of at most 10 s).
 *   <li>The node is drained when it has no pod left to wait for and {@link #MIN_DRAIN_TIME} has passed since the
 *       drain began (so that pods bound just before the taint are drained too); the provisioner then deletes it.
 * </ol>
 *
 * <p>Not modelled: waiting for VolumeAttachments and for the cloud to report the instance gone (the simulated cloud
 * deletes at once), the load-balancer exclusion label. Not thread-safe: confined to the provisioner's loop.
 */
final class NodeTermination {
  private static final Logger LOG = LoggerFactory.getLogger(NodeTermination.class);
  /**
   * The value of the {@value io.fleetkit.api.core.Node#LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS} label a terminating
   * node gets (Karpenter's terminator), which takes it out of load balancers' backends.
   */
  static final String EXCLUDED_BY = "karpenter";
  /** Karpenter's {@code DisruptedTaintKey}: a terminating node's NoSchedule taint. */
  static final String DISRUPTED_TAINT_KEY = "karpenter.sh/disrupted";
  /** Karpenter's {@code MinDrainTime}. */
  static final Duration MIN_DRAIN_TIME = Duration.ofSeconds(5);
  /** Karpenter's {@code IsStuckTerminating}: how long past its deletion timestamp a terminating pod is waited for. */
  static final long STUCK_TERMINATING_SECONDS = 60;
  private static final Taint DISRUPTED = new Taint(DISRUPTED_TAINT_KEY, "", TaintEffect.NoSchedule, null);
  private static final Set<String> CRITICAL = Set.of("system-cluster-critical", "system-node-critical");

  private record Drain(Instant start, @Nullable Instant deadline) {}

  private final ObjectStore store;
  private final Map<String, Drain> drains = new LinkedHashMap<>();
  /** Per pod uid, the refusal last reported, so that a pod kept by its budget is reported once, not every loop. */
  private final Map<String, String> refusals = new HashMap<>();

  NodeTermination(ObjectStore store) {
    this.store = store;
  }

  /**
   * Begins the termination of {@code node} at {@code now} (nothing when it is already terminating): taints it, and
   * fixes its deadline at {@code now + terminationGracePeriod} ({@code null}: none, the drain waits as long as it takes).
   */
  void start(String node, Instant now, @Nullable Duration terminationGracePeriod) {
    if (drains.containsKey(node)) {
      return;
    }
    drains.put(node, new Drain(now, terminationGracePeriod == null ? null : now.plus(terminationGracePeriod)));
    // the load balancer label in the same write: out of the load balancers' backends while it drains
    String failed = NodeTaintWrites.put(store, node, DISRUPTED,
        Map.of(io.fleetkit.api.core.Node.LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS, EXCLUDED_BY));
    if (failed != null) {
      LOG.debug("termination of node {}: taint not written: {}", node, failed);
    }
  }

  /** Whether {@code n} carries the taint {@link #start} puts on a node it terminates. */
  static boolean isTainted(Node n) {
    for (Taint t : n.spec().taints()) {
      if (t.key().equals(DISRUPTED_TAINT_KEY) && t.effect() == TaintEffect.NoSchedule) {
        return true;
      }
    }
    return false;
  }

  boolean contains(String node) {
    return drains.containsKey(node);
  }

  int size() {
    return drains.size();
  }

  /** Forgets {@code node} (it is gone). */
  void forget(String node) {
    drains.remove(node);
  }

  /**
   * Drains every terminating node as far as {@code now} allows, adding what happened to {@code events}; returns the
   * nodes that are drained (and forgotten), for the caller to delete.
   */
  List<String> advance(Instant now, List<DrainEvent> events) {
    Map<String, List<Pod>> podsByNode = new HashMap<>();
    for (Pod p : store.list(Pod.class).items()) {
      if (p.isBound() && drains.containsKey(p.spec().nodeName())) {
        podsByNode.computeIfAbsent(p.spec().nodeName(), k -> new ArrayList<>()).add(p);
      }
    }
    List<String> drained = new ArrayList<>();
    for (Map.Entry<String, Drain> e : drains.entrySet()) {
      String node = e.getKey();
      Drain d = e.getValue();
      if (drain(node, d.deadline(), podsByNode.getOrDefault(node, List.of()), now, events)
          && !now.isBefore(d.start().plus(MIN_DRAIN_TIME))) {
        drained.add(node);
      }
    }
    drained.forEach(drains::remove);
    return drained;
  }

  /** The terminator's {@code Drain} and the queue's work on its pods; whether no pod is left to wait for. */
  private boolean drain(String node, @Nullable Instant deadline, List<Pod> pods, Instant now,
      List<DrainEvent> events) {
    List<Pod> forced = new ArrayList<>();
    List<List<Pod>> groups = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (Pod p : pods) {
      if (!waitingEviction(p, now)) {
        continue;
      }
      if (needsForceDelete(p, deadline, now)) {
        forced.add(p);
      } else {
        boolean critical = CRITICAL.contains(p.spec().priorityClassName());
        groups.get((critical ? 2 : 0) + (TemplateNodes.isDaemonSetPod(p) ? 1 : 0)).add(p);
      }
    }
    for (Pod p : forced) {
      forceDelete(node, p, java.util.Objects.requireNonNull(deadline), now, events);
    }
    for (List<Pod> group : groups) {
      if (!group.isEmpty()) {
        for (Pod p : group) {
          evict(node, p, now, events);
        }
        return false;
      }
    }
    return forced.isEmpty();
  }

  /** The queue's eviction of {@code p}: a pod being deleted or kept by {@code do-not-disrupt} is waited for. */
  private void evict(String node, Pod p, Instant now, List<DrainEvent> events) {
    if (p.metadata().deletionTimestamp() != null || doNotDisruptActive(p, now)) {
      return;
    }
    String key = p.metadata().key();
    EvictionDecision d;
    try {
      d = Evictions.evict(store, p, now, (Long) null);
    } catch (ConflictException | NotFoundException gone) {
      return; // another pod of that name now, or none: done with this one (upstream's NotFound and Conflict)
    }
    if (d.allowed()) {
      refusals.remove(p.metadata().uid());
      events.add(new DrainEvent(node, key, DrainEvent.Kind.EVICTED, ""));
    } else if (!d.reason().equals(refusals.put(p.metadata().uid(), d.reason()))) {
      events.add(new DrainEvent(node, key, DrainEvent.Kind.EVICTION_REFUSED, d.reason()));
    }
  }

  /** The queue's {@code forceDelete}: a deletion whose grace period ends at the deadline, at least 1 s. */
  private void forceDelete(String node, Pod p, Instant deadline, Instant now, List<DrainEvent> events) {
    long grace = Math.max(Duration.between(now, deadline).getSeconds(), 1);
    try {
      store.delete(Pod.class, p.metadata().namespace(), p.metadata().name(),
          DeleteOptions.of(DeletePreconditions.uid(p.metadata().uid())).withGracePeriodSeconds(grace));
    } catch (ConflictException | NotFoundException gone) {
      return;
    }
    refusals.remove(p.metadata().uid());
    // a terminating pod already deleted with at most that grace period keeps its deletion: reported once
    Long before = p.metadata().deletionGracePeriodSeconds();
    if (p.metadata().deletionTimestamp() == null || before == null || before > grace) {
      events.add(new DrainEvent(node, p.metadata().key(), DrainEvent.Kind.DELETED, "granted " + grace + "s of its "
          + p.spec().terminationGracePeriodSeconds() + "s terminationGracePeriodSeconds"));
    }
  }

  /** Karpenter's {@code IsWaitingEviction}: a pod the drain must see gone before the node may go. */
  static boolean waitingEviction(Pod p, Instant now) {
    if (p.isTerminal() || toleratesDisrupted(p) || ownedByNode(p)) {
      return false;
    }
    Instant deleted = p.metadata().deletionTimestamp();
    return deleted == null || !now.isAfter(deleted.plusSeconds(STUCK_TERMINATING_SECONDS));
  }

  /** Karpenter's {@code needsForceDelete}: whether {@code p} must be deleted now to be gone by {@code deadline}. */
  static boolean needsForceDelete(Pod p, @Nullable Instant deadline, Instant now) {
    if (deadline == null) {
      return false;
    }
    Instant deleted = p.metadata().deletionTimestamp();
    if (deleted != null) {
      return deleted.isAfter(deadline);
    }
    return now.isAfter(deadline.minusSeconds(p.spec().terminationGracePeriodSeconds()));
  }

  /**
   * Karpenter's {@code IsDoNotDisruptActive}: {@value Provisioner#DO_NOT_DISRUPT} is {@code "true"}, or a positive Go
   * duration the pod has not run for yet (since its start; active when it has not started). Any other value counts
   * as no annotation.
   */
  static boolean doNotDisruptActive(Pod p, Instant now) {
    String v = p.metadata().annotations().get(Provisioner.DO_NOT_DISRUPT);
    if (v == null) {
      return false;
    }
    if (v.equals("true")) {
      return true;
    }
    Duration d;
    try {
      d = GoDurations.parse(v);
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (d.isNegative() || d.isZero()) {
      return false;
    }
    Instant started = p.status().startTime();
    return started == null || now.isBefore(started.plus(d));
  }

  /** Karpenter's {@code ToleratesDisruptedNoScheduleTaint}. */
  private static boolean toleratesDisrupted(Pod p) {
    for (Toleration t : p.spec().tolerations()) {
      if (t.toleratesTaint(DISRUPTED)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Karpenter's {@code IsOwnedByNode} (an owner of kind Node: a static pod's mirror); a pod with the mirror annotation
   * counts too, as the kubelet gives its mirror pods both.
   */
  private static boolean ownedByNode(Pod p) {
    for (OwnerReference r : p.metadata().ownerReferences()) {
      if (r.kind().equals("Node")) {
        return true;
      }
    }
    return p.metadata().annotations().containsKey(Drainability.MIRROR_ANNOTATION);
  }
}
