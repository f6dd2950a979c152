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
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jspecify.annotations.Nullable;

/**
 * The HPA controller's reuse of its last computation ({@link MetricsSource#resourceMetricsVersion}) changes nothing:
 * two controllers over two identical clusters, one whose metrics source gives versions (and whose pods come from a
 * {@link WatchedPods}) and one whose does not (listing from the store), go through the same random steps (time
 * passing, usage changing on every pod or on one, pods restarting into their cpu-initialization period, turning
 * unready and ready again, turning unready after having been ready, the target rescaled from outside) and agree on
 * every outcome and every HPA status, through tolerance, unready pods and the scale-down stabilization window.
 */
final class HorizontalPodAutoscalerReusePropertyTest {
  private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");
  private static final int PODS = 4;

  /** One step before a sync: what happens, to which pod, and how many seconds pass. */
  record Step(int action, int pod, int value, int seconds) {}

  @Provide
  Arbitrary<List<Step>> steps() {
    return Combinators.combine(Arbitraries.integers().between(0, 6), Arbitraries.integers().between(0, PODS - 1),
        Arbitraries.integers().between(0, 1500), Arbitraries.of(1, 5, 10, 14, 15, 16, 30, 60, 200, 301))
        .as(Step::new).list().ofMinSize(1).ofMaxSize(40);
  }

  /** One cluster: store, clock, usage per pod, and its controller. */
  private static final class Cluster {
    final ManualClock clock = new ManualClock(T0);
    final ObjectStore store;
    final Map<String, Long> usage = new TreeMap<>();
    long generation;
    int reads;
    final HorizontalPodAutoscalerController controller;

