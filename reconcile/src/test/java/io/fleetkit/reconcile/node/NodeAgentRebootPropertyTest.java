package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Over random pods (init containers and sidecars, crashing apps, each restart policy) through random reboots and
 * kubelet restarts, at every step while the node runs: no restart count ever goes down, at most one regular init
 * container runs, the kubelet's conditions close the list in upstream's order, and {@code PodReadyToStartContainers}
 * is True exactly while the pod is not done.
 */
final class NodeAgentRebootPropertyTest {
  private static final List<RestartPolicy> POLICIES = List.of(RestartPolicy.Always, RestartPolicy.OnFailure,
      RestartPolicy.Never);
  private static final List<String> KUBELET_ORDER = List.of(PodConditions.POD_READY_TO_START_CONTAINERS,
      PodCondition.INITIALIZED, PodCondition.READY, PodCondition.CONTAINERS_READY, PodCondition.POD_SCHEDULED);

  @Property(tries = 60)
  void reboots_neverLowerRestartCounts_andKeepTheConditionsInOrder(@ForAll long seed) {
    Random r = new Random(seed);
    ManualClock clock = ManualClock.atEpoch2026();
    Instant t0 = clock.now();
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build()) {
      store.create(Node.builder().name("n1").build());
      NodeAgent agent = NodeAgent.builder(store, clock, "n1").build();
      agent.start();
      RestartPolicy policy = POLICIES.get(r.nextInt(POLICIES.size()));
      Pod.Builder b = Pod.builder().namespace("default").name("p").restartPolicy(policy).nodeName("n1")
          .container("app", "x:1", ResourceList.EMPTY)
          .annotation(HealthSource.CRASHES + ".app", String.valueOf(r.nextInt(4)));
      if (r.nextBoolean()) {
        b.annotation(HealthSource.EXIT_AFTER + ".app", String.valueOf(20 + r.nextInt(200)));
      }
      int n = r.nextInt(4);
      for (int i = 0; i < n; i++) {
        String name = "i" + i;
        if (r.nextInt(3) == 0) {
          b.initContainer(Container.sidecar(name, "x:1", ResourceList.EMPTY));
        } else {
          b.initContainer(name, "x:1", ResourceList.EMPTY);
          b.annotation(HealthSource.EXIT_AFTER + "." + name, String.valueOf(r.nextInt(15)));
        }
      }
      store.create(b.build());
      // random faults: a reboot (down for a while) or a kubelet restart
      List<long[]> faults = new ArrayList<>();
      for (int i = 0, n2 = 1 + r.nextInt(3); i < n2; i++) {
        faults.add(new long[] {1 + r.nextInt(500), r.nextInt(3) == 0 ? -1 : r.nextInt(120)});
      }
      for (long[] f : faults) {
        if (f[1] < 0) {
          clock.schedule(java.time.Duration.ofSeconds(f[0]), agent::restartKubelet);
        } else {
          clock.schedule(java.time.Duration.ofSeconds(f[0]), agent::kill);
          clock.schedule(java.time.Duration.ofSeconds(f[0] + f[1]), agent::revive);
        }
      }
      Map<String, Integer> counts = new HashMap<>();
      Instant end = t0.plusSeconds(900);
      agent.sync();
      while (true) {
        if (agent.alive()) {
          check(store.require(Pod.class, "default", "p"), counts);
        }
        if (!clock.now().isBefore(end)) {
          break;
        }
        Instant next = clock.nextDeadline().filter(d -> d.isBefore(end)).orElse(end);
        clock.advanceTo(next);
        agent.sync();
      }
      agent.close();
    }
  }

  private static void check(Pod p, Map<String, Integer> counts) {
    List<ContainerStatus> all = new ArrayList<>(p.status().initContainerStatuses());
    all.addAll(p.status().containerStatuses());
    for (ContainerStatus s : all) {
      int before = counts.getOrDefault(s.name(), 0);
      assertThat(s.restartCount()).as("restart count of %s", s.name()).isGreaterThanOrEqualTo(before);
      counts.put(s.name(), s.restartCount());
    }
    int runningRegular = 0;
    List<Container> specs = p.spec().initContainers();
    for (int i = 0; i < specs.size(); i++) {
      if (!specs.get(i).isRestartable()
          && p.status().initContainerStatuses().get(i).state().type() == ContainerStateType.Running) {
        runningRegular++;
      }
    }
    assertThat(runningRegular).isLessThanOrEqualTo(1);
    List<PodCondition> conditions = p.status().conditions();
    assertThat(conditions.subList(conditions.size() - KUBELET_ORDER.size(), conditions.size()))
        .extracting(PodCondition::type).containsExactlyElementsOf(KUBELET_ORDER);
    assertThat(p.status().condition(PodConditions.POD_READY_TO_START_CONTAINERS).status())
        .isEqualTo(p.isTerminal() ? ConditionStatus.False : ConditionStatus.True);
  }
}
