package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** How a series becomes polyline points: every sample for a short run, the M4 reduction for a long one. */
final class HtmlReportPointsTest {
  private static List<Duration> seconds(int n) {
    List<Duration> t = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      t.add(Duration.ofSeconds(i));
    }
    return t;
  }

  private static String[] points(List<Duration> times, List<Double> values, double top) {
    StringBuilder sb = new StringBuilder();
    HtmlReport.points(sb, times, values, times.get(times.size() - 1).toMillis(), top);
    return sb.toString().split(" ");
  }

  @Test
  void shortSeries_everySampleDrawn() {
    String[] p = points(seconds(3), List.of(0.0, 5.0, 10.0), 10);
    // x from 64 to 864 (the plot's width), y from 224 (0) to 16 (the top)
    assertThat(p).containsExactly("64.0,224.0", "464.0,120.0", "864.0,16.0");
  }

  @Test
  void dayAtOneSecond_reducedToFourPointsAColumnAtMost_andTheOneSecondSpikeKept() {
    int n = 86_401;
    List<Double> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(i == 54_321 ? 100.0 : 1.0);
    }
    String[] p = points(seconds(n), values, 100);
    assertThat(p.length).isLessThanOrEqualTo(4 * 1600 + 4).isGreaterThan(1600);
    assertThat(p[0]).isEqualTo("64.0,221.9");
    assertThat(p[p.length - 1]).isEqualTo("864.0,221.9");
    assertThat(Arrays.stream(p).filter(s -> s.endsWith(",16.0"))).hasSize(1); // the spike, at the top
    // the points go forward in time
    double last = -1;
    for (String s : p) {
      double x = Double.parseDouble(s.substring(0, s.indexOf(',')));
      assertThat(x).isGreaterThanOrEqualTo(last);
      last = x;
    }
  }

  /**
   * The readout's values and indices follow the points: every sample's value for a short series; for a reduced one
   * the kept samples' values and their indices, in time order.
   */
  @Test
  void readoutValues_followThePoints() {
    StringBuilder sb = new StringBuilder();
    List<Duration> t = seconds(3);
    ReportReadout.values(sb, List.of(0.0, 2.5, 10.0), HtmlReport.kept(t, List.of(0.0, 2.5, 10.0), 2_000));
    assertThat(sb).hasToString(" data-v=\"0 2.50 10\"");

    int n = 86_401;
    List<Double> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(i == 54_321 ? 100.0 : 1.0);
    }
    int[] kept = HtmlReport.kept(seconds(n), values, 86_400_000L);
    assertThat(kept.length).isEqualTo(points(seconds(n), values, 100).length);
    for (int j = 1; j < kept.length; j++) {
      assertThat(kept[j]).isGreaterThan(kept[j - 1]);
    }
    assertThat(kept).contains(0, 54_321, n - 1);
    sb.setLength(0);
    ReportReadout.values(sb, values, kept);
    String[] attrs = sb.toString().split("\"");
    String[] v = attrs[1].split(" ");
    String[] i = attrs[3].split(" ");
    assertThat(attrs[2]).isEqualTo(" data-i=");
    assertThat(v).hasSize(kept.length);
    assertThat(i).hasSize(kept.length);
    int spike = java.util.Arrays.asList(i).indexOf("54321");
    assertThat(v[spike]).isEqualTo("100");
  }

  @Property(tries = 50)
  void reducedSeries_keepEveryColumnsLowestAndHighestValue(@ForAll @IntRange(min = 6_401, max = 40_000) int n,
      @ForAll @IntRange(min = 0, max = 1_000_000) int seed) {
    java.util.Random r = new java.util.Random(seed);
    List<Double> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add((double) r.nextInt(1_000));
    }
    String[] p = points(seconds(n), values, 1_000);
    assertThat(p.length).isLessThanOrEqualTo(4 * 1600 + 4);
    double lowest = Double.MAX_VALUE;
    double highest = -Double.MAX_VALUE;
    for (String s : p) {
      double y = Double.parseDouble(s.substring(s.indexOf(',') + 1));
      lowest = Math.min(lowest, y);
      highest = Math.max(highest, y);
    }
    double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    // y grows downwards: the highest value is the lowest y
    assertThat(lowest).isCloseTo(224 - 208 * max / 1_000, org.assertj.core.data.Offset.offset(0.051));
    assertThat(highest).isCloseTo(224 - 208 * min / 1_000, org.assertj.core.data.Offset.offset(0.051));
  }
}
