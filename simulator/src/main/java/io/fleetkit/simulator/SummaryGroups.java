package io.fleetkit.simulator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * How a run's end-of-run summary stays a few lines however many workloads and loads the run has, as the HTML report's
 * summary and the command line's table both print it: up to {@link #MAX_LISTED} of a kind are listed one by one; with
 * more, workloads are counted (those with every replica ready) with the others named, Jobs are counted by status with
 * the failed ones named, and loads are summed with those that had requests beyond capacity listed, the most first.
 * Stateless; thread-safe.
 */
public final class SummaryGroups {
  /** Workloads of a kind and loads listed one by one; a list of names in a grouped line stops at this many too. */
  public static final int MAX_LISTED = 8;

  private SummaryGroups() {}

  /**
   * The one line for more than {@link #MAX_LISTED} workloads of {@code kind} ({@code Deployment}, {@code StatefulSet}):
   * {@code 100 Deployments, 98 with every replica ready (not: default/app-3 7/10, default/app-9 0/10)}; null when
   * there are few enough to list one by one.
   */
  public static @Nullable String workloads(String kind, List<WorkloadSummary> workloads) {
    if (workloads.size() <= MAX_LISTED) {
      return null;
    }
    List<String> notReady = new ArrayList<>();
    for (WorkloadSummary w : workloads) {
      if (w.ready() != w.replicas()) {
        notReady.add(w.name() + " " + w.ready() + "/" + w.replicas());
      }
    }
    return workloads.size() + " " + kind + "s, " + (workloads.size() - notReady.size()) + " with every replica ready"
        + (notReady.isEmpty() ? "" : " (not: " + names(notReady) + ")");
  }

  /**
   * More than {@link #MAX_LISTED} loads, grouped.
   *
   * @param all every load's requests and those beyond capacity summed, as one outcome named {@code all}
   * @param count how many loads there are
   * @param missed the loads with requests beyond capacity, the most first (then by target)
   */
  public record Loads(LoadOutcome all, int count, List<LoadOutcome> missed) {
    public Loads {
      missed = List.copyOf(missed);
    }

    /** The loads to list under the sum: those of {@link #missed} up to {@link #MAX_LISTED}. */
    public List<LoadOutcome> listed() {
      return missed.subList(0, Math.min(missed.size(), MAX_LISTED));
    }

    /**
     * What follows the sum when some loads had requests beyond capacity: {@code , on 3 of them:}, or
     * {@code , on 12 of them; the 8 with the most:} when more than {@link #MAX_LISTED}; empty when none had.
     */
    public String missedClause() {
      return missed.isEmpty() ? "" : ", on " + missed.size() + " of them"
          + (missed.size() > MAX_LISTED ? "; the " + MAX_LISTED + " with the most:" : ":");
    }
  }

  /** {@code loads} grouped when there are more than {@link #MAX_LISTED}; null when few enough to list one by one. */
  public static @Nullable Loads loads(List<LoadOutcome> loads) {
    if (loads.size() <= MAX_LISTED) {
      return null;
    }
    double requests = 0;
    double unserved = 0;
    List<LoadOutcome> missed = new ArrayList<>();
    for (LoadOutcome l : loads) {
      requests += l.requests();
      unserved += l.unserved();
      if (Math.round(l.unserved()) > 0) {
        missed.add(l);
      }
    }
    missed.sort(Comparator.comparingDouble(LoadOutcome::unserved).reversed().thenComparing(LoadOutcome::target));
    return new Loads(new LoadOutcome("all", requests, unserved, null, 0), loads.size(), missed);
  }

  /**
   * The one line for more than {@link #MAX_LISTED} Jobs (arrival streams): how many end in each status, and which
   * failed: {@code 4000 Jobs: 3990 Complete, 10 Failed (failed: batch/j-17, ...)}; null when there are few enough to
   * list one by one.
   */
  public static @Nullable String jobs(List<JobSummary> jobs) {
    if (jobs.size() <= MAX_LISTED) {
      return null;
    }
    Map<String, Integer> byStatus = new TreeMap<>();
    List<String> failed = new ArrayList<>();
    for (JobSummary j : jobs) {
      byStatus.merge(j.status(), 1, Integer::sum);
      if (j.status().equals("Failed")) {
        failed.add(j.name());
      }
    }
    List<String> counts = new ArrayList<>();
    byStatus.forEach((status, n) -> counts.add(n + " " + status));
    return jobs.size() + " Jobs: " + String.join(", ", counts) + (failed.isEmpty() ? ""
        : " (failed: " + names(failed) + ")");
  }

  /** {@code items} joined with commas, the first {@link #MAX_LISTED}, then how many more. */
  public static String names(List<String> items) {
    return String.join(", ", items.subList(0, Math.min(items.size(), MAX_LISTED)))
        + (items.size() > MAX_LISTED ? " and " + (items.size() - MAX_LISTED) + " more" : "");
  }
}
