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
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * {@link StatusEvents}' notes as Go prints them (upstream's {@code %v} of {@code utilization.Info}) and upstream's spam filter for them ({@code utils/kubernetes/factory.go}
 * {@code getCustomSpamKeyFunc}, the default {@code --record-duplicated-events=false}).
 */
final class StatusEventsTest {

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
