package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.apps.DeploymentCondition;
import io.fleetkit.api.apps.DeploymentSpec;
import io.fleetkit.api.apps.DeploymentStatus;
import io.fleetkit.api.apps.DeploymentStrategyType;
import io.fleetkit.api.apps.RollingUpdateDeployment;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The arithmetic of Kubernetes' {@code deployment/util/deployment_util.go} and {@code deployment/rolling.go}, as
 * pure functions over {@link RsView}s so that upstream's table tests port one to one. Stateless.
 */
public final class DeploymentMath {

  /**
   * What the rollout arithmetic needs of one ReplicaSet.
   *
   * @param replicas spec.replicas
   * @param available status.availableReplicas
   * @param created creationTimestamp, {@code null} when unknown (sorts first, as Go's zero time)
   */
  public record RsView(String name, int replicas, int available, @Nullable Instant created) {
    public RsView {
      Objects.requireNonNull(name, "name");
    }

    public RsView withReplicas(int n) {
      return new RsView(name, n, available, created);
    }
  }

  /**
   * Scaled views and how many replicas the step removed.
   *
   * @param replicaSets the input views with their new replica counts, in input order
   */
  public record ScaleDown(List<RsView> replicaSets, int count) {
    public ScaleDown {
      replicaSets = List.copyOf(replicaSets);
    }
  }

  /** Oldest first, ties by name: upstream's {@code ReplicaSetsByCreationTimestamp}. */
  public static final Comparator<RsView> BY_CREATION = (a, b) -> {
    if (!Objects.equals(a.created(), b.created())) {
      if (a.created() == null) {
        return -1;
      }
      if (b.created() == null) {
        return 1;
      }
      return a.created().compareTo(b.created());
    }
    return a.name().compareTo(b.name());
  };

  private DeploymentMath() {}

  /**
   * {@code ResolveFenceposts}: surge rounded up, unavailability rounded down, both against {@code desired}; a
   * {@code null} bound counts as 0; if both come out 0, unavailability is 1.
   *
   * @return {@code {maxSurge, maxUnavailable}}
   */
  public static int[] resolveFenceposts(@Nullable IntOrPercent maxSurge, @Nullable IntOrPercent maxUnavailable,
      int desired) {
    int surge = maxSurge == null ? 0 : maxSurge.scaledValue(desired, true);
    int unavailable = maxUnavailable == null ? 0 : maxUnavailable.scaledValue(desired, false);
    if (surge == 0 && unavailable == 0) {
      unavailable = 1;
    }
    return new int[] {surge, unavailable};
  }

  private static RollingUpdateDeployment rolling(DeploymentSpec spec) {
    RollingUpdateDeployment ru = spec.strategy().rollingUpdate();
    return ru != null ? ru : RollingUpdateDeployment.DEFAULT;
  }

  /** {@code MaxUnavailable}: 0 for Recreate or 0 replicas, else the resolved value capped at replicas. */
  public static int maxUnavailable(DeploymentSpec spec) {
    if (spec.strategy().type() != DeploymentStrategyType.RollingUpdate || spec.replicas() == 0) {
      return 0;
    }
    RollingUpdateDeployment ru = rolling(spec);
    int unavailable = resolveFenceposts(ru.maxSurge(), ru.maxUnavailable(), spec.replicas())[1];
    return Math.min(unavailable, spec.replicas());
  }

  /** {@code MaxSurge}: 0 for Recreate, else the resolved value. */
  public static int maxSurge(DeploymentSpec spec) {
    if (spec.strategy().type() != DeploymentStrategyType.RollingUpdate) {
      return 0;
    }
    RollingUpdateDeployment ru = rolling(spec);
    return resolveFenceposts(ru.maxSurge(), ru.maxUnavailable(), spec.replicas())[0];
  }