    Cluster(boolean versioned) {
      // the reusing controller also lists its pods from a watch (the same list while they are unchanged)
      store = versioned ? ObjectStore.builder().directDelivery().build() : ObjectStore.inMemory();
      MetricsSource source = new MetricsSource() {
        @Override
        public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector,
            String resource) {
          reads++;
          List<PodResourceMetrics> out = new ArrayList<>();
          for (Pod p : store.list(Pod.class, namespace, selector).items()) {
            Long u = usage.get(p.metadata().name());
            if (u != null) {
              out.add(new PodResourceMetrics(p.metadata().name(), clock.instant(), Duration.ofSeconds(15),
                  List.of(new ContainerUsage("app", u))));
            }
          }
          return out;
        }

        @Override
        public @Nullable Object resourceMetricsVersion(String namespace, LabelSelector selector, String resource) {
          return versioned ? generation : null;
        }
      };
      HorizontalPodAutoscalerController.Builder b = HorizontalPodAutoscalerController.builder(store, source)
          .clock(clock);
      if (versioned) {
        b.pods(new WatchedPods(store));
      }
      controller = b.build();
      store.create(Deployment.builder().namespace("ns").name("web").replicas(PODS).matchLabels(Map.of("app", "web"))
          .podSpec(PodSpec.builder().container("app", "img:1", ResourceList.EMPTY).build()).build());
      for (int i = 0; i < PODS; i++) {
        store.create(Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name("web-" + i).label("app", "web")
            .build()).container("app", "img:1", ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(1000))
            .build()).status(status(true, T0.minus(Duration.ofHours(1)))).build());
        usage.put("web-" + i, 600L);
      }
      store.create(HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name("web").build(),
          HorizontalPodAutoscalerSpec.builder().scaleTargetRef(CrossVersionObjectReference.deployment("web"))
              .minReplicas(1).maxReplicas(20).metric(MetricSpec.resourceUtilization(ResourceNames.CPU, 60)).build()));
    }

    static PodStatus status(boolean ready, Instant since) {
      return status(ready, since, since);
    }

    static PodStatus status(boolean ready, Instant started, Instant transition) {
      return PodStatus.of(PodPhase.Running).withStartTime(started).withCondition(PodCondition.of(PodCondition.READY,
          ready ? ConditionStatus.True : ConditionStatus.False, "", "", transition));
    }

    void apply(Step s) {
      String name = "web-" + s.pod();
      Pod pod = store.require(Pod.class, "ns", name);
      switch (s.action()) {
        case 0 -> { } // time passes only
        case 1 -> { // every pod's usage changes, or (odd values) one pod's
          if (s.value() % 2 == 0) {
            usage.replaceAll((k, v) -> (long) s.value());
          } else {
            usage.put(name, (long) s.value());
          }
          generation++;
        }
        case 2 -> { // a pod restarts: inside its cpu-initialization period again
          store.updateStatus(pod.withStatus(status(true, clock.instant())));
          generation++;
        }
        case 3 -> { // a pod turns unready, or ready again
          boolean ready = pod.status().condition(PodCondition.READY).status() != ConditionStatus.True;
          store.updateStatus(pod.withStatus(status(ready, pod.status().startTime())));
          generation++;
        }
        case 4 -> { // someone rescales the target
          Deployment d = store.require(Deployment.class, "ns", "web");
          store.update(d.withSpec(d.spec().withReplicas(1 + s.value() % 12)));
        }
        case 6 -> { // a pod turns unready now, its start kept: it has been ready, unless it started under 30 s ago
          store.updateStatus(pod.withStatus(status(false, pod.status().startTime(), clock.instant())));
          generation++;
        }
        default -> { } // three syncs 5 s apart below
      }
      clock.advance(Duration.ofSeconds(s.seconds()));
    }

    SyncOutcome sync() {
      return controller.sync("ns", "web");
    }

    HorizontalPodAutoscaler hpa() {
      return store.require(HorizontalPodAutoscaler.class, "ns", "web");
    }
  }

  @Property(tries = 200)
  void reuse_sameOutcomesAndStatusesAsComputingEveryTime(@ForAll("steps") List<Step> steps) {
    Cluster reused = new Cluster(true);
    Cluster computed = new Cluster(false);
    for (Step s : steps) {
      reused.apply(s);
      computed.apply(s);
      int syncs = s.action() == 5 ? 3 : 1;
      for (int i = 0; i < syncs; i++) {
        if (i > 0) {
          reused.clock.advance(Duration.ofSeconds(5));
          computed.clock.advance(Duration.ofSeconds(5));
        }
        assertThat(reused.sync()).isEqualTo(computed.sync());
        assertThat(reused.hpa().status()).isEqualTo(computed.hpa().status());
        assertThat(reused.store.require(Deployment.class, "ns", "web").spec().replicas())
            .isEqualTo(computed.store.require(Deployment.class, "ns", "web").spec().replicas());
      }
    }
    assertThat(reused.reads).isLessThanOrEqualTo(computed.reads);
  }

  /**
   * Unchanged inputs are not read again; a new version, a changed pod, a sample within a metric window of a readiness
   * change and the end of the initialization period of an unready pod that has been ready are. The end of a ready
   * pod's initialization period, whose sample counted inside it as it does after it, is not.
   */
  @Example
  void reuse_readsMetricsOnlyWhenSomethingChanged() {
    Cluster c = new Cluster(true);
    c.sync();
    int first = c.reads;
    assertThat(first).isEqualTo(1);
    for (int i = 0; i < 5; i++) {
      c.clock.advance(Duration.ofSeconds(15));
      c.sync();
    }
    assertThat(c.reads).as("same pods, scale and version: nothing read").isEqualTo(first);
    c.apply(new Step(1, 0, 900, 15));
    c.sync();
    assertThat(c.reads).as("a new version").isEqualTo(first + 1);
    c.apply(new Step(2, 1, 0, 15)); // web-1 restarts, ready; its sample is a full window after the change
    c.sync();
    assertThat(c.reads).as("a changed pod").isEqualTo(first + 2);
    c.clock.advance(Duration.ofSeconds(15));
    c.sync();
    assertThat(c.reads).as("inside its initialization period, nothing that decides changes before its end")
        .isEqualTo(first + 2);
    c.clock.advance(Duration.ofMinutes(5));
    c.sync();
    assertThat(c.reads).as("the initialization period ended; a ready pod's sample counted inside it as after it")
        .isEqualTo(first + 2);
    c.clock.advance(Duration.ofSeconds(15));
    c.sync();
    assertThat(c.reads).isEqualTo(first + 2);
    c.apply(new Step(2, 2, 0, 1)); // web-2 restarts; synced 1 s later, its sample is within a window of the change
    c.sync();
    c.clock.advance(Duration.ofSeconds(5));
    c.sync();
    assertThat(c.reads).as("a sample within a window of a readiness change: read every time").isEqualTo(first + 4);
    c.clock.advance(Duration.ofSeconds(10));
    c.sync();
    c.clock.advance(Duration.ofSeconds(15));
    c.sync();
    assertThat(c.reads).as("a full window after the change: reused again").isEqualTo(first + 5);
    c.apply(new Step(2, 3, 0, 60)); // web-3 restarts, ready
    c.sync();
    c.apply(new Step(6, 3, 0, 15)); // a minute later it turns unready: dropped inside its initialization period
    c.sync();
    c.clock.advance(Duration.ofSeconds(15));
    c.sync();
    assertThat(c.reads).as("an unready pod inside its initialization period: reused until its end")
        .isEqualTo(first + 7);
    c.clock.advance(Duration.ofMinutes(5));
    c.sync();
    assertThat(c.reads).as("the period ended: an unready pod that has been ready counts").isEqualTo(first + 8);
    c.clock.advance(Duration.ofSeconds(15));
    c.sync();
    assertThat(c.reads).isEqualTo(first + 8);
  }
}
