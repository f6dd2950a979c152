package io.fleetkit.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Two runs on the same manifests that differ in one choice (the GPU placement policy, say, or the whole scenario:
 * other autoscaler options, faults or load), side by side: a few figures of each ({@link #rows()}) and the series
 * worth overlaying ({@link #overlays()}). Immutable.
 *
 * @param label what {@code run} ran with, e.g. {@code GapFill} or a scenario's name
 * @param run the first run
 * @param otherLabel what {@code other} ran with, e.g. {@code FGD}
 * @param other the second run, sampled at the same times
 */
public record RunComparison(String label, SimulationRun run, String otherLabel, SimulationRun other) {
  /** The series drawn for both runs in one chart each, when both have them. */
  public static final List<String> OVERLAID = List.of("pending pods", "gpu requested", "gpu used",
      "gpu free on partly used nodes", "scheduling latency p99", "cumulative cost");

  /** One figure of both runs. */
  public record Row(String figure, String unit, double value, double otherValue) {}

  public RunComparison {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(otherLabel, "otherLabel");
    Objects.requireNonNull(other, "other");
    if (!run.sampleTimes().equals(other.sampleTimes())) {
      throw new IllegalArgumentException("run comparison: the runs were sampled at different times ("
          + run.sampleTimes().size() + " and " + other.sampleTimes().size() + " samples)");
    }
  }

  /**
   * Mean and most nodes (ready or not, all pools), most pending pods, mean GPUs requested, used and free on partly
   * used nodes, worst scheduling latency p99, total cost, Job pods succeeded and failed at the end: those of the
   * figures both runs have.
   */
  public List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    double[] nodes = nodes(run);
    double[] otherNodes = nodes(other);
    if (nodes != null && otherNodes != null) {
      rows.add(new Row("mean nodes", "nodes", round2(mean(nodes)), round2(mean(otherNodes))));
      rows.add(new Row("most nodes", "nodes", max(nodes), max(otherNodes)));
    }
    both("most pending pods", "pods", "pending pods", TimeSeries::max, rows);
    both("mean GPUs requested", "GPUs", "gpu requested", RunComparison::mean, rows);
    both("mean GPUs used", "GPUs", "gpu used", RunComparison::mean, rows);
    both("mean GPUs free on partly used nodes", "GPUs", "gpu free on partly used nodes", RunComparison::mean, rows);
    both("worst scheduling latency p99", "s", "scheduling latency p99", TimeSeries::max, rows);
    both("total cost", "$", "cumulative cost", TimeSeries::last, rows);
    rows.add(new Row("Job pods succeeded", "pods", succeeded(run), succeeded(other)));
    rows.add(new Row("Job pods failed", "pods", failed(run), failed(other)));
    return rows;
  }

  /** Each of {@link #OVERLAID} both runs have: the series of {@code run}, then that of {@code other}. */
  public List<List<TimeSeries>> overlays() {
    List<List<TimeSeries>> out = new ArrayList<>();
    for (String name : OVERLAID) {
      Optional<TimeSeries> a = run.series(name);
      Optional<TimeSeries> b = other.series(name);
      if (a.isPresent() && b.isPresent()) {
        String chart = "Compared: " + name;
        out.add(List.of(new TimeSeries(name + " (" + label + ")", chart, a.get().unit(), a.get().values()),
            new TimeSeries(name + " (" + otherLabel + ")", chart, b.get().unit(), b.get().values())));
      }
    }
    return out;
  }

  private void both(String figure, String unit, String series, java.util.function.ToDoubleFunction<TimeSeries> f,
      List<Row> rows) {
    Optional<TimeSeries> a = run.series(series);
    Optional<TimeSeries> b = other.series(series);
    if (a.isPresent() && b.isPresent()) {
      rows.add(new Row(figure, unit, round2(f.applyAsDouble(a.get())), round2(f.applyAsDouble(b.get()))));
    }
  }

  /**
   * The nodes of every pool per sample (the sum of the {@code ready nodes POOL} and {@code not ready nodes POOL}
   * series), or {@code null} when the run has none of them.
   */
  private static double @org.jspecify.annotations.Nullable [] nodes(SimulationRun r) {
    double[] sum = null;
    for (TimeSeries s : r.series()) {
      if (s.name().startsWith("ready nodes ") || s.name().startsWith("not ready nodes ")) {
        if (sum == null) {
          sum = new double[s.values().size()];
        }
        for (int i = 0; i < sum.length; i++) {
          sum[i] += s.values().get(i);
        }
      }
    }
    return sum;
  }

  private static double mean(double[] v) {
    return java.util.Arrays.stream(v).average().orElse(0);
  }

  private static double max(double[] v) {
    return java.util.Arrays.stream(v).max().orElse(0);
  }

  private static double mean(TimeSeries s) {
    return s.values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }

  private static double round2(double v) {
    return Math.round(v * 100) / 100.0;
  }

  private static double succeeded(SimulationRun r) {
    return r.summary().jobs().stream().mapToLong(JobSummary::succeeded).sum();
  }

  private static double failed(SimulationRun r) {
    return r.summary().jobs().stream().mapToLong(JobSummary::failed).sum();
  }
}
