package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.text.GoIntegers;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Pod predicates and the orderings Kubernetes' controllers use to pick pods to delete first, ported from
 * {@code pkg/controller/controller_utils.go} ({@code ActivePods}, {@code ActivePodsWithRanks}). Sorting ascending
 * puts the best deletion candidates first. Stateless and thread-safe.
 */
public final class ActivePods {

  /** A pod with its rank: how many active related pods share its node (more co-located pods go first). */
  public record RankedPod(Pod pod, int rank) {
    public RankedPod {
      Objects.requireNonNull(pod, "pod");
    }
  }

  private ActivePods() {}

  /** Not Succeeded, not Failed and not being deleted: {@code controller.IsPodActive}. */
  public static boolean isActive(Pod pod) {
    return !pod.status().phase().isTerminal() && pod.metadata().deletionTimestamp() == null;
  }

  /**
   * Ready, and for at least {@code minReadySeconds} by the Ready condition's lastTransitionTime:
   * {@code podutil.IsPodAvailable} (with 0 any ready pod is available; with a positive value a missing transition
   * time means not available).
   */
  public static boolean isAvailable(Pod pod, int minReadySeconds, Instant now) {
    if (!pod.isReady()) {
      return false;
    }
    if (minReadySeconds == 0) {
      return true;
    }
    Instant since = readyTime(pod);
    return since != null && since.plusSeconds(minReadySeconds).isBefore(now);
  }

  /** The Ready condition's lastTransitionTime if the pod is ready, else {@code null} (Go's zero time). */
  public static @Nullable Instant readyTime(Pod pod) {
    if (!pod.isReady()) {
      return null;
    }
    PodCondition c = pod.status().condition(PodCondition.READY);
    return c == null ? null : c.lastTransitionTime();
  }

  /** The highest restart count of any container. */
  public static int maxContainerRestarts(Pod pod) {
    int max = 0;
    for (ContainerStatus s : pod.status().containerStatuses()) {
      max = Math.max(max, s.restartCount());
    }
    return max;
  }

