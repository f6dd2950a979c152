package io.fleetkit.networking.endpointslice;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The controller on a store, in stepping mode: a sync after one pod event looks at that pod only (the planner's
 * incremental path, fed with the pods the events named) and writes at most one slice; whatever the sequence of pod
 * and Service changes, the slices it leaves are those a fresh full plan over the store's pods would leave.
 */
final class EndpointSliceControllerTest {
  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

  private static ObjectStore store() {
    return ObjectStore.builder().directDelivery().build();
  }

  private static long version(ObjectStore store) {
    return Long.parseLong(store.resourceVersion());
  }

  private static List<EndpointSlice> slicesOf(ObjectStore store, String service) {
    return store.list(EndpointSlice.class, SliceFixtures.NS, LabelSelector.of(Map.of(
        EndpointSlice.LABEL_SERVICE_NAME, service))).items();
  }

  @Test
  void onePodChange_inServiceOf2000Pods_writesOneSliceWithoutListingThePods() {
    try (ObjectStore store = store();
         EndpointSliceController c = EndpointSliceController.builder(store).stepping().build()) {
      store.create(SliceFixtures.node("node-1", Map.of()));
      store.create(SliceFixtures.service("svc"));
      for (int i = 0; i < 2000; i++) {
        store.create(fresh(SliceFixtures.pod(i, true, false)));
      }
      c.start().join();
      c.runUntilIdle();
      assertThat(slicesOf(store, "svc")).hasSize(20);
      for (int step = 0; step < 5; step++) {
        Pod p = store.require(Pod.class, SliceFixtures.NS, "pod" + (step * 397));
        store.updateStatus(SliceFixtures.withReady(p, false));
        long before = version(store);
        long planned = c.slicesWritten();
        int incremental = c.planner().incrementalPlans();
        // one sync: the event of the controller's own slice write does not sync the Service again
        assertThat(c.runUntilIdle()).isEqualTo(1);
        assertThat(version(store) - before).as("store writes after one pod change").isEqualTo(1);
        assertThat(c.slicesWritten() - planned).as("slices written").isEqualTo(1);
        assertThat(c.planner().incrementalPlans() - incremental).isEqualTo(1);
        Endpoint e = endpointOf(store, p.metadata().name());
        assertThat(e.conditions().ready()).isFalse();
      }
    }
  }

  @Test
  void sliceChangedOrDeletedByAnotherWriter_repaired() {
    try (ObjectStore store = store();
         EndpointSliceController c = EndpointSliceController.builder(store).stepping().build()) {
      store.create(SliceFixtures.node("node-1", Map.of()));
      store.create(SliceFixtures.service("svc"));
      for (int i = 0; i < 3; i++) {
        store.create(fresh(SliceFixtures.pod(i, true, false)));
      }
      c.start().join();
      c.runUntilIdle();
      EndpointSlice s = slicesOf(store, "svc").get(0);
      store.update(s.withEndpoints(List.of()));
      c.runUntilIdle();
      assertThat(endpointCount(store)).isEqualTo(3);
      store.delete(EndpointSlice.class, SliceFixtures.NS, slicesOf(store, "svc").get(0).metadata().name());
      c.runUntilIdle();
      assertThat(endpointCount(store)).isEqualTo(3);
    }
  }

  @Test
  void podLeavingAndJoiningTheSelector_andSelectorChange_followedBySlices() {
    try (ObjectStore store = store();
         EndpointSliceController c = EndpointSliceController.builder(store).stepping().build()) {
      store.create(SliceFixtures.node("node-1", Map.of()));
      store.create(SliceFixtures.service("svc"));
      for (int i = 0; i < 10; i++) {
        store.create(fresh(SliceFixtures.pod(i, true, false)));
      }
      c.start().join();
      c.runUntilIdle();
      assertThat(endpointCount(store)).isEqualTo(10);
      Pod p = store.require(Pod.class, SliceFixtures.NS, "pod3");
      store.update(new Pod(p.metadata().toBuilder().labels(Map.of("foo", "other")).build(), p.spec(), p.status()));
      c.runUntilIdle();
      assertThat(endpointCount(store)).isEqualTo(9);
      // the Service now selects foo=other: its pods are listed again
      Service s = store.require(Service.class, SliceFixtures.NS, "svc");
      store.update(Service.of(s.metadata(), s.spec().toBuilder().selector(Map.of("foo", "other")).build()));
      c.runUntilIdle();
      assertThat(endpointCount(store)).isEqualTo(1);
      store.delete(Pod.class, SliceFixtures.NS, "pod3");
      c.runUntilIdle();
      assertThat(endpointCount(store)).as("terminating: still an endpoint (terminating=true)").isEqualTo(1);
      store.delete(Pod.class, SliceFixtures.NS, "pod3", DeleteOptions.gracePeriod(0)); // its kubelet's final deletion
      c.runUntilIdle();
      assertThat(endpointCount(store)).isZero();
      assertThat(slicesOf(store, "svc")).hasSize(1); // the placeholder
    }
  }

