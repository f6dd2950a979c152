package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.reconcile.controllers.ActivePods;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PodDisruptionBudget reconciler, after {@code pkg/controller/disruption/disruption.go} ({@code trySync},
 * {@code getExpectedPodCount}, {@code getExpectedScale}, {@code countHealthyPods}, {@code buildDisruptedPodMap}):
 *
 * <ul>
 *   <li>maxUnavailable (count or percent): expected = the summed scale of the pods' controllers, desired = expected
 *       - maxUnavailable (percent rounded up), at least 0;</li>
 *   <li>minAvailable count: expected = the number of selected pods, desired = minAvailable;</li>
 *   <li>minAvailable percent: expected = the summed scale, desired = minAvailable of it rounded up.</li>
 * </ul>
 * The scale of a pod's controller comes from a ReplicaSet (or the Deployment owning it) or a StatefulSet; pods
 * without a controller are left out of it (event {@value #UNMANAGED_PODS}); a controller of any other kind fails the
 * sync, which then writes the fail-safe status (no disruptions allowed, condition {@code SyncFailed}). Healthy pods
 * are the ready ones not being deleted and not in {@code disruptedPods}; entries there are dropped when their pod is
 * gone or being deleted or after 2 minutes. {@code disruptionsAllowed = max(0, currentHealthy - desiredHealthy)},
 * and 0 when expected is 0.
 */
public final class DisruptionReconciler implements Reconciler<PodDisruptionBudget> {
  private static final Logger LOG = LoggerFactory.getLogger(DisruptionReconciler.class);
  /** Upstream's {@code DeletionTimeout}: how long an admitted eviction stays in {@code disruptedPods}. */
  public static final Duration DELETION_TIMEOUT = Duration.ofMinutes(2);
  /** Upstream's event reasons, each recorded on the budget; {@code Sync} is FleetKit's action for them. */
  static final String NO_PODS = "NoPods";
  static final String CALCULATE_EXPECTED_POD_COUNT_FAILED = "CalculateExpectedPodCountFailed";
  static final String UNMANAGED_PODS = "UnmanagedPods";
  private static final String SYNC = "Sync";

  /** Thrown when the expected count cannot be computed. */
  static final class ScaleException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ScaleException(String message) {
      super(message, null, false, false);
    }
  }

  @Override
  public Result reconcile(ReconcileContext<PodDisruptionBudget> ctx) {
    PodDisruptionBudget pdb = ctx.object().orElse(null);
    if (pdb == null) {
      return Result.done();
    }
    Instant now = ctx.now();
    EventRecorder events = ctx.events(); // best effort: the controller wraps its recorder
    List<Pod> pods = podsFor(pdb, ctx.lister(Pod.class).list(pdb.metadata().namespace()));
    if (pods.isEmpty() && events != EventRecorder.NOOP) { // upstream's trySync
      events.event(pdb, Event.NORMAL, NO_PODS, SYNC, "No matching pods found");
    }
    PodDisruptionBudgetStatus status;
    Duration recheck = null;
    boolean failed = false;
    try {
      Expected expected = expectedPodCount(ctx.store(), pdb, pods);
      if (!expected.unmanagedPods().isEmpty()) {
        // upstream logs the pods' names and records the event, then goes on with the pods it could count
        LOG.debug("poddisruptionbudget {}: found unmanaged pods {}", ctx.key(), expected.unmanagedPods());
        if (events != EventRecorder.NOOP) {
          events.event(pdb, Event.WARNING, UNMANAGED_PODS, SYNC, unmanagedPodsNote(pdb.spec().selector()));
        }
      }
      Map<String, Pod> byName = new HashMap<>();
      for (Pod p : pods) {
        byName.put(p.metadata().name(), p);
      }
      Map<String, Instant> disrupted = new LinkedHashMap<>();
      for (Map.Entry<String, Instant> e : pdb.status().disruptedPods().entrySet()) {
        Pod p = byName.get(e.getKey());
        Instant expiry = e.getValue().plus(DELETION_TIMEOUT);
        if (p == null || p.metadata().deletionTimestamp() != null || !expiry.isAfter(now)) {
          continue; // gone, being deleted, or the eviction never led to a deletion
        }
        disrupted.put(e.getKey(), e.getValue());
        Duration left = Duration.between(now, expiry);
        recheck = recheck == null || left.compareTo(recheck) < 0 ? left : recheck;
      }
      int healthy = countHealthy(pods, disrupted);
      status = status(pdb, disrupted, healthy, expected.desiredHealthy(), expected.count(), now);
    } catch (ScaleException e) {
      LOG.debug("poddisruptionbudget {}: {}", ctx.key(), e.getMessage());
      if (events != EventRecorder.NOOP) {
        events.event(pdb, Event.WARNING, CALCULATE_EXPECTED_POD_COUNT_FAILED, SYNC,
            "Failed to calculate the number of expected pods: " + e.getMessage());
      }
      failed = true;
      status = failSafe(pdb, e.getMessage(), now);
    }
    if (!status.equals(pdb.status())) {
      try {
        ctx.store().updateStatus(pdb.withStatus(status));
      } catch (ConflictException | NotFoundException e) {
        // an eviction changed the budget meanwhile: never write a stale disruptionsAllowed, compute again
        return Result.requeue();
      }
    }
    if (failed) {
      return Result.requeue();
    }
    return recheck == null ? Result.done() : Result.requeueAfter(recheck);
  }

  /**
   * Upstream's {@code UnmanagedPods} note: the budget's selector as Go's {@code %v} prints a
   * {@code *metav1.LabelSelector} (its generated {@code String()}: labels sorted by key, expressions in order).
   */
  static String unmanagedPodsNote(@Nullable LabelSelector selector) {
    return "Pods selected by this PodDisruptionBudget (selector: " + goString(selector) + ") were found to be "
        + "unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in "
        + "undefined behavior. To account for these pods please set \".spec.minAvailable\" field of the PDB to an "
        + "integer value.";
  }

  /** {@code metav1.LabelSelector.String()}, {@code nil} for none. */
  static String goString(@Nullable LabelSelector selector) {
    if (selector == null) {
      return "nil";
    }
    StringBuilder sb = new StringBuilder("&LabelSelector{MatchLabels:map[string]string{");
    for (Map.Entry<String, String> e : new TreeMap<>(selector.matchLabels()).entrySet()) {
      sb.append(e.getKey()).append(": ").append(e.getValue()).append(',');
    }
    sb.append("},MatchExpressions:[]LabelSelectorRequirement{");
    for (LabelSelectorRequirement r : selector.matchExpressions()) {
      // LabelSelectorRequirement.String() without its leading '&'; Values as Go's %v of a []string
      sb.append("LabelSelectorRequirement{Key:").append(r.key()).append(",Operator:").append(r.operator().name())
          .append(",Values:[").append(String.join(" ", r.values())).append("],},");
    }
    return sb.append("},}").toString();
  }

  /** The pods a budget selects: none for a null selector, all of the namespace for an empty one. */
  public static List<Pod> podsFor(PodDisruptionBudget pdb, List<Pod> namespacePods) {
    LabelSelector sel = pdb.spec().selector();
    if (sel == null) {
      return List.of();
    }
    List<Pod> out = new ArrayList<>();
    for (Pod p : namespacePods) {
      if (sel.matches(p.metadata().labels())) {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * What upstream's {@code getExpectedPodCount} returns.
   *
   * @param unmanagedPods the names of the selected pods without a controller, in the order of the pods (looked for
   *     only where the scale of the pods' controllers is needed: maxUnavailable, or minAvailable as a percentage)
   */
  record Expected(int count, int desiredHealthy, List<String> unmanagedPods) {
    Expected {
      unmanagedPods = List.copyOf(unmanagedPods);
    }
  }

  /** Upstream's {@code getExpectedPodCount}. */
  static Expected expectedPodCount(ObjectStore store, PodDisruptionBudget pdb, List<Pod> pods) {
    IntOrPercent maxUnavailable = pdb.spec().maxUnavailable();
    IntOrPercent minAvailable = pdb.spec().minAvailable();
    if (maxUnavailable != null) {
      Scale scale = expectedScale(store, pods);
      int max = maxUnavailable.scaledValue(scale.expected(), true);
      return new Expected(scale.expected(), Math.max(0, scale.expected() - max), scale.unmanagedPods());
    }
    if (minAvailable != null) {
      if (!minAvailable.percent()) {
        return new Expected(pods.size(), minAvailable.value(), List.of());
      }
      Scale scale = expectedScale(store, pods);
      return new Expected(scale.expected(), minAvailable.scaledValue(scale.expected(), true),
          scale.unmanagedPods());
    }
    return new Expected(0, 0, List.of());
  }

  /** The scale of one controller: its uid and replicas. */
  public record ControllerScale(String uid, int scale) {}

  /** What upstream's {@code getExpectedScale} returns: the summed scale, and the pods without a controller. */
  record Scale(int expected, List<String> unmanagedPods) {
    Scale {
      unmanagedPods = List.copyOf(unmanagedPods);
    }
  }

  /**
   * Upstream's {@code getExpectedScale}: the summed scale of the distinct controllers of {@code pods}; pods
   * without a controller are left out of it and named in the result.
   *
   * @throws ScaleException when a pod's controller has no known scale
   */
  static Scale expectedScale(ObjectStore store, List<Pod> pods) {
    Map<String, Integer> scales = new HashMap<>();
    List<String> unmanaged = new ArrayList<>();
    for (Pod pod : pods) {
      OwnerReference ref = pod.metadata().controllerRef();
      if (ref == null) {
        unmanaged.add(pod.metadata().name());
        continue;
      }
      if (scales.containsKey(ref.uid())) {
        continue;
      }
      ControllerScale cs = findScale(store, ref, pod.metadata().namespace());
      if (cs == null) {
        throw new ScaleException("found no controllers for pod \"" + pod.metadata().name() + "\"");
      }
      scales.put(cs.uid(), cs.scale());
    }
    int sum = 0;
    for (int s : scales.values()) {
      sum += s;
    }
    return new Scale(sum, unmanaged);
  }

  /**
   * Upstream's finders in order: a ReplicationController (core group, {@code getPodReplicationController}), a
   * ReplicaSet owned by a Deployment (the Deployment's scale), a ReplicaSet, a StatefulSet; the API group must be
   * {@code apps} (or {@code extensions} for ReplicaSets and Deployments) and the uid must match. {@code null} when
   * none applies.
   */
  public static @Nullable ControllerScale findScale(ObjectStore store, OwnerReference ref, String namespace) {
    String group = group(ref.apiVersion());
    if (ref.kind().equals(ReplicationController.KIND) && group.isEmpty()) {
      ReplicationController rc = store.get(ReplicationController.class, namespace, ref.name()).orElse(null);
      return rc == null || !rc.metadata().uid().equals(ref.uid()) ? null
          : new ControllerScale(rc.metadata().uid(), rc.spec().replicas());
    }
    if (ref.kind().equals(ReplicaSet.KIND) && (group.equals("apps") || group.equals("extensions"))) {
      ReplicaSet rs = store.get(ReplicaSet.class, namespace, ref.name()).orElse(null);
      if (rs == null || !rs.metadata().uid().equals(ref.uid())) {
        return null;
      }
      OwnerReference dref = rs.metadata().controllerRef();
      if (dref != null && dref.kind().equals(Deployment.KIND)) {
        String dgroup = group(dref.apiVersion());
        if (!dgroup.equals("apps") && !dgroup.equals("extensions")) {
          return null;
        }
        Deployment d = store.get(Deployment.class, namespace, dref.name()).orElse(null);
        return d == null || !d.metadata().uid().equals(dref.uid()) ? null
            : new ControllerScale(d.metadata().uid(), d.spec().replicas());
      }
      if (dref != null) {
        return null; // a ReplicaSet of something else: upstream's finders do not know its scale
      }
      return new ControllerScale(rs.metadata().uid(), rs.spec().replicas());
    }
    if (ref.kind().equals(StatefulSet.KIND) && group.equals("apps")) {
      StatefulSet ss = store.get(StatefulSet.class, namespace, ref.name()).orElse(null);
      return ss == null || !ss.metadata().uid().equals(ref.uid()) ? null
          : new ControllerScale(ss.metadata().uid(), ss.spec().replicas());
    }
    return null;
  }

  private static String group(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  /** Upstream's {@code countHealthyPods}: ready, not being deleted, not recorded as disrupted. */
  static int countHealthy(List<Pod> pods, Map<String, Instant> disrupted) {
    int n = 0;
    for (Pod p : pods) {
      if (p.metadata().deletionTimestamp() == null && !disrupted.containsKey(p.metadata().name())
          && p.isReady()) {
        n++;
      }
    }
    return n;
  }

  private static PodDisruptionBudgetStatus status(PodDisruptionBudget pdb, Map<String, Instant> disrupted,
      int currentHealthy, int desiredHealthy, int expected, Instant now) {
    int allowed = currentHealthy - desiredHealthy;
    if (expected <= 0 || allowed <= 0) {
      allowed = 0;
    }
    return new PodDisruptionBudgetStatus(pdb.metadata().generation(), disrupted, allowed, currentHealthy,
        desiredHealthy, expected, List.of(disruptionAllowedCondition(pdb, allowed, now)));
  }

  /**
   * Upstream's {@code UpdateDisruptionAllowedCondition}: {@code DisruptionAllowed=True} (reason SufficientPods) when
   * {@code disruptionsAllowed > 0}, else {@code False} (InsufficientPods), for {@code pdb}'s generation; the budget's
   * own condition (and its transition time) when it already says so. The controller writes it with every status, the
   * eviction subresource when it takes the budget's last disruption.
   */
  public static Condition disruptionAllowedCondition(PodDisruptionBudget pdb, int disruptionsAllowed, Instant now) {
    return disruptionsAllowed > 0
        ? condition(pdb, ConditionStatus.True, PodDisruptionBudgetStatus.SUFFICIENT_PODS, "", now)
        : condition(pdb, ConditionStatus.False, PodDisruptionBudgetStatus.INSUFFICIENT_PODS, "", now);
  }

  /** Upstream's {@code failSafe}: nothing may be disrupted while the budget cannot be computed. */
  private static PodDisruptionBudgetStatus failSafe(PodDisruptionBudget pdb, String message, Instant now) {
    PodDisruptionBudgetStatus s = pdb.status();
    Condition c = condition(pdb, ConditionStatus.False, PodDisruptionBudgetStatus.SYNC_FAILED, message, now);
    return new PodDisruptionBudgetStatus(pdb.metadata().generation(), s.disruptedPods(), 0, s.currentHealthy(),
        s.desiredHealthy(), s.expectedPods(), List.of(c));
  }

  /** The DisruptionAllowed condition, keeping the old transition time when status and reason are unchanged. */
  private static Condition condition(PodDisruptionBudget pdb, ConditionStatus status, String reason,
      String message, Instant now) {
    for (Condition old : pdb.status().conditions()) {
      if (old.type().equals(PodDisruptionBudgetStatus.DISRUPTION_ALLOWED) && old.status() == status
          && old.reason().equals(reason) && old.message().equals(message)
          && old.observedGeneration() == pdb.metadata().generation()) {
        return old;
      }
    }
    return new Condition(PodDisruptionBudgetStatus.DISRUPTION_ALLOWED, status, pdb.metadata().generation(), now,
        reason, message);
  }
}
