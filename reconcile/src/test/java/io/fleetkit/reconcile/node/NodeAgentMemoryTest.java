package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.api.events.EventRecorder;
import java.util.ArrayList;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** OOM kills and node-pressure eviction by a {@link NodeAgent} built with a {@link MemoryUsage}. */
final class NodeAgentMemoryTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Instant t0 = clock.now();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  /** Working set per pod name (its one container's); absent: 0. */
  private final Map<String, Long> usage = new HashMap<>();
  private NodeAgent agent;

  static long bytes(String q) {
    return Quantity.parse(q).value();
  }

  private void startAgent(String memoryCapacity, boolean modelled) {
    ResourceList capacity = ResourceList.builder().put("cpu", "4").put("memory", memoryCapacity).build();
    store.create(Node.builder().name("n1").capacity(capacity).allocatable(capacity).build());
    NodeAgent.Builder b = NodeAgent.builder(store, clock, "n1").healthSource(HealthSource.healthy());
    if (modelled) {
      b.memoryUsage((pod, container) -> usage.getOrDefault(pod.metadata().name(), 0L));
    }
    agent = b.build();
    agent.start();
    agent.sync();
  }

  @AfterEach
  void close() {
    if (agent != null) {
      agent.close();
    }
    store.close();
  }

  private Pod create(String name, String request, String limit, RestartPolicy policy, int priority) {
    ResourceList requests = request.isEmpty() ? ResourceList.EMPTY : ResourceList.builder().put("memory", request)
        .build();
    ResourceList limits = limit.isEmpty() ? ResourceList.EMPTY : ResourceList.builder().put("memory", limit).build();
    Container c = Container.of(name, "img", new ResourceRequirements(requests, limits, List.of()));
    return store.create(Pod.builder().namespace("default").name(name).container(c).restartPolicy(policy)
        .priority(priority).nodeName("n1").build());
  }

  private Pod pod(String name) {
    return store.require(Pod.class, "default", name);
  }

  private ContainerStatus container(String name) {
    return pod(name).status().containerStatuses().get(0);
  }

  private NodeCondition memoryPressure() {
    return store.require(Node.class, "", "n1").status().condition(NodeCondition.MEMORY_PRESSURE);
  }

  private void runTo(long seconds) {
    Instant target = t0.plusSeconds(seconds);
    agent.sync();
    while (clock.now().isBefore(target)) {
      Instant next = clock.nextDeadline().filter(d -> d.isBefore(target)).orElse(target);
      clock.advanceTo(next);
      agent.sync();
    }
  }

  @Test
  void housekeeping_containerAboveItsLimit_oomKilledAndRestartedWithBackoff() {
    startAgent("8Gi", true);
    create("web", "128Mi", "256Mi", RestartPolicy.Always, 0);
    runTo(15);
    assertThat(container("web").restartCount()).isZero();
    assertThat(container("web").lastState()).isNull();

    usage.put("web", bytes("300Mi"));
    runTo(25); // the housekeeping at 20 s kills it; the first restart is at once
    ContainerStatus s = container("web");
    assertThat(s.restartCount()).isEqualTo(1);
    assertThat(s.state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(s.lastState()).isNotNull();
    assertThat(s.lastState().reason()).isEqualTo("OOMKilled");
    assertThat(s.lastState().exitCode()).isEqualTo(137);
    assertThat(s.lastState().finishedAt()).isEqualTo(t0.plusSeconds(20));
    assertThat(s.lastState().startedAt()).isEqualTo(t0);

    runTo(35); // killed again at 30 s: CrashLoopBackOff for 10 s
    s = container("web");
    assertThat(s.state().reason()).isEqualTo("CrashLoopBackOff");
    assertThat(s.lastState().reason()).isEqualTo("OOMKilled");
    assertThat(s.lastState().finishedAt()).isEqualTo(t0.plusSeconds(30));
    assertThat(memoryPressure().status()).as("300Mi of 8Gi: no pressure").isEqualTo(ConditionStatus.False);
  }

  @Test
  void housekeeping_restartPolicyNever_oomKilledPodFails() {
    startAgent("8Gi", true);
    create("job", "", "100Mi", RestartPolicy.Never, 0);
    usage.put("job", bytes("101Mi"));
    runTo(15);
    assertThat(pod("job").status().phase()).isEqualTo(PodPhase.Failed);
    assertThat(container("job").state().reason()).isEqualTo("OOMKilled");
    assertThat(container("job").state().exitCode()).isEqualTo(137);
  }

  @Test
  void housekeeping_usageWithoutLimit_neverOomKilled() {
    startAgent("8Gi", true);
    create("web", "128Mi", "", RestartPolicy.Always, 0);
    usage.put("web", bytes("4Gi"));
    runTo(60);
    assertThat(container("web").restartCount()).isZero();
  }

  @Test
  void housekeeping_memoryAvailableBelow100Mi_evictsTheRankedFirstPodAndReportsPressure() {
    List<String> events = new ArrayList<>();
    EventRecorder recorder = (regarding, related, type, reason, action, note) -> events.add(
        type + " " + reason + " " + regarding.name() + ": " + note);
    ResourceList capacity = ResourceList.builder().put("memory", "1Gi").build();
    store.create(Node.builder().name("n1").capacity(capacity).allocatable(capacity).build());
    agent = NodeAgent.builder(store, clock, "n1").healthSource(HealthSource.healthy()).events(recorder)
        .memoryUsage((pod, container) -> usage.getOrDefault(pod.metadata().name(), 0L)).build();
    agent.start();
    create("a", "100Mi", "", RestartPolicy.Always, 0);
    create("b", "400Mi", "", RestartPolicy.Always, 0);
    create("c", "", "", RestartPolicy.Always, 5);
    usage.put("a", bytes("500Mi"));
    usage.put("b", bytes("450Mi"));
    runTo(5);
    assertThat(memoryPressure()).as("not before the first housekeeping").isNull();

    runTo(15); // 1024 - 950 = 74Mi available at 10 s
    Pod a = pod("a");
    String message = "The node was low on resource: memory. Threshold quantity: 100Mi, available: 74Mi. "
        + "Container a was using 500Mi, request is 100Mi, has larger consumption of memory. ";
    assertThat(a.status().phase()).isEqualTo(PodPhase.Failed);
    assertThat(a.status().reason()).isEqualTo("Evicted");
    assertThat(a.status().message()).isEqualTo(message);
    PodCondition target = a.status().condition(PodCondition.DISRUPTION_TARGET);
    assertThat(target).isNotNull();
    assertThat(target.status()).isEqualTo(ConditionStatus.True);
    assertThat(target.reason()).isEqualTo("TerminationByKubelet");
    assertThat(target.message()).isEqualTo(message);
    assertThat(pod("b").status().phase()).as("one pod per pass").isEqualTo(PodPhase.Running);
    assertThat(pod("c").status().phase()).isEqualTo(PodPhase.Running);
    assertThat(memoryPressure().status()).isEqualTo(ConditionStatus.True);
    assertThat(memoryPressure().reason()).isEqualTo("KubeletHasInsufficientMemory");
    assertThat(memoryPressure().lastTransitionTime()).isEqualTo(t0.plusSeconds(10));
    assertThat(events).containsExactly(Event.WARNING + " Evicted a: " + message);

    runTo(305); // 574Mi available from 20 s on; the condition holds for the 5-minute transition period
    assertThat(pod("b").status().phase()).isEqualTo(PodPhase.Running);
    assertThat(memoryPressure().status()).isEqualTo(ConditionStatus.True);
    runTo(315);
    assertThat(memoryPressure().status()).isEqualTo(ConditionStatus.False);
    assertThat(memoryPressure().reason()).isEqualTo("KubeletHasSufficientMemory");
    assertThat(memoryPressure().lastTransitionTime()).isEqualTo(t0.plusSeconds(310));
    assertThat(pod("a").status().phase()).as("an evicted pod stays Failed").isEqualTo(PodPhase.Failed);
  }

  @Test
  void housekeeping_withoutMemoryUsage_noConditionAndNoKill() {
    startAgent("1Gi", false);
    create("web", "", "100Mi", RestartPolicy.Always, 0);
    runTo(120);
    assertThat(memoryPressure()).isNull();
    assertThat(container("web").restartCount()).isZero();
  }

  @Test
  void kill_stopsHousekeeping_reviveRestartsIt() {
    startAgent("1Gi", true);
    create("web", "", "", RestartPolicy.Always, 0);
    runTo(15);
    agent.kill();
    usage.put("web", bytes("1000Mi"));
    runTo(60);
    assertThat(pod("web").status().phase()).as("a dead kubelet evicts nothing").isEqualTo(PodPhase.Running);
    agent.revive();
    runTo(75);
    assertThat(memoryPressure().status()).isEqualTo(ConditionStatus.True);
  }
}