  /**
   * {@code NewRSNewReplicas}: Recreate wants {@code replicas}; RollingUpdate scales the new ReplicaSet up within
   * {@code replicas + maxSurge} counted over {@code currentPodCount} ({@code GetReplicaCountForReplicaSets}).
   */
  public static int newRSNewReplicas(DeploymentStrategyType type, int replicas, int maxSurge, int currentPodCount,
      int newRSReplicas) {
    if (type == DeploymentStrategyType.Recreate) {
      return replicas;
    }
    int maxTotal = replicas + maxSurge;
    if (currentPodCount >= maxTotal) {
      return newRSReplicas;
    }
    int scaleUp = Math.min(maxTotal - currentPodCount, replicas - newRSReplicas);
    return newRSReplicas + scaleUp;
  }

  /** Sum of spec.replicas. */
  public static int replicaCount(List<RsView> sets) {
    int n = 0;
    for (RsView r : sets) {
      n += r.replicas();
    }
    return n;
  }

  /** Sum of status.availableReplicas. */
  public static int availableCount(List<RsView> sets) {
    int n = 0;
    for (RsView r : sets) {
      n += r.available();
    }
    return n;
  }

  /**
   * {@code reconcileNewReplicaSet}: the new ReplicaSet's next size, or -1 for no change.
   *
   * @param currentPodCount pods counted against the surge (upstream: sum of spec.replicas of all ReplicaSets)
   */
  public static int reconcileNewReplicaSet(int replicas, int maxSurge, int currentPodCount, RsView newRs) {
    return reconcileNewReplicaSet(replicas, maxSurge, () -> currentPodCount, newRs);
  }

  /**
   * {@link #reconcileNewReplicaSet(int, int, int, RsView)} that counts the pods only when the new ReplicaSet is below
   * {@code replicas} (upstream reads the count only then too): a Deployment at its size, what most syncs see, costs
   * no count.
   */
  public static int reconcileNewReplicaSet(int replicas, int maxSurge, IntSupplier currentPodCount, RsView newRs) {
    if (newRs.replicas() == replicas) {
      return -1;
    }
    if (newRs.replicas() > replicas) {
      return replicas;
    }
    int target = newRSNewReplicas(DeploymentStrategyType.RollingUpdate, replicas, maxSurge,
        currentPodCount.getAsInt(), newRs.replicas());
    return target == newRs.replicas() ? -1 : target;
  }

