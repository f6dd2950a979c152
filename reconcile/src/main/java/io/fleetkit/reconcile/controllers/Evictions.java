package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.policy.UnhealthyPodEvictionPolicyType;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.controllers.internal.DisruptionReconciler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The eviction subresource of Kubernetes' API server ({@code pkg/registry/core/pod/storage/eviction.go}) over the
 * embedded store: {@link #canEvict} answers whether the PodDisruptionBudgets allow evicting a pod now;
 * {@link #evict} also takes one disruption from the budget ({@code disruptionsAllowed - 1}, the pod recorded in
 * {@code disruptedPods}; condition {@code DisruptionAllowed=False} when that was the last one), marks the pod
 * {@code DisruptionTarget=True} (reason {@value #REASON}, message {@value #MESSAGE}) and deletes it. Node drains and
 * autoscalers evict through it; the taint-based eviction of node lifecycle does not (as upstream, it ignores budgets
 * and writes its own DisruptionTarget reason).
 *
 * <p>Rules, in upstream's order: a pod that is Succeeded, Failed, Pending or already being deleted may always be
 * evicted; a pod selected by no budget may be evicted; more than one budget refuses; a pod that is not ready may be
 * evicted without taking a disruption when the budget's policy is AlwaysAllow, or under IfHealthyBudget while
 * {@code currentHealthy >= desiredHealthy > 0}; otherwise the budget must have been observed at its current
 * generation and have {@code disruptionsAllowed > 0}.
 *
 * <p>{@link #evict} works on the pod as stored (read again; its uid must be the given pod's) and, as upstream, guards
 * against racing with a pod that becomes ready: a Pending pod, and a not-ready pod let go without taking a
 * disruption, are deleted only at the resourceVersion the decision read. A Pending pod that changed meanwhile is read
 * again and decided again (a pod that started Running goes on to the budget checks); a not-ready pod that changed is
 * refused with upstream's "still being processed by the server" message, for the caller to retry. Before each
 * deletion the newest pod gets the DisruptionTarget condition ({@code UpdatePodCondition}: written only when it
 * changes), checked against the deletion's uid and resourceVersion preconditions; a resourceVersion precondition
 * then moves to the version that write made. Conflicts are retried at once (upstream waits about 500 ms between its
 * {@value #RETRY_STEPS} attempts): the budget's status write, and the deletion of a pod whose budget is ignored.
 *
 * <p>Stateless and thread-safe.
 */
public final class Evictions {
  /** Upstream's {@code MaxDisruptedPodSize}. */
  public static final int MAX_DISRUPTED_PODS = 2000;
  /** The DisruptionTarget reason an eviction writes (upstream's {@code EvictionByEvictionAPI}). */
  public static final String REASON = "EvictionByEvictionAPI";
  /** The DisruptionTarget message an eviction writes. */
  public static final String MESSAGE = "Eviction API: evicting";
  /** Upstream's {@code EvictionsRetry.Steps}: attempts at a write that conflicts. */
  static final int RETRY_STEPS = 20;

  private Evictions() {}

  /** Whether {@code pod} may be evicted now; reads the budgets from {@code store}, changes nothing. */
  public static EvictionDecision canEvict(ObjectStore store, Pod pod) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(pod, "pod");
    if (canIgnoreBudget(pod)) {
      return budgetIgnored(pod);
    }
    List<PodDisruptionBudget> budgets = budgetsFor(store, pod);
    if (budgets.size() != 1) {
      return noSingleBudget(pod, budgets);
    }
    PodDisruptionBudget pdb = budgets.get(0);
    EvictionDecision unhealthy = unhealthyAllowed(pod, pdb);
    if (unhealthy != null) {
      return unhealthy;
    }
    EvictionDecision refusal = checkBudget(pdb);
    return refusal != null ? refusal : EvictionDecision.allow("budget " + pdb.metadata().key() + " allows "
        + pdb.status().disruptionsAllowed() + " disruption(s)", pdb.metadata().key());
  }

  /**
   * Evicts {@code pod} if its budget allows: takes one disruption from the budget, marks the pod
   * {@code DisruptionTarget} and deletes it (with its uid as precondition). A refused eviction changes nothing.
   *
   * @param now the time recorded in the budget's {@code disruptedPods} and the condition's transition time
   * @return the decision; when allowed, the pod is gone (or being deleted)
   * @throws ConflictException if the pod stored under that name has another uid, or the store kept conflicting
   */
  public static EvictionDecision evict(ObjectStore store, Pod pod, Instant now) {
    return evict(store, pod, now, (Long) null);
  }

  /**
   * {@link #evict(ObjectStore, Pod, Instant)} with the grace period of the eviction's {@code deleteOptions}
   * ({@code null}: the pod's own {@code terminationGracePeriodSeconds}), as a drain sends it.
   *
   * @param gracePeriodSeconds the deletion's grace period; see {@link DeleteOptions#gracePeriodSeconds()}
   * @throws ConflictException if the pod stored under that name has another uid, or the store kept conflicting
   */
  public static EvictionDecision evict(ObjectStore store, Pod pod, Instant now, @Nullable Long gracePeriodSeconds) {
    Objects.requireNonNull(pod, "pod");
    return evict(store, pod, now, DeleteOptions.of(DeletePreconditions.uid(pod.metadata().uid()))
        .withGracePeriodSeconds(gracePeriodSeconds));
  }

  /**
   * Upstream's {@code EvictionREST.Create} with the eviction's {@code deleteOptions}: a resourceVersion precondition
   * there is honoured as given and disables the retries.
   */
  static EvictionDecision evict(ObjectStore store, Pod pod, Instant now, DeleteOptions options) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(options, "options");
    String ns = pod.metadata().namespace();
    String name = pod.metadata().name();
    boolean callerVersion = !options.preconditions().resourceVersion().isEmpty();
    Pod current;
    for (int attempt = 1; ; attempt++) {
      Optional<Pod> stored = store.get(Pod.class, ns, name);
      if (stored.isEmpty()) {
        return gone(pod);
      }
      current = stored.get();
      if (!canIgnoreBudget(current)) {
        break;
      }
      DeleteOptions delete = shouldEnforceResourceVersion(current) && !callerVersion
          ? atVersion(options, current) : options;
      try {
        addConditionAndDelete(store, ns, name, delete, now);
        return budgetIgnored(current);
      } catch (NotFoundException e) {
        return gone(pod);
      } catch (ConflictException e) {
        if (callerVersion || attempt >= RETRY_STEPS) {
          throw e;
        }
      }
    }
    List<PodDisruptionBudget> budgets = budgetsFor(store, current);
    EvictionDecision decision;
    boolean atReadVersion = false;
    if (budgets.size() != 1) {
      decision = noSingleBudget(current, budgets);
      if (!decision.allowed()) {
        return decision;
      }
    } else {
      EvictionDecision unhealthy = unhealthyAllowed(current, budgets.get(0));
      atReadVersion = unhealthy != null;
      decision = atReadVersion ? unhealthy : checkAndDecrement(store, budgets.get(0), name, now);
      if (!decision.allowed()) {
        return decision;
      }
    }
    try {
      addConditionAndDelete(store, ns, name, atReadVersion ? atVersion(options, current) : options, now);
    } catch (NotFoundException e) {
      return gone(pod);
    } catch (ConflictException e) {
      if (atReadVersion && !callerVersion) {
        // the pod changed since it was judged unhealthy (it may be ready now): the client should ask again
        return EvictionDecision.refuse(stillProcessing(budgets.get(0)), budgets.get(0).metadata().key());
      }
      throw e;
    }
    return decision;
  }

  /**
   * Upstream's {@code addConditionAndDeletePod}: gives the newest stored pod {@code DisruptionTarget=True} (written
   * only when that changes its status; a conflicting write is made again on the newer pod, as the API server's
   * guaranteed update) after checking {@code options}' uid and resourceVersion preconditions against it, moves a
   * resourceVersion precondition to the version the write made, then deletes the pod with {@code options}.
   *
   * @return the pod after the deletion (see {@link ObjectStore#delete(Class, String, String, DeleteOptions)})
   * @throws NotFoundException if there is no such pod
   * @throws ConflictException if a precondition does not hold (the message says which)
   */
  static Pod addConditionAndDelete(ObjectStore store, String namespace, String name, DeleteOptions options,
      Instant now) {
    DeletePreconditions pre = options.preconditions();
    PodCondition target = PodCondition.of(PodCondition.DISRUPTION_TARGET, ConditionStatus.True, REASON, MESSAGE,
        now);
    Pod updated;
    while (true) {
      Pod latest = store.require(Pod.class, namespace, name);
      checkPreconditions(latest, pre);
      PodStatus status = latest.status().withConditionUpdated(target);
      if (status == latest.status()) {
        updated = latest;
        break;
      }
      try {
        updated = store.updateStatus(latest.withStatus(status));
        break;
      } catch (ConflictException e) {
        // written meanwhile: check and mark the newer pod
      }
    }
    DeleteOptions delete = pre.resourceVersion().isEmpty() ? options : atVersion(options, updated);
    return store.delete(Pod.class, namespace, name, delete);
  }

  /** Upstream's {@code canIgnorePDB}. */
  static boolean canIgnoreBudget(Pod pod) {
    PodPhase phase = pod.status().phase();
    return phase == PodPhase.Succeeded || phase == PodPhase.Failed || phase == PodPhase.Pending
        || pod.metadata().deletionTimestamp() != null;
  }

  /** Upstream's {@code shouldEnforceResourceVersion}: a pod neither terminal nor being deleted may still turn ready. */
  private static boolean shouldEnforceResourceVersion(Pod pod) {
    PodPhase phase = pod.status().phase();
    return phase != PodPhase.Succeeded && phase != PodPhase.Failed && pod.metadata().deletionTimestamp() == null;
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

  private static EvictionDecision budgetIgnored(Pod pod) {
    return EvictionDecision.allow("pod " + pod.metadata().key() + " is " + (pod.metadata().deletionTimestamp()
        != null ? "being deleted" : pod.status().phase()) + ": no disruption budget applies", null);
  }

  private static EvictionDecision gone(Pod pod) {
    return new EvictionDecision(true, "pod " + pod.metadata().key() + " is already gone", null, true);
  }

  /** The answer when not exactly one budget selects the pod: none allows, several refuse. */
  private static EvictionDecision noSingleBudget(Pod pod, List<PodDisruptionBudget> budgets) {
    return budgets.isEmpty()
        ? EvictionDecision.allow("no PodDisruptionBudget selects pod " + pod.metadata().key(), null)
        : EvictionDecision.refuse(EvictionDecision.MULTIPLE_BUDGETS, budgets.get(0).metadata().key());
  }

  /** The permission for a not-ready pod that does not count towards the budget, or {@code null}. */
  private static @Nullable EvictionDecision unhealthyAllowed(Pod pod, PodDisruptionBudget pdb) {
    if (pod.isReady()) {
      return null;
    }
    String name = pdb.metadata().key();
    PodDisruptionBudgetStatus s = pdb.status();
    if (pdb.spec().effectiveUnhealthyPodEvictionPolicy() == UnhealthyPodEvictionPolicyType.AlwaysAllow) {
      return EvictionDecision.allow("pod is not ready and budget " + name + " has policy AlwaysAllow", name);
    }
    if (s.currentHealthy() >= s.desiredHealthy() && s.desiredHealthy() > 0) {
      return EvictionDecision.allow("pod is not ready and budget " + name + " is met ("
          + s.currentHealthy() + " healthy, " + s.desiredHealthy() + " needed)", name);
    }
    return null;
  }

  /**
   * Upstream's {@code checkAndDecrement} under {@code RetryOnConflict}: a refusal, or the budget's status written
   * with one disruption fewer and the pod in {@code disruptedPods}; a conflicting write reads the budget again.
   */
  private static EvictionDecision checkAndDecrement(ObjectStore store, PodDisruptionBudget budget, String podName,
      Instant now) {
    PodDisruptionBudget pdb = budget;
    String name = pdb.metadata().key();
    for (int attempt = 1; ; attempt++) {
      EvictionDecision refusal = checkBudget(pdb);
      if (refusal != null) {
        return refusal;
      }
      PodDisruptionBudgetStatus s = pdb.status();
      int allowed = s.disruptionsAllowed() - 1;
      Map<String, Instant> disrupted = new HashMap<>(s.disruptedPods());
      disrupted.put(podName, now);
      List<Condition> conditions = allowed == 0
          ? Condition.replacing(s.conditions(), DisruptionReconciler.disruptionAllowedCondition(pdb, allowed, now))
          : s.conditions();
      PodDisruptionBudgetStatus next = new PodDisruptionBudgetStatus(s.observedGeneration(), disrupted, allowed,
          s.currentHealthy(), s.desiredHealthy(), s.expectedPods(), conditions);
      try {
        store.updateStatus(pdb.withStatus(next));
        return EvictionDecision.allow("budget " + name + " allowed the disruption (" + allowed + " left)", name);
      } catch (ConflictException e) {
        if (attempt >= RETRY_STEPS) {
          throw e;
        }
        pdb = store.require(PodDisruptionBudget.class, pdb.metadata().namespace(), pdb.metadata().name());
      }
    }
  }

  /** Upstream's {@code checkAndDecrement} without the decrement: a refusal, or {@code null} when it may go. */
  private static @Nullable EvictionDecision checkBudget(PodDisruptionBudget pdb) {
    String name = pdb.metadata().key();
    PodDisruptionBudgetStatus s = pdb.status();
    if (s.observedGeneration() < pdb.metadata().generation()) {
      return EvictionDecision.refuse(stillProcessing(pdb), name);
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

  /** Upstream's {@code createTooManyRequestsError}: the budget is not settled yet; ask again. */
  private static String stillProcessing(PodDisruptionBudget pdb) {
    return EvictionDecision.VIOLATES_BUDGET + " The disruption budget " + pdb.metadata().key()
        + " is still being processed by the server.";
  }

  /** {@code options} with {@code pod}'s resourceVersion as precondition ({@code setPreconditionsResourceVersion}). */
  private static DeleteOptions atVersion(DeleteOptions options, Pod pod) {
    return options.withPreconditions(new DeletePreconditions(options.preconditions().uid(),
        pod.metadata().resourceVersion()));
  }

  /** Upstream's {@code getLatestPod} check of the deletion's preconditions against the stored pod. */
  private static void checkPreconditions(Pod latest, DeletePreconditions pre) {
    String uid = latest.metadata().uid();
    if (!pre.uid().isEmpty() && !pre.uid().equals(uid)) {
      throw new ConflictException("Operation cannot be fulfilled on " + latest.describe() + ": the UID in the "
          + "precondition (" + pre.uid() + ") does not match the UID in record (" + uid + "). The object might have "
          + "been deleted and then recreated");
    }
    String rv = latest.metadata().resourceVersion();
    if (!pre.resourceVersion().isEmpty() && !pre.resourceVersion().equals(rv)) {
      throw new ConflictException("Operation cannot be fulfilled on " + latest.describe() + ": the ResourceVersion "
          + "in the precondition (" + pre.resourceVersion() + ") does not match the ResourceVersion in record (" + rv
          + "). The object might have been modified");
    }
  }
}
