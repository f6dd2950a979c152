package io.fleetkit.networking.endpointslice;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Endpoints;
import io.fleetkit.api.core.Endpoints.Address;
import io.fleetkit.api.core.Endpoints.Port;
import io.fleetkit.api.core.Endpoints.Subset;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The mirroring controller on a store, in stepping mode. Ported from kubernetes
 * {@code pkg/controller/endpointslicemirroring/endpointslicemirroring_controller_test.go} (commit
 * e63752e0f2710cbb0ae36a012878fa1812b14e5a): {@code TestSyncEndpoints} 9/9 (the store writes of one sync, with the
 * Warning event counted as upstream counts it; "Endpoints with no addresses" and "Existing EndpointSlices that need to
 * be cleaned up" have empty subsets, since a subset with ports and no addresses is refused when the object is built),
 * {@code TestShouldMirror} 4/4, {@code TestEndpointSlicesMirroredForService} 6/6. Beyond upstream: the lifecycle in
 * a store (Service gains a selector, Endpoints deleted, another writer's change repaired).
 */
final class EndpointSliceMirroringControllerTest {
  private static final String NS = "default";
  private static final String NAME = "testing-sync-endpoints";

  private static ObjectStore store() {
    return ObjectStore.builder().directDelivery().build();
  }

  private static Service service(String name, boolean selector) {
    ServiceSpec.Builder spec = ServiceSpec.builder().port(ServicePort.of(80));
    if (selector) {
      spec.selector("foo", "bar");
    }
    return Service.of(ObjectMeta.builder().namespace(NS).name(name).build(), spec.build());
  }

  private static Endpoints endpoints(Map<String, String> labels, List<Subset> subsets) {
    return new Endpoints(ObjectMeta.builder().namespace(NS).name(NAME).labels(labels).build(), subsets);
  }

  private static List<Subset> port80(List<Address> addresses) {
    return List.of(Subset.of(addresses, List.of(new Port("", 80, io.fleetkit.api.core.ServiceProtocol.TCP, ""))));
  }

  /** {@code generateAddresses}. */
  private static List<Address> addresses(int n) {
    List<Address> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(Address.of("10.0." + (i / 255) + "." + (i % 255)));
    }
    return out;
  }

  private static EndpointSlice slice(String name, Map<String, String> labels) {
    return new EndpointSlice(ObjectMeta.builder().namespace(NS).name(name).labels(labels).build(),
        AddressType.IPv4, List.of(), List.of());
  }

  private static final Map<String, String> MIRRORED = Map.of(EndpointSlice.LABEL_SERVICE_NAME, NAME,
      EndpointSlice.LABEL_MANAGED_BY, EndpointSliceMirroringReconciler.CONTROLLER_NAME);

  private static long version(ObjectStore store) {
    return Long.parseLong(store.resourceVersion());
  }

  private static List<EndpointSlice> mirrored(ObjectStore store) {
    return store.list(EndpointSlice.class, NS, LabelSelector.of(Map.of(EndpointSlice.LABEL_MANAGED_BY,
        EndpointSliceMirroringReconciler.CONTROLLER_NAME))).items();
  }

  /** TestSyncEndpoints: name, Service (null: none; true: with a selector), Endpoints, existing slices, results. */
  static Stream<Arguments> testSyncEndpoints() {
    List<Subset> one = port80(List.of(Address.of("10.0.0.1")));
    return Stream.of(
        Arguments.of("Endpoints with no addresses", false, endpoints(Map.of(), List.of()), List.of(), 0, 0),
        Arguments.of("Endpoints with skip label true", false,
            endpoints(Map.of(Endpoints.LABEL_SKIP_MIRROR, "true"), one), List.of(), 0, 0),
        Arguments.of("Endpoints with skip label false", false,
            endpoints(Map.of(Endpoints.LABEL_SKIP_MIRROR, "false"), one), List.of(), 1, 1),
        Arguments.of("Endpoints with missing Service", null, endpoints(Map.of(), one), List.of(), 0, 0),
        Arguments.of("Endpoints with Service with selector specified", true, endpoints(Map.of(), one), List.of(), 0,
            0),
        Arguments.of("Existing EndpointSlices that need to be cleaned up", false, endpoints(Map.of(), List.of()),
            List.of(slice(NAME + "-1", MIRRORED)), 1, 0),
        Arguments.of("Existing EndpointSlices managed by a different controller, no addresses to sync", false,
            endpoints(Map.of(), List.of()),
            List.of(slice(NAME + "-1", Map.of(EndpointSlice.LABEL_MANAGED_BY, "something-else"))), 0, 0),
        Arguments.of("Endpoints with 1000 addresses", false, endpoints(Map.of(), port80(addresses(1000))),
            List.of(), 1, 1),
        Arguments.of("Endpoints with 1001 addresses - 1 should not be mirrored", false,
            endpoints(Map.of(), port80(addresses(1001))), List.of(), 2, 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("testSyncEndpoints")
  void syncEndpoints_upstreamCase_actionsAndSlicesAsUpstream(String name, @Nullable Boolean selector,
      Endpoints endpoints, List<EndpointSlice> existing, int actions, int slices) {
    List<String> events = new ArrayList<>();
    try (ObjectStore store = store();
         EndpointSliceMirroringController c = EndpointSliceMirroringController.builder(store).stepping()
             .events((regarding, related, type, reason, action, note) -> events.add(type + " " + reason + ": " + note))
             .build()) {
      if (selector != null) {
        store.create(service(NAME, selector));
      }
      existing.forEach(store::create);
      c.start().join();
      long before = version(store);
      store.create(endpoints);
      long afterCreate = version(store);
      c.runUntilIdle();

      assertThat(version(store) - afterCreate + events.size()).as("actions").isEqualTo(actions);
      assertThat(afterCreate - before).isEqualTo(1);
      List<EndpointSlice> got = mirrored(store);
      assertThat(got).hasSize(slices);
      int mirroredAddresses = got.stream().mapToInt(s -> s.endpoints().size()).sum();
      int total = endpoints.subsets().stream().mapToInt(s -> s.addresses().size()).sum();
      if (slices > 0) {
        assertThat(mirroredAddresses).isEqualTo(Math.min(total, Endpoints.MAX_ADDRESSES));
        assertThat(got.get(0).metadata().name()).startsWith(NAME);
      }
      if (total > Endpoints.MAX_ADDRESSES) {
        assertThat(events).containsExactly("Warning TooManyAddressesToMirror: A max of 1000 addresses can be mirrored"
            + " to EndpointSlices per Endpoints subset. 1 addresses were skipped");
      }
    }
  }

  /** TestShouldMirror. */
  static Stream<Arguments> testShouldMirror() {
    return Stream.of(
        Arguments.of("Standard Endpoints", Map.of(), Map.of(), true),
        Arguments.of("Endpoints with skip-mirror=true", Map.of(Endpoints.LABEL_SKIP_MIRROR, "true"), Map.of(), false),
        Arguments.of("Endpoints with skip-mirror=invalid", Map.of(Endpoints.LABEL_SKIP_MIRROR, "invalid"), Map.of(),
            true),
        Arguments.of("Endpoints with leader election annotation", Map.of(), Map.of(Endpoints.LEADER_ANNOTATION, ""),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("testShouldMirror")
  void shouldMirror_upstreamCase(String name, Map<String, String> labels, Map<String, String> annotations,
      boolean want) {
    Endpoints e = new Endpoints(ObjectMeta.builder().name("test-endpoints").labels(labels).annotations(annotations)
        .build(), List.of());
    assertThat(EndpointSliceMirroringController.shouldMirror(e)).isEqualTo(want);
  }

  /** TestEndpointSlicesMirroredForService: the slice's namespace and labels, whether it is listed for ns1/svc1. */
  static Stream<Arguments> testEndpointSlicesMirroredForService() {
    String mirroring = EndpointSliceMirroringReconciler.CONTROLLER_NAME;
    return Stream.of(
        Arguments.of("Service with matching EndpointSlice", "ns1",
            Map.of(EndpointSlice.LABEL_SERVICE_NAME, "svc1", EndpointSlice.LABEL_MANAGED_BY, mirroring), true),
        Arguments.of("Service with EndpointSlice that has different namespace", "ns2",
            Map.of(EndpointSlice.LABEL_SERVICE_NAME, "svc1", EndpointSlice.LABEL_MANAGED_BY, mirroring), false),
        Arguments.of("Service with EndpointSlice that has different service name", "ns1",
            Map.of(EndpointSlice.LABEL_SERVICE_NAME, "svc2", EndpointSlice.LABEL_MANAGED_BY, mirroring), false),
        Arguments.of("Service with EndpointSlice that has different controller name", "ns1",
            Map.of(EndpointSlice.LABEL_SERVICE_NAME, "svc1", EndpointSlice.LABEL_MANAGED_BY, mirroring + "foo"), false),
        Arguments.of("Service with EndpointSlice that has missing controller name", "ns1",
            Map.of(EndpointSlice.LABEL_SERVICE_NAME, "svc1"), false),
        Arguments.of("Service with EndpointSlice that has missing service name", "ns1",
            Map.of(EndpointSlice.LABEL_MANAGED_BY, mirroring), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("testEndpointSlicesMirroredForService")
  void mirroredSlices_upstreamCase(String name, String namespace, Map<String, String> labels, boolean listed) {
    try (ObjectStore store = store();
         EndpointSliceMirroringController c = EndpointSliceMirroringController.builder(store).stepping().build()) {
      store.create(new EndpointSlice(ObjectMeta.builder().namespace(namespace).name("example-1").labels(labels)
          .build(), AddressType.IPv4, List.of(), List.of()));
      c.start().join();
      assertThat(c.mirroredSlices("ns1", "svc1")).extracting(s -> s.metadata().name())
          .isEqualTo(listed ? List.of("example-1") : List.of());
    }
  }

  @Test
  void lifecycle_selectorAddedThenRemoved_endpointsDeleted_slicesFollow() {
    try (ObjectStore store = store();
         EndpointSliceMirroringController c = EndpointSliceMirroringController.builder(store).stepping().build()) {
      c.start().join();
      store.create(service(NAME, false));
      store.create(endpoints(Map.of(), port80(List.of(Address.of("192.0.2.1"), Address.of("2001:db8::1")))));
      c.runUntilIdle();
      assertThat(mirrored(store)).extracting(EndpointSlice::addressType)
          .containsExactlyInAnyOrder(AddressType.IPv4, AddressType.IPv6);

      Service withSelector = store.require(Service.class, NS, NAME);
      store.update(withSelector.withSpec(withSelector.spec().toBuilder().selector("foo", "bar").build()));
      c.runUntilIdle();
      assertThat(mirrored(store)).as("a Service with a selector is not mirrored").isEmpty();

      Service without = store.require(Service.class, NS, NAME);
      store.update(without.withSpec(without.spec().toBuilder().selector(Map.of()).build()));
      c.runUntilIdle();
      assertThat(mirrored(store)).hasSize(2);

      store.delete(Endpoints.class, NS, NAME);
      c.runUntilIdle();
      assertThat(mirrored(store)).isEmpty();
    }
  }

  @Test
  void sliceChangedByAnotherWriter_repaired_ownWritesDoNotSyncAgain() {
    try (ObjectStore store = store();
         EndpointSliceMirroringController c = EndpointSliceMirroringController.builder(store).stepping().build()) {
      c.start().join();
      store.create(service(NAME, false));
      store.create(endpoints(Map.of(), port80(List.of(Address.of("192.0.2.1")))));
      c.runUntilIdle();
      EndpointSlice s = mirrored(store).get(0);
      long before = version(store);
      assertThat(c.runUntilIdle()).as("nothing queued after its own writes").isZero();
      assertThat(version(store)).isEqualTo(before);

      store.update(s.withEndpoints(List.of(Endpoint.of("192.0.2.99"))));
      c.runUntilIdle();
      assertThat(mirrored(store).get(0).endpoints()).extracting(e -> e.addresses().get(0))
          .containsExactly("192.0.2.1");

      store.delete(EndpointSlice.class, NS, s.metadata().name());
      c.runUntilIdle();
      assertThat(mirrored(store)).hasSize(1);
    }
  }

  @Test
  void serviceDeleted_slicesDeleted() {
    try (ObjectStore store = store();
         EndpointSliceMirroringController c = EndpointSliceMirroringController.builder(store).stepping().build()) {
      c.start().join();
      store.create(service(NAME, false));
      store.create(endpoints(Map.of(), port80(List.of(Address.of("192.0.2.1")))));
      c.runUntilIdle();
      assertThat(mirrored(store)).hasSize(1);
      store.delete(Service.class, NS, NAME);
      c.runUntilIdle();
      assertThat(mirrored(store)).isEmpty();
    }
  }
}
