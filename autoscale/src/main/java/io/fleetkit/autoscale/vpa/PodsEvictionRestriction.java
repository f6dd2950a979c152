package io.fleetkit.autoscale.vpa;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import java.util.List;
import java.util.Objects;

/**
 * The VPA updater's own limit on how many pods of one replica group it disrupts in a pass (kubernetes/autoscaler
 * {@code vertical-pod-autoscaler/pkg/updater/restriction}: the group's {@code singleGroupStats} with
 * {@code PodsEvictionRestriction.CanEvict} and {@code PodsInPlaceRestriction.CanInPlaceUpdate}). It decides nothing
 * about PodDisruptionBudgets: an eviction it allows still goes through the eviction API, which may refuse it.
 *
 * <p>Rules:
 * <ul>
 *   <li>a group with fewer live pods than {@code minReplicas} is left alone: no pod may be evicted or resized;</li>
 *   <li>a Pending pod may always be evicted and never resized in place; its eviction does not count;</li>
 *   <li>any other pod may be disrupted (evicted, or resized in place) while more pods are up than
 *       {@code configured - tolerance}, where {@code tolerance = (int) (configured * evictionTolerance)} and "up" is
 *       the non-Pending pods less those evicted or resized in this pass; or, when all {@code configured} replicas are
 *       up and the tolerance truncates to 0, one pod, if none was disrupted yet.</li>
 * </ul>
 * Not modelled: an in-place resize still under way from an earlier pass (FleetKit's pods/resize applies at once and
 * writes no {@code PodResizePending}/{@code PodResizeInProgress} conditions), the startup CPU boost and
 * {@code --in-place-skip-disruption-budget}.
 *
 * <p>Pure (reads only the pods it is given) but not thread-safe: it counts the disruptions of one pass, so make one
 * per group and pass.
 */
public final class PodsEvictionRestriction {
  private final int configured;
  private final int running;
  private final int tolerance;
  private final boolean belowMinReplicas;
  private int evicted;
  private int resized;

  private PodsEvictionRestriction(int configured, int running, int tolerance, boolean belowMinReplicas) {
    this.configured = configured;
    this.running = running;
    this.tolerance = tolerance;
    this.belowMinReplicas = belowMinReplicas;
  }

  /**
   * The restriction of one group for one pass.
   *
   * @param configured the group's configured replicas (a workload's {@code spec.replicas})
   * @param livePods the group's pods that are not being deleted
   * @param minReplicas the fewest live pods a group needs to be touched at all ({@code --min-replicas} or the VPA's
   *     {@code updatePolicy.minReplicas})
   * @param evictionTolerance the fraction of {@code configured} that may be down at once, in [0, 1]
   * @throws IllegalArgumentException if {@code configured} or {@code minReplicas} is negative or
   *     {@code evictionTolerance} is outside [0, 1]
   */
  public static PodsEvictionRestriction of(int configured, List<Pod> livePods, int minReplicas,
      double evictionTolerance) {
    Objects.requireNonNull(livePods, "livePods");
    if (configured < 0) {
      throw new IllegalArgumentException("vpa eviction restriction: configured replicas " + configured
          + " must not be negative");
    }
    if (minReplicas < 0) {
      throw new IllegalArgumentException("vpa eviction restriction: minReplicas " + minReplicas
          + " must not be negative");
    }
    requireTolerance("vpa eviction restriction", evictionTolerance);
    int pending = (int) livePods.stream().filter(PodsEvictionRestriction::isPending).count();
    return new PodsEvictionRestriction(configured, livePods.size() - pending, (int) (configured * evictionTolerance),
        livePods.size() < minReplicas);
  }

  /** Checks an eviction tolerance: a fraction in [0, 1]; {@code who} names the owner in the message. */
  static double requireTolerance(String who, double evictionTolerance) {
    if (!(evictionTolerance >= 0 && evictionTolerance <= 1)) {
      throw new IllegalArgumentException(who + ": evictionTolerance " + evictionTolerance + " must be in [0, 1]");
    }
    return evictionTolerance;
  }

  /** Whether the group has fewer live pods than {@code minReplicas}, so that nothing of it is touched. */
  public boolean belowMinReplicas() {
    return belowMinReplicas;
  }

  /** Whether {@code pod} of this group may be evicted now. */
  public boolean canEvict(Pod pod) {
    if (belowMinReplicas) {
      return false;
    }
    return isPending(pod) || disruptable();
  }

  /** Whether {@code pod} of this group may be resized in place now (otherwise the resize is deferred). */
  public boolean canInPlaceUpdate(Pod pod) {
    return !belowMinReplicas && !isPending(pod) && disruptable();
  }

  /**
   * Counts the eviction of {@code pod} (not for a Pending pod).
   *
   * @throws IllegalStateException if {@link #canEvict} refuses it
   */
  public void recordEviction(Pod pod) {
    if (!canEvict(pod)) {
      throw new IllegalStateException("vpa eviction restriction: pod " + pod.metadata().key()
          + " may not be evicted now: the group's eviction tolerance is used up or it is below minReplicas");
    }
    if (!isPending(pod)) {
      evicted++;
    }
  }

  /**
   * Counts the in-place resize of {@code pod}.
   *
   * @throws IllegalStateException if {@link #canInPlaceUpdate} refuses it
   */
  public void recordInPlaceUpdate(Pod pod) {
    if (!canInPlaceUpdate(pod)) {
      throw new IllegalStateException("vpa eviction restriction: pod " + pod.metadata().key()
          + " may not be resized now: it is Pending, the group's eviction tolerance is used up or it is below "
          + "minReplicas");
    }
    resized++;
  }

  /** Upstream's {@code isPodDisruptable}. */
  private boolean disruptable() {
    int up = running - (evicted + resized);
    return up > configured - tolerance
        || (configured == running && tolerance == 0 && evicted == 0 && resized == 0);
  }

  private static boolean isPending(Pod pod) {
    return pod.status().phase() == PodPhase.Pending;
  }
}
