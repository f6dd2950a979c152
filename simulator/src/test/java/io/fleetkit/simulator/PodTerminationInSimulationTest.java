package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceStatus;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointConditions;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.networking.ClusterNetworking;
import io.fleetkit.reconcile.node.HealthSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Graceful pod termination in a whole simulation: a Deployment's pod with a {@code preStop} hook stays Terminating
 * while the hook runs, gets SIGTERM after it and is removed within its grace period; the timeline records a pod's
 * deletion (PodDeleted, or PodEvicted for a pod marked as a disruption target) when the pod is marked for deletion,
 * not when it is finally removed. With the Service networking controllers, the terminating pod's endpoint stays in
 * its Service's EndpointSlice, serving as long as its readiness probe passes (the kubelet probes readiness until the
 * container exits) and terminating: the window in which kube-proxy's terminating-endpoint fallback can still use it.
 */
final class PodTerminationInSimulationTest {
  private static final long PRE_STOP_SLEEP = 8;
  private static final long GRACE = 30;

  private static Deployment web(Lifecycle lifecycle) {
    Container app = Container.of("app", "nginx:1", ResourceList.ofCpuMemory(500, 0)).withLifecycle(lifecycle);
    return Deployment.builder().namespace("default").name("web").replicas(2).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container(app).terminationGracePeriodSeconds(GRACE).build()).build();
  }

  private static Pod anyPod(Simulation sim) {
    return SimFixtures.readyPods(sim, "web").get(0);
  }

  @Test
  void deploymentPod_preStopSleep_terminatingUntilTheHookEnds_thenRemovedWithinItsGracePeriod() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2))
        .object(web(Lifecycle.preStop(new LifecycleHandler.Sleep(PRE_STOP_SLEEP)))).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(5));
      Pod victim = anyPod(sim);
      String name = victim.metadata().name();
      List<Pod> lastSeen = new ArrayList<>();
      sim.store().watch(Pod.class, "", (WatchEvent<Pod> e) -> {
        if (e.object().metadata().name().equals(name)) {
          lastSeen.add(e.object());
        }
      });
      Duration markedAt = sim.elapsed();
      sim.store().delete(Pod.class, "default", name);
      sim.settle();

      sim.runFor(Duration.ofSeconds(PRE_STOP_SLEEP - 1));
      Pod terminating = sim.store().get(Pod.class, "default", name).orElseThrow();
      assertThat(terminating.metadata().deletionTimestamp()).as("Terminating").isNotNull();
      assertThat(terminating.status().containerStatuses().get(0).state().type())
          .as("still running: the hook runs before SIGTERM").isEqualTo(ContainerStateType.Running);

      boolean removed = sim.runUntil(s -> s.store().get(Pod.class, "default", name).isEmpty(),
          Duration.ofSeconds(GRACE));
      assertThat(removed).as("removed no later than its grace period").isTrue();
      Duration removedAt = sim.elapsed();
      assertThat(removedAt).isBetween(markedAt.plusSeconds(PRE_STOP_SLEEP), markedAt.plusSeconds(GRACE));
      Pod last = lastSeen.get(lastSeen.size() - 1);
      ContainerStatus app = last.status().containerStatuses().get(0);
      // a pod deleted gracefully carries the end of its grace period as deletionTimestamp
      Instant start = last.metadata().deletionTimestamp().minusSeconds(GRACE);
      assertThat(app.state().type()).isEqualTo(ContainerStateType.Terminated);
      assertThat(app.state().exitCode()).as("SIGTERM ends the default process").isEqualTo(143);
      assertThat(app.state().finishedAt()).as("SIGTERM right after the 8 s hook")
          .isEqualTo(start.plusSeconds(PRE_STOP_SLEEP));
      boolean healed = sim.runUntil(s -> SimFixtures.readyPods(s, "web").size() == 2, Duration.ofSeconds(30));
      assertThat(healed).isTrue();
    }
  }

  @Test
  void failingPreStop_warningOnTheTimeline_podStillRemoved() {
    // a tcpSocket preStop is accepted by validation but not run by the kubelet: it fails at once
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1))
        .object(web(Lifecycle.preStop(ProbeHandler.TcpSocket.of(80)))).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(5));
      String name = anyPod(sim).metadata().name();
      sim.store().delete(Pod.class, "default", name);
      sim.runFor(Duration.ofSeconds(1));
      assertThat(sim.store().get(Pod.class, "default", name)).isEmpty();
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("FailedPreStopHook")).singleElement()
          .satisfies(e -> {
            assertThat(e.object()).isEqualTo("Pod/default/" + name);
            assertThat(e.message()).isEqualTo("PreStopHook failed");
          });
    }
  }

  @Test
  void timeline_podDeletedRecordedAtTheMark_notAtTheRemoval() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2))
        .object(web(Lifecycle.preStop(new LifecycleHandler.Sleep(20)))).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(5));
      String name = anyPod(sim).metadata().name();
      Duration markedAt = sim.elapsed();
      sim.store().delete(Pod.class, "default", name);
      sim.runFor(Duration.ofSeconds(1));
      assertThat(sim.store().get(Pod.class, "default", name)).as("Terminating for 20 s").isPresent();
      sim.runFor(Duration.ofSeconds(30));
      assertThat(sim.store().get(Pod.class, "default", name)).isEmpty();
      assertThat(sim.timeline()).filteredOn(e -> e.object().equals("Pod/default/" + name)
          && (e.kind().equals("PodDeleted") || e.kind().equals("PodEvicted"))).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo("PodDeleted");
            assertThat(e.at()).as("at the mark").isEqualTo(markedAt);
          });
    }
  }

  /**
   * A ReplicaSet's scale-down names its controller and the counts on each deleted pod; a user's deletion of a pod
   * names nobody; deleting the Deployment names the garbage collector on the pods of its ReplicaSet.
   */
  @Test
  void timeline_podDeleted_namesTheScaleDownOrTheGarbageCollector() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(SimFixtures.deployment("web", 3))
        .seed(1).build()) {
      sim.runFor(Duration.ofSeconds(5));
      String rs = sim.store().list(io.fleetkit.api.apps.ReplicaSet.class, "default").items().get(0).metadata().name();
      String byUser = anyPod(sim).metadata().name();
      sim.store().delete(Pod.class, "default", byUser);
      sim.runFor(Duration.ofSeconds(5));
      Deployment d = sim.store().get(Deployment.class, "default", "web").orElseThrow();
      sim.store().update(d.withSpec(d.spec().withReplicas(1)));
      sim.runFor(Duration.ofSeconds(40));
      List<TimelineEvent> deleted = sim.timeline().stream().filter(e -> e.kind().equals("PodDeleted")).toList();
      assertThat(deleted).hasSize(3);
      assertThat(deleted.get(0).object()).isEqualTo("Pod/default/" + byUser);
      assertThat(deleted.get(0).message()).isEmpty();
      assertThat(deleted.subList(1, 3)).extracting(TimelineEvent::message)
          .containsOnly("by ReplicaSet/" + rs + ", scaled from 3 to 1");
      sim.store().delete(Deployment.class, "default", "web");
      sim.runFor(Duration.ofSeconds(40));
      assertThat(SimFixtures.readyPods(sim, "web")).isEmpty();
      List<TimelineEvent> collected = sim.timeline().stream().filter(e -> e.kind().equals("PodDeleted")).skip(3)
          .toList();
      assertThat(collected).singleElement().satisfies(e -> assertThat(e.message())
          .matches("by the garbage collector, ReplicaSet/" + rs + " is (gone|being deleted)"));
    }
  }

  @Test
  void timeline_podEvictedRecordedAtTheMark_withTheDisruptionReason() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2))
        .object(web(Lifecycle.preStop(new LifecycleHandler.Sleep(20)))).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(5));
      Pod victim = anyPod(sim);
      String name = victim.metadata().name();
      // what an evicting controller does: the DisruptionTarget condition, then a graceful deletion
      sim.store().updateStatus(victim.withStatus(victim.status().withCondition(PodCondition.of(
          PodCondition.DISRUPTION_TARGET, ConditionStatus.True, "EvictionByEvictionAPI", "evicted", null))));
      Duration markedAt = sim.elapsed();
      sim.store().delete(Pod.class, "default", name);
      sim.runFor(Duration.ofSeconds(40));
      assertThat(sim.store().get(Pod.class, "default", name)).isEmpty();
      assertThat(sim.timeline()).filteredOn(e -> e.object().equals("Pod/default/" + name)
          && (e.kind().equals("PodDeleted") || e.kind().equals("PodEvicted"))).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo("PodEvicted");
            assertThat(e.at()).as("at the mark").isEqualTo(markedAt);
            assertThat(e.message()).isEqualTo("from " + victim.spec().nodeName() + " (EvictionByEvictionAPI)");
          });
    }
  }

  @Test
  void timeline_withoutPodEvents_onlyTaintEvictionsAreRecorded() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1)).podEvents(false)
        .object(web(Lifecycle.preStop(new LifecycleHandler.Sleep(20)))).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(5));
      String name = anyPod(sim).metadata().name();
      sim.store().delete(Pod.class, "default", name);
      sim.runFor(Duration.ofSeconds(40));
      assertThat(sim.timeline()).noneMatch(e -> e.object().equals("Pod/default/" + name));
    }
  }

  private static final long DRAIN = 8;

  /**
   * A Deployment of pods with a readiness probe every 2 s (one failure makes them unready) and a {@code preStop}
   * sleep of {@link #DRAIN} s, whose template carries {@code annotations}; the Service {@code web} selects them; the
   * networking controllers run.
   */
  private static Simulation servedWeb(Map<String, String> annotations) {
    Probe readiness = Probe.builder(ProbeHandler.HttpGet.of("/ready", 80)).periodSeconds(2).failureThreshold(1)
        .build();
    Container app = Container.of("app", "nginx:1", ResourceList.ofCpuMemory(500, 0))
        .withLifecycle(Lifecycle.preStop(new LifecycleHandler.Sleep(DRAIN))).withProbes(null, readiness, null);
    PodTemplateSpec template = PodTemplateSpec.of(Map.of("app", "web"),
        PodSpec.builder().container(app).terminationGracePeriodSeconds(GRACE).build());
    template = new PodTemplateSpec(template.metadata().toBuilder().annotations(annotations).build(),
        template.spec());
    Deployment web = Deployment.builder().namespace("default").name("web").replicas(2)
        .matchLabels(Map.of("app", "web")).template(template).build();
    Service service = new Service(ObjectMeta.of("default", "web"), ServiceSpec.builder()
        .selector(Map.of("app", "web")).ports(List.of(ServicePort.of(80))).build(), ServiceStatus.EMPTY);
    Simulation.Builder b = Simulation.builder().objects(SimFixtures.nodes(2)).object(web).object(service).seed(1);
    ClusterNetworking.defaults().simulatedControllers().forEach(b::controller);
    return b.build();
  }

  /** The endpoint of pod {@code name} in the Service's EndpointSlices; empty when it has none. */
  private static Optional<Endpoint> endpointOf(Simulation sim, String name) {
    for (EndpointSlice slice : sim.store().list(EndpointSlice.class, "default").items()) {
      if (!slice.serviceName().equals("web")) {
        continue;
      }
      for (Endpoint e : slice.endpoints()) {
        if (e.targetRef() != null && e.targetRef().name().equals(name)) {
          return Optional.of(e);
        }
      }
    }
    return Optional.empty();
  }

  /** Deletes a ready pod of the Deployment once both endpoints serve; returns its name. */
  private static String deleteServedPod(Simulation sim) {
    assertThat(sim.runUntil(s -> SimFixtures.readyPods(s, "web").size() == 2
        && SimFixtures.readyPods(s, "web").stream().allMatch(p -> endpointOf(s, p.metadata().name())
            .map(e -> Boolean.TRUE.equals(e.conditions().ready())).orElse(false)), Duration.ofSeconds(60)))
        .as("both pods ready and published").isTrue();
    String name = anyPod(sim).metadata().name();
    sim.store().delete(Pod.class, "default", name);
    sim.settle();
    return name;
  }

  @Test
  void endpointSlice_servingAndTerminatingWhileThePreStopHookRuns_thenGone() {
    try (Simulation sim = servedWeb(Map.of())) {
      String name = deleteServedPod(sim);
      Duration marked = sim.elapsed();
      sim.runFor(Duration.ofSeconds(1));
      for (long s = 1; s < DRAIN; s++) {
        assertThat(endpointOf(sim, name)).as("at mark + %s s", s).get()
            .extracting(Endpoint::conditions).isEqualTo(EndpointConditions.of(false, true, true));
        sim.runFor(Duration.ofSeconds(1));
      }
      boolean gone = sim.runUntil(s -> endpointOf(s, name).isEmpty(), Duration.ofSeconds(5));
      assertThat(gone).as("the endpoint goes with the pod").isTrue();
      assertThat(sim.elapsed()).as("SIGTERM after the hook ends the process at once")
          .isLessThanOrEqualTo(marked.plusSeconds(DRAIN + 1));
      assertThat(sim.store().get(Pod.class, "default", name)).isEmpty();
    }
  }

  @Test
  void endpointSlice_appUnreadyOnSigterm_notServingFromTheStop_untilItExits() {
    // the application fails its readiness from SIGTERM on and takes 15 s to shut down
    try (Simulation sim = servedWeb(Map.of(HealthSource.READINESS_FAILS_AFTER_STOP, "0",
        HealthSource.STOP_AFTER, "15"))) {
      String name = deleteServedPod(sim);
      Duration marked = sim.elapsed();
      sim.runFor(Duration.ofSeconds(DRAIN - 1));
      assertThat(endpointOf(sim, name)).as("serving while the hook runs").get().extracting(Endpoint::conditions)
          .isEqualTo(EndpointConditions.of(false, true, true));
      boolean unserved = sim.runUntil(s -> endpointOf(s, name).map(e -> Boolean.FALSE.equals(
          e.conditions().serving())).orElse(false), Duration.ofSeconds(4));
      assertThat(unserved).as("the first readiness tick after SIGTERM fails").isTrue();
      assertThat(sim.elapsed()).isBetween(marked.plusSeconds(DRAIN), marked.plusSeconds(DRAIN + 2));
      assertThat(endpointOf(sim, name)).get().extracting(Endpoint::conditions)
          .isEqualTo(EndpointConditions.of(false, false, true));
      sim.runFor(Duration.ofSeconds(10));
      assertThat(sim.store().get(Pod.class, "default", name)).as("still shutting down").isPresent();
      assertThat(endpointOf(sim, name)).as("published, not serving").get()
          .extracting(e -> e.conditions().serving()).isEqualTo(false);
      boolean gone = sim.runUntil(s -> endpointOf(s, name).isEmpty(), Duration.ofSeconds(10));
      assertThat(gone).isTrue();
      assertThat(sim.elapsed()).isLessThanOrEqualTo(marked.plusSeconds(DRAIN + 15 + 1));
    }
  }
}
