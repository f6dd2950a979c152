package io.fleetkit.networking.loadbalancer;

import static io.fleetkit.networking.loadbalancer.LoadBalancerFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.LoadBalancerIngress;
import io.fleetkit.api.core.LoadBalancerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceStatus;
import io.fleetkit.api.core.ServiceTrafficPolicy;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.networking.loadbalancer.RecordingProvider.Call;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The service controller on a store, stepping, with a recording cloud. Ported from kubernetes
 * {@code staging/src/k8s.io/cloud-provider/controllers/service/controller_test.go}: TestSyncLoadBalancerIfNeeded,
 * TestNodeChangesForStableNodeSetEnabled, TestUpdateNodesInExternalLoadBalancer, TestNodeChangesInExternalLoadBalancer,
 * TestNodesNotEqual, TestProcessServiceCreateOrUpdate, TestProcessServiceDeletion, TestServiceQueueDelay,
 * TestAddFinalizer, TestRemoveFinalizer and TestPatchStatus. Upstream calls the controller's functions on a fake
 * clientset; here the same inputs go through the store and the controller's queue, and a "patch" is a write to the
 * Service (the store's resource version moves by one).
 */
final class ServiceLoadBalancerControllerTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock).build();
  private final RecordingProvider cloud = new RecordingProvider();
  private final List<String> events = new ArrayList<>();
  private final ServiceLoadBalancerController controller = ServiceLoadBalancerController.builder(store)
      .provider(cloud).clock(clock).stepping()
      .events((regarding, related, type, reason, action, note) -> events.add(type + " " + reason + ": " + note))
      .build();

  @AfterEach
  void close() {
    controller.close();
    store.close();
  }

  private long version() {
    return Long.parseLong(store.resourceVersion());
  }

  private void start() {
    controller.start().join();
    controller.runUntilIdle();
  }

  private Service stored(Service s) {
    return store.get(Service.class, s.metadata().namespace(), s.metadata().name()).orElseThrow();
  }

  private Service create(Service s) {
    Service created = store.create(s);
    if (s.status().loadBalancer() != null && created.status().loadBalancer() == null) {
      created = store.updateStatus(created.withStatus(s.status()));
    }
    return created;
  }

  static Stream<Arguments> syncLoadBalancerIfNeeded() {
    String f = Service.LOAD_BALANCER_CLEANUP_FINALIZER;
    return Stream.of(
        // desc, service, lbExists, create, delete, status write, finalizer write
        Arguments.of("service doesn't want LB", service("no-external-balancer", ServiceType.ClusterIP), false,
            false, false, false, false),
        Arguments.of("udp service that wants LB", service("udp-service", ServiceType.LoadBalancer,
            ports(ServiceProtocol.UDP, 0)), false, true, false, true, true),
        Arguments.of("tcp service that wants LB", service("basic-service1", ServiceType.LoadBalancer), false, true,
            false, true, true),
        Arguments.of("sctp service that wants LB", service("sctp-service", ServiceType.LoadBalancer,
            ports(ServiceProtocol.SCTP, 0)), false, true, false, true, true),
        Arguments.of("service specifies loadBalancerClass", service("with-external-balancer",
            ServiceType.LoadBalancer, lbClass("example.com/custom-loadbalancer")), false, false, false, false, false),
        Arguments.of("service with finalizer that no longer wants LB", service("no-external-balancer",
            ServiceType.ClusterIP, ingress("8.8.8.8"), finalizers(f)), true, false, true, true, true),
        Arguments.of("service with finalizer that wants LB", service("basic-service1", ServiceType.LoadBalancer,
            finalizers(f)), false, true, false, true, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void syncLoadBalancerIfNeeded(String desc, Service service, boolean lbExists, boolean expectCreate,
      boolean expectDelete, boolean expectStatus, boolean expectFinalizer) {
    create(service);
    cloud.exists = lbExists;
    long before = version();
    start();

    assertThat(cloud.calls.contains("create")).as("create call").isEqualTo(expectCreate);
    assertThat(cloud.calls.contains("delete")).as("delete call").isEqualTo(expectDelete);
    if (!expectCreate && !expectDelete) {
      assertThat(cloud.calls).as("cloud calls").isEmpty();
    }
    if (expectCreate) {
      // the balancer made for the Service, with its port
      Service now = stored(service);
      assertThat(cloud.balancers).containsExactly(LoadBalancerProvider.defaultName(now));
      assertThat(now.spec().ports().get(0).port()).isEqualTo(80);
    }
    assertThat(version() - before).as("writes").isEqualTo((expectStatus ? 1 : 0) + (expectFinalizer ? 1 : 0));
    Service now = stored(service);
    assertThat(now.metadata().finalizers().contains(Service.LOAD_BALANCER_CLEANUP_FINALIZER))
        .isEqualTo(expectCreate);
    if (expectCreate) {
      assertThat(now.status().loadBalancer()).isEqualTo(new LoadBalancerStatus(List.of(LoadBalancerIngress.ofIp(
          "1.2.3.4"))));
    }
  }

  /**
   * "service that needs cleanup": the load balancer is deleted and the finalizer removed. Upstream also patches the
   * status (its fake clientset keeps a Service whose last finalizer went); the store removes the Service with its last
   * finalizer, so there is no status left to write. With a second finalizer, which keeps the Service, both writes are
   * made, as upstream's.
   */
  @Test
  void syncLoadBalancerIfNeeded_serviceThatNeedsCleanup_deletesAndRemovesFinalizer() {
    Service s = create(service("basic-service1", ServiceType.LoadBalancer, ingress("8.8.8.8"),
        finalizers(Service.LOAD_BALANCER_CLEANUP_FINALIZER)));
    store.delete(Service.class, NS, "basic-service1");
    cloud.exists = true;
    long before = version();
    start();
    assertThat(cloud.calls).containsExactly("delete");
    assertThat(version() - before).as("writes: the finalizer's removal, which removes the Service").isEqualTo(1);
    assertThat(store.get(Service.class, NS, "basic-service1")).isEmpty();
    assertThat(events).contains("Normal DeletingLoadBalancer: Deleting load balancer",
        "Normal DeletedLoadBalancer: Deleted load balancer");
    assertThat(s.metadata().finalizers()).contains(Service.LOAD_BALANCER_CLEANUP_FINALIZER);
  }

  @Test
  void syncLoadBalancerIfNeeded_serviceThatNeedsCleanupKeptByAnotherFinalizer_statusAndFinalizerWrites() {
    create(service("basic-service1", ServiceType.LoadBalancer, ingress("8.8.8.8"),
        finalizers(Service.LOAD_BALANCER_CLEANUP_FINALIZER, "example.com/keep")));
    store.delete(Service.class, NS, "basic-service1");
    cloud.exists = true;
    long before = version();
    start();
    assertThat(cloud.calls).containsExactly("delete");
    assertThat(version() - before).isEqualTo(2);
    Service now = store.get(Service.class, NS, "basic-service1").orElseThrow();
    assertThat(now.metadata().finalizers()).containsExactly("example.com/keep");
    assertThat(now.status().loadBalancer()).isNull();
  }

  // TestNodeChangesForStableNodeSetEnabled

  private static final Node NODE1 = node(name("node1"), ready(true));
  private static final Node NODE2 = node(name("node2"), ready(true));
  private static final Node NODE3 = node(name("node3"), ready(true));
  private static final Node NODE2_NOT_READY = node(name("node2"), ready(false));
  private static final Node NODE2_TAINTED = node(name("node2"), taint(LoadBalancerRules.TO_BE_DELETED_TAINT),
      ready(true));
  private static final Node NODE2_SPURIOUS = node(name("node2"), taint("Other"), ready(true));
  private static final Node NODE2_EXCLUDE = node(name("node2"),
      label(Node.LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS, ""), ready(true));

  private static List<Service> stableSetServices() {
    return List.of(service("s0", ServiceType.LoadBalancer, etp(ServiceTrafficPolicy.Local)),
        service("s1", ServiceType.LoadBalancer, etp(ServiceTrafficPolicy.Local)), externalService());
  }

  /** Puts the nodes of {@code state} in the store: creates, updates and deletes. */
  private void nodes(List<Node> state) {
    List<String> names = state.stream().map(Node::name).toList();
    for (Node n : store.list(Node.class).items()) {
      if (!names.contains(n.name())) {
        store.delete(Node.class, "", n.name());
      }
    }
    for (Node n : state) {
      Node cur = store.get(Node.class, "", n.name()).orElse(null);
      if (cur == null) {
        store.create(n);
      } else if (n.metadata().deletionTimestamp() != null) {
        store.delete(Node.class, "", n.name()); // kept by its finalizer, marked
      } else {
        Node next = store.update(n.withMetadata(n.metadata().toBuilder()
            .resourceVersion(cur.metadata().resourceVersion()).finalizers(cur.metadata().finalizers()).build()));
        store.updateStatus(next.withStatus(n.status()));
      }
    }
  }

  static Stream<Arguments> nodeChangesForStableNodeSet() {
    Node node2Deleted = node(name("node2"), deleted());
    List<String> all = List.of("node1", "node2", "node3");
    List<String> oneThree = List.of("node1", "node3");
    return Stream.of(
        Arguments.of("No node changes", List.of(NODE1, NODE2, NODE3), List.of(List.of(NODE1, NODE2, NODE3)), false,
            List.of()),
        Arguments.of("1 new node gets added", List.of(NODE1, NODE2), List.of(List.of(NODE1, NODE2, NODE3)), false,
            all),
        Arguments.of("1 new node gets added - with retries", List.of(NODE1, NODE2),
            List.of(List.of(NODE1, NODE2, NODE3), List.of(NODE1, NODE2, NODE3)), true, all),
        Arguments.of("1 node goes NotReady", List.of(NODE1, NODE2, NODE3),
            List.of(List.of(NODE1, NODE2_NOT_READY, NODE3)), false, List.of()),
        Arguments.of("1 node gets Tainted", List.of(NODE1, NODE2, NODE3),
            List.of(List.of(NODE1, NODE2_TAINTED, NODE3)), false, oneThree),
        Arguments.of("1 node goes Ready", List.of(NODE1, NODE2_NOT_READY, NODE3),
            List.of(List.of(NODE1, NODE2, NODE3)), false, List.of()),
        Arguments.of("1 node get excluded", List.of(NODE1, NODE2, NODE3),
            List.of(List.of(NODE1, NODE2_EXCLUDE, NODE3)), false, oneThree),
        Arguments.of("1 old node gets deleted", List.of(NODE1, NODE2, NODE3), List.of(List.of(NODE1, NODE2)), false,
            List.of("node1", "node2")),
        Arguments.of("1 node marked for deletion", List.of(NODE1, NODE2, NODE3),
            List.of(List.of(NODE1, node2Deleted, NODE3)), false, oneThree),
        Arguments.of("1 spurious node update", List.of(NODE1, NODE2, NODE3),
            List.of(List.of(NODE1, NODE2_SPURIOUS, NODE3)), false, List.of()));
  }

  /**
   * Each state change, then the node sync upstream's test runs ({@code updateLoadBalancerHosts}, here
   * {@link ServiceLoadBalancerController#syncNodes}); the first state change fails every cloud call when
   * {@code firstFails}. Node 2 carries a finalizer so that its deletion marks it.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource
  void nodeChangesForStableNodeSet(String desc, List<Node> initial, List<List<Node>> changes, boolean firstFails,
      List<String> expectedHosts) {
    nodes(withFinalizerOnNode2(initial));
    stableSetServices().forEach(store::create);
    start();
    assertThat(cloud.ensureCalls).hasSize(3);
    cloud.clear();
    for (int i = 0; i < changes.size(); i++) {
      cloud.err = firstFails && i == 0 ? new LoadBalancerException("error please") : null;
      nodes(withFinalizerOnNode2(changes.get(i)));
      controller.syncNodes();
      controller.runUntilIdle();
      cloud.err = null;
    }
    List<Call> expected = expectedHosts.isEmpty() ? List.of() : List.of(new Call(NS + "/s0", expectedHosts),
        new Call(NS + "/s1", expectedHosts), new Call(NS + "/external-balancer", expectedHosts));
    assertThat(cloud.updateCalls).containsExactlyInAnyOrderElementsOf(expected);
    if (firstFails) {
      // upstream adds the Services whose update failed to its queue again at once: each is synced whole, which fails
      // too while the cloud does, and is retried after the backoff, with every node
      assertThat(events).filteredOn(e -> e.startsWith("Warning UpdateLoadBalancerFailed")).hasSize(3);
      assertThat(events).filteredOn(e -> e.startsWith("Warning SyncLoadBalancerFailed")).hasSize(3);
      assertThat(cloud.ensureCalls).hasSize(3);
      clock.advance(ServiceLoadBalancerController.MIN_RETRY_DELAY);
      controller.runUntilIdle();
      assertThat(cloud.ensureCalls).hasSize(6);
      assertThat(cloud.ensureCalls.subList(3, 6)).allSatisfy(c -> assertThat(c.hosts()).isEqualTo(expectedHosts));
      assertThat(cloud.updateCalls).as("no update after the retries").hasSize(3);
    }
  }

  private static List<Node> withFinalizerOnNode2(List<Node> nodes) {
    return nodes.stream().map(n -> n.name().equals("node2") ? n.withMetadata(n.metadata().toBuilder()
        .finalizers(List.of("example.com/keep")).build()) : n).toList();
  }

  // TestUpdateNodesInExternalLoadBalancer: Services synced before any node; the three nodes then come

  static Stream<Arguments> updateNodesInExternalLoadBalancer() {
    return Stream.of(
        Arguments.of("No services present: no calls should be made.", List.of(), List.of()),
        Arguments.of("Services do not have external load balancers: no calls should be made.",
            List.of(service("s0", ServiceType.ClusterIP), service("s1", ServiceType.NodePort)), List.of()),
        Arguments.of("Services does have an external load balancer: one call should be made.",
            List.of(service("s0", ServiceType.LoadBalancer)), List.of("s0")),
        Arguments.of("Three services have an external load balancer: three calls.",
            List.of(service("s0", ServiceType.LoadBalancer), service("s1", ServiceType.LoadBalancer),
                service("s2", ServiceType.LoadBalancer)), List.of("s0", "s1", "s2")),
        Arguments.of("Two services have an external load balancer and two don't: two calls.",
            List.of(service("s0", ServiceType.NodePort), service("s1", ServiceType.LoadBalancer),
                service("s3", ServiceType.LoadBalancer), service("s4", ServiceType.ClusterIP)), List.of("s1", "s3")),
        Arguments.of("Four services have external load balancer with only 2 workers",
            List.of(service("s0", ServiceType.LoadBalancer), service("s1", ServiceType.LoadBalancer),
                service("s3", ServiceType.LoadBalancer), service("s4", ServiceType.LoadBalancer)),
            List.of("s0", "s1", "s3", "s4")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void updateNodesInExternalLoadBalancer(String desc, List<Service> services, List<String> expected) {
    services.forEach(store::create);
    start();
    assertThat(events).filteredOn(e -> e.startsWith("Warning UnAvailableLoadBalancer")).hasSize(expected.size());
    cloud.clear();
    nodes(List.of(node(name("node1")), node(name("node2")), node(name("node3"))));
    controller.runUntilIdle();
    assertThat(cloud.updateCalls).containsExactlyInAnyOrderElementsOf(expected.stream()
        .map(s -> new Call(NS + "/" + s, List.of("node1", "node2", "node3"))).toList());
  }

  // TestNodeChangesInExternalLoadBalancer: one controller, the node lists one after the other

  @Test
  void nodeChangesInExternalLoadBalancer_nodesAdded_everyBalancerUpdatedEachTime() {
    List<String> names = List.of("s0", "s1", "s3", "s4");
    names.forEach(n -> store.create(service(n, ServiceType.LoadBalancer)));
    start();
    List<List<String>> steps = List.of(List.of("node1"), List.of("node1", "node2"),
        List.of("node1", "node2", "node3", "node4"));
    for (List<String> step : steps) {
      cloud.clear();
      nodes(step.stream().map(n -> node(name(n))).toList());
      controller.runUntilIdle();
      assertThat(cloud.updateCalls).as("%s", step)
          .containsExactlyInAnyOrderElementsOf(names.stream().map(s -> new Call(NS + "/" + s, step)).toList());
    }
  }

  // TestNodesNotEqual

  @Test
  void nodesNotEqual_providerIdsSet_updated() {
    nodes(List.of(node(name("node1"), providerId("")), node(name("node2"), providerId(""))));
    store.create(service("s0", ServiceType.LoadBalancer));
    store.create(service("s1", ServiceType.LoadBalancer));
    start();
    cloud.clear();
    nodes(List.of(node(name("node1"), providerId("cumulus/1")), node(name("node2"), providerId("cumulus/2"))));
    controller.runUntilIdle();
    assertThat(cloud.updateCalls).containsExactlyInAnyOrder(new Call(NS + "/s0", List.of("node1", "node2")),
        new Call(NS + "/s1", List.of("node1", "node2")));
  }

  @Test
  void nodesNotEqual_nodesUnchanged_noUpdate() {
    nodes(List.of(node(name("node1"), providerId("cumulus/1")), node(name("node2"), providerId(""))));
    store.create(service("s0", ServiceType.LoadBalancer));
    store.create(service("s1", ServiceType.LoadBalancer));
    start();
    cloud.clear();
    controller.syncNodes();
    controller.runUntilIdle();
    assertThat(cloud.updateCalls).isEmpty();
  }

  @Test
  void nodesNotEqual_nodeWithEmptyProviderIdReplaced_updated() {
    nodes(List.of(node(name("node1"), providerId("cumulus/1")), node(name("node2"), providerId(""))));
    store.create(service("s0", ServiceType.LoadBalancer));
    store.create(service("s1", ServiceType.LoadBalancer));
    start();
    cloud.clear();
    nodes(List.of(node(name("node1"), providerId("cumulus/1")), node(name("node3"))));
    controller.runUntilIdle();
    assertThat(cloud.updateCalls).contains(new Call(NS + "/s0", List.of("node1", "node3")),
        new Call(NS + "/s1", List.of("node1", "node3")));
    assertThat(cloud.updateCalls.get(cloud.updateCalls.size() - 1).hosts()).containsExactly("node1", "node3");
  }

  // TestProcessServiceCreateOrUpdate: "If Updating Loadbalancer IP"

  @Test
  void processServiceCreateOrUpdate_loadBalancerIpChanged_ensuredAgain() {
    Service s = store.create(service("sync-test-name", ServiceType.LoadBalancer,
        spec(b -> b.loadBalancerIP("192.168.1.1"))));
    start();
    assertThat(cloud.ensureCalls).hasSize(1);
    Service cur = stored(s);
    store.update(cur.withSpec(cur.spec().toBuilder().loadBalancerIP("192.168.1.11").build()));
    controller.runUntilIdle();
    assertThat(cloud.ensureCalls).hasSize(2);
    // a change the rules leave out (a label) syncs nothing
    cur = stored(s);
    store.update(cur.withMetadata(cur.metadata().toBuilder().label("team", "a").build()));
    controller.runUntilIdle();
    assertThat(cloud.ensureCalls).hasSize(2);
  }

  // TestProcessServiceDeletion

  /** A synced Service whose finalizer someone removed, then deleted: the deletion path of the cache. */
  private Service syncedThenDeletedWithoutFinalizer() {
    store.create(externalService());
    start();
    Service cur = stored(externalService());
    store.update(cur.withMetadata(cur.metadata().toBuilder().finalizers(List.of()).build()));
    controller.runUntilIdle();
    cloud.clear();
    store.delete(Service.class, NS, "external-balancer");
    return cur;
  }

  @Test
  void processServiceDeletion_nonExistentService_nothing() {
    start();
    controller.controller().enqueue(io.fleetkit.reconcile.ObjectKey.of(NS, "external-balancer"));
    controller.runUntilIdle();
    assertThat(cloud.calls).isEmpty();
  }

  @Test
  void processServiceDeletion_cloudFailsToDelete_warningAndRetry() {
    syncedThenDeletedWithoutFinalizer();
    cloud.err = new LoadBalancerException("error Deleting the Loadbalancer");
    controller.runUntilIdle();
    assertThat(cloud.calls).containsExactly("delete");
    assertThat(events).contains("Warning DeleteLoadBalancerFailed: Error deleting load balancer: error Deleting the"
        + " Loadbalancer");
    cloud.err = null;
    clock.advance(ServiceLoadBalancerController.MIN_RETRY_DELAY);
    controller.runUntilIdle();
    assertThat(cloud.calls).containsExactly("delete", "delete");
    assertThat(cloud.balancers).isEmpty();
  }

  @Test
  void processServiceDeletion_deleteSucceeds_forgotten() {
    syncedThenDeletedWithoutFinalizer();
    controller.runUntilIdle();
    assertThat(cloud.calls).containsExactly("delete");
    assertThat(cloud.balancers).isEmpty();
    // forgotten: another node change updates nothing
    nodes(List.of(NODE1));
    controller.runUntilIdle();
    assertThat(cloud.calls).containsExactly("delete");
  }

  // TestServiceQueueDelay

  @Test
  void serviceQueueDelay_processingSuccessful_noRequeue() {
    store.create(externalService());
    start();
    clock.advance(ServiceLoadBalancerController.MAX_RETRY_DELAY);
    controller.runUntilIdle();
    assertThat(cloud.ensureCalls).hasSize(1);
  }

  @Test
  void serviceQueueDelay_regularError_requeuedWithBackoff() {
    cloud.err = new LoadBalancerException("something went wrong");
    store.create(externalService());
    start();
    assertThat(cloud.ensureCalls).hasSize(1);
    assertThat(events).contains("Warning SyncLoadBalancerFailed: Error syncing load balancer: something went wrong");
    clock.advance(ServiceLoadBalancerController.MIN_RETRY_DELAY.minusMillis(1));
    controller.runUntilIdle();
    assertThat(cloud.ensureCalls).hasSize(1);
    clock.advance(Duration.ofMillis(1));
    controller.runUntilIdle();
    assertThat(cloud.ensureCalls).as("retried after 5 s").hasSize(2);
    clock.advance(ServiceLoadBalancerController.MIN_RETRY_DELAY);
    controller.runUntilIdle();
    assertThat(cloud.ensureCalls).as("then after 10 s").hasSize(2);
    clock.advance(ServiceLoadBalancerController.MIN_RETRY_DELAY);
    controller.runUntilIdle();
    assertThat(cloud.ensureCalls).hasSize(3);
  }

  @Test
  void serviceQueueDelay_retryError_requeuedAfterItsDelay() {
    cloud.err = new LoadBalancerException("LB create in progress", Duration.ofSeconds(42));
    store.create(externalService());
    start();
    clock.advance(Duration.ofSeconds(41));
    controller.runUntilIdle();
    assertThat(cloud.ensureCalls).hasSize(1);
    cloud.err = null;
    clock.advance(Duration.ofSeconds(1));
    controller.runUntilIdle();
    assertThat(cloud.ensureCalls).hasSize(2);
    assertThat(stored(externalService()).status().loadBalancer()).isNotNull();
  }

  // TestAddFinalizer, TestRemoveFinalizer

  @Test
  void addFinalizer_presentOrAbsent_writesOnlyWhenAbsent() {
    Service with = store.create(service("a", ServiceType.LoadBalancer,
        finalizers(Service.LOAD_BALANCER_CLEANUP_FINALIZER)));
    Service without = store.create(service("b", ServiceType.LoadBalancer));
    long v = version();
    ServiceLoadBalancerController.addFinalizer(store, with);
    assertThat(version()).as("no-op add finalizer").isEqualTo(v);
    Service added = ServiceLoadBalancerController.addFinalizer(store, without);
    assertThat(version()).as("add finalizer").isEqualTo(v + 1);
    assertThat(added.metadata().finalizers()).containsExactly(Service.LOAD_BALANCER_CLEANUP_FINALIZER);
  }

  @Test
  void removeFinalizer_absentOrPresent_writesOnlyWhenPresent() {
    Service without = store.create(service("a", ServiceType.LoadBalancer));
    Service with = store.create(service("b", ServiceType.LoadBalancer,
        finalizers(Service.LOAD_BALANCER_CLEANUP_FINALIZER)));
    long v = version();
    ServiceLoadBalancerController.removeFinalizer(store, without);
    assertThat(version()).as("no-op remove finalizer").isEqualTo(v);
    Service removed = ServiceLoadBalancerController.removeFinalizer(store, with);
    assertThat(version()).as("remove finalizer").isEqualTo(v + 1);
    assertThat(removed).isNotNull();
    assertThat(removed.metadata().finalizers()).isEmpty();
  }

  // TestPatchStatus: the status is written only when it changed (LoadBalancerStatusEqual)

  static Stream<Arguments> patchStatus() {
    LoadBalancerStatus dns = new LoadBalancerStatus(List.of(LoadBalancerIngress.ofIp("8.8.8.8")));
    LoadBalancerStatus empty = new LoadBalancerStatus(List.of());
    return Stream.of(
        Arguments.of("no-op add status", dns, dns, false),
        Arguments.of("add status", null, dns, true),
        Arguments.of("no-op clear status", null, empty, false),
        Arguments.of("clear status", dns, empty, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void patchStatus(String desc, LoadBalancerStatus before, LoadBalancerStatus after, boolean expectPatch) {
    assertThat(!LoadBalancerRules.statusEqual(before, after)).isEqualTo(expectPatch);
  }

  // beyond upstream's table: the whole life of a Service on the controller

  @Test
  void lifecycle_typeChangedBackAndDeleted_loadBalancerFollowsAndFinalizerGoes() {
    nodes(List.of(NODE1, NODE2));
    Service s = store.create(externalService());
    start();
    assertThat(cloud.ensureCalls).containsExactly(new Call(NS + "/external-balancer", List.of("node1", "node2")));
    assertThat(events).containsExactly("Normal EnsuringLoadBalancer: Ensuring load balancer",
        "Normal EnsuredLoadBalancer: Ensured load balancer");
    Service cur = stored(s);
    store.update(cur.withSpec(cur.spec().toBuilder().type(ServiceType.ClusterIP).build()));
    controller.runUntilIdle();
    assertThat(cloud.calls).containsExactly("create", "delete");
    cur = stored(s);
    assertThat(cur.metadata().finalizers()).isEmpty();
    assertThat(cur.status()).isEqualTo(ServiceStatus.EMPTY);
    store.update(cur.withSpec(cur.spec().toBuilder().type(ServiceType.LoadBalancer).build()));
    controller.runUntilIdle();
    assertThat(cloud.calls).containsExactly("create", "delete", "create");
    store.delete(Service.class, NS, "external-balancer");
    controller.runUntilIdle();
    assertThat(cloud.calls).containsExactly("create", "delete", "create", "delete");
    assertThat(store.get(Service.class, NS, "external-balancer")).isEmpty();
    assertThat(cloud.balancers).isEmpty();
  }

  /** A Service being deleted that another finalizer keeps, and never got ours: no load balancer, no error loop. */
  @Test
  void serviceBeingDeletedWithoutTheFinalizer_noLoadBalancerNoRetries() {
    store.create(service("kept", ServiceType.LoadBalancer, finalizers("example.com/keep")));
    store.delete(Service.class, NS, "kept");
    start();
    assertThat(cloud.calls).isEmpty();
    assertThat(events).noneMatch(e -> e.startsWith("Warning"));
    clock.advance(ServiceLoadBalancerController.MAX_RETRY_DELAY);
    controller.runUntilIdle();
    assertThat(cloud.calls).isEmpty();
    assertThat(stored(service("kept", ServiceType.LoadBalancer)).metadata().finalizers())
        .containsExactly("example.com/keep");
  }

  @SuppressWarnings("unused")
  private static final UnaryOperator<Service> NONE = s -> s;
}
