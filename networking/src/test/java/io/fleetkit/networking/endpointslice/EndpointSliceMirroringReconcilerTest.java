package io.fleetkit.networking.endpointslice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Endpoints;
import io.fleetkit.api.core.Endpoints.Address;
import io.fleetkit.api.core.Endpoints.Port;
import io.fleetkit.api.core.Endpoints.Subset;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointConditions;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The mirroring planner against kubernetes {@code pkg/controller/endpointslicemirroring/reconciler_test.go}
 * (commit b94367cabf3edea99cfd7ecf7e8bafdc908d83ca) {@code TestReconcile}: 25 of its 28 cases, each with upstream's
 * number of slices and of client actions (creates, updates and deletes), the created and updated counts and the
 * skipped addresses where upstream asserts its metrics, and upstream's {@code expectEndpointSlices} check of the
 * resulting slices (names, service-name label, annotations mirrored but the last-applied configuration and the
 * trigger time, per repacked subset and family the endpoints with their readiness, hostname and node). Not ported:
 * "Endpoints with no addresses" (a subset without addresses is refused when the Endpoints object is built, as the
 * API server's validation refuses it), "Endpoints with 2 subsets, multiple ports, some invalid addresses" and "...,
 * all invalid addresses" (an address that is no IP is refused the same way; upstream's reconciler skips such
 * addresses of objects its API would not have stored).
 */
final class EndpointSliceMirroringReconcilerTest {
  private static final String NS = "test";
  private static final String NAME = "test-ep";
  private static final String LAST_APPLIED = EndpointSliceMirroringReconciler.LAST_APPLIED_ANNOTATION;
  private static final String APPLIED_VALUE = "{\"apiVersion\":\"v1\",\"kind\":\"Endpoints\",\"subsets\":[]}";

  private static Address addr(String ip, String hostname, String node) {
    return new Address(ip, hostname, node, null);
  }

  private static Port port(String name, int number, ServiceProtocol protocol) {
    return new Port(name, number, protocol, "");
  }

  private static final Port HTTP = port("http", 80, ServiceProtocol.TCP);
  private static final Port HTTPS_UDP = port("https", 443, ServiceProtocol.UDP);
  private static final Port HTTP_3000 = port("http", 3000, ServiceProtocol.TCP);
  private static final Port HTTPS_3001 = port("https", 3001, ServiceProtocol.UDP);

  private static EndpointPort slicePort(Port p) {
    return new EndpointPort(p.name(), p.port(), p.protocol(), "");
  }

  private static Endpoint ep(List<String> addresses, String hostname, String node, @Nullable Boolean ready) {
    return new Endpoint(addresses, new EndpointConditions(ready, null, null), hostname, null, node, "", null);
  }

