package io.fleetkit.api.scheduling;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Taint and toleration helpers, ported from kubernetes component-helpers {@code scheduling/corev1/helpers.go}, the
 * TaintToleration scheduler plugin and the taint-eviction controller. Stateless and thread-safe; none of the
 * methods allocates unless it returns a new list.
 */
public final class Taints {
  /** Taints that block scheduling: effect NoSchedule or NoExecute (the TaintToleration filter's inclusion filter). */
  public static final Predicate<Taint> NO_SCHEDULE_OR_NO_EXECUTE =
      t -> t.effect() == TaintEffect.NoSchedule || t.effect() == TaintEffect.NoExecute;

  /** Taints that evict running pods: effect NoExecute. */
  public static final Predicate<Taint> NO_EXECUTE = t -> t.effect() == TaintEffect.NoExecute;

  private Taints() {}

  /** Whether any of {@code tolerations} tolerates {@code taint} (upstream {@code TolerationsTolerateTaint}). */
  public static boolean tolerationsTolerateTaint(List<Toleration> tolerations, Taint taint) {
    for (int i = 0, n = tolerations.size(); i < n; i++) {
      if (tolerations.get(i).toleratesTaint(taint)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Why the Gt and Lt tolerations among {@code tolerations} that have {@code taint}'s key and effect could not
   * compare with it (the first {@link Toleration#comparisonError}), or {@code null}: what a rejection for an
   * untolerated taint says instead of only naming it, as upstream's TaintToleration filter does since its
   * {@code ToleratesTaint} returns the parse error.
   */
  public static @Nullable String comparisonError(List<Toleration> tolerations, Taint taint) {
    for (int i = 0, n = tolerations.size(); i < n; i++) {
      String err = tolerations.get(i).comparisonError(taint);
      if (err != null) {
        return err;
      }
    }
    return null;
  }

  /**
   * The first taint, among those accepted by {@code inclusionFilter} ({@code null} means all), that no toleration
   * tolerates; empty when all of them are tolerated (upstream {@code FindMatchingUntoleratedTaint}).
   */
  public static Optional<Taint> findMatchingUntoleratedTaint(List<Taint> taints, List<Toleration> tolerations,
      @Nullable Predicate<Taint> inclusionFilter) {
    for (int i = 0, n = taints.size(); i < n; i++) {
      Taint taint = taints.get(i);
      if (inclusionFilter != null && !inclusionFilter.test(taint)) {
        continue;
      }
      if (!tolerationsTolerateTaint(tolerations, taint)) {
        return Optional.of(taint);
      }
    }
    return Optional.empty();
  }

  /**
   * The number of PreferNoSchedule taints not tolerated by a toleration whose effect is PreferNoSchedule or unset
   * (the TaintToleration plugin's score input: fewer is better).
   */
  public static int countIntolerableTaintsPreferNoSchedule(List<Taint> taints, List<Toleration> tolerations) {
    int count = 0;
    for (int i = 0, n = taints.size(); i < n; i++) {
      Taint taint = taints.get(i);
      if (taint.effect() != TaintEffect.PreferNoSchedule) {
        continue;
      }
      boolean tolerated = false;
      for (int j = 0, m = tolerations.size(); j < m && !tolerated; j++) {
        Toleration t = tolerations.get(j);
        TaintEffect e = t.effect();
        tolerated = (e == null || e == TaintEffect.PreferNoSchedule) && t.toleratesTaint(taint);
      }
      if (!tolerated) {
        count++;
      }
    }
    return count;
  }

  /**
   * For each taint, the first toleration that tolerates it, in taint order; empty if some taint is not tolerated
   * (taint-eviction {@code GetMatchingTolerations}). No taints gives a present empty list.
   */
  public static Optional<List<Toleration>> matchingTolerations(List<Taint> taints, List<Toleration> tolerations) {
    List<Toleration> result = new ArrayList<>(taints.size());
    for (Taint taint : taints) {
      Toleration match = null;
      for (Toleration t : tolerations) {
        if (t.toleratesTaint(taint)) {
          match = t;
          break;
        }
      }
      if (match == null) {
        return Optional.empty();
      }
      result.add(match);
    }
    return Optional.of(List.copyOf(result));
  }

  /**
   * How long a pod with these (matching) tolerations may stay on a node with NoExecute taints, in seconds, as the
   * taint-eviction controller's {@code getMinTolerationTime}: {@code 0} for no tolerations or any
   * {@code tolerationSeconds <= 0}; the smallest {@code tolerationSeconds} otherwise; {@code -1} (forever) when none
   * sets it.
   */
  public static long minTolerationSeconds(List<Toleration> tolerations) {
    if (tolerations.isEmpty()) {
      return 0;
    }
    long min = Long.MAX_VALUE;
    for (Toleration t : tolerations) {
      Long seconds = t.tolerationSeconds();
      if (seconds != null) {
        if (seconds <= 0) {
          return 0;
        }
        min = Math.min(min, seconds);
      }
    }
    return min == Long.MAX_VALUE ? -1 : min;
  }
}
