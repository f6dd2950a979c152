package io.fleetkit.simulator;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one load asked of its workload over a run, and how much of it the workload could not take: the requests beyond
 * its serving pods' capacity (the run's SLO misses), counted exactly between the simulation's instants, not sampled.
 *
 * @param target the load's workload, {@code Kind/namespace/name}
 * @param requests the requests that arrived
 * @param unserved the requests beyond capacity
 * @param worstMinute the start of the clock minute with the most requests beyond capacity (null when none was)
 * @param worstMinuteUnserved the requests beyond capacity in that minute
 */
public record LoadOutcome(String target, double requests, double unserved, @Nullable Duration worstMinute,
    double worstMinuteUnserved) {
  public LoadOutcome {
    Objects.requireNonNull(target, "target");
  }

  /** {@link #unserved} as a share of {@link #requests} (0 when nothing arrived). */
  public double unservedShare() {
    return requests == 0 ? 0 : unserved / requests;
  }

  /**
   * The outcome in words, as the text summary and the HTML report give it: {@code 12,345 of 216,000,000 requests
   * beyond capacity (0.0057 %), the most in the minute from 15:05 (9,876)}, or {@code 216,000,000 requests, none
   * beyond capacity}. Counts are rounded to whole requests.
   */
  public String summary() {
    long total = Math.round(requests);
    long beyond = Math.round(unserved);
    if (beyond == 0) {
      return String.format(Locale.ROOT, "%,d requests, none beyond capacity", total);
    }
    double pct = 100 * unservedShare();
    String share = pct >= 0.01 ? String.format(Locale.ROOT, "%.2f", pct) : String.format(Locale.ROOT, "%.2g", pct);
    String worst = worstMinute == null ? "" : String.format(Locale.ROOT, ", the most in the minute from %s (%,d)",
        HtmlReport.clock(worstMinute), Math.round(worstMinuteUnserved));
    return String.format(Locale.ROOT, "%,d of %,d requests beyond capacity (%s %%)%s", beyond, total, share, worst);
  }
}
