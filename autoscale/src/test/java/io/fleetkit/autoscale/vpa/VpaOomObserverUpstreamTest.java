package io.fleetkit.autoscale.vpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerSpec;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.hpa.MetricsSource;
import io.fleetkit.autoscale.hpa.PodResourceMetrics;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link VpaRecommenderLoop#observe}, the recommender's OOM observer: kubernetes/autoscaler
 * {@code vertical-pod-autoscaler/pkg/recommender/input/oom/observer_test.go} {@code TestOOMReceived} (cases "OK" and
 * "Old pod does not set memory requests") and {@code TestOOMStateAfterTerminatedState}, ported with their pods; the
 * observed OOM is checked where the recommender records it, the container's memory peak ({@code RecordOOM}: the
 * request plus 100 MiB, or 1.2 times it). Not ported: the case preferring the memory request of the container's status
 * (FleetKit's container statuses carry no resources) and {@code TestParseEvictionEvent} (the simulated kubelet's
 * Evicted events carry no annotations); see docs/conformance.md.
 */
final class VpaOomObserverUpstreamTest {
  private static final Instant OOM_AT = Instant.parse("2018-02-23T13:38:48Z");
  private final ManualClock clock = new ManualClock(OOM_AT.plusSeconds(60));
  private final ObjectStore store = ObjectStore.inMemory();
  private final MetricsSource noMetrics = new MetricsSource() {
    @Override
    public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String resource) {
      return List.of();
    }
  };
  private final VpaRecommenderLoop loop = VpaRecommenderLoop.builder(store, noMetrics, clock).checkpoints(false)
      .build();
  private final VerticalPodAutoscaler vpa;

  VpaOomObserverUpstreamTest() {
    store.create(Deployment.builder().namespace("mock-namespace").name("d").replicas(1)
        .matchLabels(Map.of("app", "d")).podSpec(PodSpec.builder().container("name11", "img", ResourceList.EMPTY)
            .build()).build());
    vpa = store.create(VerticalPodAutoscaler.of(ObjectMeta.builder().namespace("mock-namespace").name("d").build(),
        VerticalPodAutoscalerSpec.builder().targetRef(CrossVersionObjectReference.deployment("d")).build()));
  }

  @AfterEach
  void close() {
    store.close();
  }

  /**
   * Upstream's pod {@code Pod1} (names lower-cased: FleetKit validates them as DNS labels): container {@code name11}
   * asking for {@code memoryRequest} bytes, with a status.
   */
  private static Pod pod(@Nullable String memoryRequest, ContainerState state, int restarts,
      @Nullable ContainerState last) {
    ResourceList requests = memoryRequest == null ? ResourceList.EMPTY
        : ResourceList.builder().put("memory", memoryRequest).build();
    return Pod.builder().metadata(ObjectMeta.builder().namespace("mock-namespace").name("pod1").uid("uid-1")
        .label("app", "d").build()).container("name11", "img", requests)
        .status(PodStatus.of(PodPhase.Running).withContainerStatuses(List.of(
            new ContainerStatus("name11", false, restarts, state, false, null, last))))
        .build();
  }

  private static final ContainerState RUNNING_STATE = ContainerState.WAITING;
  private static final ContainerState OOM = new ContainerState(ContainerStateType.Terminated, "OOMKilled", 137,
      null, OOM_AT);

  private long peakAfter(Pod old, Pod updated) {
    loop.observe(new WatchEvent<>(WatchEventType.ADDED, old));
    loop.observe(new WatchEvent<>(WatchEventType.MODIFIED, updated));
    loop.runOnce();
    ContainerUsageState s = loop.history(vpa).get("name11");
    return s == null ? -1 : s.maxMemoryPeak();
  }

  @Test // TestOOMReceived "OK": a status without state, then terminated OOMKilled
  void observe_oomReceived_recordsTheRequestPlus100MiB() {
    long peak = peakAfter(pod("1024", RUNNING_STATE, 0, null), pod("1024", OOM, 0, null));
    assertThat(peak).isEqualTo(1024 + ContainerUsageState.OOM_MIN_BUMP_UP_BYTES);
  }

  @Test // TestOOMReceived "Old pod does not set memory requests": memory 0
  void observe_oldPodWithoutMemoryRequest_recordsZeroRequest() {
    long peak = peakAfter(pod(null, RUNNING_STATE, 0, null), pod("1024", OOM, 0, null));
    assertThat(peak).isEqualTo(ContainerUsageState.OOM_MIN_BUMP_UP_BYTES);
  }

  @Test // TestOOMStateAfterTerminatedState: terminated before, OOMKilled now, same restart count: no OOM
  void observe_terminatedBeforeSameRestartCount_noOom() {
    ContainerState terminated = new ContainerState(ContainerStateType.Terminated, "", 0, null, OOM_AT);
    assertThat(peakAfter(pod("1024", terminated, 0, null), pod("1024", OOM, 0, null))).isEqualTo(-1);
  }

  /**
   * The simulated kubelet's first OOM kill: it restarts the container at once, so the pod goes from running to running
   * with one more restart and {@code lastState} OOMKilled ({@code isPreviousOOM}).
   */
  @Test
  void observe_restartedWithOomLastState_recorded() {
    ContainerState running = ContainerState.running(OOM_AT.minusSeconds(30));
    ContainerState again = ContainerState.running(OOM_AT);
    long peak = peakAfter(pod("1Gi", running, 0, null), pod("1Gi", again, 1, OOM));
    assertThat(peak).as("1.2 x 1Gi: above 1Gi + 100Mi")
        .isEqualTo(ResourceAmounts.scale(1L << 30, ContainerUsageState.OOM_BUMP_UP_RATIO));
    // the same version again, or a restart after an Error: nothing more
    ContainerState error = new ContainerState(ContainerStateType.Terminated, "Error", 1, null, OOM_AT);
    loop.observe(new WatchEvent<>(WatchEventType.MODIFIED, pod("1Gi", again, 1, OOM)));
    loop.observe(new WatchEvent<>(WatchEventType.MODIFIED, pod("1Gi", running, 2, error)));
    loop.runOnce();
    assertThat(loop.history(vpa).get("name11").maxMemoryPeak()).isEqualTo(peak);
  }

  @Test
  void observe_podNoVpaTargets_dropped() {
    Pod other = Pod.builder().metadata(ObjectMeta.builder().namespace("mock-namespace").name("x").uid("uid-x")
        .label("app", "other").build()).container("name11", "img", ResourceList.EMPTY)
        .status(PodStatus.of(PodPhase.Running).withContainerStatuses(List.of(
            new ContainerStatus("name11", false, 0, RUNNING_STATE)))).build();
    loop.observe(new WatchEvent<>(WatchEventType.ADDED, other));
    loop.observe(new WatchEvent<>(WatchEventType.MODIFIED, other.withStatus(other.status().withContainerStatuses(
        List.of(new ContainerStatus("name11", false, 0, OOM))))));
    loop.runOnce();
    assertThat(loop.history(vpa)).isEmpty();
  }
}
