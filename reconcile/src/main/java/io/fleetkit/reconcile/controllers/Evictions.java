package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.policy.UnhealthyPodEvictionPolicyType;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The eviction subresource of Kubernetes' API server ({@code pkg/registry/core/pod/storage/eviction.go}) over the
 * embedded store: {@link #canEvict} answers whether the PodDisruptionBudgets allow evicting a pod now;
 * {@link #evict} also takes one disruption from the budget ({@code disruptionsAllowed - 1}, the pod recorded in
 * {@code disruptedPods}) and deletes the pod. Node drains and autoscalers evict through it; the taint-based eviction
 * of node lifecycle does not (as upstream, it ignores budgets).
 *
 * <p>Rules, in upstream's order: a pod that is Succeeded, Failed, Pending or already being deleted may always be
 * evicted; a pod selected by no budget may be evicted; more than one budget refuses; a pod that is not ready may be
 * evicted when the budget's policy is AlwaysAllow, or under IfHealthyBudget while {@code currentHealthy >=
 * desiredHealthy > 0}; otherwise the budget must have been observed at its current generation and have
 * {@code disruptionsAllowed > 0}. Stateless and thread-safe; {@link #evict} retries its budget update on conflicts.
 */
public final class Evictions {
  /** Upstream's {@code MaxDisruptedPodSize}. */
  public static final int MAX_DISRUPTED_PODS = 2000;
  private static final int CONFLICT_RETRIES = 5;

  private Evictions() {}

  /** Whether {@code pod} may be evicted now; reads the budgets from {@code store}, changes nothing. */
  public static EvictionDecision canEvict(ObjectStore store, Pod pod) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(pod, "pod");
    return decide(store, pod, false, Instant.EPOCH);
  }

  /**
   * Evicts {@code pod} if its budget allows: takes one disruption from the budget, then deletes the pod (with its
   * uid as precondition). A refused eviction changes nothing.
   *
   * @param now the time recorded in the budget's {@code disruptedPods}
   * @return the decision; when allowed, the pod is gone (or being deleted)
   */
  public static EvictionDecision evict(ObjectStore store, Pod pod, Instant now) {
    return evict(store, pod, now, null);
  }

  /**
   * {@link #evict(ObjectStore, Pod, Instant)} with the grace period of the eviction's {@code deleteOptions}
   * ({@code null}: the pod's own {@code terminationGracePeriodSeconds}), as a drain sends it.
   *
   * @param gracePeriodSeconds the deletion's grace period; see {@link DeleteOptions#gracePeriodSeconds()}
   */
  public static EvictionDecision evict(ObjectStore store, Pod pod, Instant now, @Nullable Long gracePeriodSeconds) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(now, "now");
    EvictionDecision d = decide(store, pod, true, now);
    if (d.allowed()) {
      try {
        store.delete(Pod.class, pod.metadata().namespace(), pod.metadata().name(),
            DeleteOptions.of(DeletePreconditions.uid(pod.metadata().uid())).withGracePeriodSeconds(gracePeriodSeconds));
      } catch (NotFoundException e) {
        // already gone: the eviction's goal is met
      }
    }
    return d;
  }

  /** Upstream's {@code canIgnorePDB}. */
  static boolean canIgnoreBudget(Pod pod) {
    PodPhase phase = pod.status().phase();
    return phase == PodPhase.Succeeded || phase == PodPhase.Failed || phase == PodPhase.Pending
        || pod.metadata().deletionTimestamp() != null;
  }

  /** The budgets whose selector matches {@code pod} (a null selector matches nothing, an empty one everything). */
  public static List<PodDisruptionBudget> budgetsFor(ObjectStore store, Pod pod) {
    List<PodDisruptionBudget> out = new ArrayList<>();
    for (PodDisruptionBudget pdb : store.list(PodDisruptionBudget.class, pod.metadata().namespace()).items()) {
      LabelSelector sel = pdb.spec().selector();
      if (sel != null && sel.matches(pod.metadata().labels())) {
        out.add(pdb);
      }
    }
    return out;
  }

  private static EvictionDecision decide(ObjectStore store, Pod pod, boolean decrement, Instant now) {
    if (canIgnoreBudget(pod)) {
      return EvictionDecision.allow("pod " + pod.metadata().key() + " is " + (pod.metadata().deletionTimestamp()
          != null ? "being deleted" : pod.status().phase()) + ": no disruption budget applies", null);
    }
    for (int attempt = 0; ; attempt++) {
      List<PodDisruptionBudget> budgets = budgetsFor(store, pod);
      if (budgets.isEmpty()) {
        return EvictionDecision.allow("no PodDisruptionBudget selects pod " + pod.metadata().key(), null);
      }
      if (budgets.size() > 1) {
        return EvictionDecision.refuse(EvictionDecision.MULTIPLE_BUDGETS, budgets.get(0).metadata().key());
      }
      PodDisruptionBudget pdb = budgets.get(0);
      String name = pdb.metadata().key();
      PodDisruptionBudgetStatus s = pdb.status();
      if (!pod.isReady()) {
        if (pdb.spec().effectiveUnhealthyPodEvictionPolicy() == UnhealthyPodEvictionPolicyType.AlwaysAllow) {
          return EvictionDecision.allow("pod is not ready and budget " + name + " has policy AlwaysAllow", name);
        }
        if (s.currentHealthy() >= s.desiredHealthy() && s.desiredHealthy() > 0) {
          return EvictionDecision.allow("pod is not ready and budget " + name + " is met ("
              + s.currentHealthy() + " healthy, " + s.desiredHealthy() + " needed)", name);
        }
      }
      EvictionDecision refusal = checkBudget(pdb);
      if (refusal != null) {
        return refusal;
      }
      if (!decrement) {
        return EvictionDecision.allow("budget " + name + " allows " + s.disruptionsAllowed() + " disruption(s)",
            name);
      }
      Map<String, Instant> disrupted = new HashMap<>(s.disruptedPods());
      disrupted.put(pod.metadata().name(), now);
      PodDisruptionBudgetStatus next = new PodDisruptionBudgetStatus(s.observedGeneration(), disrupted,
          s.disruptionsAllowed() - 1, s.currentHealthy(), s.desiredHealthy(), s.expectedPods(), s.conditions());
      try {
        store.updateStatus(pdb.withStatus(next));
        return EvictionDecision.allow("budget " + name + " allowed the disruption (" + (s.disruptionsAllowed() - 1)
            + " left)", name);
      } catch (ConflictException e) {
        if (attempt >= CONFLICT_RETRIES) {
          throw e;
        }
      }
    }
  }

  /** Upstream's {@code checkAndDecrement} without the decrement: a refusal, or {@code null} when it may go. */
  private static @Nullable EvictionDecision checkBudget(PodDisruptionBudget pdb) {
    String name = pdb.metadata().key();
    PodDisruptionBudgetStatus s = pdb.status();
    if (s.observedGeneration() < pdb.metadata().generation()) {
      return EvictionDecision.refuse(EvictionDecision.VIOLATES_BUDGET + " The disruption budget " + name
          + " is still being processed by the server.", name);
    }
    if (s.disruptionsAllowed() < 0) {
      return EvictionDecision.refuse("pdb disruptions allowed is negative", name);
    }
    if (s.disruptedPods().size() > MAX_DISRUPTED_PODS) {
      return EvictionDecision.refuse("DisruptedPods map too big - too many evictions not confirmed by PDB "
          + "controller", name);
    }
    if (s.disruptionsAllowed() == 0) {
      return EvictionDecision.refuse(EvictionDecision.VIOLATES_BUDGET + " The disruption budget " + name
          + " needs " + s.desiredHealthy() + " healthy pods and has " + s.currentHealthy() + " currently", name);
    }
    return null;
  }
}
