package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.prometheus.Exposition;
import io.fleetkit.reconcile.metrics.PodGcMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes/kubernetes {@code pkg/controller/podgc/gc_controller_test.go} (the version that goes with
 * {@code gc_controller.go} at commit 003e86297d18a8538c9da3619871393f9703bf70: quarantine through a delaying node
 * queue, out-of-service GC, patch before delete, evicted pods first): TestGCTerminated (8 of 8 cases),
 * TestGCOrphaned (9 of 11), TestGCUnscheduledTerminating (2 of 2), TestGCTerminating (3 of 3) and
 * TestGCInspectingPatchedPodBeforeDeletion (1 of 1), each with upstream's secondary assertions: which pods were
 * patched (status written before the deletion), {@code pod_gc_collector_force_delete_pods_total} for the case's
 * reason equal to the number deleted and no {@code ..._errors_total}.
 *
 * <p>Mapping: upstream's fake client's delete and patch actions are the delete and status-write calls the
 * controller makes on the store (recorded by a forwarding store); its informer caches and client are one
 * direct-delivery store, so the two TestGCOrphaned cases where they disagree ("nodes present in client", "node
 * deleted from client after quarantine") cannot be set up and are left out. A pod's creation time comes from the
 * store's clock, which moves one hour between pods as upstream's {@code creationTime} does; a deletion timestamp
 * comes from deleting a pod that holds a finalizer; upstream's unset phase is Pending here (neither is Succeeded or
 * Failed, which is all the checks read). Upstream's node queue length after the delay is
 * {@link PodGcController#quarantineEnded()}.
 */
final class PodGcControllerPortTest {
  private static final String FINALIZER = "example.com/some-finalizer";

  private final ManualClock clock = new ManualClock(java.time.Instant.EPOCH);
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private final Recording recording = new Recording(store);
  private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private @Nullable PodGcController gc;

  /** Records the controller's pod deletions and status writes (upstream's fake client actions). */
  private static final class Recording extends ForwardingObjectStore {
    final Set<String> deleted = new TreeSet<>();
    final Set<String> patched = new TreeSet<>();
    final List<Pod> patches = new ArrayList<>();

    Recording(ObjectStore delegate) {
      super(delegate);
    }

    @Override
    public <T extends ApiObject<T>> T updateStatus(T object) {
      if (object instanceof Pod p) {
        patched.add(p.metadata().name());
        patches.add(p);
      }
      return super.updateStatus(object);
    }

    @Override
    public <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name,
        io.fleetkit.api.store.DeleteOptions options) {
      if (kind == Pod.class) {
        deleted.add(name);
      }
      return super.delete(kind, namespace, name, options);
    }
  }

  @AfterEach
  void close() {
    if (gc != null) {
      gc.close();
    }
    store.close();
  }

  private PodGcController controller(int threshold) {
    return controller(threshold, PodGcController.DEFAULT_QUARANTINE_TIME);
  }

  private PodGcController controller(int threshold, Duration quarantine) {
    gc = PodGcController.builder(recording, clock).terminatedPodThreshold(threshold).quarantineTime(quarantine)
        .metrics(MicrometerMetrics.of(prometheus)).build();
    gc.start();
    return gc;
  }

  /** A pod spec'd as upstream's: name, node, phase, status reason, terminating or not. */
  private record P(String name, String node, PodPhase phase, String reason, boolean terminating) {
    static P of(String name, String node, PodPhase phase) {
      return new P(name, node, phase, "", false);
    }

    static P terminating(String name, String node, PodPhase phase) {
      return new P(name, node, phase, "", true);
    }

    P reason(String r) {
      return new P(name, node, phase, r, terminating);
    }
  }

  /** Creates the pods one simulated hour apart, as upstream's creation times. */
  private void create(List<P> pods) {
    for (P p : pods) {
      clock.advance(Duration.ofHours(1));
      Pod pod = Pod.builder().namespace("default").name(p.name())
          .spec(PodSpec.builder().container("c", "img", ResourceList.EMPTY).nodeName(p.node()).build()).build();
      if (p.terminating()) {
        pod = pod.withMetadata(pod.metadata().toBuilder().finalizer(FINALIZER).build());
      }
      Pod stored = store.create(pod);
      store.updateStatus(stored.withStatus(stored.status().withPhase(p.phase()).withReason(p.reason(), "")));
      if (p.terminating()) {
        store.delete(Pod.class, "default", p.name());
      }
    }
  }

  private void node(String name) {
    store.create(Node.builder().name(name).build());
  }

  private void node(String name, ConditionStatus ready, Taint... taints) {
    store.create(Node.builder().name(name).taints(List.of(taints))
        .conditions(List.of(NodeCondition.of(NodeCondition.READY, ready))).build());
  }

  private void verify(Set<String> deleted, Set<String> patched, String reason) {
    assertThat(recording.deleted).as("deleted").containsExactlyInAnyOrderElementsOf(deleted);
    assertThat(recording.patched).as("patched").containsExactlyInAnyOrderElementsOf(patched);
    Exposition e = Exposition.parse(prometheus.scrape());
    assertThat(e.value("pod_gc_collector_force_delete_pods_total", Map.of("namespace", "default", "reason", reason))
        .orElse(0.0)).as("force_delete_pods_total").isEqualTo(deleted.size());
    assertThat(e.value("pod_gc_collector_force_delete_pod_errors_total",
        Map.of("namespace", "default", "reason", reason)).orElse(0.0)).as("errors").isZero();
  }

  // ---- TestGCTerminated ----

  static Stream<Arguments> terminatedCases() {
    return Stream.of(
        Arguments.of("delete pod a which is PodFailed and pod b which is PodSucceeded",
            List.of(P.of("a", "node", PodPhase.Failed), P.of("b", "node", PodPhase.Succeeded),
                P.of("c", "node", PodPhase.Failed)), 1, Set.of("a", "b")),
        Arguments.of("threshold = 0, disables terminated pod deletion",
            List.of(P.of("a", "node", PodPhase.Failed), P.of("b", "node", PodPhase.Succeeded)), 0, Set.of()),
        Arguments.of("threshold = 1, delete pod a which is PodFailed and pod b which is PodSucceeded",
            List.of(P.of("a", "node", PodPhase.Failed), P.of("b", "node", PodPhase.Succeeded),
                P.of("c", "node", PodPhase.Failed)), 1, Set.of("a", "b")),
        Arguments.of("threshold = 1, delete pod b which is PodSucceeded",
            List.of(P.of("a", "node", PodPhase.Running), P.of("b", "node", PodPhase.Succeeded),
                P.of("c", "node", PodPhase.Failed)), 1, Set.of("b")),
        Arguments.of("threshold = 1, delete pod a which is PodFailed",
            List.of(P.of("a", "node", PodPhase.Failed), P.of("b", "node", PodPhase.Succeeded)), 1, Set.of("a")),
        Arguments.of("threshold = 5, don't delete pod",
            List.of(P.of("a", "node", PodPhase.Failed), P.of("b", "node", PodPhase.Succeeded)), 5, Set.of()),
        Arguments.of("(unnamed 7) the evicted pod goes first",
            List.of(P.of("a", "node", PodPhase.Failed), P.of("b", "node", PodPhase.Succeeded),
                P.of("c", "node", PodPhase.Failed).reason("Evicted")), 1, Set.of("c", "a")),
        Arguments.of("(unnamed 8) the evicted pod goes first, running pods stay",
            List.of(P.of("a", "node", PodPhase.Running), P.of("b", "node", PodPhase.Succeeded),
                P.of("c", "node", PodPhase.Failed).reason("Evicted")), 1, Set.of("c")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("terminatedCases")
  void gcTerminated_upstreamCases(String name, List<P> pods, int threshold, Set<String> deleted) {
    node("node");
    create(pods);
    controller(threshold).gc();
    verify(deleted, Set.of(), PodGcMetrics.REASON_TERMINATED);
  }

  // ---- TestGCOrphaned ----

  /** One upstream TestGCOrphaned case (client and informer nodes are the same store's here). */
  private record OrphanCase(List<String> initialNodes, Duration delay, List<String> addedNodes,
      List<String> deletedNodes, List<P> pods, int itemsInQueue, Set<String> deleted, Set<String> patched) {}

  private static final Duration Q = PodGcController.DEFAULT_QUARANTINE_TIME;

  static Stream<Arguments> orphanedCases() {
    return Stream.of(
        Arguments.of("nodes present in lister", new OrphanCase(List.of("existing1", "existing2"), Q.multipliedBy(2),
            List.of(), List.of(), List.of(P.of("a", "existing1", PodPhase.Running),
                P.of("b", "existing2", PodPhase.Failed), P.of("c", "existing2", PodPhase.Succeeded)), 0, Set.of(),
            Set.of())),
        Arguments.of("no nodes", new OrphanCase(List.of(), Q.multipliedBy(2), List.of(), List.of(),
            List.of(P.of("a", "deleted", PodPhase.Failed), P.of("b", "deleted", PodPhase.Succeeded)), 1,
            Set.of("a", "b"), Set.of())),
        Arguments.of("no nodes, one running pod", new OrphanCase(List.of(), Q.multipliedBy(2), List.of(), List.of(),
            List.of(P.of("a", "deleted", PodPhase.Failed), P.of("b", "deleted", PodPhase.Succeeded),
                P.of("c", "deleted", PodPhase.Running)), 1, Set.of("a", "b", "c"), Set.of("c"))),
        Arguments.of("quarantine not finished", new OrphanCase(List.of(), Q.dividedBy(2), List.of(), List.of(),
            List.of(P.of("a", "deleted", PodPhase.Failed)), 0, Set.of(), Set.of())),
        Arguments.of("wrong nodes", new OrphanCase(List.of("existing"), Q.multipliedBy(2), List.of(), List.of(),
            List.of(P.of("a", "deleted", PodPhase.Running)), 1, Set.of("a"), Set.of("a"))),
        Arguments.of("some nodes missing", new OrphanCase(List.of("existing"), Q.multipliedBy(2), List.of(),
            List.of(), List.of(P.of("a", "deleted", PodPhase.Failed), P.of("b", "existing", PodPhase.Failed),
                P.of("c", "deleted", PodPhase.Succeeded), P.of("d", "deleted", PodPhase.Running)), 1,
            Set.of("a", "c", "d"), Set.of("d"))),
        Arguments.of("node added to client after quarantine", new OrphanCase(List.of(), Q.multipliedBy(2),
            List.of("node"), List.of(), List.of(P.of("a", "node", PodPhase.Running)), 1, Set.of(), Set.of())),
        Arguments.of("node added to informer after quarantine", new OrphanCase(List.of(), Q.multipliedBy(2),
            List.of("node"), List.of(), List.of(P.of("a", "node", PodPhase.Failed)), 1, Set.of(), Set.of())),
        Arguments.of("node deleted from informer after quarantine", new OrphanCase(List.of("node"),
            Q.multipliedBy(2), List.of(), List.of("node"), List.of(P.of("a", "node", PodPhase.Succeeded)), 0,
            Set.of(), Set.of())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("orphanedCases")
  void gcOrphaned_upstreamCases(String name, OrphanCase c) {
    for (String n : c.initialNodes()) {
      node(n);
    }
    create(c.pods());
    PodGcController gc = controller(-1);
    gc.gc(); // first GC of orphaned pods
    assertThat(recording.deleted).as("no pods should be deleted at this point").isEmpty();
    clock.advance(c.delay());
    assertThat(gc.quarantineEnded()).as("items in the node queue").isEqualTo(c.itemsInQueue());
    for (String n : c.addedNodes()) {
      node(n);
    }
    for (String n : c.deletedNodes()) {
      store.delete(Node.class, "", n);
    }
    gc.gc(); // actual pod deletion
    verify(c.deleted(), c.patched(), PodGcMetrics.REASON_ORPHANED);
  }

  // ---- TestGCUnscheduledTerminating ----

  static Stream<Arguments> unscheduledCases() {
    return Stream.of(
        Arguments.of("Unscheduled pod in any phase must be deleted",
            List.of(P.terminating("a", "", PodPhase.Failed), P.terminating("b", "", PodPhase.Succeeded),
                P.terminating("c", "", PodPhase.Running)), Set.of("a", "b", "c"), Set.of("c")),
        Arguments.of("Scheduled pod in any phase must not be deleted",
            List.of(P.of("a", "", PodPhase.Failed), P.of("b", "node", PodPhase.Succeeded),
                P.terminating("c", "node", PodPhase.Running)), Set.of(), Set.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unscheduledCases")
  void gcUnscheduledTerminating_upstreamCases(String name, List<P> pods, Set<String> deleted, Set<String> patched) {
    node("node"); // upstream passes the pods to gcUnscheduledTerminating alone; with the node the other checks pass
    create(pods);
    controller(-1).gc();
    verify(deleted, patched, PodGcMetrics.REASON_UNSCHEDULED);
  }

  // ---- TestGCTerminating ----

  private record N(String name, ConditionStatus ready, List<Taint> taints) {}

  private static Taint outOfService(TaintEffect effect) {
    return Taint.of(PodGcController.TAINT_OUT_OF_SERVICE, "", effect);
  }

  static Stream<Arguments> terminatingCases() {
    List<P> many = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      String node = "worker-" + (i - 1);
      many.add(P.of("a" + i, i == 5 ? "worker-3" : node, PodPhase.Pending)); // upstream puts a5 on worker-3
      many.add(P.terminating("b" + i, node, PodPhase.Pending));
      many.add(P.of("c" + i, node, PodPhase.Pending));
      many.add(P.of("d" + i, node, PodPhase.Running));
      many.add(P.of("e" + i, node, PodPhase.Unknown));
    }
    return Stream.of(
        Arguments.of("pods have deletion timestamp set and the corresponding nodes are not ready",
            List.of(new N("worker-0", ConditionStatus.False, List.of()),
                new N("worker-1", ConditionStatus.False, List.of())),
            List.of(P.terminating("a", "worker-0", PodPhase.Pending), P.terminating("b", "worker-1", PodPhase.Pending)),
            Set.of(), Set.of()),
        Arguments.of("some pods have deletion timestamp and/or phase set and some of the corresponding nodes have "
                + "anoutofservice taint that are not ready",
            List.of(new N("worker-0", ConditionStatus.False, List.of(outOfService(TaintEffect.NoExecute))),
                new N("worker-1", ConditionStatus.False, List.of()),
                new N("worker-2", ConditionStatus.True, List.of()),
                new N("worker-3", ConditionStatus.False, List.of(outOfService(TaintEffect.NoSchedule))),
                new N("worker-4", ConditionStatus.False, List.of(outOfService(TaintEffect.PreferNoSchedule))),
                new N("worker-5", ConditionStatus.False, List.of(Taint.of(PodGcController.TAINT_OUT_OF_SERVICE,
                    "any-value", TaintEffect.NoExecute)))),
            many, Set.of("b1", "b4", "b5", "b6"), Set.of("b1", "b4", "b5", "b6")),
        Arguments.of("pods deleted from node tainted out-of-service",
            List.of(new N("worker", ConditionStatus.False, List.of(outOfService(TaintEffect.NoExecute)))),
            List.of(P.terminating("a", "worker", PodPhase.Running), P.terminating("b", "worker", PodPhase.Failed),
                P.terminating("c", "worker", PodPhase.Succeeded)), Set.of("a", "b", "c"), Set.of("a")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("terminatingCases")
  void gcTerminating_upstreamCases(String name, List<N> nodes, List<P> pods, Set<String> deleted,
      Set<String> patched) {
    for (N n : nodes) {
      node(n.name(), n.ready(), n.taints().toArray(Taint[]::new));
    }
    create(pods);
    controller(-1).gc();
    verify(deleted, patched, PodGcMetrics.REASON_OUT_OF_SERVICE);
  }

  // ---- TestGCInspectingPatchedPodBeforeDeletion ----

  @Test
  void orphanedPod_getsFailedAndDisruptionTargetBeforeDeletion() {
    // upstream: "orphaned pod should have DisruptionTarget condition added before deletion"; its names testPod and
    // deletedNode are not valid object names here (RFC 1123), so test-pod and deleted-node
    Pod pod = store.create(Pod.builder().namespace("default").name("test-pod")
        .spec(PodSpec.builder().container("c", "img", ResourceList.EMPTY).nodeName("deleted-node").build()).build());
    store.updateStatus(pod.withStatus(pod.status().withPhase(PodPhase.Running)
        .withCondition(PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", null))));
    controller(-1, Duration.ofNanos(-1)).gc();

    assertThat(recording.patches).hasSize(1);
    Pod patched = recording.patches.get(0);
    assertThat(patched.metadata().name()).isEqualTo("test-pod");
    assertThat(patched.spec().nodeName()).isEqualTo("deleted-node");
    assertThat(patched.status().phase()).isEqualTo(PodPhase.Failed);
    assertThat(patched.status().conditions()).extracting(c -> List.of(c.type(), c.status().name(), c.reason(),
        c.message())).containsExactly(List.of("Ready", "True", "", ""),
            List.of("DisruptionTarget", "True", "DeletionByPodGC", "PodGC: node no longer exists"));
    assertThat(recording.deleted).containsExactly("test-pod"); // upstream also: grace period 0 (here: no grace)
    assertThat(store.get(Pod.class, "default", "test-pod")).isEmpty();
  }
}
