package io.fleetkit.networking.endpointslice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The EndpointSlice controller's events on a store, in stepping mode: upstream's {@code syncService} records
 * {@code FailedToUpdateEndpointSlices} with the reconciler's aggregated error, and the reconciler the topology
 * cache's {@code TopologyAwareHintsEnabled}/{@code TopologyAwareHintsDisabled} after its writes
 * ({@code staging/src/k8s.io/endpointslice/reconciler.go}). Upstream's tests record these into a fake recorder they
 * never read, so the cases here are FleetKit's own.
 */
final class EndpointSliceEventsTest {
  private final List<String> events = new ArrayList<>();
  private final EventRecorder recorder = (regarding, related, type, reason, action, note) ->
      events.add(regarding.kind() + " " + regarding.namespace() + "/" + regarding.name() + " " + type + " " + reason
          + " " + action + ": " + note);

  /** Stands still: a retried Service (after a backoff or a delay) is not synced again within a test. */
  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z"));

  private static ObjectStore store() {
    return ObjectStore.builder().directDelivery().build();
  }

  /** {@code p} on {@code node}, ready to be created. */
  private static Pod onNode(Pod p, String node) {
    return new Pod(p.metadata().toBuilder().resourceVersion("").build(), p.spec().toBuilder().nodeName(node).build(),
        p.status());
  }

  private static Node zoned(String name, String zone) {
    return new Node(ObjectMeta.builder().name(name).label(SliceRules.LABEL_ZONE, zone).build(), NodeSpec.EMPTY,
        NodeStatus.EMPTY.withAllocatable(ResourceList.ofCpuMemory(1000, 0)).withConditions(List.of(
            NodeCondition.of(NodeCondition.READY, ConditionStatus.True))));
  }

  private static Service withTopologyMode(Service s, String mode) {
    return Service.of(s.metadata().toBuilder().annotation(EndpointSliceReconciler.TOPOLOGY_MODE_ANNOTATION, mode)
        .build(), s.spec());
  }

  @Test
  void podOnUnknownNode_failedToUpdateEndpointSlices_withTheSkippedPod() {
    try (ObjectStore store = store();
         EndpointSliceController c = EndpointSliceController.builder(store).clock(clock).events(recorder).stepping()
             .build()) {
      store.create(SliceFixtures.node("node-1", Map.of()));
      store.create(SliceFixtures.service("svc"));
      store.create(onNode(SliceFixtures.pod(0, true, false), "node-1"));
      store.create(onNode(SliceFixtures.pod(1, true, false), "node-x"));
      c.start().join();
      c.runUntilIdle();
      assertThat(events).containsExactly("Service test/svc Warning FailedToUpdateEndpointSlices Sync: Error updating"
          + " Endpoint Slices for Service test/svc: skipping Pod pod1 for Service test/svc: Node node-x Not Found");
      // the other pod's endpoint was written all the same
      assertThat(store.list(EndpointSlice.class).items()).singleElement()
          .satisfies(s -> assertThat(s.endpoints()).hasSize(1));
    }
  }

  @Test
  void twoErrors_aggregatedInBrackets() {
    assertThat(EndpointSliceController.aggregate(List.of("a"))).isEqualTo("a");
    assertThat(EndpointSliceController.aggregate(List.of("a", "b", "a"))).isEqualTo("[a, b]");
    assertThat(EndpointSliceController.aggregate(List.of("a", "a"))).isEqualTo("a");
  }

