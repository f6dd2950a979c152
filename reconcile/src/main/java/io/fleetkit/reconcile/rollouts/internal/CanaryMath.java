package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.reconcile.controllers.internal.DeploymentMath;
import io.fleetkit.reconcile.controllers.internal.DeploymentMath.RsView;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The canary replica arithmetic of Argo Rollouts ({@code utils/replicaset/canary.go}, {@code replicaset.go},
 * {@code utils/defaults/defaults.go}) as pure functions over {@link CanaryView} and {@link RsView}s. Weights are
 * percentages (maximum traffic weight 100). Stateless.
 */
public final class CanaryMath {
  /** The maximum traffic weight. */
  public static final int MAX_WEIGHT = 100;
  /** Argo Rollouts' default {@code abortScaleDownDelaySeconds} (with traffic routing). */
  public static final int DEFAULT_ABORT_SCALE_DOWN_DELAY_SECONDS = ScaleDownDelays.DEFAULT_ABORT_SCALE_DOWN_DELAY_SECONDS;

  /** Replica counts for the canary (new) and stable ReplicaSets. */
  public record Counts(int canary, int stable) {}

  /** Traffic weights the router reports (percent). */
  public record TrafficWeights(int canary, int stable) {}

  /**
   * {@code GetCanaryReplicasOrWeight}: an explicit canary replica count (from {@code setCanaryScale.replicas}) or
   * the desired weight.
   */
  public record ScaleOrWeight(@Nullable Integer replicas, int weight) {}

  private CanaryMath() {}

  /** {@code MaxSurge}: the resolved surge (defaults 25%/25%). */
  public static int maxSurge(CanaryView r) {
    return fenceposts(r)[0];
  }

  /** {@code MaxUnavailable}: the resolved unavailability, capped at replicas; 0 for 0 replicas. */
  public static int maxUnavailable(CanaryView r) {
    if (r.replicas() == 0) {
      return 0;
    }
    return Math.min(fenceposts(r)[1], r.replicas());
  }

  private static int[] fenceposts(CanaryView r) {
    IntOrPercent surge = r.maxSurge() != null ? r.maxSurge() : IntOrPercent.TWENTY_FIVE_PERCENT;
    IntOrPercent unavailable = r.maxUnavailable() != null ? r.maxUnavailable() : IntOrPercent.TWENTY_FIVE_PERCENT;
    return DeploymentMath.resolveFenceposts(surge, unavailable, r.replicas());
  }

  /**
   * {@code CalculateReplicaCountsForBasicCanary}: the counts for a canary without traffic routing, where the
   * replica ratio is the traffic split. Scales up within {@code replicas + maxSurge} (stable first, then canary);
   * while older ReplicaSets still have replicas nothing is scaled down; otherwise scales down the side being drained
   * as far as {@code replicas - maxUnavailable} available pods allow.
   */
  public static Counts basicCanary(CanaryView r, @Nullable RsView newRs, @Nullable RsView stableRs,
      List<RsView> olderRss) {
    int specReplicas = r.replicas();
    int desiredWeight = canaryReplicasOrWeight(r, newRs, stableRs).weight();
    int maxSurge = maxSurge(r);
    Counts desired = approximateWeightedCanaryStableReplicaCounts(specReplicas, desiredWeight, MAX_WEIGHT, maxSurge);
    int desiredNew = desired.canary();
    int desiredStable = desired.stable();
    int stableCount = 0;
    int newCount = newRs != null ? newRs.replicas() : 0;
    boolean scaleStable = stableExists(newRs, stableRs);
    if (scaleStable) {
      stableCount = stableRs.replicas();
    } else {
      desiredNew = specReplicas;
      desiredStable = 0;
    }
    int maxAllowed = specReplicas + maxSurge;
    int total = DeploymentMath.replicaCount(olderRss) + (newRs != null ? newRs.replicas() : 0)
        + (scaleStable ? stableRs.replicas() : 0);
    int scaleUp = maxAllowed - total;
    if (scaleStable && stableRs.replicas() < desiredStable && scaleUp > 0) {
      if (stableRs.replicas() + scaleUp < desiredStable) {
        stableCount = stableRs.replicas() + scaleUp;
        scaleUp = 0;
      } else {
        stableCount = desiredStable;
        scaleUp -= desiredStable - stableRs.replicas();
      }
    }
    if (newRs != null && newRs.replicas() < desiredNew && scaleUp > 0) {
      newCount = newRs.replicas() + scaleUp < desiredNew ? newRs.replicas() + scaleUp : desiredNew;
    }
    if (DeploymentMath.replicaCount(olderRss) > 0) {
      return new Counts(newCount, stableCount);
    }
    int minAvailable = specReplicas - maxUnavailable(r);
    boolean increasing = newRs == null || desiredNew >= newRs.replicas();
    int toScaleDown = replicasForScaleDown(newRs, !increasing) + replicasForScaleDown(stableRs, increasing);
    if (toScaleDown <= minAvailable) {
      return new Counts(newCount, stableCount);
    }
    int scaleDown = toScaleDown - minAvailable;
    if (!increasing) {
      newCount = scaleDownCount(newRs, desiredNew, scaleDown, newCount);
      int[] adjusted = adjustWithinLimits(newRs, stableRs, newCount, stableCount, maxAllowed, minAvailable);
      newCount = adjusted[0];
      stableCount = adjusted[1];
    } else if (scaleStable) {
      stableCount = scaleDownCount(stableRs, desiredStable, scaleDown, stableCount);
      int[] adjusted = adjustWithinLimits(stableRs, newRs, stableCount, newCount, maxAllowed, minAvailable);
      stableCount = adjusted[0];
      newCount = adjusted[1];
    }
    return new Counts(newCount, stableCount);
  }