  /**
   * {@code reconcileOldReplicaSets}: clean up unhealthy old replicas, then scale old ReplicaSets down while
   * keeping {@code replicas - maxUnavailable} available.
   *
   * @param oldRss the active old ReplicaSets
   */
  public static ScaleDown reconcileOldReplicaSets(int replicas, int maxUnavailable, List<RsView> allRss,
      List<RsView> oldRss, @Nullable RsView newRs) {
    int oldPodsCount = replicaCount(oldRss);
    if (oldPodsCount == 0) {
      return new ScaleDown(oldRss, 0);
    }
    int allPodsCount = replicaCount(allRss);
    int minAvailable = replicas - maxUnavailable;
    int newUnavailable = newRs == null ? 0 : newRs.replicas() - newRs.available();
    int maxScaledDown = allPodsCount - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) {
      return new ScaleDown(oldRss, 0);
    }
    ScaleDown cleanup = cleanupUnhealthyReplicas(oldRss, maxScaledDown);
    List<RsView> all = new ArrayList<>(cleanup.replicaSets());
    if (newRs != null) {
      all.add(newRs);
    }
    ScaleDown scaled = scaleDownOldReplicaSetsForRollingUpdate(replicas, maxUnavailable, all,
        cleanup.replicaSets());
    return new ScaleDown(scaled.replicaSets(), cleanup.count() + scaled.count());
  }

  /** {@code cleanupUnhealthyReplicas}: remove up to {@code maxCleanupCount} unavailable old replicas, oldest first. */
  public static ScaleDown cleanupUnhealthyReplicas(List<RsView> oldRss, int maxCleanupCount) {
    List<RsView> out = new ArrayList<>(oldRss);
    List<Integer> order = orderByCreation(out);
    int total = 0;
    for (int i : order) {
      RsView rs = out.get(i);
      if (total >= maxCleanupCount) {
        break;
      }
      if (rs.replicas() == 0 || rs.replicas() == rs.available()) {
        continue;
      }
      int down = Math.min(maxCleanupCount - total, rs.replicas() - rs.available());
      out.set(i, rs.withReplicas(rs.replicas() - down));
      total += down;
    }
    return new ScaleDown(out, total);
  }

  /**
   * {@code scaleDownOldReplicaSetsForRollingUpdate}: scale old ReplicaSets (oldest first) down by the available
   * replicas above {@code replicas - maxUnavailable}.
   */
  public static ScaleDown scaleDownOldReplicaSetsForRollingUpdate(int replicas, int maxUnavailable,
      List<RsView> allRss, List<RsView> oldRss) {
    int minAvailable = replicas - maxUnavailable;
    int available = availableCount(allRss);
    if (available <= minAvailable) {
      return new ScaleDown(oldRss, 0);
    }
    int totalScaleDown = available - minAvailable;
    List<RsView> out = new ArrayList<>(oldRss);
    int total = 0;
    for (int i : orderByCreation(out)) {
      if (total >= totalScaleDown) {
        break;
      }
      RsView rs = out.get(i);
      if (rs.replicas() == 0) {
        continue;
      }
      int down = Math.min(rs.replicas(), totalScaleDown - total);
      out.set(i, rs.withReplicas(rs.replicas() - down));
      total += down;
    }
    return new ScaleDown(out, total);
  }

  private static List<Integer> orderByCreation(List<RsView> sets) {
    List<Integer> idx = new ArrayList<>();
    for (int i = 0; i < sets.size(); i++) {
      idx.add(i);
    }
    idx.sort((a, b) -> BY_CREATION.compare(sets.get(a), sets.get(b)));
    return idx;
  }

  /** {@code DeploymentComplete}: every replica updated and available, and the newest generation observed. */
  public static boolean deploymentComplete(int replicas, long generation, DeploymentStatus newStatus) {
    return newStatus.updatedReplicas() == replicas && newStatus.replicas() == replicas
        && newStatus.availableReplicas() == replicas && newStatus.observedGeneration() >= generation;
  }

  /** {@code DeploymentProgressing}: more updated, ready or available pods, or fewer old ones. */
  public static boolean deploymentProgressing(DeploymentStatus oldStatus, DeploymentStatus newStatus) {
    int oldOld = oldStatus.replicas() - oldStatus.updatedReplicas();
    int newOld = newStatus.replicas() - newStatus.updatedReplicas();
    return newStatus.updatedReplicas() > oldStatus.updatedReplicas() || newOld < oldOld
        || newStatus.readyReplicas() > oldStatus.readyReplicas()
        || newStatus.availableReplicas() > oldStatus.availableReplicas();
  }

  /** Whether a progress deadline applies ({@link Integer#MAX_VALUE} means none, as upstream). */
  public static boolean hasProgressDeadline(int progressDeadlineSeconds) {
    return progressDeadlineSeconds != Integer.MAX_VALUE;
  }

  /**
   * {@code DeploymentTimedOut}: the Progressing condition of {@code newStatus} was last updated more than
   * {@code progressDeadlineSeconds} before {@code now} (a completed rollout never times out).
   */
  public static boolean deploymentTimedOut(int progressDeadlineSeconds, DeploymentStatus newStatus, Instant now) {
    if (!hasProgressDeadline(progressDeadlineSeconds)) {
      return false;
    }
    DeploymentCondition c = newStatus.condition(DeploymentCondition.PROGRESSING);
    if (c == null) {
      return false;
    }
    if (c.reason().equals(WorkloadLabels.REASON_NEW_RS_AVAILABLE)) {
      return false;
    }
    if (c.reason().equals(WorkloadLabels.REASON_PROGRESS_DEADLINE_EXCEEDED)) {
      return true;
    }
    Instant from = c.lastUpdateTime() != null ? c.lastUpdateTime() : Instant.EPOCH;
    return from.plusSeconds(progressDeadlineSeconds).isBefore(now);
  }
}
