package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link SeriesRecorder#worstFirst}: the per-workload lines a crowded chart draws first. */
final class SeriesOrderTest {
  private static TimeSeries s(String name, String chart, double... values) {
    List<Double> v = new ArrayList<>();
    for (double x : values) {
      v.add(x);
    }
    return new TimeSeries(name, chart, "replicas", v);
  }

  private static List<String> names(List<TimeSeries> out) {
    return out.stream().map(TimeSeries::name).toList();
  }

  @Test
  void worstFirst_readyVsDesired_mostReplicaSamplesShortFirst_pairsTogether_totalsAndOthersInPlace() {
    String w = SeriesRecorder.WORKLOADS;
    List<TimeSeries> out = new ArrayList<>(List.of(
        s("pending pods", SeriesRecorder.PODS, 0, 0, 0),
        s(SeriesRecorder.DESIRED_ALL, w, 6, 6, 6),
        s(SeriesRecorder.READY_ALL, w, 3, 5, 6),
        s("desired ns/a", w, 2, 2, 2), s("ready ns/a", w, 2, 2, 2),      // never short
        s("desired ns/b", w, 2, 2, 2), s("ready ns/b", w, 1, 2, 2),      // 1 replica-sample short
        s("ready nodes general", SeriesRecorder.NODES, 1, 1, 1),
        s("desired ns/c", w, 2, 2, 2), s("ready ns/c", w, 0, 1, 3),      // 3 short (more ready than desired counts 0)
        s("desired ns/d", w, 0, 0, 0), s("ready ns/d", w, 0, 0, 0)));    // never short: after a, as sampled
    SeriesRecorder.worstFirst(out, w, "desired ", "ready ", (desired, ready) -> Math.max(0, desired - ready));
    assertThat(names(out)).containsExactly("pending pods", SeriesRecorder.DESIRED_ALL, SeriesRecorder.READY_ALL,
        "desired ns/c", "ready ns/c", "desired ns/b", "ready ns/b", "ready nodes general", "desired ns/a", "ready ns/a",
        "desired ns/d", "ready ns/d");
  }

  @Test
  void worstFirst_load_mostRequestsBeyondCapacityFirst() {
    String l = SeriesRecorder.LOAD;
    List<TimeSeries> out = new ArrayList<>(List.of(
        s("requests/s ns/a", l, 10, 10), s("unserved requests/s ns/a", l, 0, 0),
        s("requests/s ns/b", l, 10, 10), s("unserved requests/s ns/b", l, 0, 4),
        s("requests/s ns/c", l, 90, 90), s("unserved requests/s ns/c", l, 1, 1)));
    SeriesRecorder.worstFirst(out, l, "requests/s ", "unserved requests/s ", (rate, unserved) -> unserved);
    assertThat(names(out)).containsExactly("requests/s ns/b", "unserved requests/s ns/b", "requests/s ns/c",
        "unserved requests/s ns/c", "requests/s ns/a", "unserved requests/s ns/a");
  }

  @Test
  void worstFirst_noneShort_orderUnchanged() {
    String w = SeriesRecorder.WORKLOADS;
    List<TimeSeries> out = new ArrayList<>(List.of(s("desired ns/b", w, 1), s("ready ns/b", w, 1),
        s("desired ns/a", w, 1), s("ready ns/a", w, 1)));
    List<TimeSeries> before = List.copyOf(out);
    SeriesRecorder.worstFirst(out, w, "desired ", "ready ", (desired, ready) -> Math.max(0, desired - ready));
    assertThat(out).containsExactlyElementsOf(before);
  }
}
