package io.fleetkit.autoscale.hpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscaler;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.MetricSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link HorizontalPodAutoscalerController#syncAll} gives what syncing each HPA in listing order gives, also when two
 * HPAs scale one target (the second must read the first one's write) next to one that scales its own target from
 * its metrics (whose round reads every target's scale with the selectors).
 */
final class HorizontalPodAutoscalerSyncAllTest {
  private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");

  private static final class Cluster {
    final ManualClock clock = new ManualClock(T0);
    final ObjectStore store = ObjectStore.inMemory();
    final HorizontalPodAutoscalerController controller;

    Cluster() {
      MetricsSource source = new MetricsSource() {
        @Override
        public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String r) {
          List<PodResourceMetrics> out = new ArrayList<>();
          for (Pod p : store.list(Pod.class, namespace, selector).items()) {
            out.add(new PodResourceMetrics(p.metadata().name(), clock.instant(), Duration.ofSeconds(15),
                List.of(new ContainerUsage("app", 900))));
          }
          return out;
        }
      };
      controller = HorizontalPodAutoscalerController.builder(store, source).clock(clock).build();
      for (String app : List.of("a", "b")) {
        store.create(Deployment.builder().namespace("ns").name(app).replicas(1).matchLabels(Map.of("app", app))
            .podSpec(PodSpec.builder().container("app", "img", ResourceList.EMPTY).build()).build());
      }
      Instant longAgo = T0.minus(Duration.ofHours(1));
      for (int i = 0; i < 2; i++) {
        store.create(Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name("a-" + i).label("app", "a")
            .build()).container("app", "img", ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(1000))
            .build()).status(PodStatus.of(PodPhase.Running).withStartTime(longAgo).withCondition(PodCondition.of(
                PodCondition.READY, ConditionStatus.True, "", "", longAgo))).build());
      }
      hpa("a", "a", 1, 10, MetricSpec.resourceUtilization(ResourceNames.CPU, 50));
      hpa("b1", "b", 5, 10, null); // below its minimum: scales b to 5
      hpa("b2", "b", 1, 2, null); // then above its maximum: scales b back to 2
    }

    void hpa(String name, String target, int min, int max, MetricSpec metric) {
      HorizontalPodAutoscalerSpec.Builder spec = HorizontalPodAutoscalerSpec.builder()
          .scaleTargetRef(CrossVersionObjectReference.deployment(target)).minReplicas(min).maxReplicas(max);
      if (metric != null) {
        spec.metric(metric);
      }
      store.create(HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name(name).build(), spec.build()));
    }

    int replicas(String name) {
      return store.require(Deployment.class, "ns", name).spec().replicas();
    }
  }

  @Test
  void syncAll_asEachInListingOrder_sharedTargetReadAfterTheOtherHpasWrite() {
    Cluster all = new Cluster();
    Cluster each = new Cluster();
    for (int round = 0; round < 3; round++) {
      List<SyncOutcome> outcomes = all.controller.syncAll();
      List<SyncOutcome> expected = new ArrayList<>();
      for (String name : List.of("a", "b1", "b2")) {
        expected.add(each.controller.sync("ns", name));
      }
      assertThat(outcomes).isEqualTo(expected);
      for (String hpa : List.of("a", "b1", "b2")) {
        assertThat(all.store.require(HorizontalPodAutoscaler.class, "ns", hpa).status())
            .isEqualTo(each.store.require(HorizontalPodAutoscaler.class, "ns", hpa).status());
      }
      all.clock.advance(Duration.ofSeconds(15));
      each.clock.advance(Duration.ofSeconds(15));
    }
    assertThat(all.replicas("b")).isEqualTo(2);
    assertThat(all.replicas("a")).isEqualTo(each.replicas("a")).isGreaterThan(1);
  }
}
