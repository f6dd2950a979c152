package io.fleetkit.networking.ipam;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The node IPAM controller's status-change events on the Node, as the range allocator records them
 * ({@code pkg/controller/nodeipam/ipam/range_allocator.go}: {@code CIDRNotAvailable} from
 * {@code AllocateOrOccupyCIDR}, {@code CIDRAssignmentFailed} from {@code updateCIDRsAllocation}). The full-range case
 * is {@code range_allocator_test.go} TestAllocateOrOccupyCIDRFailure (1 of 1): upstream checks that the allocation
 * fails and the Node is not updated; its fake recorder is not read, the event assertion is FleetKit's.
 */
final class NodeIpamEventsTest {
  private final List<String> events = new ArrayList<>();
  private final EventRecorder recorder = (regarding, related, type, reason, action, note) ->
      events.add(regarding.apiVersion() + " " + regarding.kind() + " " + regarding.name() + " uid=" + regarding.uid()
          + " " + type + " " + reason + " " + action + ": " + note);

  private static Node node(String name) {
    return new Node(ObjectMeta.builder().name(name).build(), NodeSpec.EMPTY, NodeStatus.EMPTY);
  }

  /** Fails every Node update with an API error while {@code fail} is set. */
  private static final class FailingNodeUpdate extends ForwardingObjectStore {
    volatile boolean fail = true;

    FailingNodeUpdate(ObjectStore delegate) {
      super(delegate);
    }

    @Override
    public <T extends ApiObject<T>> T update(T object) {
      if (fail && object instanceof Node) {
        throw new FleetKitException("API server failed");
      }
      return super.update(object);
    }
  }

  @Test
  void allocateOrOccupyCidrFailure_rangeFull_cidrNotAvailableOnTheNode_andNoUpdate() {
    // TestAllocateOrOccupyCIDRFailure "When there's no ServiceCIDR return first CIDR in range": 127.123.234.0/28 in
    // /30 blocks, all four occupied
    CidrSet set = new CidrSet(IpPrefix.parse("127.123.234.0/28"), 30);
    for (String c : List.of("127.123.234.0/30", "127.123.234.4/30", "127.123.234.8/30", "127.123.234.12/30")) {
      set.occupy(IpPrefix.parse(c));
    }
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
         NodeIpamController c = new NodeIpamController(store, List.of(set), null, true, recorder)) {
      Node n = store.create(node("node0"));
      c.start().join();
      c.runUntilIdle();
      assertThat(store.require(Node.class, "", "node0").spec().podCIDRs()).isEmpty();
      assertThat(store.require(Node.class, "", "node0").metadata().resourceVersion())
          .isEqualTo(n.metadata().resourceVersion());
      assertThat(events).containsExactly("v1 Node node0 uid=" + n.metadata().uid()
          + " Warning CIDRNotAvailable StatusChange: Node node0 status is now: CIDRNotAvailable");
    }
  }

  @Test
  void nodeUpdateFails_cidrAssignmentFailed_blocksReleased_thenAssignedOnRetry() {
    CidrSet set = new CidrSet(IpPrefix.parse("10.244.0.0/24"), 26);
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      FailingNodeUpdate failing = new FailingNodeUpdate(store);
      try (NodeIpamController c = new NodeIpamController(failing, List.of(set), null, true, recorder)) {
        Node n = store.create(node("node0"));
        c.start().join();
        c.runUntilIdle();
        // one event per failed try (the backoff's first retries may come due while stepping), every block given back
        assertThat(events).isNotEmpty().containsOnly("v1 Node node0 uid=" + n.metadata().uid()
            + " Warning CIDRAssignmentFailed StatusChange: Node node0 status is now: CIDRAssignmentFailed");
        assertThat(store.require(Node.class, "", "node0").spec().podCIDRs()).isEmpty();
        assertThat(set.allocatedCount()).isZero();
        // the next sync after the API recovers (here after a change to the Node) assigns a block
        failing.fail = false;
        int failures = events.size();
        Node now = store.require(Node.class, "", "node0");
        store.update(now.withMetadata(now.metadata().toBuilder().label("retry", "1").build()));
        c.runUntilIdle();
        List<String> got = store.require(Node.class, "", "node0").spec().podCIDRs();
        assertThat(got).singleElement().satisfies(b -> assertThat(set.isAllocated(IpPrefix.parse(b))).isTrue());
        assertThat(set.allocatedCount()).isEqualTo(1);
        assertThat(events).hasSize(failures);
      }
    }
  }

  @Test
  void noRecorder_sameAllocation() {
    CidrSet set = new CidrSet(IpPrefix.parse("10.244.0.0/24"), 26);
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
         NodeIpamController c = new NodeIpamController(store, List.of(set), null, true)) {
      store.create(node("node0"));
      c.start().join();
      c.runUntilIdle();
      assertThat(store.require(Node.class, "", "node0").spec().podCIDRs()).containsExactly("10.244.0.0/26");
    }
  }
}