  /**
   * The value of annotation {@link WorkloadLabels#POD_DELETION_COST}, 0 when absent or not an int32 (Kubernetes
   * rejects such values at admission; here they count as the default). Upstream's {@code
   * getDeletionCostFromPodAnnotations}: {@code -} or a digit first, no {@code +} and no leading zero ({@code "+10"}
   * and {@code "008"} count as 0), then {@code strconv.ParseInt(value, 10, 32)} (ASCII digits, no spaces).
   */
  public static int deletionCost(Pod pod) {
    String v = pod.metadata().annotations().get(WorkloadLabels.POD_DELETION_COST);
    if (v == null || !validFirstDigit(v)) {
      return 0;
    }
    try {
      return GoIntegers.parseInt32(v);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Upstream's {@code validFirstDigit}. */
  private static boolean validFirstDigit(String s) {
    return !s.isEmpty() && (s.charAt(0) == '-' || s.equals("0") || s.charAt(0) >= '1' && s.charAt(0) <= '9');
  }

  /**
   * Upstream's plain {@code ActivePods} order: unassigned &lt; assigned; Pending &lt; Unknown &lt; Running; not
   * ready &lt; ready; ready for a shorter time (unset first) &lt; longer; more restarts &lt; fewer; newer (unset
   * first) &lt; older.
   */
  public static Comparator<Pod> order() {
    return (a, b) -> less(a, b) ? -1 : less(b, a) ? 1 : 0;
  }

  private static boolean less(Pod a, Pod b) {
    Boolean r = assignedPhaseReady(a, b);
    if (r != null) {
      return r;
    }
    if (a.isReady() && b.isReady()) {
      Instant ta = readyTime(a);
      Instant tb = readyTime(b);
      if (!Objects.equals(ta, tb)) {
        return afterOrZero(ta, tb);
      }
    }
    int ra = maxContainerRestarts(a);
    int rb = maxContainerRestarts(b);
    if (ra != rb) {
      return ra > rb;
    }
    Instant ca = a.metadata().creationTimestamp();
    Instant cb = b.metadata().creationTimestamp();
    if (!Objects.equals(ca, cb)) {
      return afterOrZero(ca, cb);
    }
    return false;
  }

  /**
   * Upstream's {@code ActivePodsWithRanks} order with the PodDeletionCost and LogarithmicScaleDown gates on (their
   * defaults): rules 1-3 as {@link #order()}, then lower deletion cost first, higher rank first, then ready time
   * and creation time compared in buckets of {@code floor(log2(nanoseconds since now))}, equal buckets broken by
   * uid, and more restarts first in between.
   *
   * @param now the reference time of the logarithmic comparison; {@code null} compares times exactly
   */
  public static Comparator<RankedPod> withRanks(@Nullable Instant now) {
    return (a, b) -> lessRanked(a, b, now) ? -1 : lessRanked(b, a, now) ? 1 : 0;
  }

  private static boolean lessRanked(RankedPod x, RankedPod y, @Nullable Instant now) {
    Pod a = x.pod();
    Pod b = y.pod();
    Boolean r = assignedPhaseReady(a, b);
    if (r != null) {
      return r;
    }
    int da = deletionCost(a);
    int db = deletionCost(b);
    if (da != db) {
      return da < db;
    }
    if (x.rank() != y.rank()) {
      return x.rank() > y.rank();
    }
    if (a.isReady() && b.isReady()) {
      Instant ta = readyTime(a);
      Instant tb = readyTime(b);
      if (!Objects.equals(ta, tb)) {
        if (now == null || ta == null || tb == null) {
          return afterOrZero(ta, tb);
        }
        long diff = logarithmicRankDiff(ta, tb, now);
        if (diff == 0) {
          return a.metadata().uid().compareTo(b.metadata().uid()) < 0;
        }
        return diff < 0;
      }
    }
    int ra = maxContainerRestarts(a);
    int rb = maxContainerRestarts(b);
    if (ra != rb) {
      return ra > rb;
    }
    Instant ca = a.metadata().creationTimestamp();
    Instant cb = b.metadata().creationTimestamp();
    if (!Objects.equals(ca, cb)) {
      if (now == null || ca == null || cb == null) {
        return afterOrZero(ca, cb);
      }
      long diff = logarithmicRankDiff(ca, cb, now);
      if (diff == 0) {
        return a.metadata().uid().compareTo(b.metadata().uid()) < 0;
      }
      return diff < 0;
    }
    return false;
  }

  /** Rules 1-3 shared by both orders; {@code null} when they do not decide. */
  private static @Nullable Boolean assignedPhaseReady(Pod a, Pod b) {
    String na = a.spec().nodeName();
    String nb = b.spec().nodeName();
    if (!na.equals(nb) && (na.isEmpty() || nb.isEmpty())) {
      return na.isEmpty();
    }
    int pa = phaseOrdinal(a.status().phase());
    int pb = phaseOrdinal(b.status().phase());
    if (pa != pb) {
      return pa < pb;
    }
    boolean ra = a.isReady();
    boolean rb = b.isReady();
    if (ra != rb) {
      return !ra;
    }
    return null;
  }

  /** Pending 0, Unknown 1, Running 2; other phases (terminal) 0 like Go's missing map key. */
  private static int phaseOrdinal(PodPhase phase) {
    switch (phase) {
      case Unknown:
        return 1;
      case Running:
        return 2;
      default:
        return 0;
    }
  }

  /** Go's {@code afterOrZero}: a zero (null) time comes first, else the later time comes first. */
  private static boolean afterOrZero(@Nullable Instant t1, @Nullable Instant t2) {
    if (t1 == null || t2 == null) {
      return t1 == null;
    }
    return t1.isAfter(t2);
  }

  private static long logarithmicRankDiff(Instant t1, Instant t2, Instant now) {
    return logRank(Duration.between(t1, now)) - logRank(Duration.between(t2, now));
  }

  private static long logRank(Duration d) {
    long nanos = saturatedNanos(d);
    return nanos > 0 ? 63 - Long.numberOfLeadingZeros(nanos) : -1; // floor(log2(nanos))
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
