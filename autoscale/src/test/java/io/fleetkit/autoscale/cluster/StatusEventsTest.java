package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.events.Event;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.observability.events.CorrelatingEventRecorder;
import io.fleetkit.observability.events.EventCorrelator;
import io.fleetkit.observability.events.EventSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link StatusEvents}' notes as Go prints them (upstream's {@code %v} of a {@code float64} and of
 * {@code utilization.Info}) and upstream's spam filter for them ({@code utils/kubernetes/factory.go}
 * {@code getCustomSpamKeyFunc}, the default {@code --record-duplicated-events=false}).
 */
final class StatusEventsTest {

  @ParameterizedTest
  @CsvSource({"0, 0", "0.5, 0.5", "0.125, 0.125", "0.1, 0.1", "1, 1", "0.3333333333333333, 0.3333333333333333",
      "0.0001, 0.0001", "0.00001, 1e-05", "0.000012345, 1.2345e-05", "123456, 123456", "1000000, 1e+06",
      "1500000, 1.5e+06", "2.5, 2.5", "-0.75, -0.75", "1e-300, 1e-300", "1.7976931348623157e308, 1.7976931348623157e+308",
      "100, 100", "0.625, 0.625"})
  void goFloat_asGoPercentV(double v, String expected) {
    assertThat(StatusEvents.goFloat(v)).isEqualTo(expected);
  }

  @Test
  void goFloat_specialValues() {
    assertThat(StatusEvents.goFloat(Double.NaN)).isEqualTo("NaN");
    assertThat(StatusEvents.goFloat(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
    assertThat(StatusEvents.goFloat(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
    assertThat(StatusEvents.goFloat(-0.0)).isEqualTo("-0");
    assertThat(StatusEvents.goFloat(2.0 / 3)).isEqualTo("0.6666666666666666");
  }

  /** Go's shortest form reads back as the same double. */
  @Property
  void goFloat_readsBack(@ForAll double v) {
    String s = StatusEvents.goFloat(v);
    if (Double.isFinite(v)) {
      assertThat(Double.parseDouble(s)).isEqualTo(v);
      assertThat(s).doesNotContain("E");
    }
  }

  @Test
  void utilization_perKindOfNode_asUpstreamsInfo() {
    assertThat(StatusEvents.utilization(new NodeUtilization(0.25, 0.5, 0, false)))
        .isEqualTo("{0.25 0.5 0 0 memory 0.5}");
    assertThat(StatusEvents.utilization(new NodeUtilization(0.75, 0.5, 0, false)))
        .isEqualTo("{0.75 0.5 0 0 cpu 0.75}");
    // a GPU node: its GPUs alone, as upstream skips CPU and memory
    assertThat(StatusEvents.utilization(new NodeUtilization(0.9, 0.9, 0.5, true)))
        .isEqualTo("{0 0 0.5 0 nvidia.com/gpu 0.5}");
  }

  /** The events a correlating recorder wrote: {@code create|update reason: note}. */
  private static final class Written implements EventSink {
    final List<String> writes = new ArrayList<>();

    @Override
    public Event create(Event event) {
      writes.add("create " + event.reason() + ": " + event.note());
      return event;
    }

    @Override
    public @Nullable Event update(Event event) {
      writes.add("update " + event.reason() + ": " + event.note());
      return event;
    }
  }

  private static EventCorrelator upstreamDefault(ManualClock clock) {
    return EventCorrelator.builder().clock(clock).burst(StatusEvents.SPAM_BURST).qps(StatusEvents.SPAM_QPS)
        .lruCacheSize(StatusEvents.LRU_CACHE_SIZE).spamKey(StatusEvents::spamKey).build();
  }

  @Test
  void upstreamsDefaultSpamFilter_aRepeatedStatusNoteOncePer5Minutes_distinctNotesAll() {
    ManualClock clock = ManualClock.atEpoch2026();
    Written sink = new Written();
    StatusEvents events = StatusEvents.of(CorrelatingEventRecorder.create(sink, clock, "cluster-autoscaler", "ca-0",
        upstreamDefault(clock)), AutoscalerOptions.defaults());

    events.clusterUnhealthy();
    clock.advance(Duration.ofSeconds(10));
    events.clusterUnhealthy();
    events.maxNodesTotalReached(5);
    events.scaleUpTimedOut("a", Duration.ofMinutes(16));
    events.scaleUpTimedOut("b", Duration.ofMinutes(16));
    clock.advance(Duration.ofMinutes(5));
    events.clusterUnhealthy();

    assertThat(sink.writes).containsExactly(
        "create ClusterUnhealthy: Cluster is unhealthy",
        "create MaxNodesTotalReached: Max total nodes in cluster reached: 5",
        "create ScaleUpTimedOut: Nodes added to group a failed to register within 16m0s",
        "create ScaleUpTimedOut: Nodes added to group b failed to register within 16m0s",
        "update ClusterUnhealthy: Cluster is unhealthy");
  }

  @Test
  void spamKey_statusConfigMapByNote_otherObjectsByReasonAndObject() {
    ManualClock clock = ManualClock.atEpoch2026();
    Written sink = new Written();
    // a renamed status ConfigMap is keyed as any object: one event per reason per 5 minutes, as upstream
    StatusEvents renamed = StatusEvents.of(CorrelatingEventRecorder.create(sink, clock, "cluster-autoscaler", "ca-0",
        upstreamDefault(clock)), AutoscalerOptions.defaults().withStatusConfigMap("kube-system", "ca-status"));

    renamed.scaleUpTimedOut("a", Duration.ofMinutes(16));
    renamed.scaleUpTimedOut("b", Duration.ofMinutes(16));
    renamed.clusterUnhealthy();

    assertThat(sink.writes).containsExactly(
        "create ScaleUpTimedOut: Nodes added to group a failed to register within 16m0s",
        "create ClusterUnhealthy: Cluster is unhealthy");
  }
}
