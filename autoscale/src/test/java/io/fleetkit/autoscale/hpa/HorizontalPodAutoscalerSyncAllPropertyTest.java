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
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link HorizontalPodAutoscalerController#syncAll} (the round's target scales read with the selectors, each HPA's
 * state found by its position in the listing, a target's scale kept while its object is the same) gives what syncing
 * each HPA on its own in listing order gives (each state looked up by name, each scale read when its turn comes):
 * over random steps in two namespaces (HPAs created on one of three targets, some sharing one, and deleted and made
 * again under the same name; targets rescaled from outside; usage changing; time passing), two controllers over two
 * identical clusters agree on every outcome, every HPA status and every target's replicas.
 */
final class HorizontalPodAutoscalerSyncAllPropertyTest {
  private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");
  private static final List<String> NAMESPACES = List.of("a", "b");
  private static final List<String> TARGETS = List.of("d0", "d1", "d2");
  private static final int HPAS = 4;

  /** One step: 0 create an HPA, 1 delete one, 2 rescale a target from outside, 3 change usage, 4 let time pass. */
  record Step(int action, int namespace, int hpa, int target, int value) {}

  @Provide
  Arbitrary<List<Step>> steps() {
    return Combinators.combine(Arbitraries.integers().between(0, 4), Arbitraries.integers().between(0, 1),
        Arbitraries.integers().between(0, HPAS - 1), Arbitraries.integers().between(0, TARGETS.size() - 1),
        Arbitraries.integers().between(0, 99)).as(Step::new).list().ofMinSize(1).ofMaxSize(40);
  }

  /** One cluster: store, clock, usage per target, and its controller. */
  private static final class Cluster {
    final ManualClock clock = new ManualClock(T0);
    final ObjectStore store = ObjectStore.inMemory();
    final Map<String, Long> usage = new HashMap<>();
    final HorizontalPodAutoscalerController controller;

    Cluster() {
      MetricsSource source = new MetricsSource() {
        @Override
        public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String r) {
          List<PodResourceMetrics> out = new ArrayList<>();
          for (Pod p : store.list(Pod.class, namespace, selector).items()) {
            long milli = usage.getOrDefault(namespace + "/" + p.metadata().labels().get("app"), 500L);
            out.add(new PodResourceMetrics(p.metadata().name(), clock.instant(), Duration.ofSeconds(15),
                List.of(new ContainerUsage("app", milli))));
          }
          return out;
        }
      };
      controller = HorizontalPodAutoscalerController.builder(store, source).clock(clock.asClock()).build();
      Instant longAgo = T0.minus(Duration.ofHours(1));
      for (String ns : NAMESPACES) {
        for (String app : TARGETS) {
          store.create(Deployment.builder().namespace(ns).name(app).replicas(2).matchLabels(Map.of("app", app))
              .podSpec(PodSpec.builder().container("app", "img", ResourceList.EMPTY).build()).build());
          for (int i = 0; i < 2; i++) {
            store.create(Pod.builder().metadata(ObjectMeta.builder().namespace(ns).name(app + "-" + i)
                .label("app", app).build()).container("app", "img", ResourceList.builder()
                    .put(ResourceNames.CPU, Quantity.ofMilli(1000)).build())
                .status(PodStatus.of(PodPhase.Running).withStartTime(longAgo).withCondition(PodCondition.of(
                    PodCondition.READY, ConditionStatus.True, "", "", longAgo))).build());
          }
        }
      }
    }

    void apply(Step s) {
      String ns = NAMESPACES.get(s.namespace());
      String hpa = "h" + s.hpa();
      String target = TARGETS.get(s.target());
      switch (s.action()) {
        case 0 -> {
          if (store.get(HorizontalPodAutoscaler.class, ns, hpa).isEmpty()) {
            HorizontalPodAutoscalerSpec.Builder spec = HorizontalPodAutoscalerSpec.builder()
                .scaleTargetRef(CrossVersionObjectReference.deployment(target)).minReplicas(1 + s.value() % 2)
                .maxReplicas(2 + s.value() % 4);
            if (s.value() % 3 != 0) {
              spec.metric(MetricSpec.resourceUtilization(ResourceNames.CPU, 50));
            }
            store.create(HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace(ns).name(hpa).build(),
                spec.build()));
          }
        }
        case 1 -> {
          if (store.get(HorizontalPodAutoscaler.class, ns, hpa).isPresent()) {
            store.delete(HorizontalPodAutoscaler.class, ns, hpa);
            controller.reconcile(deleted(ns, hpa));
          }
        }
        case 2 -> {
          Deployment d = store.require(Deployment.class, ns, target);
          store.update(d.withSpec(d.spec().withReplicas(s.value() % 5)));
        }
        case 3 -> usage.put(ns + "/" + target, 10L * s.value() + 1);
        default -> clock.advance(Duration.ofSeconds(15));
      }
    }

    /** The controller's context for an HPA that is gone. */
    ReconcileContext<HorizontalPodAutoscaler> deleted(String namespace, String name) {
      return new ReconcileContext<>() {
        @Override
        public ObjectKey key() {
          return ObjectKey.of(namespace, name);
        }

        @Override
        public Optional<HorizontalPodAutoscaler> object() {
          return Optional.empty();
        }

        @Override
        public Lister<HorizontalPodAutoscaler> lister() {
          throw new UnsupportedOperationException();
        }

        @Override
        public <O extends ApiObject<O>> Lister<O> lister(Class<O> kind) {
          throw new UnsupportedOperationException();
        }

        @Override
        public ObjectStore store() {
          return store;
        }

        @Override
        public Clock clock() {
          return clock.asClock();
        }

        @Override
        public int retries() {
          return 0;
        }
      };
    }
  }

  @Property(tries = 200)
  void syncAll_asEachHpaSyncedOnItsOwnInListingOrder(@ForAll("steps") List<Step> steps) {
    Cluster all = new Cluster();
    Cluster each = new Cluster();
    for (Step s : steps) {
      all.apply(s);
      each.apply(s);
      List<SyncOutcome> outcomes = all.controller.syncAll();
      List<SyncOutcome> expected = new ArrayList<>();
      for (HorizontalPodAutoscaler h : each.store.list(HorizontalPodAutoscaler.class).items()) {
        expected.add(each.controller.sync(h.metadata().namespace(), h.metadata().name()));
      }
      assertThat(outcomes).isEqualTo(expected);
      for (HorizontalPodAutoscaler h : all.store.list(HorizontalPodAutoscaler.class).items()) {
        assertThat(h.status()).as(h.metadata().namespace() + "/" + h.metadata().name())
            .isEqualTo(each.store.require(HorizontalPodAutoscaler.class, h.metadata().namespace(),
                h.metadata().name()).status());
      }
      for (String ns : NAMESPACES) {
        for (String target : TARGETS) {
          assertThat(all.store.require(Deployment.class, ns, target).spec().replicas())
              .isEqualTo(each.store.require(Deployment.class, ns, target).spec().replicas());
        }
      }
    }
  }
}
