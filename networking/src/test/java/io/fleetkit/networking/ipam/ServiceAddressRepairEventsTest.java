package io.fleetkit.networking.ipam;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The service address controller finds what the apiserver's ClusterIP repair loop finds in the stored Services and
 * records its events ({@code pkg/registry/core/service/ipallocator/controller/repair.go}). Ported:
 * {@code repair_test.go} TestRepairWithExisting (its six Services; upstream asserts the rebuilt allocation only, the
 * events here are FleetKit's assertions of what {@code runOnce} records for the dropped ones).
 */
final class ServiceAddressRepairEventsTest {
  private final List<String> events = new ArrayList<>();
  private final EventRecorder recorder = (regarding, related, type, reason, action, note) ->
      events.add(regarding.namespace() + "/" + regarding.name() + " " + type + " " + reason + " " + action + ": "
          + note);

  private static Service service(String ns, String name, String... clusterIps) {
    ServiceSpec.Builder b = ServiceSpec.builder().port(ServicePort.of(80));
    if (clusterIps.length > 0) {
      b.clusterIP(clusterIps[0]).clusterIPs(List.of(clusterIps));
      if (!clusterIps[0].equals(ServiceSpec.CLUSTER_IP_NONE)) {
        b.ipFamilies(List.of(IPFamily.of(clusterIps[0])));
      }
    }
    return Service.of(ObjectMeta.of(ns, name), b.build());
  }

  @Test
  void repairWithExisting_outOfRangeAndDuplicate_reported_validOnesHeld() {
    ServiceIpRange range = ServiceIpRange.of("192.168.1.0/24", new Random(1));
    ServiceAddressAllocator alloc = new ServiceAddressAllocator(range, null, PortRange.defaultRange(new Random(2)));
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
         ServiceAddressController c = new ServiceAddressController(store, alloc, true, recorder)) {
      store.create(service("one", "one", "192.168.1.1"));
      store.create(service("two", "two", "192.168.1.100"));
      store.create(service("three", "three", "192.168.0.1")); // outside CIDR, will be dropped
      store.create(service("four", "four")); // empty: upstream's repair ignores it, FleetKit gives it an address
      store.create(service("five", "five", "192.168.1.1")); // duplicate, dropped
      store.create(service("six", "six", ServiceSpec.CLUSTER_IP_NONE)); // headless
      c.start().join();
      c.runUntilIdle();
      assertThat(range.has(IpAddress.parse("192.168.1.1"))).isTrue();
      assertThat(range.has(IpAddress.parse("192.168.1.100"))).isTrue();
      // upstream: 252 free of 254 after the repair; here "four" holds one more
      assertThat(range.free()).isEqualTo(251);
      // which of "one" and "five" keeps 192.168.1.1 follows the order the controller first syncs them in
      String loser = c.problems().containsKey("five/five") ? "five/five" : "one/one";
      assertThat(c.problems()).containsOnlyKeys("three/three", loser);
      assertThat(events).containsExactlyInAnyOrder(
          "three/three Warning ClusterIPOutOfRange ClusterIPAllocation: Cluster IP [IPv4]:192.168.0.1 is not within"
              + " the service CIDR 192.168.1.0/24; please recreate service",
          loser + " Warning ClusterIPAlreadyAllocated ClusterIPAllocation: Cluster IP [IPv4]:192.168.1.1 was"
              + " assigned to multiple services; please recreate service");
    }
  }

  @Test
  void familyNotServed_clusterIpNotValid() {
    ServiceIpRange range = ServiceIpRange.of("10.0.0.0/24", new Random(1));
    ServiceAddressAllocator alloc = new ServiceAddressAllocator(range, null, PortRange.defaultRange(new Random(2)));
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
         ServiceAddressController c = new ServiceAddressController(store, alloc, true, recorder)) {
      store.create(service("ns", "v6", "2001:db8::1"));
      c.start().join();
      c.runUntilIdle();
      assertThat(events).containsExactly("ns/v6 Warning ClusterIPNotValid ClusterIPValidation: Cluster IP"
          + " 2001:db8::1(IPv6) is of ip family that is no longer configured on cluster; please recreate service");
      assertThat(range.used()).isZero();
    }
  }

  @Test
  void refusalForAnotherField_noClusterIpEvent() {
    ServiceIpRange range = ServiceIpRange.of("10.0.0.0/24", new Random(1));
    ServiceAddressAllocator alloc = new ServiceAddressAllocator(range, null, PortRange.defaultRange(new Random(2)));
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
         ServiceAddressController c = new ServiceAddressController(store, alloc, true, recorder)) {
      store.create(Service.of(ObjectMeta.of("ns", "np"), ServiceSpec.builder().clusterIP("10.0.0.7")
          .type(io.fleetkit.api.core.ServiceType.NodePort).port(ServicePort.of("a", 80, 80).withNodePort(30080))
          .port(ServicePort.of("b", 81, 81).withNodePort(30080)).build()));
      c.start().join();
      c.runUntilIdle();
      assertThat(c.problems()).containsOnlyKeys("ns/np");
      assertThat(events).isEmpty();
      // the probe gave the address back
      assertThat(range.used()).isZero();
    }
  }
}
