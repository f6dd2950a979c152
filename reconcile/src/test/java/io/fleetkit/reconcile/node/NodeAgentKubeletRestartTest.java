package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.ProbeType;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A kubelet restart in the simulated kubelet: containers keep running, probe workers start afresh after a delay,
 * readiness follows the prober manager's kubelet-restart rule until the new workers have results, and the restart
 * backoff is forgotten.
 */
final class NodeAgentKubeletRestartTest {
  private static final Probe READINESS = Probe.of(ProbeHandler.HttpGet.of("/ready", 8080));
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Instant t0 = clock.now();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private NodeAgent agent;

  @AfterEach
  void close() {
    if (agent != null) {
      agent.close();
    }
    store.close();
  }

  private String name = "p";

  /**
   * Creates the pod, one whose first readiness probe after a restart waits at least 2 s (the wait is derived from
   * the uid the store gives it; pods that would wait less are deleted before the agent runs them), and returns
   * that wait.
   */
  private Duration create(Map<String, String> annotations, Container c) {
    store.create(Node.builder().name("n1").build());
    agent = NodeAgent.builder(store, clock, "n1").build();
    agent.start();
    for (int i = 0; ; i++) {
      Pod.Builder b = Pod.builder().namespace("default").name("p" + i).restartPolicy(RestartPolicy.Always)
          .nodeName("n1").container(c);
      annotations.forEach(b::annotation);
      Pod p = store.create(b.build());
      Duration wait = PodRuntime.firstProbeDelay(p, c.name(), ProbeType.Readiness, Duration.ofSeconds(10));
      if (wait.getSeconds() >= 2) {
        name = p.metadata().name();
        agent.sync();
        return wait;
      }
      store.delete(Pod.class, "default", p.metadata().name());
    }
  }

  private Pod current() {
    return store.require(Pod.class, "default", name);
  }

  private ContainerStatus web() {
    return current().status().containerStatuses().get(0);
  }

  private @Nullable ConditionStatus ready() {
    PodCondition c = current().status().condition(PodCondition.READY);
    return c == null ? null : c.status();
  }

  private void runTo(Instant target) {
    agent.sync();
    while (clock.now().isBefore(target)) {
      Instant next = clock.nextDeadline().filter(d -> d.isBefore(target)).orElse(target);
      clock.advanceTo(next);
      agent.sync();
    }
  }

  private void runTo(long seconds) {
    runTo(t0.plusSeconds(seconds));
  }

  @Test
  void readyContainer_staysReadyAcrossRestart_sameInstance() {
    Container c = Container.of("web", "shop:1", ResourceList.EMPTY).withProbes(null, READINESS, null);
    Duration wait = create(Map.of(), c);
    runTo(100);
    assertThat(ready()).isEqualTo(ConditionStatus.True);
    Instant startedAt = web().state().startedAt();

    agent.restartKubelet();
    agent.sync();
    assertThat(web().ready()).as("inherited until the new worker's first result").isTrue();
    assertThat(ready()).isEqualTo(ConditionStatus.True);
    runTo(t0.plusSeconds(100).plus(wait).minusSeconds(1));
    assertThat(web().ready()).as("still inherited just before the first attempt").isTrue();
    runTo(200);
    assertThat(web().ready()).isTrue();
    assertThat(web().restartCount()).isZero();
    assertThat(web().state().startedAt()).isEqualTo(startedAt);
    assertThat(current().status().condition(PodCondition.READY).lastTransitionTime()).isEqualTo(t0);
  }

  @Test
  void apiServerKnowsAnotherInstance_readinessNotInherited() {
    Container c = Container.of("web", "shop:1", ResourceList.EMPTY).withProbes(null, READINESS, null);
    Duration wait = create(Map.of(), c);
    runTo(100);
    assertThat(ready()).isEqualTo(ConditionStatus.True);
    // the API server holds the status of another instance (restart count 7), as when the kubelet replaced the
    // container but could not report it
    Pod p = current();
    ContainerStatus s = web();
    store.updateStatus(p.withStatus(p.status().withContainerStatuses(java.util.List.of(
        new ContainerStatus(s.name(), true, 7, s.state(), true)))));
    agent.restartKubelet();
    agent.sync();
    assertThat(web().ready()).isFalse();
    assertThat(ready()).isEqualTo(ConditionStatus.False);
    runTo(t0.plusSeconds(100).plus(wait));
    assertThat(web().ready()).as("the first attempt passes").isTrue();
  }

  @Test
  void unreadyPod_staysUnreadyAcrossRestart() {
    Container c = Container.of("web", "shop:1", ResourceList.EMPTY).withProbes(null, READINESS, null);
    create(Map.of(HealthSource.READY_AFTER, "never"), c);
    runTo(100);
    assertThat(ready()).isEqualTo(ConditionStatus.False);
    agent.restartKubelet();
    agent.sync();
    assertThat(web().ready()).isFalse();
    runTo(200);
    assertThat(web().ready()).isFalse();
  }

  @Test
  void containerStartedWithinGracePeriod_isUnreadyUntilFirstProbe() {
    Container c = Container.of("web", "shop:1", ResourceList.EMPTY).withProbes(null, READINESS, null);
    Duration wait = create(Map.of(), c);
    runTo(5);
    assertThat(web().ready()).isTrue();
    Instant restart = clock.now();
    agent.restartKubelet();
    agent.sync();
    assertThat(web().ready()).as("started 5 s before the kubelet: not a survivor").isFalse();
    runTo(restart.plus(wait).minusSeconds(1));
    assertThat(web().ready()).isFalse();
    runTo(restart.plus(wait));
    assertThat(web().ready()).as("the first attempt, %s after the restart, passes", wait).isTrue();
  }

  @Test
  void crashLoopBackOff_isForgotten_containerRestartsAtOnce() {
    Container c = Container.of("web", "shop:1", ResourceList.EMPTY);
    create(Map.of(HealthSource.CRASHES, "10"), c);
    runTo(75); // restarts at 0, 10, 30, 70: held back until 150
    assertThat(web().restartCount()).isEqualTo(4);
    assertThat(web().state().reason()).isEqualTo(PodRuntime.CRASH_LOOP_BACK_OFF);
    agent.restartKubelet();
    agent.sync();
    assertThat(web().restartCount()).isEqualTo(5);
    // the new kubelet's backoff starts over: the next restart comes 10 s later
    runTo(84);
    assertThat(web().restartCount()).isEqualTo(5);
    runTo(85);
    assertThat(web().restartCount()).isEqualTo(6);
  }

  @Test
  void startedFlag_isInheritedFromStatus_untilStartupProbeRuns() {
    Probe startup = Probe.builder(ProbeHandler.TcpSocket.of(8080)).periodSeconds(10).failureThreshold(3).build();
    Container c = Container.of("web", "shop:1", ResourceList.EMPTY).withProbes(null, READINESS, startup);
    create(Map.of(), c);
    runTo(100);
    assertThat(web().started()).isTrue();
    agent.restartKubelet();
    agent.sync();
    assertThat(web().started()).isTrue();
    assertThat(web().ready()).isTrue();
    runTo(200);
    assertThat(web().started()).isTrue();
    assertThat(web().ready()).isTrue();
    assertThat(web().state().type()).isEqualTo(ContainerStateType.Running);
  }

  @Test
  void killedAgent_ignoresRestart() {
    Container c = Container.of("web", "shop:1", ResourceList.EMPTY);
    create(Map.of(), c);
    agent.kill();
    agent.restartKubelet();
    assertThat(agent.sync()).isZero();
  }
}
