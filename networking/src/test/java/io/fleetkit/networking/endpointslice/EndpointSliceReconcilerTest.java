package io.fleetkit.networking.endpointslice;

import static io.fleetkit.networking.endpointslice.SliceFixtures.NS;
import static io.fleetkit.networking.endpointslice.SliceFixtures.emptySlice;
import static io.fleetkit.networking.endpointslice.SliceFixtures.node;
import static io.fleetkit.networking.endpointslice.SliceFixtures.pod;
import static io.fleetkit.networking.endpointslice.SliceFixtures.pods;
import static io.fleetkit.networking.endpointslice.SliceFixtures.reconciler;
import static io.fleetkit.networking.endpointslice.SliceFixtures.service;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointConditions;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.discovery.EndpointTargetRef;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.networking.endpointslice.SliceFixtures.FakeSlices;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Cases ported from {@code kubernetes/endpointslice} {@code reconciler_test.go} (inputs and expected writes and
 * slice sizes are upstream's; metrics assertions are not ported since FleetKit has no such metrics).
 */
final class EndpointSliceReconcilerTest {
  private static final Node NODE1 = node("node-1", Map.of());
  private static final Function<String, Node> NODES = n -> n.equals("node-1") ? NODE1 : null;
  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00.123456789Z");

  private static FakeSlices run(EndpointSliceReconciler r, Service svc, List<Pod> pods, FakeSlices client) {
    client.apply(r.plan(svc, pods, NODES, client.list(), NOW));
    return client;
  }

  private static Endpoint endpointOf(Pod p, Service svc) {
    return SliceRules.podToEndpoint(p, node("empty-node", Map.of()), svc, AddressType.IPv4);
  }

  // TestReconcileEmpty
  @Test
  void reconcile_noPods_createsOnePlaceholderSlice() {
    Service svc = service("foo");
    FakeSlices c = run(reconciler(100), svc, List.of(), new FakeSlices(List.of()));
    assertThat(c.actions).containsExactly("create");
    EndpointSlice s = c.list().get(0);
    assertThat(s.metadata().name()).startsWith("foo");
    assertThat(s.metadata().labels()).containsEntry(EndpointSlice.LABEL_SERVICE_NAME, "foo");
    assertThat(s.ports()).isEmpty();
    assertThat(s.endpoints()).isEmpty();
  }

  // TestReconcile1Pod: one case per service variant
  @ParameterizedTest
  @CsvSource({
      "no-family-service, 10.0.0.10, , false, false, IPv4",
      "ipv4, , IPv4, true, false, IPv4",
      "ipv4-clusterip, 1.1.1.1, IPv4, false, false, IPv4",
      "ipv4-labels, , IPv4, true, true, IPv4",
      "ipv6, , IPv6, true, false, IPv6",
      "ipv6-clusterip, 1234::5678:0000:0000:9abc:def1, IPv6, false, false, IPv6",
  })
  void reconcile_onePod_writesOneEndpointWithZoneNodeAndLabels(String name, String clusterIp, String family,
      boolean headless, boolean labels, AddressType expectedType) {
    Service base = service("foo");
    ServiceSpec.Builder b = base.spec().toBuilder().clusterIP(clusterIp == null ? "" : clusterIp)
        .ipFamilies(family == null ? List.of() : List.of(IPFamily.valueOf(family)));
    Service svc = base.withSpec(b.build());
    if (labels) {
      svc = svc.withMetadata(svc.metadata().withLabels(Map.of("foo", "bar")));
    }
    Pod p1 = pod(1, true, false);
    p1 = new Pod(p1.metadata(), p1.spec().toBuilder().hostname("example-hostname").build(),
        p1.status().withPodIPs(List.of("1.2.3.4", "1234::5678:0000:0000:9abc:def0")));
    Node node1 = node("node-1", Map.of("topology.kubernetes.io/zone", "us-central1-a",
        "topology.kubernetes.io/region", "us-central1"));
    FakeSlices c = new FakeSlices(List.of());
    c.apply(reconciler(100).plan(svc, List.of(p1), n -> n.equals("node-1") ? node1 : null, List.of(), NOW));
    assertThat(c.actions).as(name).containsExactly("create");
    EndpointSlice s = c.list().get(0);
    assertThat(s.addressType()).isEqualTo(expectedType);
    String addr = expectedType == AddressType.IPv4 ? "1.2.3.4" : "1234::5678:0:0:9abc:def0";
    assertThat(s.endpoints()).containsExactly(new Endpoint(List.of(addr), EndpointConditions.of(true, true, false),
        "", new EndpointTargetRef("Pod", NS, "pod1", "uid-pod1"), "node-1", "us-central1-a", null));
    Map<String, String> want = new java.util.HashMap<>(Map.of(EndpointSlice.LABEL_MANAGED_BY,
        SliceRules.CONTROLLER_NAME, EndpointSlice.LABEL_SERVICE_NAME, "foo"));
    if (headless) {
      want.put(EndpointSlice.LABEL_HEADLESS, "");
    }
    if (labels) {
      want.put("foo", "bar");
    }
    assertThat(s.metadata().labels()).as(name).isEqualTo(want);
    assertThat(s.metadata().annotations()).containsEntry(EndpointSliceReconciler.TRIGGER_TIME_ANNOTATION,
        "2026-12-01T10:00:00.123456789Z");
    assertThat(s.metadata().ownerReferences()).containsExactly(new OwnerReference("v1", "Service", "foo",
        "test-foo", true, true));
  }

  // TestReconcile1Pod "ipv4-bad-labels": reserved keys on the Service are ignored
  @Test
  void reconcile_serviceWithReservedLabels_sliceKeepsControllerLabels() {
    Service svc = service("foo");
    svc = svc.withMetadata(svc.metadata().withLabels(Map.of(EndpointSlice.LABEL_SERVICE_NAME, "bad",
        EndpointSlice.LABEL_MANAGED_BY, "actor", EndpointSlice.LABEL_HEADLESS, "invalid")));
    FakeSlices c = run(reconciler(100), svc, List.of(pod(1, true, false)), new FakeSlices(List.of()));
    assertThat(c.list().get(0).metadata().labels()).isEqualTo(Map.of(EndpointSlice.LABEL_MANAGED_BY,
        SliceRules.CONTROLLER_NAME, EndpointSlice.LABEL_SERVICE_NAME, "foo", EndpointSlice.LABEL_HEADLESS, ""));
  }

  // TestReconcile1Pod "dualstack-service": one slice per family
  @Test
  void reconcile_dualStackService_writesOneSlicePerFamily() {
    Service base = service("foo");
    Service svc = base.withSpec(base.spec().toBuilder().clusterIP("10.0.0.10")
        .clusterIPs(List.of("10.0.0.10", "2000::1")).ipFamilies(List.of(IPFamily.IPv4, IPFamily.IPv6)).build());
    Pod p1 = pod(1, true, false);
    p1 = new Pod(p1.metadata(), p1.spec(), p1.status().withPodIPs(List.of("1.2.3.4",
        "1234::5678:0000:0000:9abc:def0")));
    FakeSlices c = run(reconciler(100), svc, List.of(p1), new FakeSlices(List.of()));
    assertThat(c.actions).containsExactly("create", "create");
    assertThat(c.list()).extracting(EndpointSlice::addressType).containsExactlyInAnyOrder(AddressType.IPv4,
        AddressType.IPv6);
    assertThat(c.list()).flatExtracting(s -> s.endpoints().get(0).addresses())
        .containsExactlyInAnyOrder("1.2.3.4", "1234::5678:0:0:9abc:def0");
  }

  // TestReconcile1EndpointSlice
  @Test
  void reconcile_noPodsAndSamePlaceholder_writesNothing() {
    Service svc = service("foo");
    EndpointSliceReconciler r = reconciler(100);
    // "No existing placeholder": one create
    FakeSlices c = run(r, svc, List.of(), new FakeSlices(List.of()));
    assertThat(c.actions).containsExactly("create");
    // "Existing placeholder that's the same": nothing written
    c.actions.clear();
    run(r, svc, List.of(), c);
    assertThat(c.actions).isEmpty();
    assertThat(c.list()).hasSize(1);
  }

  @Test
  void reconcile_noPodsAndDifferentPlaceholder_updatesIt() {
    Service svc = service("foo");
    EndpointSlice empty = emptySlice(1, svc, AddressType.IPv4, SliceFixtures.endpointMetaPorts("foo"));
    empty = empty.withMetadata(empty.metadata().withLabels(Map.of("bar", "baz")));
    FakeSlices c = run(reconciler(100), svc, List.of(), new FakeSlices(List.of(empty)));
    assertThat(c.actions).containsExactly("update");
    assertThat(c.list()).hasSize(1);
    assertThat(c.list().get(0).metadata().name()).isEqualTo("foo-1");
    assertThat(c.list().get(0).ports()).isEmpty();
  }

  // TestReconcile1EndpointSlicePublishNotReadyAddresses
  @Test
  void reconcile_publishNotReadyAddresses_everyEndpointReady() {
    Service base = service("foo");
    Service svc = base.withSpec(base.spec().toBuilder().publishNotReadyAddresses(true).build());
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      pods.add(pod(i, i % 3 != 0, false));
    }
    FakeSlices c = run(reconciler(100), svc, pods, new FakeSlices(List.of()));
    assertThat(c.actions).containsExactly("create");
    assertThat(c.lengths()).containsExactly(50);
    assertThat(c.list().get(0).endpoints()).allMatch(e -> Boolean.TRUE.equals(e.conditions().ready()));
    assertThat(c.list().get(0).endpoints()).filteredOn(e -> !e.conditions().isServing()).hasSize(17);
  }

  // TestReconcileManyPods
  @Test
  void reconcile_250Pods_threeCreates() {
    FakeSlices c = run(reconciler(100), service("foo"), pods(250), new FakeSlices(List.of()));
    assertThat(c.actions).containsExactly("create", "create", "create");
    assertThat(c.lengths()).containsExactlyInAnyOrder(100, 100, 50);
  }

  private static FakeSlices quarterSlices(Service svc, List<Pod> pods) {
    List<EndpointPort> ports = SliceFixtures.endpointMetaPorts("foo");
    EndpointSlice s1 = emptySlice(1, svc, AddressType.IPv4, ports);
    EndpointSlice s2 = emptySlice(2, svc, AddressType.IPv4, ports);
    List<Endpoint> e1 = new ArrayList<>();
    List<Endpoint> e2 = new ArrayList<>();
    for (int i = 1; i < pods.size() - 4; i += 4) {
      e1.add(endpointOf(pods.get(i), svc));
    }
    for (int i = 3; i < pods.size() - 4; i += 4) {
      e2.add(endpointOf(pods.get(i), svc));
    }
    return new FakeSlices(List.of(s1.withEndpoints(e1), s2.withEndpoints(e2)));
  }

  // TestReconcileEndpointSlicesSomePreexisting
  @Test
  void reconcile_someExisting_fillsClosestToFullSliceAndCreatesFullOnes() {
    Service svc = service("foo");
    List<Pod> pods = pods(250);
    FakeSlices c = quarterSlices(svc, pods);
    assertThat(c.lengths()).containsExactly(62, 61);
    run(reconciler(100), svc, pods, c);
    assertThat(c.actions).containsExactly("create", "update");
    assertThat(c.lengths()).containsExactlyInAnyOrder(89, 61, 100);
  }

  // TestReconcileEndpointSlicesSomePreexistingWorseAllocation
  @Test
  void reconcile_someExistingWorseAllocation_twoCreatesNotUpdates() {
    Service svc = service("foo");
    List<Pod> pods = pods(300);
    FakeSlices c = quarterSlices(svc, pods);
    run(reconciler(100), svc, pods, c);
    assertThat(c.actions).containsExactly("create", "create");
    assertThat(c.lengths()).containsExactlyInAnyOrder(74, 74, 100, 52);
  }

  // TestReconcileEndpointSlicesUpdating
  @Test
  void reconcile_targetPortChanges_updatesEverySliceInsteadOfRecreating() {
    Service svc = service("foo");
    List<Pod> pods = pods(250);
    EndpointSliceReconciler r = reconciler(100);
    FakeSlices c = run(r, svc, pods, new FakeSlices(List.of()));
    c.actions.clear();
    Service changed = svc.withSpec(svc.spec().toBuilder().ports(List.of(ServicePort.of("foo", 80, 81))).build());
    run(r, changed, pods, c);
    assertThat(c.actions).containsExactly("update", "update", "update");
    assertThat(c.lengths()).containsExactlyInAnyOrder(100, 100, 50);
    assertThat(c.list()).allMatch(s -> s.ports().equals(List.of(EndpointPort.of("foo", 81))));
  }

  // TestReconcileEndpointSlicesServicesLabelsUpdating
  @Test
  void reconcile_serviceLabelsChange_updatesEverySlice() {
    Service svc = service("foo");
    List<Pod> pods = pods(250);
    EndpointSliceReconciler r = reconciler(100);
    FakeSlices c = run(r, svc, pods, new FakeSlices(List.of()));
    c.actions.clear();
    run(r, svc.withMetadata(svc.metadata().withLabels(Map.of("foo", "bar"))), pods, c);
    assertThat(c.actions).containsExactly("update", "update", "update");
    assertThat(c.list()).allMatch(s -> "bar".equals(s.metadata().labels().get("foo")));
  }

  // TestReconcileEndpointSlicesServicesReservedLabels
  @Test
  void reconcile_serviceReservedLabelsChange_writesNothing() {
    Service svc = service("foo");
    List<Pod> pods = pods(250);
    EndpointSliceReconciler r = reconciler(100);
    FakeSlices c = run(r, svc, pods, new FakeSlices(List.of()));
    c.actions.clear();
    run(r, svc.withMetadata(svc.metadata().withLabels(Map.of(EndpointSlice.LABEL_SERVICE_NAME, "bad",
        EndpointSlice.LABEL_MANAGED_BY, "actor", EndpointSlice.LABEL_HEADLESS, "invalid"))), pods, c);
    assertThat(c.actions).isEmpty();
    assertThat(c.lengths()).containsExactlyInAnyOrder(100, 100, 50);
  }

  // TestReconcileEndpointSlicesRecycling
  @Test
  void reconcile_tenSmallSlicesThenPortChange_repacksIntoThreeWithTenWrites() {
    Service svc = service("foo");
    List<Pod> pods = pods(300);
    List<EndpointSlice> existing = new ArrayList<>();
    List<EndpointPort> ports = SliceFixtures.endpointMetaPorts("foo");
    for (int n = 0; n < 10; n++) {
      List<Endpoint> eps = new ArrayList<>();
      for (int i = n * 30; i < n * 30 + 30; i++) {
        eps.add(endpointOf(pods.get(i), svc));
      }
      existing.add(emptySlice(n, svc, AddressType.IPv4, ports).withEndpoints(eps));
    }
    FakeSlices c = new FakeSlices(existing);
    EndpointSliceReconciler r = reconciler(100);
    run(r, svc, pods, c);
    assertThat(c.actions).isEmpty();
    Service changed = svc.withSpec(svc.spec().toBuilder().ports(List.of(ServicePort.of("foo", 80, 81))).build());
    run(r, changed, pods, c);
    assertThat(c.actions).hasSize(10);
    assertThat(c.actions).filteredOn("update"::equals).hasSize(3);
    assertThat(c.actions).filteredOn("delete"::equals).hasSize(7);
    assertThat(c.lengths()).containsExactlyInAnyOrder(100, 100, 100);
  }

  // TestReconcileEndpointSlicesUpdatePacking
  @Test
  void reconcile_conditionChangesAndNewPods_newPodsGoToFullerUpdatedSlice() {
    Service svc = service("foo");
    List<EndpointPort> ports = SliceFixtures.endpointMetaPorts("foo");
    List<Pod> pods = new ArrayList<>();
    List<Endpoint> e1 = new ArrayList<>();
    for (int i = 0; i < 80; i++) {
      Pod p = pod(i, true, false);
      e1.add(endpointOf(p, svc));
      pods.add(p);
    }
    List<Endpoint> e2 = new ArrayList<>();
    for (int i = 100; i < 120; i++) {
      Pod p = pod(i, true, false);
      e2.add(endpointOf(p, svc));
      pods.add(p);
    }
    FakeSlices c = new FakeSlices(List.of(emptySlice(1, svc, AddressType.IPv4, ports).withEndpoints(e1),
        emptySlice(2, svc, AddressType.IPv4, ports).withEndpoints(e2)));
    for (int i = 0; i < pods.size(); i++) {
      if (i % 10 == 0) {
        pods.set(i, SliceFixtures.withReady(pods.get(i), false));
      }
    }
    for (int i = 200; i < 215; i++) {
      pods.add(pod(i, true, false));
    }
    run(reconciler(100), svc, pods, c);
    assertThat(c.actions).containsExactly("update", "update");
    assertThat(c.lengths()).containsExactlyInAnyOrder(95, 20);
  }

  // TestReconcileEndpointSlicesReplaceDeprecated
  @Test
  void reconcile_deprecatedIpSlices_replacedByIpv4Slices() {
    Service svc = service("foo");
    List<EndpointPort> ports = SliceFixtures.endpointMetaPorts("foo");
    List<Pod> pods = new ArrayList<>();
    List<Endpoint> e1 = new ArrayList<>();
    for (int i = 0; i < 80; i++) {
      pods.add(pod(i, true, false));
      e1.add(endpointOf(pods.get(pods.size() - 1), svc));
    }
    List<Endpoint> e2 = new ArrayList<>();
    for (int i = 100; i < 150; i++) {
      pods.add(pod(i, true, false));
      e2.add(endpointOf(pods.get(pods.size() - 1), svc));
    }
    FakeSlices c = new FakeSlices(List.of(emptySlice(1, svc, AddressType.IP, ports).withEndpoints(e1),
        emptySlice(2, svc, AddressType.IP, ports).withEndpoints(e2)));
    run(reconciler(100), svc, pods, c);
    assertThat(c.actions).filteredOn("delete"::equals).hasSize(2);
    assertThat(c.lengths()).containsExactlyInAnyOrder(100, 30);
    assertThat(c.list()).allMatch(s -> s.addressType() == AddressType.IPv4);
  }

  // TestReconcileEndpointSlicesRecreation
  @ParameterizedTest
  @CsvSource({"true, false", "false, true"})
  void reconcile_sliceOwnedByOtherUid_isRecreated(boolean ownedByService, boolean expectChanges) {
    Service svc = service("foo");
    Pod p = pod(1, true, false);
    EndpointSlice s = emptySlice(1, svc, AddressType.IPv4, SliceFixtures.endpointMetaPorts("foo"))
        .withEndpoints(List.of(endpointOf(p, svc)));
    if (!ownedByService) {
      OwnerReference o = s.metadata().ownerReferences().get(0);
      s = s.withMetadata(s.metadata().toBuilder().ownerReferences(List.of(new OwnerReference(o.apiVersion(),
          o.kind(), o.name(), "different", true, true))).build());
    }
    s = s.withMetadata(s.metadata().withLabels(SliceRules.sliceLabels(Map.of(), svc, SliceRules.CONTROLLER_NAME)
        .labels()));
    FakeSlices c = run(reconciler(100), svc, List.of(p), new FakeSlices(List.of(s)));
    if (expectChanges) {
      assertThat(c.actions).containsExactly("create", "delete");
      assertThat(c.list()).hasSize(1);
    } else {
      assertThat(c.actions).isEmpty();
    }
  }

  // TestReconcileEndpointSlicesNamedPorts
  @Test
  void reconcile_namedPortResolvingToFiveNumbers_fiveSlicesOfSixty() {
    Service svc = Service.of(ObjectMeta.builder().namespace(NS).name("named-port-example").uid("u").build(),
        ServiceSpec.builder().port(new ServicePort("", io.fleetkit.api.core.ServiceProtocol.TCP, 80,
            io.fleetkit.api.core.ServiceTargetPort.named("http"), null)).selector("foo", "bar")
            .ipFamilies(List.of(IPFamily.IPv4)).build());
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      pods.add(SliceFixtures.withNamedPort(pod(i, i % 3 != 0, false), "http", 8080 + i % 5));
    }
    FakeSlices c = run(reconciler(100), svc, pods, new FakeSlices(List.of()));
    assertThat(c.actions).containsExactly("create", "create", "create", "create", "create");
    assertThat(c.lengths()).containsExactly(60, 60, 60, 60, 60);
    assertThat(c.list()).extracting(s -> s.ports().get(0)).containsExactlyInAnyOrder(
        EndpointPort.of("", 8080), EndpointPort.of("", 8081), EndpointPort.of("", 8082), EndpointPort.of("", 8083),
        EndpointPort.of("", 8084));
    assertThat(c.list()).allMatch(s -> s.addressType() == AddressType.IPv4);
  }

  // TestReconcileMaxEndpointsPerSlice
  @ParameterizedTest
  @CsvSource({"50, 50;50;50;50;50", "80, 80;80;80;10", "150, 150;100", "250, 250", "500, 250"})
  void reconcile_maxEndpointsPerSlice_sliceSizes(int max, String lengths) {
    FakeSlices c = run(reconciler(max), service("foo"), pods(250), new FakeSlices(List.of()));
    Integer[] want = java.util.Arrays.stream(lengths.split(";")).map(Integer::valueOf).toArray(Integer[]::new);
    assertThat(c.lengths()).containsExactlyInAnyOrder(want);
  }

  // The create of a terminating Service is dropped, its delete kept (with the cases of
  // TestReconcilerFinalizeSvcDeletionTimestamp below)
  @Test
  void reconcile_serviceBeingDeleted_createsNothingButStillDeletes() {
    Service svc = service("foo");
    Service deleting = svc.withMetadata(svc.metadata().toBuilder().deletionTimestamp(NOW).build());
    SlicePlan plan = reconciler(100).plan(deleting, List.of(pod(1, true, false)), NODES, List.of(), NOW);
    assertThat(plan.creates()).isEmpty();
    EndpointSlice stale = emptySlice(9, svc, AddressType.IPv6, List.of());
    SlicePlan plan2 = reconciler(100).plan(deleting, List.of(), NODES, List.of(stale), NOW);
    assertThat(plan2.creates()).isEmpty();
    assertThat(plan2.deletes()).containsExactly(stale);
  }

  /** An owned IPv4 slice {@code name} with the controller's labels. */
  private static EndpointSlice ownedSlice(String name, Service svc, List<EndpointPort> ports, List<Endpoint> eps) {
    EndpointSlice s = emptySlice(0, svc, AddressType.IPv4, ports).withEndpoints(eps);
    return s.withMetadata(s.metadata().toBuilder().name(name)
        .labels(SliceRules.sliceLabels(Map.of(), svc, SliceRules.CONTROLLER_NAME).labels()).build());
  }

  // TestReconcilerFinalizeSvcDeletionTimestamp, through plan (FleetKit's finalizePlan is private): at most one
  // endpoint per slice; "to-update" holds pod1 as not ready while it is ready (an update); "to-delete" is always
  // there, holding pod3 as it is (left alone) or, when a delete is attempted, under the stale port 8080 (a delete);
  // pod2, when a create is attempted, needs a new slice. Then: whether a slice of a new name exists, whether
  // "to-update" exists (with pod1's one endpoint, ready), whether "to-delete" exists.
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "'Attempt create and update, nil deletion timestamp', false, true, true, false, true, true, true",
      "'Attempt create and update, deletion timestamp set', true, true, true, false, false, true, true",
      "'Attempt create, update, and delete, nil deletion timestamp, recycling in action', false, true, true, true,"
          + " false, true, true",
      "'Attempt create, update, and delete, deletion timestamp set, recycling in action', true, true, true, true,"
          + " false, true, true",
      "'Attempt update delete, deletion timestamp set', true, false, true, true, false, true, false",
  })
  void plan_serviceDeletionTimestamp_dropsCreatesOnlyAfterRecycling(String name, boolean deleting,
      boolean attemptCreate, boolean attemptUpdate, boolean attemptDelete, boolean expectCreated,
      boolean expectUpdated, boolean expectDeleted) {
    Service svc = service("foo");
    if (deleting) {
      svc = svc.withMetadata(svc.metadata().toBuilder().deletionTimestamp(NOW).build());
    }
    List<EndpointPort> ports = SliceFixtures.endpointMetaPorts("foo");
    Pod p1 = pod(1, true, false);
    List<Pod> pods = new ArrayList<>(List.of(p1));
    List<EndpointSlice> existing = new ArrayList<>();
    Endpoint p1Now = SliceRules.podToEndpoint(p1, NODE1, svc, AddressType.IPv4);
    Endpoint p1Stale = SliceRules.podToEndpoint(SliceFixtures.withReady(p1, false), NODE1, svc, AddressType.IPv4);
    existing.add(ownedSlice("to-update", svc, ports, List.of(attemptUpdate ? p1Stale : p1Now)));
    Pod p3 = pod(3, true, false);
    if (attemptDelete) {
      existing.add(ownedSlice("to-delete", svc, List.of(EndpointPort.of("foo", 8080)),
          List.of(SliceRules.podToEndpoint(p3, NODE1, svc, AddressType.IPv4))));
    } else {
      pods.add(p3);
      existing.add(ownedSlice("to-delete", svc, ports, List.of(SliceRules.podToEndpoint(p3, NODE1, svc,
          AddressType.IPv4))));
    }
    if (attemptCreate) {
      pods.add(pod(2, true, false));
    }
    FakeSlices c = new FakeSlices(existing);
    SlicePlan plan = reconciler(1).plan(svc, pods, NODES, c.list(), NOW);
    c.apply(plan);

    assertThat(plan.errors()).as(name).isEmpty();
    assertThat(c.slices.keySet().stream().anyMatch(n -> !n.equals("to-update") && !n.equals("to-delete")))
        .as(name + ": created").isEqualTo(expectCreated);
    assertThat(c.slices.containsKey("to-update")).as(name + ": updated").isEqualTo(expectUpdated);
    if (attemptUpdate) {
      assertThat(c.slices.get("to-update").endpoints()).as(name).containsExactly(p1Now);
    }
    assertThat(c.slices.containsKey("to-delete")).as(name + ": deleted").isEqualTo(expectDeleted);
    if (attemptCreate && attemptDelete) {
      assertThat(c.slices.get("to-delete").endpoints()).as(name + ": recycled")
          .extracting(e -> e.targetRef().name()).containsExactly("pod2");
    }
  }

  // TestReconcilerPodMissingNode: pod0 on node-0, pod1 on node-1; the known nodes, an existing slice holding both
  // endpoints or none, then the error, the endpoints kept and the writes (upstream's metrics as write counts)
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "Create and publishNotReady false, false, node-0, false, true, 1, create",
      "Create and publishNotReady true, true, node-0, false, false, 2, create",
      "Update and publishNotReady false, false, node-0, true, true, 1, update",
      "Update and publishNotReady true and all nodes missing, true, , true, false, 2, ''",
      "Update and publishNotReady true, true, node-0, true, false, 2, ''",
      "Update if publishNotReady false and no nodes are present, false, , true, true, 0, update",
  })
  void reconcile_podOnMissingNode_skippedWithErrorUnlessPublishNotReady(String name, boolean publishNotReady,
      String knownNode, boolean existingSlice, boolean wantErr, int wantEndpoints, String wantAction) {
    Service base = service("foo");
    Service svc = base.withSpec(base.spec().toBuilder().publishNotReadyAddresses(publishNotReady).build());
    Pod p0 = pod(0, true, false);
    p0 = new Pod(p0.metadata(), p0.spec().withNodeName("node-0"), p0.status());
    Pod p1 = pod(1, true, false);
    List<Pod> pods = List.of(p0, p1);
    Node n0 = node("node-0", Map.of());
    Function<String, Node> nodes = n -> knownNode != null && n.equals(knownNode) ? n0 : null;
    List<EndpointSlice> existing = List.of();
    if (existingSlice) {
      EndpointSlice s = emptySlice(1, svc, AddressType.IPv4, SliceFixtures.endpointMetaPorts("foo"))
          .withEndpoints(List.of(SliceRules.podToEndpoint(p0, n0, svc, AddressType.IPv4),
              SliceRules.podToEndpoint(p1, node("node-1", Map.of()), svc, AddressType.IPv4)));
      existing = List.of(s.withMetadata(s.metadata().withLabels(
          SliceRules.sliceLabels(Map.of(), svc, SliceRules.CONTROLLER_NAME).labels())));
    }
    FakeSlices c = new FakeSlices(existing);
    SlicePlan plan = reconciler(100).plan(svc, pods, nodes, c.list(), NOW);
    c.apply(plan);
    assertThat(plan.errors().isEmpty()).isEqualTo(!wantErr);
    if (wantErr) {
      assertThat(plan.errors()).contains("skipping Pod pod1 for Service test/foo: Node node-1 Not Found");
    }
    assertThat(c.actions).isEqualTo(wantAction.isEmpty() ? List.of() : List.of(wantAction));
    assertThat(c.list()).hasSize(1);
    assertThat(c.list().get(0).endpoints()).hasSize(wantEndpoints);
  }

  // TestReconcileHeadlessServiceNoPorts
  @Test
  void reconcile_headlessWithoutPorts_secondSyncWritesNothing() {
    Service svc = Service.of(ObjectMeta.builder().namespace(NS).name("headless-no-ports").uid("test-uid").build(),
        ServiceSpec.builder().headless().selector("foo", "bar").ipFamilies(List.of(IPFamily.IPv4)).build());
    EndpointSliceReconciler r = reconciler(100);
    FakeSlices c = run(r, svc, List.of(pod(1, true, false)), new FakeSlices(List.of()));
    assertThat(c.actions).containsExactly("create");
    assertThat(c.list().get(0).ports()).isEmpty();
    c.actions.clear();
    run(r, svc, List.of(pod(1, true, false)), c);
    assertThat(c.actions).isEmpty();
  }

  // TestReconcile_TrafficDistribution (PreferClose: ready endpoints hinted for their zone)
  @Test
  void reconcile_preferClose_readyEndpointsHintedForOwnZone() {
    Service base = service("foo");
    Service svc = base.withSpec(base.spec().toBuilder().trafficDistribution("PreferClose").build());
    Node za = node("node-1", Map.of("topology.kubernetes.io/zone", "zone-a"));
    List<Pod> pods = List.of(pod(1, true, false), pod(2, false, false));
    SlicePlan plan = reconciler(100).plan(svc, pods, n -> za, List.of(), NOW);
    List<Endpoint> eps = plan.creates().get(0).endpoints();
    assertThat(eps).filteredOn(e -> e.conditions().isReady())
        .allMatch(e -> e.hints() != null && e.hints().forZones().equals(List.of("zone-a")));
    assertThat(eps).filteredOn(e -> !e.conditions().isReady()).allMatch(e -> e.hints() == null);
    // unsetting trafficDistribution removes hints from the slices it rewrites
    Service plain = svc.withSpec(svc.spec().toBuilder().trafficDistribution("").build());
    FakeSlices c = new FakeSlices(plan.creates());
    c.apply(reconciler(100).plan(plain, List.of(pod(1, true, false)), n -> za, c.list(), NOW));
    assertThat(c.list().get(0).endpoints()).allMatch(e -> e.hints() == null);
  }
}
