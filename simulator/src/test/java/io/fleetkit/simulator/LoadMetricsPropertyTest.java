package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.simulation.LoadPattern;
import io.fleetkit.api.simulation.WorkloadLoad;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.hpa.PodResourceMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@link LoadMetrics} keeps each workload's pods, and which of them serve traffic, from the watches (each pod looked
 * at once, when it changes), and gives the same version while the serving pods and the load are the same: over
 * random pod writes (created under one of two workloads or none, running, ready, unready, pending, relabelled,
 * deleted with and without a finalizer; the workloads replaced by equal ones), read with the workloads' own
 * selectors or with equal ones built per read, it answers as a fresh instance that groups from a list of the store, an
 * equal version means the same serving pods and usage, and within one instant it keeps its first read.
 */
final class LoadMetricsPropertyTest {
  private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");
  private static final List<String> APPS = List.of("web", "api");

  @Property(tries = 100)
  void keptFromWatches_asAFreshGrouping(@ForAll long seed) {
    check(seed, false);
  }

  /**
   * As {@link #keptFromWatches_asAFreshGrouping}, with the clock also moved on between a read and the next writes,
   * so that pods change while the snapshot of an earlier instant is still the last one read.
   */
  @Property(tries = 100)
  void keptFromWatches_writesAfterTheReadInstant_asAFreshGrouping(@ForAll long seed) {
    check(seed, true);
  }

