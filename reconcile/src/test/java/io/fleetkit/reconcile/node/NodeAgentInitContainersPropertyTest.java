package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Over random pods (up to four init containers, regular ones or sidecars, each running a random time, crashing a
 * random number of times or failing for good, under each restart policy), at every step of the simulated clock: at
 * most one regular init container runs; an init container has started only when every regular init container before
 * it exited 0 and every sidecar before it is started or has run; the regular containers run only after every regular
 * init container exited 0; the pod is Pending until then, and Failed exactly when a regular init container failed
 * for good under {@code restartPolicy: Never}.
 */
final class NodeAgentInitContainersPropertyTest {
  private static final List<RestartPolicy> POLICIES = List.of(RestartPolicy.Always, RestartPolicy.OnFailure,
      RestartPolicy.Never);

  @Property(tries = 80)
  void initContainers_runInOrder_beforeTheApp(@ForAll long seed) {
    Random r = new Random(seed);
    ManualClock clock = ManualClock.atEpoch2026();
    Instant t0 = clock.now();
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build()) {
      store.create(Node.builder().name("n1").build());
      NodeAgent agent = NodeAgent.builder(store, clock, "n1").build();
      agent.start();
      RestartPolicy policy = POLICIES.get(r.nextInt(POLICIES.size()));
      Pod.Builder b = Pod.builder().namespace("default").name("p").restartPolicy(policy).nodeName("n1")
          .container("app", "x:1", ResourceList.EMPTY);
      int n = 1 + r.nextInt(4);
      boolean failsForGood = false;
      boolean crashesUnderNever = false;
      for (int i = 0; i < n; i++) {
        String name = "i" + i;
        if (r.nextInt(3) == 0) {
          b.initContainer(Container.sidecar(name, "x:1", ResourceList.EMPTY));
          if (r.nextBoolean()) {
            b.annotation(HealthSource.CRASHES + "." + name, String.valueOf(r.nextInt(3)));
          }
        } else {
          b.initContainer(name, "x:1", ResourceList.EMPTY);
          b.annotation(HealthSource.EXIT_AFTER + "." + name, String.valueOf(r.nextInt(15)));
          if (r.nextInt(4) == 0) {
            b.annotation(HealthSource.EXIT_CODE + "." + name, "2"); // fails on every run
            failsForGood = true;
          } else if (r.nextBoolean()) {
            int crashes = r.nextInt(3);
            b.annotation(HealthSource.CRASHES + "." + name, String.valueOf(crashes));
            crashesUnderNever |= crashes > 0 && policy == RestartPolicy.Never;
          }
        }
      }
      store.create(b.build());
      Instant end = t0.plusSeconds(400);
      agent.sync();
      while (true) {
        check(store.require(Pod.class, "default", "p"));
        if (!clock.now().isBefore(end)) {
          break;
        }
        Instant next = clock.nextDeadline().filter(d -> d.isBefore(end)).orElse(end);
        clock.advanceTo(next);
        agent.sync();
      }
      // every init container is reached within 400 s: runs under 15 s, at most 2 crashes (held 10 and 20 s) each
      PodPhase expected = policy == RestartPolicy.Never && (failsForGood || crashesUnderNever) ? PodPhase.Failed
          : failsForGood ? PodPhase.Pending : PodPhase.Running;
      assertThat(store.require(Pod.class, "default", "p").status().phase()).isEqualTo(expected);
      agent.close();
    }
  }

  private static void check(Pod p) {
    List<Container> specs = p.spec().initContainers();
    List<ContainerStatus> inits = p.status().initContainerStatuses();
    assertThat(inits).hasSize(specs.size());
    int runningRegular = 0;
    boolean allBeforeDone = true;
    for (int i = 0; i < specs.size(); i++) {
      ContainerStatus s = inits.get(i);
      boolean sidecar = specs.get(i).isRestartable();
      boolean hasRun = s.state().type() != ContainerStateType.Waiting || s.restartCount() > 0
          || !s.state().reason().equals(PodRuntime.POD_INITIALIZING);
      if (hasRun) {
        assertThat(allBeforeDone).as("init container %s started before the ones before it were done", s.name())
            .isTrue();
      }
      if (!sidecar && s.state().type() == ContainerStateType.Running) {
        runningRegular++;
      }
      boolean done = sidecar ? hasRun : s.state().type() == ContainerStateType.Terminated
          && Integer.valueOf(0).equals(s.state().exitCode());
      allBeforeDone &= done;
    }
    assertThat(runningRegular).as("regular init containers running at once").isLessThanOrEqualTo(1);
    ContainerStatus app = p.status().containerStatuses().get(0);
    boolean appRan = app.state().type() != ContainerStateType.Waiting
        || !app.state().reason().equals(PodRuntime.POD_INITIALIZING);
    if (appRan) {
      for (int i = 0; i < specs.size(); i++) {
        if (!specs.get(i).isRestartable()) {
          assertThat(inits.get(i).state().exitCode()).as("the app ran before %s completed", specs.get(i).name())
              .isEqualTo(0);
        }
      }
    } else if (p.status().phase() != PodPhase.Failed) {
      assertThat(p.status().phase()).isEqualTo(PodPhase.Pending);
    }
    if (p.status().phase() == PodPhase.Failed) {
      assertThat(p.spec().restartPolicy()).isEqualTo(RestartPolicy.Never);
      assertThat(appRan).isFalse();
    }
  }
}