  /** An existing slice, labelled as mirrored for the Endpoints object (as upstream's test labels them). */
  private static EndpointSlice slice(String name, Map<String, String> annotations, @Nullable String ownerUid,
      List<Port> ports, Endpoint... endpoints) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(NS).name(name).annotations(annotations)
        .labels(Map.of(EndpointSlice.LABEL_SERVICE_NAME, NAME,
            EndpointSlice.LABEL_MANAGED_BY, EndpointSliceMirroringReconciler.CONTROLLER_NAME));
    if (ownerUid != null) {
      m.ownerReferences(List.of(new OwnerReference("v1", "Endpoints", NAME, ownerUid, false, false)));
    }
    return new EndpointSlice(m.build(), AddressType.IPv4, List.of(endpoints),
        ports.stream().map(EndpointSliceMirroringReconcilerTest::slicePort).toList());
  }

  /** One TestReconcile case. {@code created}/{@code updated}/{@code skipped} are null where upstream has no metrics. */
  record Case(String name, List<Subset> subsets, Map<String, String> labels, Map<String, String> annotations,
      String uid, boolean deletionPending, int maxEndpointsPerSubset, List<EndpointSlice> existing, int slices,
      int actions, @Nullable Integer created, @Nullable Integer updated, @Nullable Integer skipped) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Case c(String name, List<Subset> subsets, List<EndpointSlice> existing, int slices, int actions,
      @Nullable Integer created, @Nullable Integer updated) {
    return new Case(name, subsets, Map.of(), Map.of(), "", false, 1000, existing, slices, actions, created, updated,
        created == null ? null : 0);
  }

  private static Subset ready(List<Address> addresses, Port... ports) {
    return Subset.of(addresses, List.of(ports));
  }

  static Stream<Case> testReconcile() {
    List<Address> pod1Node1 = List.of(addr("10.0.0.1", "pod-1", "node-1"));
    List<Address> pod1 = List.of(addr("10.0.0.1", "pod-1", ""));
    List<Address> two = List.of(addr("10.0.0.1", "pod-1", "node-1"), addr("10.0.0.2", "pod-2", "node-2"));
    List<Address> three = List.of(addr("10.0.1.1", "pod-11", "node-1"), addr("10.0.1.2", "pod-12", "node-2"),
        addr("10.0.1.3", "pod-13", "node-3"));
    List<Subset> twoSubsets = List.of(ready(two, HTTP, HTTPS_UDP), ready(three, HTTP_3000, HTTPS_3001));
    Endpoint pod1Ready = ep(List.of("10.0.0.1"), "pod-1", "", true);
    String uid = "d8f2c1f6-5285-4b3c-b3c1-9b89f9e7ed7a";
    List<Case> cases = new ArrayList<>(List.of(
        c("Endpoints with no subsets", List.of(), List.of(), 0, 0, 0, 0),
        c("Endpoints with 1 subset, port, and address", List.of(ready(pod1Node1, HTTP)), List.of(), 1, 1, 1, 0),
        c("Endpoints with 2 subset, different port and address", List.of(ready(pod1Node1, HTTP),
            ready(List.of(addr("10.0.0.2", "pod-2", "node-1")), port("https", 443, ServiceProtocol.TCP))),
            List.of(), 2, 2, 2, 0),
        c("Endpoints with 2 subset, different port and same address", List.of(ready(pod1Node1, HTTP),
            ready(pod1Node1, port("https", 443, ServiceProtocol.TCP))), List.of(), 1, 1, 1, 0),
        c("Endpoints with 2 subset, different address and same port", List.of(ready(pod1Node1, HTTP),
            ready(List.of(addr("10.0.0.2", "pod-2", "node-1")), HTTP)), List.of(), 1, 1, 1, 0),
        new Case("Endpoints with 1 subset, port, and address, pending deletion", List.of(ready(pod1Node1, HTTP)),
            Map.of(), Map.of(), "", true, 1000, List.of(), 0, 0, null, null, null),
        new Case("Endpoints with 1 subset, port, and address and existing slice with same fields",
            List.of(ready(pod1, HTTP)), Map.of(), Map.of(), uid, false, 1000,
            List.of(slice("test-ep-1", Map.of(), uid, List.of(HTTP), pod1Ready)), 1, 0, null, null, null),
        new Case("Endpoints with 1 subset, port, and address and existing slice with same fields but different"
            + " OwnerReferences", List.of(ready(pod1, HTTP)), Map.of(), Map.of(), uid, false, 1000,
            List.of(slice("test-ep-1", Map.of(), "fb91e798-1875-4857-b5eb-e2c878157b4d", List.of(HTTP), pod1Ready)),
            1, 1, null, null, null),
        c("Endpoints with 1 subset, port, and address and existing slice with an additional annotation",
            List.of(ready(pod1, HTTP)), List.of(slice("test-ep-1", Map.of("foo", "bar"), null, List.of(HTTP),
                pod1Ready)), 1, 1, null, null),
        new Case("Endpoints with 1 subset, port, label and address and existing slice with same fields but the label",
            List.of(ready(pod1, HTTP)), Map.of("foo", "bar"), Map.of(), "", false, 1000,
            List.of(slice("test-ep-1", Map.of("foo", "bar"), null, List.of(HTTP), pod1Ready)), 1, 1, null, null,
            null),
        c("Endpoints with 1 subset, 2 ports, and 2 addresses", List.of(ready(two, HTTP, HTTPS_UDP)), List.of(), 1, 1,
            1, 0),
        c("Endpoints with 1 subset, 2 ports, and 2 not ready addresses",
            List.of(new Subset(List.of(), two, List.of(HTTP, HTTPS_UDP))), List.of(), 1, 1, 1, 0),
        c("Endpoints with 1 subset, 2 ports, and 2 ready and 2 not ready addresses", List.of(new Subset(
            List.of(addr("10.1.1.1", "pod-11", "node-1"), addr("10.1.1.2", "pod-12", "node-2")), two,
            List.of(HTTP, HTTPS_UDP))), List.of(), 1, 1, 1, 0),
        c("Endpoints with 2 subsets, multiple ports and addresses", twoSubsets, List.of(), 2, 2, 2, 0),
        c("Endpoints with 2 subsets, multiple ports and addresses, existing empty EndpointSlice", twoSubsets,
            List.of(slice("test-ep-1", Map.of(), null, List.of(HTTP, HTTPS_UDP))), 2, 2, 1, 1),
        c("Endpoints with 2 subsets, multiple ports and addresses, existing EndpointSlice with some addresses",
            twoSubsets, List.of(slice("test-ep-1", Map.of(), null, List.of(HTTP, HTTPS_UDP),
                ep(List.of("10.0.0.2"), "pod-2", "", null), ep(List.of("10.0.0.1", "10.0.0.3"), "pod-1", "", null))),
            2, 2, 1, 1),
        c("Endpoints with 2 subsets, multiple ports and addresses, existing EndpointSlice identical to subset",
            twoSubsets, List.of(slice("test-ep-1", Map.of(), null, List.of(HTTP, HTTPS_UDP),
                ep(List.of("10.0.0.1"), "pod-1", "node-1", true), ep(List.of("10.0.0.2"), "pod-2", "node-2", true))),
            2, 1, 1, 0),
        c("Endpoints with 2 subsets, multiple ports, and dual stack addresses", List.of(
            ready(List.of(addr("2001:db8:2222:3333:4444:5555:6666:7777", "pod-1", "node-1"),
                addr("10.0.0.2", "pod-2", "node-2")), HTTP, HTTPS_UDP),
            ready(List.of(addr("10.0.1.1", "pod-11", "node-1"), addr("10.0.1.2", "pod-12", "node-2"),
                addr("2001:db8:3333:4444:5555:6666:7777:8888", "pod-13", "node-3")), HTTP_3000, HTTPS_3001)),
            List.of(), 4, 4, 4, 0),
        c("Endpoints with 2 subsets, multiple ports, ipv6 only addresses", List.of(
            ready(List.of(addr("2001:db8:1111:3333:4444:5555:6666:7777", "pod-1", "node-1"),
                addr("2001:db8:2222:3333:4444:5555:6666:7777", "pod-2", "node-2")), HTTP, HTTPS_UDP),
            ready(List.of(addr("2001:db8:3333:3333:4444:5555:6666:7777", "pod-11", "node-1"),
                addr("2001:db8:4444:3333:4444:5555:6666:7777", "pod-12", "node-2"),
                addr("2001:db8:5555:3333:4444:5555:6666:7777", "pod-13", "node-3")), HTTP_3000, HTTPS_3001)),
            List.of(), 2, 2, 2, 0),
        new Case("Endpoints with 2 subsets, 1 exceeding maxEndpointsPerSubset", twoSubsets, Map.of(), Map.of(), "",
            false, 2, List.of(), 2, 2, 2, 0, 1),
        new Case("The last-applied-configuration annotation should not get mirrored to created or updated endpoint"
            + " slices", List.of(ready(pod1, HTTP)), Map.of(), Map.of(LAST_APPLIED, APPLIED_VALUE), "", false, 1000,
            List.of(), 1, 1, 1, 0, 0),
        c("The last-applied-configuration annotation shouldn't get added to created endpoint slices",
            List.of(ready(pod1, HTTP)), List.of(), 1, 1, 1, 0),
        new Case("The last-applied-configuration shouldn't get mirrored to endpoint slices when it's value is empty",
            List.of(ready(pod1, HTTP)), Map.of(), Map.of(LAST_APPLIED, ""), "", false, 1000, List.of(), 1, 1, 1, 0,
            0),
        new Case("Annotations other than last-applied-configuration should get correctly mirrored",
            List.of(ready(pod1, HTTP)), Map.of(), Map.of(LAST_APPLIED, APPLIED_VALUE, "foo", "bar"), "", false, 1000,
            List.of(), 1, 1, 1, 0, 0),
        c("Annotation mirroring should remove the last-applied-configuration annotation from existing endpoint"
            + " slices", List.of(ready(pod1, HTTP)), List.of(slice("test-ep-1", Map.of(LAST_APPLIED, APPLIED_VALUE),
                null, List.of(HTTP), pod1Ready)), 1, 1, null, null)));
    return cases.stream();
  }

  private static Endpoints endpoints(Case tc) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(NS).name(NAME).uid(tc.uid()).labels(tc.labels())
        .annotations(tc.annotations());
    if (tc.deletionPending()) {
      m.deletionTimestamp(Instant.parse("2026-12-01T10:00:00Z"));
    }
    return new Endpoints(m.build(), tc.subsets());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("testReconcile")
  void reconcile_upstreamCase_slicesAndActionsAsUpstream(Case tc) {
    Endpoints endpoints = endpoints(tc);
    int[] n = {0};
    EndpointSliceMirroringReconciler r = new EndpointSliceMirroringReconciler(tc.maxEndpointsPerSubset(),
        () -> "x" + (n[0]++));

    EndpointSliceMirroringReconciler.MirrorPlan plan = r.plan(endpoints, tc.existing());

    assertThat(plan.slices().writes()).as("client actions").isEqualTo(tc.actions());
    if (tc.created() != null) {
      assertThat(plan.slices().creates()).as("created").hasSize(tc.created());
      assertThat(plan.slices().updates()).as("updated").hasSize(tc.updated());
      assertThat(plan.slices().deletes()).as("deleted").isEmpty();
      assertThat(plan.addressesSkipped()).as("skipped").isEqualTo(tc.skipped());
    }
    List<EndpointSlice> after = apply(tc.existing(), plan.slices());
    assertThat(after).as("slices").hasSize(tc.slices());
    expectEndpointSlices(endpoints, after, tc.maxEndpointsPerSubset());
  }

  /** The slices after the plan's writes. */
  private static List<EndpointSlice> apply(List<EndpointSlice> existing, SlicePlan plan) {
    Map<String, EndpointSlice> byName = new LinkedHashMap<>();
    existing.forEach(s -> byName.put(s.metadata().name(), s));
    plan.deletes().forEach(s -> byName.remove(s.metadata().name()));
    plan.updates().forEach(s -> assertThat(byName.put(s.metadata().name(), s)).as("updated slice exists").isNotNull());
    plan.creates().forEach(s -> assertThat(byName.put(s.metadata().name(), s)).as("created slice is new").isNull());
    return List.copyOf(byName.values());
  }

  /** Upstream's {@code expectEndpointSlices}, {@code portsMatch} and {@code expectMatchingAddresses}. */
  private static void expectEndpointSlices(Endpoints endpoints, List<EndpointSlice> slices, int max) {
    if (slices.isEmpty()) {
      return;
    }
    for (EndpointSlice s : slices) {
      assertThat(s.metadata().name()).startsWith(NAME);
      assertThat(s.metadata().labels()).containsEntry(EndpointSlice.LABEL_SERVICE_NAME, NAME);
      assertThat(s.metadata().annotations()).doesNotContainKeys(LAST_APPLIED,
          EndpointSliceReconciler.TRIGGER_TIME_ANNOTATION);
      endpoints.metadata().annotations().forEach((k, v) -> {
        if (!k.equals(LAST_APPLIED)) {
          assertThat(s.metadata().annotations()).containsEntry(k, v);
        }
      });
    }
    for (Subset subset : EndpointsRepacking.repack(endpoints.subsets())) {
      Set<EndpointPort> ports = new HashSet<>(subset.ports().stream()
          .map(EndpointSliceMirroringReconcilerTest::slicePort).toList());
      List<Endpoint> v4 = new ArrayList<>();
      List<Endpoint> v6 = new ArrayList<>();
      for (EndpointSlice s : slices) {
        if (new HashSet<>(s.ports()).equals(ports) && s.ports().size() == ports.size()) {
          (s.addressType() == AddressType.IPv4 ? v4 : v6).addAll(s.endpoints());
        }
      }
      assertThat(v4.size() + v6.size()).as("slices matching subset %s", subset.ports()).isPositive();
      expectMatchingAddresses(subset, v4, AddressType.IPv4, max);
      expectMatchingAddresses(subset, v6, AddressType.IPv6, max);
    }
  }

  private static void expectMatchingAddresses(Subset subset, List<Endpoint> got, AddressType type, int max) {
    Map<String, Boolean> readyByIp = new LinkedHashMap<>();
    Map<String, Address> byIp = new LinkedHashMap<>();
    for (boolean ready : new boolean[] {true, false}) {
      for (Address a : ready ? subset.addresses() : subset.notReadyAddresses()) {
        AddressType t = a.ip().indexOf(':') >= 0 ? AddressType.IPv6 : AddressType.IPv4;
        if (t == type && readyByIp.size() < max) {
          readyByIp.put(a.ip(), ready);
          byIp.put(a.ip(), a);
        }
      }
    }
    assertThat(got).hasSize(readyByIp.size());
    for (Endpoint e : got) {
      assertThat(e.addresses()).hasSize(1);
      Address a = byIp.get(e.addresses().get(0));
      assertThat(a).as("endpoint %s expected", e.addresses()).isNotNull();
      assertThat(e.conditions().ready()).isEqualTo(readyByIp.get(a.ip()));
      assertThat(e.hostname()).isEqualTo(a.hostname());
      assertThat(e.nodeName()).isEqualTo(a.nodeName());
    }
  }

  private static EndpointSlice simple(String name, String ip, AddressType type) {
    return new EndpointSlice(ObjectMeta.of(NS, name), type, List.of(Endpoint.of(ip)), List.of());
  }

  private static final String V6A = "2001:db8:1111:3333:4444:5555:6666:7777";
  private static final String V6B = "2001:db8:2222:3333:4444:5555:6666:7777";

  /**
   * reconciler_helpers_test.go (commit d6a9061cb43ab98054f0f455115d87e1b20f7971) TestRecycleSlices, all 7 cases:
   * name, creates, updates, deletes before; creates, updates, deletes after, each as {@code name=ip}.
   */
  static Stream<Arguments> testRecycleSlices() {
    AddressType v4 = AddressType.IPv4;
    AddressType v6 = AddressType.IPv6;
    return Stream.of(
        Arguments.of("Empty slices", List.of(), List.of(), List.of(), List.of(), List.of(), List.of()),
        Arguments.of("1 to create and 1 to delete", List.of(simple("foo", "10.1.2.3", v4)), List.of(),
            List.of(simple("bar", "10.2.3.4", v4)), List.of(), List.of("bar=10.1.2.3"), List.of()),
        Arguments.of("1 to create, update, and delete", List.of(simple("foo", "10.1.2.3", v4)),
            List.of(simple("baz", "10.2.3.4", v4)), List.of(simple("bar", "10.3.4.5", v4)), List.of(),
            List.of("bar=10.1.2.3", "baz=10.2.3.4"), List.of()),
        Arguments.of("2 to create and 1 to delete", List.of(simple("foo1", "10.1.2.3", v4),
            simple("foo2", "10.3.4.5", v4)), List.of(), List.of(simple("bar", "10.2.3.4", v4)),
            List.of("foo2=10.3.4.5"), List.of("bar=10.1.2.3"), List.of()),
        Arguments.of("1 to create and 2 to delete", List.of(simple("foo1", "10.1.2.3", v4)), List.of(),
            List.of(simple("bar1", "10.2.3.4", v4), simple("bar2", "10.3.4.5", v4)), List.of(),
            List.of("bar1=10.1.2.3"), List.of("bar2=10.3.4.5")),
        Arguments.of("1 to create and 1 to delete for each IP family", List.of(simple("foo-v4", "10.1.2.3", v4),
            simple("foo-v6", V6A, v6)), List.of(), List.of(simple("bar-v4", "10.2.2.3", v4),
            simple("bar-v6", V6B, v6)), List.of(), List.of("bar-v4=10.1.2.3", "bar-v6=" + V6A), List.of()),
        Arguments.of("1 to create and 1 to delete, wrong IP family", List.of(simple("foo-v4", "10.1.2.3", v4)),
            List.of(), List.of(simple("bar-v6", V6B, v6)), List.of("foo-v4=10.1.2.3"), List.of(),
            List.of("bar-v6=" + V6B)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("testRecycleSlices")
  void recycle_upstreamCase(String name, List<EndpointSlice> creates, List<EndpointSlice> updates,
      List<EndpointSlice> deletes, List<String> wantCreates, List<String> wantUpdates, List<String> wantDeletes) {
    List<EndpointSlice> c = new ArrayList<>(creates);
    List<EndpointSlice> u = new ArrayList<>(updates);
    List<EndpointSlice> d = new ArrayList<>(deletes);

    EndpointSliceMirroringReconciler.recycle(c, u, d);

    assertThat(named(c)).isEqualTo(wantCreates);
    assertThat(named(u)).isEqualTo(wantUpdates);
    assertThat(named(d)).isEqualTo(wantDeletes);
  }

  private static List<String> named(List<EndpointSlice> slices) {
    return slices.stream().map(s -> s.metadata().name() + "=" + s.endpoints().get(0).addresses().get(0)).sorted()
        .toList();
  }

  /**
   * utils_test.go (commit 9891f82d816be0f7ee3ff1eb080089737ad596c9) TestNewEndpointSlice, through {@code plan}: the
   * Endpoints' labels with service-name and managed-by, a name made from {@code <endpoints>-}, the controller
   * reference, namespace, ports and family; the Endpoints' labels not modified. The slice has the subset's one
   * address (a subset without addresses cannot be built, and no slice is created without endpoints).
   */
  @Test
  void newEndpointSlice_upstreamCase() {
    Endpoints e = new Endpoints(ObjectMeta.builder().namespace(NS).name("foo").label("foo", "bar").build(),
        List.of(ready(List.of(addr("10.0.0.1", "", "")), port("foo", 80, ServiceProtocol.TCP))));
    EndpointSlice s = new EndpointSliceMirroringReconciler(1000, () -> "abcde").plan(e, List.of()).slices()
        .creates().get(0);

    assertThat(s.metadata().labels()).isEqualTo(Map.of("foo", "bar", EndpointSlice.LABEL_SERVICE_NAME, "foo",
        EndpointSlice.LABEL_MANAGED_BY, EndpointSliceMirroringReconciler.CONTROLLER_NAME));
    assertThat(s.metadata().name()).isEqualTo("foo-abcde");
    assertThat(s.metadata().namespace()).isEqualTo(NS);
    assertThat(s.metadata().ownerReferences()).containsExactly(new OwnerReference("v1", "Endpoints", "foo", "", true,
        true));
    assertThat(s.ports()).containsExactly(new EndpointPort("foo", 80, ServiceProtocol.TCP, ""));
    assertThat(s.addressType()).isEqualTo(AddressType.IPv4);
    assertThat(e.metadata().labels()).containsOnlyKeys("foo");
  }

  @Test
  void plan_newSlice_ownedByTheEndpointsAndLabelled() {
    Endpoints e = new Endpoints(ObjectMeta.builder().namespace(NS).name(NAME).uid("u-1").label("team", "db")
        .build(), List.of(ready(List.of(addr("::ffff:10.0.0.9", "", "")), HTTP)));
    EndpointSlice s = new EndpointSliceMirroringReconciler(1000, () -> "abcde").plan(e, List.of()).slices()
        .creates().get(0);

    assertThat(s.metadata().name()).isEqualTo("test-ep-abcde");
    assertThat(s.metadata().labels()).containsEntry("team", "db")
        .containsEntry(EndpointSlice.LABEL_MANAGED_BY, "endpointslicemirroring-controller.k8s.io");
    assertThat(s.metadata().ownerReferences()).containsExactly(
        new OwnerReference("v1", "Endpoints", NAME, "u-1", true, true));
    assertThat(s.addressType()).isEqualTo(AddressType.IPv4);
    assertThat(s.endpoints().get(0).addresses()).containsExactly("10.0.0.9");
  }

  /**
   * An address with leading zeros (a legacy field the API server accepts) is read as decimal and mirrored in its
   * canonical form, as upstream's {@code addressToEndpoint} re-prints the {@code ParseIPSloppy} address.
   */
  @Test
  void plan_addressWithLeadingZeros_isMirroredCanonically() {
    Endpoints e = new Endpoints(ObjectMeta.builder().namespace(NS).name(NAME).build(),
        List.of(ready(List.of(addr("010.000.000.009", "", "")), HTTP)));
    EndpointSlice s = new EndpointSliceMirroringReconciler(1000, () -> "abcde").plan(e, List.of()).slices()
        .creates().get(0);

    assertThat(s.addressType()).isEqualTo(AddressType.IPv4);
    assertThat(s.endpoints().get(0).addresses()).containsExactly("10.0.0.9");
  }

  @Test
  void repack_addressReadyAndNotReadyForOnePort_isNotReady() {
    List<Subset> repacked = EndpointsRepacking.repack(List.of(
        ready(List.of(addr("10.0.0.1", "", "")), HTTP),
        new Subset(List.of(), List.of(addr("10.0.0.1", "", "")), List.of(HTTP))));

    assertThat(repacked).hasSize(1);
    assertThat(repacked.get(0).addresses()).isEmpty();
    assertThat(repacked.get(0).notReadyAddresses()).extracting(Address::ip).containsExactly("10.0.0.1");
  }

  @Test
  void new_maxOutsideRange_refusedNamingTheRule() {
    assertThatThrownBy(() -> new EndpointSliceMirroringReconciler(1001, () -> "x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxEndpointsPerSubset")
        .hasMessageContaining("1001");
  }
}
