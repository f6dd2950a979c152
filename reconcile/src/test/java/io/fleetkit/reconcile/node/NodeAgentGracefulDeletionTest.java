package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the simulated kubelet ends a pod being deleted, as the kubelet's pod worker and status manager do: it kills
 * the containers with the pod's deletion grace period (SIGTERM, SIGKILL when the grace period runs out; sidecars
 * after the regular containers), writes the terminal status (Succeeded if every regular container exited 0, else
 * Failed) and then deletes the pod with grace period 0 and its uid as precondition.
 */
final class NodeAgentGracefulDeletionTest {
  private static final String STOP = HealthSource.STOP_AFTER;
  private static final String STOP_CODE = HealthSource.STOP_EXIT_CODE;
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Instant t0 = clock.now();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private final List<String> events = new ArrayList<>();
  private NodeAgent agent;

  @AfterEach
  void close() {
    if (agent != null) {
      agent.close();
    }
    store.close();
  }

  private void start(Pod.Builder pod) {
    store.create(Node.builder().name("n1").build());
    agent = NodeAgent.builder(store, clock, "n1").healthSource(HealthSource.fromAnnotations()).build();
    agent.start();
    store.watch(Pod.class, "", (WatchEvent<Pod> e) -> events.add(e.type() + " " + e.object().status().phase()
        + (e.object().metadata().deletionTimestamp() != null ? " deleting" : "")));
    store.create(pod.build());
    agent.sync();
  }

  private static Pod.Builder pod(Map<String, String> annotations) {
    Pod.Builder b = Pod.builder().namespace("default").name("p").restartPolicy(RestartPolicy.Always).nodeName("n1")
        .container("main", "web:1", ResourceList.EMPTY);
    annotations.forEach(b::annotation);
    return b;
  }

