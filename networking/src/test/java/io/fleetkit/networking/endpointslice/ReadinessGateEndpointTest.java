package io.fleetkit.networking.endpointslice;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.node.HealthSource;
import io.fleetkit.reconcile.node.NodeAgent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pod whose readiness gate is unmet is no ready endpoint: the simulated kubelet keeps its {@code Ready} False
 * ({@code GeneratePodReadyCondition}) and the EndpointSlice rules read {@code Ready} ({@code podToEndpoint}:
 * serving = pod Ready), so the endpoint turns ready only once the gate's condition is True.
 */
final class ReadinessGateEndpointTest {
  private static final String GATE = "lb.example.com/registered";

  @Test
  void unmetGate_endpointNotReadyNorServing_metGate_readyAndServing() {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build()) {
      store.create(Node.builder().name("node-1").build());
      Pod created = store.create(Pod.builder().namespace(SliceFixtures.NS).name("pod1").label("foo", "bar")
          .nodeName("node-1").readinessGate(GATE).container("web", "shop:1", ResourceList.EMPTY).build());
      store.updateStatus(created.withStatus(created.status().withPodIPs(List.of("1.2.3.5"))));
      try (NodeAgent agent = NodeAgent.builder(store, clock, "node-1").healthSource(HealthSource.healthy())
          .build()) {
        agent.start();
        agent.sync();
        Pod pod = store.require(Pod.class, SliceFixtures.NS, "pod1");
        assertThat(pod.status().condition(PodCondition.CONTAINERS_READY).status()).isEqualTo(ConditionStatus.True);
        assertThat(pod.status().condition(PodCondition.READY).reason()).isEqualTo("ReadinessGatesNotReady");
        assertThat(SliceRules.shouldPodBeInEndpoints(pod)).isTrue();
        Endpoint unmet = SliceRules.podToEndpoint(pod, null, SliceFixtures.service("svc"), AddressType.IPv4);
        assertThat(unmet.conditions().ready()).isFalse();
        assertThat(unmet.conditions().serving()).isFalse();

        store.updateStatus(pod.withStatus(pod.status().withCondition(PodCondition.of(GATE, ConditionStatus.True,
            "", "", clock.now()))));
        agent.sync();
        Pod gated = store.require(Pod.class, SliceFixtures.NS, "pod1");
        Endpoint met = SliceRules.podToEndpoint(gated, null, SliceFixtures.service("svc"), AddressType.IPv4);
        assertThat(met.conditions().ready()).isTrue();
        assertThat(met.conditions().serving()).isTrue();
        assertThat(met.addresses()).containsExactly("1.2.3.5");
      }
    }
  }
}
