package io.fleetkit.autoscale.vpa;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.autoscaling.RecommendedPodResources;
import io.fleetkit.api.autoscaling.UpdateMode;
import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.autoscale.hpa.TargetScale;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The VPA updater over an {@link ObjectStore} ({@code updater/logic/updater.go}): for each VPA in mode Recreate
 * (or Auto) or InPlaceOrRecreate with a recommendation, picks the pods of its target that
 * {@link UpdatePriorityCalculator} accepts, highest priority first, and
 * <ul>
 *   <li>InPlaceOrRecreate: resizes the pod's requests in place (the store's pods/resize), falling back to
 *       eviction when the resize is refused. A pod with pod-level resources ({@code spec.resources}, KEP-2837) is always refused, as
 *       Kubernetes refuses to resize one ("pods with pod-level resources cannot be resized"), and so is evicted;</li>
 *   <li>Recreate: evicts it (deletes it, so its controller recreates it and admission applies the
 *       recommendation).</li>
 * </ul>
 * Evictions respect PodDisruptionBudgets (a matching budget must allow a disruption; it is then decremented), skip
 * targets with fewer than {@code minReplicas} (2) live pods and evict at most {@code evictionTolerance} (50%) of the
 * target's replicas per run, or one pod when that rounds to zero and all are running
 * ({@code pods_eviction_restriction.go}). Modes Off and Initial never evict. Runs are not concurrent-safe for the
 * same store; call {@link #runOnce()} from one thread.
 */
public final class VpaUpdater {
  /** {@code min-replicas}. */
  public static final int DEFAULT_MIN_REPLICAS = 2;
  /** {@code eviction-tolerance}. */
  public static final double DEFAULT_EVICTION_TOLERANCE = 0.5;

  private static final Logger LOG = LoggerFactory.getLogger(VpaUpdater.class);

  private final ObjectStore store;
  private final Clock clock;
  private final double evictionTolerance;

  public VpaUpdater(ObjectStore store, Clock clock, double evictionTolerance) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (!(evictionTolerance >= 0 && evictionTolerance <= 1)) {
      throw new IllegalArgumentException("vpa updater: evictionTolerance " + evictionTolerance + " must be in [0, 1]");
    }
    this.evictionTolerance = evictionTolerance;
  }

  public static VpaUpdater create(ObjectStore store, Clock clock) {
    return new VpaUpdater(store, clock, DEFAULT_EVICTION_TOLERANCE);
  }

  /** One updater pass over every VPA of the store. */
  public List<UpdateAction> runOnce() {
    List<UpdateAction> actions = new ArrayList<>();
    for (VerticalPodAutoscaler vpa : store.list(VerticalPodAutoscaler.class).items()) {
      actions.addAll(update(vpa));
    }
    return actions;
  }

  /** One updater pass for one VPA. */
  public List<UpdateAction> update(VerticalPodAutoscaler vpa) {
    UpdateMode mode = vpa.spec().updateMode().effective();
    RecommendedPodResources rec = vpa.status().recommendation();
    if (rec == null || (mode != UpdateMode.Recreate && mode != UpdateMode.InPlaceOrRecreate)) {
      return List.of();
    }
    String ns = vpa.metadata().namespace();
    TargetScale scale;
    try {
      scale = TargetScale.read(store, ns, vpa.spec().targetRef());
    } catch (FleetKitException | IllegalArgumentException e) {
      LOG.debug("vpa {}/{}: no target: {}", ns, vpa.metadata().name(), e.getMessage());
      return List.of();
    }
    List<Pod> pods = store.list(Pod.class, ns, scale.selector()).items().stream()
        .filter(p -> p.metadata().deletionTimestamp() == null).toList();
    Integer policyMin = vpa.spec().updatePolicy() == null ? null : vpa.spec().updatePolicy().minReplicas();
    int minReplicas = policyMin != null ? policyMin : DEFAULT_MIN_REPLICAS;
    int running = (int) pods.stream().filter(p -> p.status().phase() == PodPhase.Running).count();
    if (pods.size() < minReplicas) {
      LOG.debug("vpa {}/{}: too few replicas ({} < {})", ns, vpa.metadata().name(), pods.size(), minReplicas);
      return List.of();
    }
    record Candidate(Pod pod, PodPriority priority) {}
    List<Candidate> candidates = new ArrayList<>();
    for (Pod p : pods) {
      UpdatePriorityCalculator.updatePriority(p, rec, vpa.spec().resourcePolicy(), clock.instant())
          .ifPresent(pr -> candidates.add(new Candidate(p, pr)));
    }
    candidates.sort(Comparator.comparing(Candidate::priority).reversed());
    int configured = scale.specReplicas();
    int tolerance = (int) (configured * evictionTolerance);
    int evicted = 0;
    List<UpdateAction> actions = new ArrayList<>();
    for (Candidate c : candidates) {
      String key = ns + "/" + c.pod().metadata().name();
      if (mode == UpdateMode.InPlaceOrRecreate) {
        if (c.pod().spec().hasPodLevelResources()) {
          // Kubernetes refuses any resize of such a pod (without InPlacePodLevelResourcesVerticalScaling); upstream's
          // updater then falls back to eviction, as for any refused resize.
          LOG.debug("vpa: in-place resize of {} refused (pods with pod-level resources cannot be resized), evicting",
              key);
        } else {
          try {
            store.resize(VpaAdmission.apply(c.pod(), vpa, rec)); // pods/resize, as upstream's updater
            actions.add(new UpdateAction(key, "ResizedInPlace", c.priority()));
            continue;
          } catch (FleetKitException e) {
            LOG.debug("vpa: in-place resize of {} refused ({}), evicting", key, e.getMessage());
          }
        }
      }
      boolean canEvict = running - evicted > configured - tolerance
          || (running == configured && tolerance == 0 && evicted == 0);
      if (!canEvict) {
        actions.add(new UpdateAction(key, "BlockedByEvictionTolerance", c.priority()));
        continue;
      }
      Optional<List<PodDisruptionBudget>> budgets = budgetsAllowing(c.pod());
      if (budgets.isEmpty()) {
        actions.add(new UpdateAction(key, "BlockedByPdb", c.priority()));
        continue;
      }
      for (PodDisruptionBudget b : budgets.get()) {
        store.updateStatus(b.withStatus(new io.fleetkit.api.policy.PodDisruptionBudgetStatus(
            b.status().observedGeneration(), b.status().disruptedPods(), b.status().disruptionsAllowed() - 1,
            b.status().currentHealthy(), b.status().desiredHealthy(), b.status().expectedPods(),
            b.status().conditions())));
      }
      store.delete(Pod.class, ns, c.pod().metadata().name());
      evicted++;
      actions.add(new UpdateAction(key, "Evicted", c.priority()));
    }
    return actions;
  }

  /** The budgets covering {@code pod} if all of them allow one more disruption; empty when one refuses. */
  private Optional<List<PodDisruptionBudget>> budgetsAllowing(Pod pod) {
    List<PodDisruptionBudget> matching = new ArrayList<>();
    for (PodDisruptionBudget b : store.list(PodDisruptionBudget.class, pod.metadata().namespace()).items()) {
      if (b.spec().selector() != null && b.spec().selector().matches(pod.metadata().labels())) {
        if (b.status().disruptionsAllowed() <= 0) {
          return Optional.empty();
        }
        matching.add(store.require(PodDisruptionBudget.class, b.metadata().namespace(), b.metadata().name()));
      }
    }
    return Optional.of(matching);
  }
}
