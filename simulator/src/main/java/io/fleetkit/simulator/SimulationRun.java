package io.fleetkit.simulator;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a {@link ClusterSimulation} produced: the timeline, the workloads' final state and the time series
 * sampled at {@code sampleTimes}. Immutable.
 *
 * @param scenario the scenario's name
 * @param sampleTimes simulated time of each sample, from 0 to the duration
 * @param series every sampled series, each with one value per sample time (the cost series only when a NodePool had
 *     a price, see {@link #NO_PRICE})
 * @param markers the timeline events worth marking on a time axis: faults, recoveries and scaling decisions
 * @param services each Service's cluster IP and endpoints at the end, when the networking controllers ran (else
 *     empty)
 * @param loads each load's requests and those beyond its workload's capacity, in the scenario's order
 */
public record SimulationRun(String scenario, long seed, Duration duration, List<Duration> sampleTimes,
    List<TimeSeries> series, List<TimelineEvent> timeline, List<TimelineEvent> markers, SimulationSummary summary,
    List<io.fleetkit.networking.ServiceSummary> services, List<LoadOutcome> loads) {
  /**
   * What the text output and the HTML report say for the cost of a run in which no NodePool had a price
   * ({@code pricePerHour} above 0) at any sample; such a run has no {@code cost per hour} and {@code cumulative cost}
   * series, rather than series that read 0 as if it were free.
   */
  public static final String NO_PRICE = "no node pool has a price";

  /** A run without Service networking and without loads. */
  public SimulationRun(String scenario, long seed, Duration duration, List<Duration> sampleTimes,
      List<TimeSeries> series, List<TimelineEvent> timeline, List<TimelineEvent> markers, SimulationSummary summary) {
    this(scenario, seed, duration, sampleTimes, series, timeline, markers, summary, List.of(), List.of());
  }

  public SimulationRun {
    services = List.copyOf(services);
    loads = List.copyOf(loads);
    Objects.requireNonNull(scenario, "scenario");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(summary, "summary");
    sampleTimes = List.copyOf(sampleTimes);
    series = List.copyOf(series);
    timeline = List.copyOf(timeline);
    markers = List.copyOf(markers);
    for (TimeSeries s : series) {
      if (s.values().size() != sampleTimes.size()) {
        throw new IllegalArgumentException("simulation run: series " + s.name() + " has " + s.values().size()
            + " values for " + sampleTimes.size() + " sample times");
      }
    }
  }

  /** The series named {@code name}. */
  public Optional<TimeSeries> series(String name) {
    return series.stream().filter(s -> s.name().equals(name)).findFirst();
  }

  /** The chart names in order of first appearance. */
  public List<String> charts() {
    return series.stream().map(TimeSeries::chart).distinct().toList();
  }
}