  /**
   * Random pod and Service changes through the store: every sync of a single pod change writes at most one slice
   * (two when a pod's IP changes and its old endpoint was alone in its slice), and after each the slices are what a fresh reconciler's full plan over the store's pods keeps as they are.
   */
  @Property(tries = 25)
  void anyChangeSequence_slicesMatchFullPlan_andOnePodChangeWritesAtMostOneSlice(@ForAll long seed) {
    Random rnd = new Random(seed);
    try (ObjectStore store = store();
         EndpointSliceController c = EndpointSliceController.builder(store).maxEndpointsPerSlice(5).stepping()
             .build()) {
      store.create(SliceFixtures.node("node-1", Map.of(SliceRules.LABEL_ZONE, "a")));
      store.create(SliceFixtures.node("node-2", Map.of(SliceRules.LABEL_ZONE, "b")));
      store.create(SliceFixtures.service("svc"));
      int next = 0;
      for (; next < 1 + rnd.nextInt(25); next++) {
        store.create(fresh(SliceFixtures.pod(next, rnd.nextBoolean(), false)));
      }
      c.start().join();
      c.runUntilIdle();
      for (int step = 0; step < 30; step++) {
        List<Pod> pods = store.list(Pod.class, SliceFixtures.NS).items();
        int op = pods.isEmpty() ? 0 : rnd.nextInt(9);
        Pod p = pods.isEmpty() ? null : pods.get(rnd.nextInt(pods.size()));
        boolean onePod = true;
        switch (op) {
          case 0 -> store.create(fresh(SliceFixtures.pod(next++, rnd.nextBoolean(), false)));
          case 1, 2 -> store.updateStatus(SliceFixtures.withReady(p, !p.isReady()));
          case 3 -> store.delete(Pod.class, SliceFixtures.NS, p.metadata().name(), rnd.nextBoolean()
              ? DeleteOptions.DEFAULT : DeleteOptions.gracePeriod(0)); // graceful (terminating) or final
          case 4 -> store.update(new Pod(p.metadata().toBuilder().labels(Map.of("foo",
              "bar".equals(p.metadata().labels().get("foo")) ? "baz" : "bar")).build(), p.spec(), p.status()));
          case 5 -> store.updateStatus(new Pod(p.metadata(), p.spec(), p.status().withPodIPs(List.of(
              "10.9.0." + (1 + rnd.nextInt(250))))));
          case 6 -> { // the pod is replaced by one on another node (a bound pod's node cannot be changed)
            store.delete(Pod.class, SliceFixtures.NS, p.metadata().name(), DeleteOptions.gracePeriod(0));
            c.runUntilIdle();
            store.create(fresh(new Pod(p.metadata(), p.spec().toBuilder().nodeName(rnd.nextBoolean() ? "node-2"
                : "node-1").build(), p.status())));
          }
          case 7 -> {
            Service s = store.require(Service.class, SliceFixtures.NS, "svc");
            int port = s.spec().ports().get(0).targetPort().number() == 80 ? 8080 : 80;
            store.update(Service.of(s.metadata(), s.spec().toBuilder().ports(List.of(ServicePort.of("svc", 80,
                port))).build()));
            onePod = false;
          }
          default -> {
            Service s = store.require(Service.class, SliceFixtures.NS, "svc");
            store.update(Service.of(s.metadata().toBuilder().annotation("step", Integer.toString(step)).build(),
                s.spec()));
            onePod = false;
          }
        }
        long before = version(store);
        c.runUntilIdle();
        if (onePod) {
          // a new IP is a new endpoint: when the old one was alone in its slice, that slice is deleted and the new
          // one fills another slice (upstream's reconciler does the same: a delete and an update)
          assertThat(version(store) - before).as("step %d op %d: slices written", step, op)
              .isLessThanOrEqualTo(op == 5 ? 2 : 1);
        }
        Service svc = store.require(Service.class, SliceFixtures.NS, "svc");
        List<Pod> selected = store.list(Pod.class, SliceFixtures.NS, LabelSelector.of(svc.spec().selector()))
            .items();
        EndpointSliceReconciler fresh = SliceFixtures.reconciler(5);
        SlicePlan plan = fresh.plan(svc, selected, n -> store.get(io.fleetkit.api.core.Node.class, "", n)
            .orElse(null), slicesOf(store, "svc"), NOW);
        assertThat(plan.writes()).as("step %d op %d: a full plan finds nothing to change", step, op).isZero();
      }
    }
  }

  /** A fixture pod as a client creates it: without a resource version. */
  private static Pod fresh(Pod p) {
    return new Pod(p.metadata().toBuilder().resourceVersion("").build(), p.spec(), p.status());
  }

  private static int endpointCount(ObjectStore store) {
    int n = 0;
    for (EndpointSlice s : slicesOf(store, "svc")) {
      n += s.endpoints().size();
    }
    return n;
  }

  private static Endpoint endpointOf(ObjectStore store, String pod) {
    List<Endpoint> found = new ArrayList<>();
    for (EndpointSlice s : slicesOf(store, "svc")) {
      for (Endpoint e : s.endpoints()) {
        if (e.targetRef() != null && e.targetRef().name().equals(pod)) {
          found.add(e);
        }
      }
    }
    assertThat(found).hasSize(1);
    return found.get(0);
  }
}
