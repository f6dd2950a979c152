package io.fleetkit.queueing.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's reclaimable pods ({@code status.reclaimablePods}, the {@code ReclaimablePods} feature, on by default): pods
 * of a pod set whose requests the workload no longer needs (a Job's finished pods when fewer remain to run than its
 * parallelism). Quota counts a pod set's pods after reclaim, {@code count - min(reclaimable, count)} (Kueue's {@code
 * podSetsCountsAfterReclaim}): a pending workload asks for that many, an admitted one holds its admission's usage
 * scaled down to that many when its admission counted more ({@code totalRequestsFromAdmission}).
 */
final class Reclaim {
  private Reclaim() {}

  /**
   * Kueue's workload webhook on {@code status.reclaimablePods} ({@code validateReclaimablePods}, and
   * {@code validateReclaimablePodsUpdate} while the workload holds quota): each entry names a pod set of the workload,
   * its count is not negative (the CRD's minimum) and at most the pod set's count; with quota held, no count goes down
   * and no entry is removed.
   *
   * @throws io.fleetkit.api.ValidationException naming every rule broken
   */
  static void validate(Workload spec, Map<String, Integer> next, Map<String, Integer> previous, boolean holdsQuota) {
    Violations v = new Violations(Workload.KIND, spec.namespace(), spec.name());
    String supported = spec.podSets().stream().map(ps -> "\"" + ps.name() + "\"").collect(Collectors.joining(", "));
    for (Map.Entry<String, Integer> e : new TreeMap<>(next).entrySet()) {
      String path = "status.reclaimablePods[" + e.getKey() + "]";
      PodSet ps = podSet(spec, e.getKey());
      int count = e.getValue();
      if (ps == null) {
        v.add(path + ".name", "Unsupported value: supported values: " + supported, e.getKey());
      } else if (count < 0) {
        v.add(path + ".count", Violations.NON_NEGATIVE, count);
      } else if (count > ps.count()) {
        v.add(path + ".count", "should be less or equal to " + ps.count(), count);
      }
    }
    if (holdsQuota && !next.equals(previous)) {
      for (Map.Entry<String, Integer> e : new TreeMap<>(previous).entrySet()) {
        Integer now = next.get(e.getKey());
        if (now == null) {
          v.required("status.reclaimablePods[" + e.getKey() + "]", "cannot be removed");
        } else if (now < e.getValue()) {
          v.add("status.reclaimablePods[" + e.getKey() + "].count", "cannot be less than " + e.getValue(), now);
        }
      }
    }
    v.throwIfAny();
  }

  /** The pods of {@code ps} that quota counts: its count less its reclaimable pods, at least 0. */
  static int countAfter(PodSet ps, Map<String, Integer> reclaimable) {
    int r = reclaimable.getOrDefault(ps.name(), 0);
    return ps.count() - Math.min(r, ps.count());
  }

  /**
   * {@code spec} as the queue sees it with {@code reclaimable} pods: each pod set with its count after reclaim, its
   * {@code minCount} lowered to that count (none for a pod set with no pod left); {@code spec} itself when nothing is
   * reclaimable.
   */
  static Workload effective(Workload spec, Map<String, Integer> reclaimable) {
    if (reclaimable.isEmpty()) {
      return spec;
    }
    List<PodSet> out = new ArrayList<>(spec.podSets().size());
    for (PodSet ps : spec.podSets()) {
      int after = countAfter(ps, reclaimable);
      Integer min = ps.minCount() == null || after == 0 ? null : Math.min(ps.minCount(), after);
      out.add(ps.withCount(after).withMinCount(min));
    }
    return spec.withPodSets(out);
  }

  /**
   * The usage, aligned with {@code frs}, that {@code admission} holds with {@code reclaimable} pods: each pod set's
   * recorded usage, scaled to its count after reclaim where that is below the admitted count (Kueue's {@code
   * totalRequestsFromAdmission}; an admitted count is a divisor of the usage, as Kueue's webhook requires).
   */
  static long[] usage(Workload spec, QuotaReservation admission, Map<String, Integer> reclaimable,
      FlavorResources index, int[] frs) {
    long[] byFr = new long[index.size()];
    for (PodSetAssignment pa : admission.podSets()) {
      PodSet ps = podSet(spec, pa.name());
      int after = ps == null ? pa.count() : countAfter(ps, reclaimable);
      ResourceList usage = pa.resourceUsage();
      for (String r : usage.names()) {
        String flavor = pa.flavors().get(r);
        int fr = flavor == null ? -1 : index.of(flavor, r);
        if (fr < 0) {
          continue;
        }
        long milli = usage.milliValue(r);
        byFr[fr] += after < pa.count() ? milli / pa.count() * after : milli;
      }
    }
    long[] values = new long[frs.length];
    for (int i = 0; i < frs.length; i++) {
      values[i] = byFr[frs[i]];
    }
    return values;
  }

  private static @Nullable PodSet podSet(Workload spec, String name) {
    for (PodSet ps : spec.podSets()) {
      if (ps.name().equals(name)) {
        return ps;
      }
    }
    return null;
  }
}
