package io.fleetkit.autoscale.vpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.HistogramCheckpoint;
import io.fleetkit.api.autoscaling.RecommendedPodResources;
import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpoint;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpointSpec;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpointStatus;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.hpa.ContainerUsage;
import io.fleetkit.autoscale.hpa.MetricsSource;
import io.fleetkit.autoscale.hpa.PodResourceMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * VPA checkpoints: {@link ContainerUsageState}'s save and load, and {@link VpaRecommenderLoop}'s restore, writes and
 * garbage collection over a store. Ports of kubernetes/autoscaler (master 55c37cd5)
 * {@code pkg/recommender/checkpoint/checkpoint_writer_test.go} TestMergeContainerStateForCheckpointDropsRecentMemoryPeak
 * and TestGetVpasToCheckpointSorts, and {@code pkg/recommender/input/cluster_feeder_test.go} TestCanCleanupCheckpoints,
 * with FleetKit's own cases around them.
 */
final class VpaCheckpointTest {
  private static final long GIB = 1024L * 1024 * 1024;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-06-01T12:00:00Z"));
  private final ObjectStore store = ObjectStore.inMemory();

  /** Every pod of the selector uses 300m and 200 MiB in each of its containers. */
  private final MetricsSource metrics = new MetricsSource() {
    @Override
    public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String resource) {
      List<PodResourceMetrics> out = new ArrayList<>();
      for (Pod p : store.list(Pod.class, namespace, selector).items()) {
        List<ContainerUsage> c = p.spec().containers().stream().map(ct -> new ContainerUsage(ct.name(),
            resource.equals("cpu") ? 300 : 200L * 1024 * 1024 * 1000)).toList();
        out.add(new PodResourceMetrics(p.metadata().name(), clock.instant(), Duration.ofMinutes(1), c));
      }
      return out;
    }
  };

  private static ResourceList cpu(long milli) {
    return ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(milli)).build();
  }

  private void workload(String name, int replicas) {
    store.create(Deployment.builder().namespace("ns").name(name).replicas(replicas)
        .matchLabels(Map.of("app", name))
        .podSpec(PodSpec.builder().container("app", "nginx:1", cpu(100)).container("sidecar", "envoy:1", cpu(50))
            .build()).build());
    for (int i = 0; i < replicas; i++) {
      store.create(Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name(name + "-" + i)
          .label("app", name).build()).container("app", "nginx:1", cpu(100))
          .container("sidecar", "envoy:1", cpu(50)).status(PodStatus.of(PodPhase.Running)).build());
    }
  }

  private VerticalPodAutoscaler vpa(String name) {
    return store.create(VerticalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name(name).build(),
        VerticalPodAutoscalerSpec.builder().targetRef(CrossVersionObjectReference.deployment(name)).build()));
  }

  private VpaRecommenderLoop loop() {
    return VpaRecommenderLoop.builder(store, metrics, clock).build();
  }

  private void runMinutes(VpaRecommenderLoop l, int minutes) {
    for (int i = 0; i < minutes; i++) {
      l.runOnce();
      clock.advance(Duration.ofMinutes(1));
    }
  }

  @Test // checkpoint_writer_test.go TestMergeContainerStateForCheckpointDropsRecentMemoryPeak
  void save_leavesOutTheOpenWindowsPeak() {
    ContainerUsageState s = new ContainerUsageState(Instant.EPOCH);
    Instant now = Instant.ofEpochSecond(1);
    s.addMemorySample(now, GIB);
    HistogramCheckpoint memory = s.saveToCheckpoint(now).memoryHistogram();
    assertThat(memory.bucketWeights()).as("current peak excluded").isEmpty();
    Instant later = now.plus(ContainerUsageState.MEMORY_AGGREGATION_INTERVAL);
    assertThat(s.saveToCheckpoint(later).memoryHistogram().bucketWeights()).as("an old peak is kept").isNotEmpty();
    assertThat(s.memoryPeaks().isEmpty()).as("the history itself keeps the peak").isFalse();
  }

  @Test
  void saveThenLoad_sameRecommendationAndConfidence() {
    ContainerUsageState s = new ContainerUsageState(Instant.EPOCH);
    Instant t = Instant.parse("2026-06-01T00:00:00Z");
    for (int i = 0; i < 2000; i++) {
      s.addCpuSample(t.plus(Duration.ofMinutes(i)), 100 + (i % 7) * 50, 200);
      s.addMemorySample(t.plus(Duration.ofMinutes(i)), (300 + (i % 5) * 20) * 1024L * 1024);
    }
    Instant now = t.plus(Duration.ofMinutes(2000));
    VerticalPodAutoscalerCheckpointStatus c = s.saveToCheckpoint(now);
    assertThat(c.version()).isEqualTo("v3");
    assertThat(c.lastUpdateTime()).isEqualTo(now);
    assertThat(c.totalSamplesCount()).isEqualTo(2000);
    ContainerUsageState restored = new ContainerUsageState(now);
    restored.loadFromCheckpoint(c);
    assertThat(restored.totalSamplesCount()).isEqualTo(2000);
    assertThat(restored.firstSampleStart()).isEqualTo(t);
    assertThat(restored.confidence(Duration.ofHours(24))).isEqualTo(s.confidence(Duration.ofHours(24)));
    assertThat(VpaRecommender.DEFAULT.estimate(restored, 1).target().cpuMillicores())
        .isEqualTo(VpaRecommender.DEFAULT.estimate(s, 1).target().cpuMillicores());
  }

  @Test
  void load_otherVersion_refusedAndUnchanged() {
    ContainerUsageState s = new ContainerUsageState(Instant.EPOCH);
    VerticalPodAutoscalerCheckpointStatus v2 = new VerticalPodAutoscalerCheckpointStatus(null, "v2",
        new HistogramCheckpoint(null, Map.of(3, 10), 1.0), HistogramCheckpoint.EMPTY, null, null, 5);
    assertThatThrownBy(() -> s.loadFromCheckpoint(v2)).hasMessage("unsupported checkpoint version v2");
    VerticalPodAutoscalerCheckpointStatus badBucket = new VerticalPodAutoscalerCheckpointStatus(null, "v3",
        new HistogramCheckpoint(null, Map.of(3, 10), 1.0), new HistogramCheckpoint(null, Map.of(100000, 1), 1.0),
        null, null, 5);
    assertThatThrownBy(() -> s.loadFromCheckpoint(badBucket)).hasMessageContaining("exceeding histogram buckets");
    assertThat(s.totalSamplesCount()).isZero();
    assertThat(s.cpuUsage().isEmpty()).as("nothing loaded from a checkpoint that does not load whole").isTrue();
  }

  @Test
  void loop_writesACheckpointPerContainer() {
    workload("web", 2);
    vpa("web");
    runMinutes(loop(), 3);
    List<VerticalPodAutoscalerCheckpoint> cs = store.list(VerticalPodAutoscalerCheckpoint.class, "ns").items();
    assertThat(cs).extracting(c -> c.metadata().name()).containsExactlyInAnyOrder("web-app", "web-sidecar");
    VerticalPodAutoscalerCheckpoint app = store.require(VerticalPodAutoscalerCheckpoint.class, "ns", "web-app");
    assertThat(app.spec()).isEqualTo(new VerticalPodAutoscalerCheckpointSpec("web", "app"));
    assertThat(app.status().version()).isEqualTo(ContainerUsageState.CHECKPOINT_VERSION);
    assertThat(app.status().totalSamplesCount()).as("2 pods x 3 runs").isEqualTo(6);
    assertThat(app.status().lastUpdateTime()).isEqualTo(clock.instant().minus(Duration.ofMinutes(1)));
    assertThat(store.require(VerticalPodAutoscaler.class, "ns", "web").status().recommendation()).isNotNull();
  }

  @Test
  void restartedLoop_restoresTheHistory() {
    workload("web", 2);
    vpa("web");
    VpaRecommenderLoop first = loop();
    runMinutes(first, 30);
    RecommendedPodResources before = store.require(VerticalPodAutoscaler.class, "ns", "web").status()
        .recommendation();
    ContainerUsageState kept = first.history(store.require(VerticalPodAutoscaler.class, "ns", "web")).get("app");

    VpaRecommenderLoop restarted = loop();
    restarted.runOnce();
    ContainerUsageState restored = restarted.history(store.require(VerticalPodAutoscaler.class, "ns", "web"))
        .get("app");
    assertThat(restored.totalSamplesCount()).as("60 restored + 2 new").isEqualTo(kept.totalSamplesCount() + 2);
    assertThat(restored.firstSampleStart()).isEqualTo(kept.firstSampleStart());
    RecommendedPodResources after = store.require(VerticalPodAutoscaler.class, "ns", "web").status()
        .recommendation();
    // the recommendation does not start over: same target, bounds a little tighter (one more run of history)
    assertThat(after.containerRecommendations().get(0).target())
        .isEqualTo(before.containerRecommendations().get(0).target());
    long upperBefore = before.containerRecommendations().get(0).upperBound().milliCpu();
    long upperAfter = after.containerRecommendations().get(0).upperBound().milliCpu();
    assertThat(upperAfter).isLessThan(upperBefore).isGreaterThan(upperBefore * 9 / 10);

    VpaRecommenderLoop without = VpaRecommenderLoop.builder(store, metrics, clock).checkpoints(false).build();
    without.runOnce();
    assertThat(without.history(store.require(VerticalPodAutoscaler.class, "ns", "web")).get("app")
        .totalSamplesCount()).as("checkpoints off: no restore").isEqualTo(2);
    long upperFresh = store.require(VerticalPodAutoscaler.class, "ns", "web").status().recommendation()
        .containerRecommendations().get(0).upperBound().milliCpu();
    assertThat(upperFresh).as("a history of one run has little confidence").isGreaterThan(10 * upperAfter);
  }

  @Test
  void restore_skipsCheckpointsItCannotUse() {
    workload("web", 1);
    vpa("web");
    store.create(new VerticalPodAutoscalerCheckpoint(ObjectMeta.builder().namespace("ns").name("web-app").build(),
        new VerticalPodAutoscalerCheckpointSpec("web", "app"), new VerticalPodAutoscalerCheckpointStatus(null, "v2",
            HistogramCheckpoint.EMPTY, HistogramCheckpoint.EMPTY, null, null, 40)));
    store.create(new VerticalPodAutoscalerCheckpoint(ObjectMeta.builder().namespace("ns").name("gone-app").build(),
        new VerticalPodAutoscalerCheckpointSpec("gone", "app"), VerticalPodAutoscalerCheckpointStatus.EMPTY));
    VpaRecommenderLoop l = loop();
    l.runOnce();
    assertThat(l.history(store.require(VerticalPodAutoscaler.class, "ns", "web")).get("app").totalSamplesCount())
        .as("the v2 checkpoint is not loaded").isEqualTo(1);
    assertThat(store.get(VerticalPodAutoscalerCheckpoint.class, "ns", "gone-app")).as("collected").isEmpty();
    assertThat(store.require(VerticalPodAutoscalerCheckpoint.class, "ns", "web-app").status().version())
        .as("overwritten in the current version").isEqualTo("v3");
  }

  @Test // cluster_feeder_test.go TestCanCleanupCheckpoints
  void garbageCollection_deletesOnlyCheckpointsOfMissingVpas() {
    List<String> vpas = List.of("balanced", "performance", "savings", "default");
    for (String v : vpas) {
      vpa(v);
      store.create(new VerticalPodAutoscalerCheckpoint(ObjectMeta.builder().namespace("ns").name(v).build(),
          new VerticalPodAutoscalerCheckpointSpec(v, ""), VerticalPodAutoscalerCheckpointStatus.EMPTY));
    }
    store.create(new VerticalPodAutoscalerCheckpoint(ObjectMeta.builder().namespace("ns").name("nonexistentvpa")
        .build(), new VerticalPodAutoscalerCheckpointSpec("nonexistentvpa", ""),
        VerticalPodAutoscalerCheckpointStatus.EMPTY));
    loop().runOnce();
    assertThat(store.list(VerticalPodAutoscalerCheckpoint.class, "ns").items()).extracting(c -> c.metadata().name())
        .containsExactlyInAnyOrderElementsOf(vpas);
  }

  @Test
  void garbageCollection_everyInterval() {
    workload("web", 1);
    vpa("web");
    VpaRecommenderLoop l = VpaRecommenderLoop.builder(store, metrics, clock)
        .checkpointsGcInterval(Duration.ofMinutes(10)).build();
    l.runOnce();
    store.create(new VerticalPodAutoscalerCheckpoint(ObjectMeta.builder().namespace("ns").name("old-app").build(),
        new VerticalPodAutoscalerCheckpointSpec("old", "app"), VerticalPodAutoscalerCheckpointStatus.EMPTY));
    clock.advance(Duration.ofMinutes(9));
    l.runOnce();
    assertThat(store.get(VerticalPodAutoscalerCheckpoint.class, "ns", "old-app")).as("not yet due").isPresent();
    clock.advance(Duration.ofMinutes(1));
    l.runOnce();
    assertThat(store.get(VerticalPodAutoscalerCheckpoint.class, "ns", "old-app")).isEmpty();
  }

  @Test // checkpoint_writer_test.go TestGetVpasToCheckpointSorts, through one VPA's checkpoints per run
  void writes_neverWrittenFirstThenOldest() {
    for (String v : List.of("vpa-2", "vpa-0", "vpa-1")) {
      workload(v, 1);
      vpa(v);
    }
    VpaRecommenderLoop l = VpaRecommenderLoop.builder(store, metrics, clock).maxCheckpointedVpasPerRun(1).build();
    List<String> order = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      l.runOnce();
      String newest = store.list(VerticalPodAutoscalerCheckpoint.class, "ns").items().stream()
          .filter(c -> clock.instant().equals(c.status().lastUpdateTime()))
          .map(c -> c.spec().vpaObjectName()).distinct().findFirst().orElseThrow();
      order.add(newest);
      clock.advance(Duration.ofMinutes(1));
    }
    assertThat(order).containsExactly("vpa-0", "vpa-1", "vpa-2", "vpa-0");
  }

  @Test
  void deletedVpa_historyDroppedAndCheckpointsCollected() {
    workload("web", 1);
    vpa("web");
    VpaRecommenderLoop l = loop();
    runMinutes(l, 2);
    assertThat(store.list(VerticalPodAutoscalerCheckpoint.class, "ns").items()).hasSize(2);
    store.delete(VerticalPodAutoscaler.class, "ns", "web");
    clock.advance(Duration.ofMinutes(10));
    l.runOnce();
    assertThat(store.list(VerticalPodAutoscalerCheckpoint.class, "ns").items()).isEmpty();
    VerticalPodAutoscaler again = vpa("web");
    l.runOnce();
    assertThat(l.history(again).get("app").totalSamplesCount()).as("a new VPA starts from nothing").isEqualTo(1);
  }

  @Test
  void checkpointKind_validation() {
    assertThatThrownBy(() -> new VerticalPodAutoscalerCheckpoint(ObjectMeta.builder().namespace("ns").name("c")
        .build(), new VerticalPodAutoscalerCheckpointSpec("", "app"), new VerticalPodAutoscalerCheckpointStatus(null,
            "v3", new HistogramCheckpoint(null, Map.of(1, -2), Double.NaN), HistogramCheckpoint.EMPTY, null, null,
            -1)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("VerticalPodAutoscalerCheckpoint ns/c")
        .hasMessageContaining("spec.vpaObjectName")
        .hasMessageContaining("status.cpuHistogram.bucketWeights[1]")
        .hasMessageContaining("status.cpuHistogram.totalWeight")
        .hasMessageContaining("status.totalSamplesCount");
  }
}
