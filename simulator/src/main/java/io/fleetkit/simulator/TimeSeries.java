package io.fleetkit.simulator;

import java.util.List;
import java.util.Objects;

/**
 * One sampled quantity of a run, one value per sample instant of its {@link SimulationRun}.
 *
 * @param name what it measures, e.g. {@code pending pods}, {@code ready shop/web}
 * @param chart the chart it is drawn in, e.g. {@code Pods}, {@code Nodes}, {@code Cost}
 * @param unit the unit of the values, e.g. {@code pods}, {@code cores}, {@code $/h}
 */
public record TimeSeries(String name, String chart, String unit, List<Double> values) {
  public TimeSeries {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(chart, "chart");
    Objects.requireNonNull(unit, "unit");
    values = List.copyOf(values);
  }

  /** The largest value (0 when empty). */
  public double max() {
    double m = 0;
    for (double v : values) {
      m = Math.max(m, v);
    }
    return m;
  }

  /** The index of the first largest value (0 when empty). */
  public int argMax() {
    int best = 0;
    for (int i = 1; i < values.size(); i++) {
      if (values.get(i) > values.get(best)) {
        best = i;
      }
    }
    return best;
  }

  /** The last value (0 when empty). */
  public double last() {
    return values.isEmpty() ? 0 : values.get(values.size() - 1);
  }
}