  private Optional<Pod> current() {
    return store.get(Pod.class, "default", "p");
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

  /** Records the last status the agent wrote before the pod went. */
  private final List<Pod> lastStates = new ArrayList<>();

  private void recordLastStates() {
    store.watch(Pod.class, "", (WatchEvent<Pod> e) -> lastStates.add(e.object()));
  }

  @Test
  void runningPod_deleted_sigtermEndsItAtOnce_failedStatusThenRemoved() {
    start(pod(Map.of()));
    recordLastStates();
    runTo(10);
    assertThat(current().orElseThrow().status().phase()).isEqualTo(PodPhase.Running);

    store.delete(Pod.class, "default", "p");
    assertThat(current().orElseThrow().metadata().deletionGracePeriodSeconds()).isEqualTo(30L);
    agent.sync();

    assertThat(current()).as("removed once its containers stopped").isEmpty();
    Pod last = lastStates.get(lastStates.size() - 1);
    assertThat(last.status().phase()).isEqualTo(PodPhase.Failed);
    ContainerStatus main = last.status().containerStatuses().get(0);
    assertThat(main.state().type()).isEqualTo(ContainerStateType.Terminated);
    assertThat(main.state().exitCode()).isEqualTo(143);
    assertThat(main.state().finishedAt()).isEqualTo(t0.plusSeconds(10));
    assertThat(main.restartCount()).as("not restarted").isZero();
    assertThat(events).containsSubsequence("MODIFIED Running deleting", "MODIFIED Failed deleting",
        "DELETED Failed deleting");
  }

  @Test
  void containerExitingCleanlyOnSigterm_succeeded() {
    start(pod(Map.of(STOP + ".main", "3", STOP_CODE + ".main", "0")));
    recordLastStates();
    runTo(5);

    store.delete(Pod.class, "default", "p");
    runTo(7);
    assertThat(current()).as("still stopping").isPresent();
    assertThat(current().orElseThrow().status().phase()).isEqualTo(PodPhase.Running);
    runTo(8);

    assertThat(current()).isEmpty();
    Pod last = lastStates.get(lastStates.size() - 1);
    assertThat(last.status().phase()).isEqualTo(PodPhase.Succeeded);
    assertThat(last.status().containerStatuses().get(0).state().finishedAt()).isEqualTo(t0.plusSeconds(8));
  }

  @Test
  void containerIgnoringSigterm_killedWhenTheGracePeriodRunsOut() {
    start(pod(Map.of(STOP + ".main", "never")));
    recordLastStates();
    runTo(5);

    store.delete(Pod.class, "default", "p", DeleteOptions.gracePeriod(20));
    runTo(24);
    assertThat(current()).as("Terminating until the SIGKILL").isPresent();
    runTo(25);

    assertThat(current()).isEmpty();
    ContainerStatus main = lastStates.get(lastStates.size() - 1).status().containerStatuses().get(0);
    assertThat(main.state().exitCode()).isEqualTo(137);
    assertThat(main.state().finishedAt()).isEqualTo(t0.plusSeconds(25));
  }

  @Test
  void shorterGracePeriodWhileStopping_killsEarlier() {
    start(pod(Map.of(STOP + ".main", "never")));
    runTo(5);
    store.delete(Pod.class, "default", "p", DeleteOptions.gracePeriod(60));
    runTo(10);

    store.delete(Pod.class, "default", "p", DeleteOptions.gracePeriod(5));
    runTo(14);
    assertThat(current()).isPresent();
    runTo(15);

    assertThat(current()).as("SIGKILL 5 s after the second deletion").isEmpty();
  }

  @Test
  void sidecars_stopAfterTheRegularContainers_inReverseOrder() {
    Pod.Builder b = pod(Map.of(STOP + ".main", "4", STOP + ".s1", "1", STOP + ".s2", "1"));
    start(b.sidecar("s1", "proxy:1", ResourceList.EMPTY).sidecar("s2", "proxy:1", ResourceList.EMPTY));
    recordLastStates();
    runTo(10);

    store.delete(Pod.class, "default", "p");
    runTo(30);

    assertThat(current()).isEmpty();
    Pod last = lastStates.get(lastStates.size() - 1);
    assertThat(last.status().containerStatuses().get(0).state().finishedAt()).isEqualTo(t0.plusSeconds(14));
    // s2 waits for the main container (14 s), then exits 1 s after its SIGTERM; s1 waits for s2
    assertThat(last.status().initContainerStatuses()).extracting(s -> s.state().finishedAt())
        .containsExactly(t0.plusSeconds(16), t0.plusSeconds(15));
  }

  @Test
  void notStartedContainer_reportedTerminatedUnknown() {
    Pod.Builder b = pod(Map.of(HealthSource.EXIT_AFTER + ".init", "100"));
    start(b.initContainer("init", "setup:1", ResourceList.EMPTY));
    recordLastStates();
    runTo(5);

    store.delete(Pod.class, "default", "p");
    agent.sync();

    assertThat(current()).isEmpty();
    Pod last = lastStates.get(lastStates.size() - 1);
    assertThat(last.status().phase()).isEqualTo(PodPhase.Failed);
    ContainerStatus main = last.status().containerStatuses().get(0);
    assertThat(main.state().exitCode()).isEqualTo(137);
    assertThat(main.state().reason()).isEqualTo(PodRuntime.CONTAINER_STATUS_UNKNOWN);
    assertThat(last.status().initContainerStatuses().get(0).state().exitCode()).isEqualTo(143);
  }

  @Test
  void deadNode_podStaysTerminating() {
    start(pod(Map.of()));
    runTo(5);
    agent.kill();

    store.delete(Pod.class, "default", "p");
    runTo(600);

    assertThat(current()).as("no kubelet to end it").isPresent();
    assertThat(current().orElseThrow().metadata().deletionTimestamp()).isEqualTo(t0.plusSeconds(35));
  }

  @Test
  void podWithFinalizer_removedWhenItGoes_statusKept() {
    Pod.Builder b = pod(Map.of());
    start(b);
    Pod created = current().orElseThrow();
    store.update(created.withMetadata(created.metadata().toBuilder().finalizer("example.com/hold").build()));
    runTo(5);

    store.delete(Pod.class, "default", "p");
    runTo(40);

    Pod held = current().orElseThrow();
    assertThat(held.status().phase()).isEqualTo(PodPhase.Failed);
    assertThat(held.metadata().deletionGracePeriodSeconds()).as("the kubelet's deletion").isEqualTo(0L);
    store.update(held.withMetadata(held.metadata().toBuilder().finalizers(List.of()).build()));
    assertThat(current()).isEmpty();
  }
}