  /**
   * {@code approximateWeightedCanaryStableReplicaCounts}: the canary/stable split closest to {@code desiredWeight},
   * totalling {@code replicas} or (with surge) {@code replicas + 1}; neither side is 0 for weights 1 to 99 unless
   * there is a single replica and no surge; an exact floor/ceiling tie takes the larger canary.
   */
  public static Counts approximateWeightedCanaryStableReplicaCounts(int replicas, int desiredWeight, int maxWeight,
      int maxSurge) {
    if (replicas == 0) {
      return new Counts(0, 0);
    }
    int ceil = (int) Math.ceil((double) (replicas * desiredWeight) / (double) maxWeight);
    int floor = (int) Math.floor((double) (replicas * desiredWeight) / (double) maxWeight);
    boolean tied = floorCeilingTied(desiredWeight, maxWeight, replicas);
    boolean zeroAllowed = desiredWeight == maxWeight || desiredWeight == 0 || (replicas == 1 && maxSurge == 0);
    int[][] options = new int[4][];
    int n = 0;
    if (ceil < replicas || zeroAllowed) {
      options[n++] = new int[] {ceil, replicas};
    }
    if (!tied && (floor != 0 || zeroAllowed)) {
      options[n++] = new int[] {floor, replicas};
    }
    if (maxSurge > 0) {
      options[n++] = new int[] {ceil, replicas + 1};
      boolean surgeTied = floorCeilingTied(desiredWeight, maxWeight, replicas + 1);
      if (!surgeTied && (floor != 0 || zeroAllowed)) {
        options[n++] = new int[] {floor, replicas + 1};
      }
    }
    if (n == 0) {
      return new Counts(0, replicas);
    }
    int[] best = options[0];
    double bestDelta = weightDelta(desiredWeight, maxWeight, best[0], best[1]);
    for (int i = 1; i < n; i++) {
      double d = weightDelta(desiredWeight, maxWeight, options[i][0], options[i][1]);
      if (d < bestDelta) {
        best = options[i];
        bestDelta = d;
      }
    }
    return new Counts(best[0], best[1] - best[0]);
  }

  private static boolean floorCeilingTied(int desiredWeight, int maxWeight, int total) {
    double x = (double) total * ((double) desiredWeight / (double) maxWeight);
    return x - (long) x == 0.5;
  }

  private static double weightDelta(int desiredWeight, int maxWeight, int canary, int total) {
    return Math.abs((double) (canary * maxWeight) / (double) total - desiredWeight);
  }

  private static int scaleDownCount(@Nullable RsView drain, int desired, int scaleDown, int drainCount) {
    if (drain != null && drain.replicas() > desired) {
      return Math.max(desired, drain.replicas() - scaleDown);
    }
    return drainCount;
  }