  @Test
  void sliceCreateRefused_failedToUpdateEndpointSlices_namesTheWrite() {
    try (ObjectStore store = store();
         EndpointSliceController c = EndpointSliceController.builder(store).clock(clock).events(recorder).seed(7)
             .stepping().build()) {
      Service svc = SliceFixtures.service("svc");
      store.create(SliceFixtures.node("node-1", Map.of()));
      store.create(svc);
      store.create(onNode(SliceFixtures.pod(0, true, false), "node-1"));
      // an unmanaged slice already has the name the controller's first create will take
      String taken = SliceRules.slicePrefix("svc") + SliceRules.nameSuffixes(7).get();
      store.create(new EndpointSlice(ObjectMeta.builder().namespace(SliceFixtures.NS).name(taken).build(),
          AddressType.IPv4, List.of(), List.of()));
      c.start().join();
      c.runUntilIdle();
      assertThat(events).singleElement().asString().startsWith("Service test/svc Warning FailedToUpdateEndpointSlices"
          + " Sync: Error updating Endpoint Slices for Service test/svc: failed to create EndpointSlice for Service"
          + " test/svc: ").contains(taken).endsWith("already exists");
    }
  }

  @Test
  void topologyAuto_enabledOnce_thenDisabledWhenTheAnnotationGoes() {
    try (ObjectStore store = store();
         EndpointSliceController c = EndpointSliceController.builder(store).clock(clock).events(recorder).stepping()
             .build()) {
      List<String> zones = List.of("zone-a", "zone-b", "zone-c");
      for (int i = 0; i < 3; i++) {
        store.create(zoned("node-" + i, zones.get(i)));
      }
      store.create(withTopologyMode(SliceFixtures.service("svc"), "Auto"));
      for (int i = 0; i < 30; i++) {
        store.create(onNode(SliceFixtures.pod(i, true, false), "node-" + (i % 3)));
      }
      c.start().join();
      c.runUntilIdle();
      assertThat(events).containsExactly("Service test/svc Normal TopologyAwareHintsEnabled Sync: Topology Aware Hints"
          + " has been enabled, addressType: IPv4");
      // a pod change: hints stay populated, no second Enabled
      Pod p = store.require(Pod.class, SliceFixtures.NS, "pod0");
      store.updateStatus(SliceFixtures.withReady(p, false));
      c.runUntilIdle();
      assertThat(events).hasSize(1);
      Service s = store.require(Service.class, SliceFixtures.NS, "svc");
      store.update(Service.of(s.metadata().toBuilder().annotations(Map.of()).build(), s.spec()));
      c.runUntilIdle();
      assertThat(events).hasSize(2).last().isEqualTo("Service test/svc Warning TopologyAwareHintsDisabled Sync:"
          + " Topology Aware Hints has been disabled, addressType: IPv4");
      // hints gone from the cache: another sync records nothing
      store.updateStatus(SliceFixtures.withReady(store.require(Pod.class, SliceFixtures.NS, "pod1"), false));
      c.runUntilIdle();
      assertThat(events).hasSize(2);
    }
  }

  @Test
  void topologyAuto_tooFewEndpoints_disabledWithTheCachesReason() {
    try (ObjectStore store = store();
         EndpointSliceController c = EndpointSliceController.builder(store).clock(clock).events(recorder).stepping()
             .build()) {
      store.create(zoned("node-0", "zone-a"));
      store.create(zoned("node-1", "zone-b"));
      store.create(withTopologyMode(SliceFixtures.service("svc"), "Auto"));
      store.create(onNode(SliceFixtures.pod(0, true, false), "node-0"));
      c.start().join();
      c.runUntilIdle();
      assertThat(events).containsExactly("Service test/svc Warning TopologyAwareHintsDisabled Sync: "
          + TopologyCache.INSUFFICIENT_NUMBER_OF_ENDPOINTS + " (1 endpoints, 2 zones), addressType: IPv4");
    }
  }

  @Test
  void eventsGivenTwice_refusedNamingTheFirst() {
    EndpointSliceController.Builder b = EndpointSliceController.builder(store()).events(recorder);
    assertThatThrownBy(() -> b.events(EventRecorder.NOOP)).isInstanceOf(IllegalStateException.class)
        .hasMessage("EndpointSliceController: events was already set to " + recorder);
  }
}