  private static void check(long seed, boolean advanceBeforeWrites) {
    Random r = new Random(seed);
    ManualClock clock = new ManualClock(T0);
    ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
    List<ReplicaSet> sets = new ArrayList<>();
    for (String app : APPS) {
      Deployment d = store.create(deployment(app));
      sets.add(store.create(ReplicaSet.builder().namespace("default").name(app + "-1").matchLabels(Map.of("app", app))
          .podSpec(PodSpec.builder().container("app", "img", ResourceList.EMPTY).build())
          .ownerReference(OwnerReference.controllerOf(d)).build()));
    }
    List<WorkloadLoad> loads = APPS.stream()
        .map(a -> new WorkloadLoad("Deployment", "default", a, LoadPattern.constant(100 + r.nextInt(900)), 1, 0))
        .toList();
    LoadMetrics kept = new LoadMetrics(store, clock, T0, loads);
    Object[] lastVersions = new Object[APPS.size()];
    LabelSelector[] lastSelector = new LabelSelector[APPS.size()];
    List<List<String>> lastServing = new ArrayList<>(List.of(List.of(), List.of()));
    int created = 0;
    for (int step = 0; step < 60; step++) {
      boolean advancedBeforeWrites = advanceBeforeWrites && step > 0 && r.nextBoolean();
      if (advancedBeforeWrites) {
        clock.advance(Duration.ofSeconds(1 + r.nextInt(20)));
      }
      List<Pod> pods = store.list(Pod.class, "default").items();
      Pod some = pods.isEmpty() ? null : pods.get(r.nextInt(pods.size()));
      int action = r.nextInt(9);
      if (action == 0 || some == null) {
        int owner = r.nextInt(3);
        ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default").name("p-" + created++)
            .label("app", APPS.get(r.nextInt(APPS.size())));
        if (owner < sets.size()) {
          meta.ownerReference(OwnerReference.controllerOf(sets.get(owner)));
        }
        if (r.nextBoolean()) {
          meta.finalizer("test/keep");
        }
        store.create(Pod.builder().metadata(meta.build()).container("app", "img", ResourceList.EMPTY)
            .status(status(r)).build());
      } else if (action <= 3) {
        store.updateStatus(some.withStatus(status(r)));
      } else if (action == 4) {
        store.update(some.withMetadata(some.metadata().toBuilder()
            .label("app", APPS.get(r.nextInt(APPS.size()))).build()));
      } else if (action == 5) {
        store.delete(Pod.class, "default", some.metadata().name());
      } else if (action == 6 && !some.metadata().finalizers().isEmpty()) {
        store.update(some.withMetadata(some.metadata().toBuilder().finalizers(List.of()).build()));
      } else if (action == 7) { // a workload gone, back, or replaced by an equal one (its selector another instance)
        String app = APPS.get(r.nextInt(APPS.size()));
        boolean exists = store.get(Deployment.class, "default", app).isPresent();
        if (exists) {
          store.delete(Deployment.class, "default", app);
        }
        if (!exists || r.nextBoolean()) {
          store.create(deployment(app));
        }
      }
      boolean sameInstant = action != 7 && step > 0 && r.nextInt(4) == 0 && !advancedBeforeWrites;
      if (!sameInstant && !advancedBeforeWrites) {
        clock.advance(Duration.ofSeconds(1 + r.nextInt(20)));
      }
      LoadMetrics fresh = new LoadMetrics(store, clock, T0, loads);
      List<Pod> now = store.list(Pod.class, "default").items();
      for (int i = 0; i < loads.size(); i++) {
        WorkloadLoad l = loads.get(i);
        // as the HPA asks (the workload's own selector instance, or the one it read last), or an equal one built
        Deployment workload = store.get(Deployment.class, "default", l.name()).orElse(null);
        int ask = r.nextInt(3);
        LabelSelector s = ask == 0 && workload != null ? workload.spec().selector()
            : ask == 1 && lastSelector[i] != null ? lastSelector[i] : LabelSelector.of(Map.of("app", l.name()));
        lastSelector[i] = s;
        if (workload == null) { // no load: the pods listed from the store, no usage, no version
          assertThat(kept.resourceMetricsVersion("default", s, "cpu")).isNull();
          assertThat(kept.podResourceMetrics("default", s, "cpu")).as("step %d, %s gone", step, l.target())
              .isEqualTo(fresh.podResourceMetrics("default", s, "cpu"));
          lastVersions[i] = null;
          lastServing.set(i, List.of());
          continue;
        }
        Object version = kept.resourceMetricsVersion("default", s, "cpu");
        List<String> serving = names(kept.podResourceMetrics("default", s, "cpu"));
        if (sameInstant) { // the first read of this instant stands
          assertThat(serving).as("step %d, %s, same instant", step, l.target()).isEqualTo(lastServing.get(i));
          assertThat(version).isEqualTo(lastVersions[i]);
          continue;
        }
        // recomputed: the pods the workload's ReplicaSet controls that run, are ready and are not being deleted
        String uid = sets.get(i).metadata().uid();
        List<Pod> owned = now.stream().filter(p -> p.metadata().controllerRef() != null
            && p.metadata().controllerRef().uid().equals(uid) && p.status().phase() == PodPhase.Running
            && p.metadata().deletionTimestamp() == null && p.status().condition(PodCondition.READY) != null
            && p.status().condition(PodCondition.READY).status() == ConditionStatus.True).toList();
        List<Pod> matching = owned.stream().filter(p -> s.matches(p.metadata().labels())).toList();
        double total = l.pattern().rateAt(Duration.between(T0, clock.now())) * l.cpuMilliPerRequest();
        assertThat(kept.servingPods(l)).as("step %d, %s", step, l.target()).isEqualTo(owned.size())
            .isEqualTo(fresh.servingPods(l));
        assertThat(serving).as("step %d, %s", step, l.target()).isEqualTo(matching.stream()
            .map(p -> p.metadata().name() + "=" + Math.round(total / matching.size())).toList());
        assertThat(kept.podResourceMetrics("default", s, "cpu")).as("step %d, %s", step, l.target())
            .isEqualTo(fresh.podResourceMetrics("default", s, "cpu"));
        if (version.equals(lastVersions[i])) {
          assertThat(serving).as("step %d, %s: an equal version, the same serving pods and usage", step, l.target())
              .isEqualTo(lastServing.get(i));
        }
        lastVersions[i] = version;
        lastServing.set(i, serving);
      }
      fresh.close();
    }
    kept.close();
    store.close();
  }

  private static Deployment deployment(String app) {
    return Deployment.builder().namespace("default").name(app).replicas(1).matchLabels(Map.of("app", app))
        .podSpec(PodSpec.builder().container("app", "img", ResourceList.EMPTY).build()).build();
  }

  private static PodStatus status(Random r) {
    PodPhase phase = switch (r.nextInt(4)) {
      case 0 -> PodPhase.Pending;
      case 1 -> PodPhase.Failed;
      default -> PodPhase.Running;
    };
    PodStatus s = PodStatus.of(phase);
    if (r.nextInt(4) != 0) {
      s = s.withCondition(PodCondition.of(PodCondition.READY,
          r.nextInt(3) == 0 ? ConditionStatus.False : ConditionStatus.True, "", "", T0));
    }
    return s;
  }

  private static List<String> names(List<PodResourceMetrics> metrics) {
    return metrics.stream().map(m -> m.podName() + "=" + m.containers().get(0).milliValue()).toList();
  }
}