  /** {@code adjustReplicaWithinLimits}: returns {drain count, adjust count}. */
  private static int[] adjustWithinLimits(@Nullable RsView drain, @Nullable RsView adjust, int drainCount,
      int adjustCount, int maxAllowed, int minAvailable) {
    int overLimit = Math.max(0, adjustCount + drainCount - maxAllowed);
    int totalAvailable = drain != null ? Math.min(drain.available(), drainCount) : 0;
    if (adjust != null) {
      adjustCount -= overLimit;
      totalAvailable += Math.min(adjust.available(), adjustCount);
      int extraAvailable = Math.max(0, adjust.available() - adjustCount);
      int moreNeeded = Math.max(0, minAvailable - totalAvailable);
      adjustCount += Math.min(extraAvailable, moreNeeded);
      overLimit = Math.max(0, adjustCount + drainCount - maxAllowed);
      drainCount -= overLimit;
    }
    return new int[] {drainCount, adjustCount};
  }

  /**
   * {@code CalculateReplicaCountsForTrafficRoutedCanary}: with traffic routing the canary gets
   * {@code ceil(weight * replicas / 100)} (or the explicit {@code setCanaryScale} count) and the stable stays at
   * full scale, unless {@code dynamicStableScale}, where it follows the higher of the desired and the actual stable
   * weight. {@code minPodsPerReplicaSet} raises non-zero counts.
   *
   * @param weights the router's current weights; {@code null} when unknown
   */
  public static Counts trafficRoutedCanary(CanaryView r, @Nullable RsView newRs, @Nullable RsView stableRs,
      @Nullable TrafficWeights weights) {
    int specReplicas = r.replicas();
    ScaleOrWeight sw = canaryReplicasOrWeight(r, newRs, stableRs);
    int canary = sw.replicas() != null ? sw.replicas()
        : minPodsPerReplicaSet(r, trafficWeightToReplicas(specReplicas, sw.weight(), MAX_WEIGHT));
    if (!r.dynamicStableScale()) {
      return new Counts(canary, specReplicas);
    }
    int stable = trafficWeightToReplicas(specReplicas, MAX_WEIGHT - sw.weight(), MAX_WEIGHT);
    if (weights != null) {
      stable = Math.max(stable, trafficWeightToReplicas(specReplicas, weights.stable(), MAX_WEIGHT));
      if (r.abort()) {
        canary = Math.max(trafficWeightToReplicas(specReplicas, weights.canary(), MAX_WEIGHT), canary);
      }
    }
    return new Counts(minPodsPerReplicaSet(r, canary), minPodsPerReplicaSet(r, stable));
  }

  /**
   * The canary weight handed to the traffic router ({@code reconcileTrafficRouting} in
   * {@code rollout/trafficrouting.go}), first match wins: 0 once fully promoted (stable is the current version); on an
   * abort {@link #weightOnAbort}; 0 while the new ReplicaSet has no available pod; on a full promotion the weight in
   * effect (with {@code dynamicStableScale} {@code 100 * newAvailable / replicas}); at a step, while the replica
   * counts of the step are not reached, the weight of the last {@code setWeight} before it (the canary gets no
   * traffic it cannot serve yet), once they are the current set weight, and 100 past the last step; 0 without steps.
   * Then {@code checkReplicasAvailable}: when the stable ReplicaSet has fewer available pods than its share of
   * {@code replicas} needs, the weight in effect stays.
   *
   * @param atDesiredReplicaCount {@code AtDesiredReplicaCountsForCanary} for the current step
   * @param weightInEffect the canary weight the router reported last
   */
  public static int desiredTrafficWeight(CanaryView r, @Nullable RsView newRs, @Nullable RsView stableRs,
      boolean atDesiredReplicaCount, int weightInEffect) {
    int desired = routedWeight(r, newRs, stableRs, atDesiredReplicaCount, weightInEffect);
    if (stableRs != null && stableRs.available() < (MAX_WEIGHT - desired) * r.replicas() / MAX_WEIGHT) {
      return weightInEffect;
    }
    return desired;
  }

