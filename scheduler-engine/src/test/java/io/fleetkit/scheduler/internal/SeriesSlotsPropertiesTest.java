package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.tracing.Tracing;
import io.fleetkit.scheduler.metrics.SchedulerMetrics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The held observations of {@link PluginTimings} (plugin execution durations) and {@link SchedulerInstruments}
 * (extension-point durations) find their series through buffer slots bound on first use: every (point, plugin,
 * status code) or (extension point, status code) must reach its own series, with kube's labels, whatever the number of
 * plugins per point. Checked against the obvious computation: the observations grouped by their labels.
 */
final class SeriesSlotsPropertiesTest {
  private static final Status.Code[] CODES = Status.Code.values();

  /**
   * @param plugins the number of plugins at each point (some with none, the widest deciding the array's stride)
   * @param picks each observation: which point, plugin and code, as numbers reduced into range
   */
  @Property(tries = 200)
  void pluginTimings_everyPointPluginAndCode_reachesItsOwnSeries(
      @ForAll @Size(value = 13) List<@IntRange(min = 0, max = 5) Integer> plugins,
      @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 0, max = 1_000_000) Integer> picks) {
    PluginTimings.Point[] points = PluginTimings.Point.values();
    String[][] names = new String[points.length][];
    for (int p = 0; p < points.length; p++) {
      names[p] = new String[plugins.get(p)];
      for (int i = 0; i < names[p].length; i++) {
        names[p][i] = "P" + p + "x" + i;
      }
    }
    RecordedHistograms metrics = new RecordedHistograms();
    ObservationBuffer buffer = new ObservationBuffer();
    PluginTimings timings = new PluginTimings(metrics, names, buffer);
    Map<List<String>, List<Long>> expected = new HashMap<>();
    long value = 1;
    for (int pick : picks) {
      int p = pick % points.length;
      if (names[p].length == 0) {
        continue;
      }
      int plugin = (pick / points.length) % names[p].length;
      Status.Code code = CODES[(pick / 97) % CODES.length];
      timings.observe(points[p], plugin, code, value);
      expected.computeIfAbsent(List.of(SchedulerMetrics.PLUGIN_EXECUTION_DURATION.name(), names[p][plugin],
          points[p].label, SchedulerInstruments.codeName(code)), k -> new ArrayList<>()).add(value);
      value++;
    }
    buffer.flush();
    assertThat(metrics.observed).isEqualTo(expected);
  }

  @Property(tries = 100)
  void extensionPoints_everyPointAndCode_reachesItsOwnSeries(
      @ForAll @Size(min = 1, max = 80) List<@IntRange(min = 0, max = 1_000_000) Integer> picks) {
    RecordedHistograms metrics = new RecordedHistograms();
    SchedulerInstruments obs = SchedulerInstruments.of(metrics, EventRecorder.NOOP, Tracing.NOOP, 1, 10);
    Map<List<String>, List<Long>> expected = new HashMap<>();
    long value = 1;
    for (int pick : picks) {
      int point = pick % SchedulerInstruments.POINTS.length;
      Status.Code code = CODES[(pick / 11) % CODES.length];
      String profile = (pick / 66) % 2 == 0 ? "default-scheduler" : "other";
      obs.extensionPoint(point, code, profile, value);
      expected.computeIfAbsent(List.of(SchedulerMetrics.FRAMEWORK_EXTENSION_POINT_DURATION.name(),
          SchedulerInstruments.POINTS[point], SchedulerInstruments.codeName(code), profile),
          k -> new ArrayList<>()).add(value);
      value++;
    }
    obs.flush();
    Map<List<String>, List<Long>> points = new HashMap<>(metrics.observed);
    points.keySet().removeIf(k -> !k.get(0).equals(SchedulerMetrics.FRAMEWORK_EXTENSION_POINT_DURATION.name()));
    assertThat(points).isEqualTo(expected);
  }
}