  private static int routedWeight(CanaryView r, @Nullable RsView newRs, @Nullable RsView stableRs,
      boolean atDesiredReplicaCount, int weightInEffect) {
    if (r.stableHash().equals(r.currentHash())) {
      return 0;
    }
    if (r.abort()) {
      return weightOnAbort(r, newRs, stableRs, weightInEffect);
    }
    if (newRs == null || newRs.available() == 0) {
      return 0;
    }
    if (r.promoteFull()) {
      if (r.dynamicStableScale()) {
        return r.replicas() == 0 ? 0 : Math.min(MAX_WEIGHT, MAX_WEIGHT * newRs.available() / r.replicas());
      }
      return weightInEffect;
    }
    Integer index = currentStepIndex(r);
    if (index == null) {
      return 0;
    }
    if (!atDesiredReplicaCount) {
      for (int i = Math.min(index, r.steps().size()) - 1; i >= 0; i--) {
        if (r.steps().get(i) instanceof CanaryStep.SetWeight w) {
          return w.weight();
        }
      }
      return 0;
    }
    return index < r.steps().size() ? currentSetWeight(r) : MAX_WEIGHT;
  }

  /**
   * {@code calculateDesiredWeightOnAbortOrStableRollback}: 0, except with {@code dynamicStableScale}, where traffic
   * goes back to stable only as fast as stable pods become available: with no step weight to fall back to, the share
   * the unavailable stable pods leave ({@code 100 - 100 * stableAvailable / replicas}) but never above the weight in
   * effect; otherwise the weight in effect while the stable pods cannot yet carry {@code 100 - stepWeight}, then
   * the lower of the step weight ({@link #desiredCanaryWeight}) and the weight in effect.
   */
  public static int weightOnAbort(CanaryView r, @Nullable RsView newRs, @Nullable RsView stableRs,
      int weightInEffect) {
    if (!r.dynamicStableScale() || stableRs == null || newRs == null || r.replicas() == 0) {
      return 0;
    }
    int desiredCanary = desiredCanaryWeight(r, newRs, stableRs);
    int expected = Math.max(0, MAX_WEIGHT - MAX_WEIGHT * stableRs.available() / r.replicas());
    if (desiredCanary <= 0) {
      return Math.min(expected, weightInEffect);
    }
    int stableWeight = MAX_WEIGHT * stableRs.available() / r.replicas();
    if (stableWeight < MAX_WEIGHT - desiredCanary) {
      return weightInEffect;
    }
    return Math.min(desiredCanary, weightInEffect);
  }

  /**
   * {@code IsDynamicallyRollingBackToStable}: the spec went back to the stable version (stable is the current hash)
   * of a canary with traffic routing and {@code dynamicStableScale}, while the weight was last applied to another
   * version ({@code weightedCanaryHash}, {@code null} when no weight was recorded) and the desired (stable)
   * ReplicaSet has fewer than {@code replicas} available pods: traffic then moves back from that version only as
   * fast as the stable pods come up.
   */
  public static boolean dynamicallyRollingBackToStable(CanaryView r, @Nullable String weightedCanaryHash,
      String desiredHash, int desiredAvailable) {
    if (!r.stableHash().equals(r.currentHash()) || !r.trafficRouting() || !r.dynamicStableScale()) {
      return false;
    }
    if (weightedCanaryHash == null || weightedCanaryHash.equals(desiredHash)) {
      return false;
    }
    return desiredAvailable < r.replicas();
  }

  /** {@code CheckMinPodsPerReplicaSet} (traffic routing only; capped at replicas). */
  public static int minPodsPerReplicaSet(CanaryView r, int count) {
    if (count == 0 || r.minPodsPerReplicaSet() == null || !r.trafficRouting()) {
      return count;
    }
    return Math.max(count, Math.min(r.minPodsPerReplicaSet(), r.replicas()));
  }

  /** {@code trafficWeightToReplicas}: {@code ceil(weight * replicas / maxWeight)}. */
  public static int trafficWeightToReplicas(int replicas, int weight, int maxWeight) {
    return (int) Math.ceil((double) weight * (double) replicas / (double) maxWeight);
  }

  /** {@code CheckStableRSExists}: a stable ReplicaSet that is not the new one. */
  public static boolean stableExists(@Nullable RsView newRs, @Nullable RsView stableRs) {
    return stableRs != null && (newRs == null || !newRs.name().equals(stableRs.name()));
  }

  /**
   * {@code GetReplicasForScaleDown}: the replicas of {@code rs} that count toward scale-down: its spec count when
   * that is below its available count or when availability is ignored, else its available count.
   */
  public static int replicasForScaleDown(@Nullable RsView rs, boolean ignoreAvailability) {
    if (rs == null) {
      return 0;
    }
    if (rs.replicas() < rs.available() || ignoreAvailability) {
      return rs.replicas();
    }
    return rs.available();
  }

  /** {@code GetCurrentCanaryStep}: the index, {@code null} without steps; the step is absent past the last. */
  public static @Nullable Integer currentStepIndex(CanaryView r) {
    if (r.steps().isEmpty()) {
      return null;
    }
    return r.currentStepIndex() == null ? 0 : r.currentStepIndex();
  }

  /** The current step, or {@code null} without steps or past the last one. */
  public static @Nullable CanaryStep currentStep(CanaryView r) {
    Integer i = currentStepIndex(r);
    return i == null || i >= r.steps().size() ? null : r.steps().get(i);
  }

  /** {@code GetCanaryReplicasOrWeight}. */
  public static ScaleOrWeight canaryReplicasOrWeight(CanaryView r, @Nullable RsView newRs,
      @Nullable RsView stableRs) {
    if (r.promoteFull() || r.stableHash().isEmpty() || r.currentHash().equals(r.stableHash())) {
      return new ScaleOrWeight(null, MAX_WEIGHT);
    }
    CanaryStep.SetCanaryScale scs = setCanaryScale(r);
    if (scs != null) {
      if (scs.replicas() != null) {
        return new ScaleOrWeight(scs.replicas(), 0);
      }
      if (scs.weight() != null) {
        return new ScaleOrWeight(null, scs.weight());
      }
    }
    return new ScaleOrWeight(null, desiredCanaryWeight(r, newRs, stableRs));
  }

  /** {@code GetDesiredCanaryWeight}: on an abort with dynamic stable scale, steps back through the weights. */
  public static int desiredCanaryWeight(CanaryView r, @Nullable RsView newRs, @Nullable RsView stableRs) {
    if (r.abort() && r.dynamicStableScale() && newRs != null && stableRs != null) {
      int expected = r.replicas() - stableRs.available();
      int canaryReplicas = hasExplicitAbortScaleDownDelay(r) ? expected : Math.max(expected, newRs.available());
      for (int i = r.steps().size() - 1; i >= 0; i--) {
        if (r.steps().get(i) instanceof CanaryStep.SetWeight w
            && trafficWeightToReplicas(r.replicas(), w.weight(), MAX_WEIGHT) < canaryReplicas) {
          return w.weight();
        }
      }
      return 0;
    }
    return currentSetWeight(r);
  }

  /** {@code GetCurrentSetWeight}: 0 when aborted; 100 past the last step; else the latest setWeight so far. */
  public static int currentSetWeight(CanaryView r) {
    if (r.abort()) {
      return 0;
    }
    Integer index = currentStepIndex(r);
    if (currentStep(r) == null) {
      return MAX_WEIGHT;
    }
    for (int i = index; i >= 0; i--) {
      if (r.steps().get(i) instanceof CanaryStep.SetWeight w) {
        return w.weight();
      }
    }
    return 0;
  }

  /** {@code UseSetCanaryScale}: the setCanaryScale in force (traffic routing only; not while an abort delay runs). */
  public static CanaryStep.@Nullable SetCanaryScale setCanaryScale(CanaryView r) {
    if (!r.trafficRouting()) {
      return null;
    }
    if (r.abort() && abortScaleDownDelaySeconds(r) != null) {
      return null;
    }
    Integer index = currentStepIndex(r);
    if (currentStep(r) == null) {
      return null;
    }
    for (int i = index; i >= 0; i--) {
      if (r.steps().get(i) instanceof CanaryStep.SetCanaryScale s) {
        return s.matchTrafficWeight() ? null : s;
      }
    }
    return null;
  }

  /**
   * {@code GetAbortScaleDownDelaySecondsOrDefault} for a canary: without traffic routing there is no delay
   * ({@code 0} returned as {@code null} too); with it, the explicit value or 30 s.
   */
  public static @Nullable Integer abortScaleDownDelaySeconds(CanaryView r) {
    return ScaleDownDelays.abortDelaySeconds(false, r.trafficRouting(), r.abortScaleDownDelaySeconds());
  }

  /** {@code HasExplicitAbortScaleDownDelay}. */
  public static boolean hasExplicitAbortScaleDownDelay(CanaryView r) {
    return r.trafficRouting() && r.abortScaleDownDelaySeconds() != null && r.abortScaleDownDelaySeconds() != 0;
  }
}
