package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.DaemonSetUpdateStrategy;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.internal.TemplateHash;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A store and a DaemonSet controller in stepping mode with upstream's test fixtures from
 * {@code pkg/controller/daemon/daemon_controller_test.go} ({@code newDaemonSet}, {@code newNode}, {@code addNodes},
 * {@code newPod}, {@code addPods}, {@code addFailedPods}, {@code markPodsReady}) and its driver
 * {@code expectSyncDaemonSets}: exactly one sync, counting the pod creates and deletes the controller sends (upstream's
 * fake pod control, here {@link JobUpstreamCasesTest.FakePodControl} as an admission plugin of the store) and the
 * events it records; a failed sync is recorded in {@link #failures}. Upstream's fake pod control records no events of its own, so the pod control's events
 * (SuccessfulCreate, FailedCreate, SuccessfulDelete, FailedDelete) are not counted either; the controller's own
 * (FailedDaemonPod, SucceededDaemonPod, SelectingAll) are.
 */
final class DaemonSetHarness implements AutoCloseable {
  static final Map<String, String> SIMPLE_DAEMON_SET_LABEL = Map.of("name", "simple-daemon", "type", "production");
  static final Map<String, String> SIMPLE_DAEMON_SET_LABEL2 = Map.of("name", "simple-daemon", "type", "test");
  static final Map<String, String> SIMPLE_NODE_LABEL = Map.of("color", "blue", "speed", "fast");
  static final Map<String, String> SIMPLE_NODE_LABEL2 = Map.of("color", "red", "speed", "fast");

  final ManualClock clock = ManualClock.atEpoch2026();
  final JobUpstreamCasesTest.FakePodControl podControl = new JobUpstreamCasesTest.FakePodControl();
  final ObjectStore store;
  final List<String> events = new ArrayList<>();
  /** The controller's failed syncs (its BackOff events): what upstream's syncHandler returns as its error. */
  final List<String> failures = new ArrayList<>();
  /** When set, the controller's status writes of DaemonSets fail with this message (upstream's status reactor). */
  @Nullable String statusError;
  final DaemonSetController controller;
  private boolean started;
  private int podCounter;

  DaemonSetHarness() {
    AtomicLong uids = new AtomicLong();
    store = ObjectStore.builder().directDelivery().clock(clock.asClock())
        .uidGenerator(() -> String.format("uid-%06d", uids.incrementAndGet()))
        .admission(AdmissionChain.of(podControl)).build();
    EventRecorder recorder = (regarding, related, type, reason, action, note) -> {
      if (reason.equals("BackOff")) {
        failures.add(note);
      } else if (!reason.equals(EventRecorder.SUCCESSFUL_CREATE) && !reason.equals(EventRecorder.FAILED_CREATE)
          && !reason.equals(EventRecorder.SUCCESSFUL_DELETE) && !reason.equals(EventRecorder.FAILED_DELETE)) {
        events.add(type + " " + reason + ": " + note);
      }
    };
    ObjectStore controllerView = new ForwardingObjectStore(store) {
      @Override
      public <T extends ApiObject<T>> T updateStatus(T object) {
        if (object instanceof DaemonSet && statusError != null) {
          throw new FleetKitException(statusError);
        }
        return super.updateStatus(object);
      }
    };
    controller = DaemonSetController.builder(controllerView).clock(clock).stepping().events(recorder).build();
  }

  /** Upstream's {@code newRollingUpdateStrategy}: maxUnavailable 1. */
  static final DaemonSetUpdateStrategy ROLLING_UPDATE = DaemonSetUpdateStrategy.ROLLING_UPDATE;
  /** Upstream's {@code updateStrategies()}. */
  static final List<DaemonSetUpdateStrategy> STRATEGIES = List.of(DaemonSetUpdateStrategy.ON_DELETE, ROLLING_UPDATE);

  /** Upstream's {@code newUpdateSurge(value)}: maxUnavailable 0, maxSurge {@code value}. */
  static DaemonSetUpdateStrategy surge(IntOrPercent value) {
    return DaemonSetUpdateStrategy.rollingUpdate(io.fleetkit.api.apps.RollingUpdateDaemonSet.surge(value));
  }

  /** Upstream's {@code newUpdateUnavailable(value)}. */
  static DaemonSetUpdateStrategy unavailable(IntOrPercent value) {
    return DaemonSetUpdateStrategy.rollingUpdate(io.fleetkit.api.apps.RollingUpdateDaemonSet.unavailable(value));
  }

  /** The container of upstream's {@code newDaemonSet}: image {@code foo/bar}. */
  static PodSpec podSpec() {
    return PodSpec.builder().container("foo", "foo/bar", ResourceList.EMPTY).build();
  }

  /** Upstream's {@code newDaemonSet(name)}: OnDelete, revisionHistoryLimit 2, selector simpleDaemonSetLabel. */
  static DaemonSet.Builder newDaemonSet(String name) {
    return DaemonSet.builder().name(name).namespace("default").revisionHistoryLimit(2)
        .updateStrategy(DaemonSetUpdateStrategy.ON_DELETE).matchLabels(SIMPLE_DAEMON_SET_LABEL).podSpec(podSpec());
  }

  /** Upstream's {@code newNode(name, labels)}: Ready, 100 pods allocatable. */
  static Node.Builder newNode(String name, @Nullable Map<String, String> labels) {
    return Node.builder().name(name).labels(labels == null ? Map.of() : labels)
        .allocatable(ResourceList.of(Map.of("pods", io.fleetkit.api.resource.Quantity.parse("100")))).ready();
  }

  Node addNode(Node node) {
    return store.create(node);
  }

  /** Upstream's {@code addNodes}: {@code node-<i>} for i in [start, start+n). */
  void addNodes(int start, int n, @Nullable Map<String, String> labels) {
    for (int i = start; i < start + n; i++) {
      addNode(newNode("node-" + i, labels).build());
    }
  }

  /** A node with these taints. */
  static Node tainted(Node.Builder b, Taint... taints) {
    for (Taint t : taints) {
      b.taint(t);
    }
    return b.build();
  }

  /** A node whose only condition is {@code type=status}. */
  static Node.Builder withCondition(Node.Builder b, String type, ConditionStatus status) {
    return b.conditions(List.of(new NodeCondition(type, status, "", "", null, null)));
  }

  DaemonSet create(DaemonSet ds) {
    return store.create(ds);
  }

  DaemonSet ds(String name) {
    return store.require(DaemonSet.class, "default", name);
  }

  /**
   * Upstream's {@code newPod(prefix, nodeName, labels, ds)}: with a set, the labels get the hash of its template and
   * the spec is its template's, and the set controls the pod; without one, a default spec and no owner.
   */
  Pod newPod(String prefix, String nodeName, Map<String, String> labels, @Nullable DaemonSet ds) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(ds == null ? "default" : ds.metadata().namespace())
        .name(prefix + podCounter++).labels(labels);
    PodSpec spec = podSpec();
    if (ds != null) {
      m.label(WorkloadLabels.CONTROLLER_REVISION_HASH, TemplateHash.compute(ds.spec().template(),
          ds.status().collisionCount()));
      m.ownerReference(OwnerReference.controllerOf(ds));
      spec = ds.spec().template().spec();
    }
    if (!nodeName.isEmpty()) {
      spec = spec.withNodeName(nodeName);
    }
    return Pod.of(m.build(), spec);
  }

  Pod addPod(Pod p) {
    Pod created = store.create(p.withMetadata(p.metadata().toBuilder().creationTimestamp(null).build()));
    if (p.status().phase() != PodPhase.Pending || !p.status().conditions().isEmpty()) {
      created = store.updateStatus(created.withStatus(p.status()));
    }
    return created;
  }

  /** Upstream's {@code addPods}. */
  void addPods(String nodeName, Map<String, String> labels, DaemonSet ds, int n) {
    for (int i = 0; i < n; i++) {
      addPod(newPod(nodeName + "-", nodeName, labels, ds));
    }
  }

  /** Upstream's {@code addFailedPods}. */
  void addFailedPods(String nodeName, Map<String, String> labels, DaemonSet ds, int n) {
    for (int i = 0; i < n; i++) {
      Pod p = newPod(nodeName + "-", nodeName, labels, ds);
      addPod(p.withStatus(p.status().withPhase(PodPhase.Failed)));
    }
  }

  static Pod ready(Pod p, @Nullable Instant since) {
    return p.withStatus(p.status().withCondition(PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "",
        since)));
  }

  static Pod notReady(Pod p) {
    return p.withStatus(p.status().withCondition(PodCondition.of(PodCondition.READY, ConditionStatus.False, "", "",
        null)));
  }

  /** Upstream's {@code markPodsReady}: every pod Ready since now. */
  void markPodsReady() {
    setReadiness(true, Integer.MAX_VALUE, p -> true);
  }

  /**
   * Upstream's {@code setPodReadiness}: up to {@code count} pods not being deleted, whose readiness differs and that
   * {@code filter} accepts, get Ready {@code ready} since now.
   *
   * @return how many were changed
   */
  int setReadiness(boolean ready, int count, Predicate<Pod> filter) {
    int changed = 0;
    for (Pod p : pods()) {
      if (changed >= count) {
        break;
      }
      if (p.metadata().deletionTimestamp() != null || p.isReady() == ready || !filter.test(p)) {
        continue;
      }
      store.updateStatus(p.withStatus(p.status().withCondition(PodCondition.of(PodCondition.READY,
          ready ? ConditionStatus.True : ConditionStatus.False, "", "", clock.now()))));
      changed++;
    }
    return changed;
  }

  List<Pod> pods() {
    return store.list(Pod.class, "").items();
  }

  void start() {
    if (!started) {
      controller.start().join();
      started = true;
    }
  }

  /** Upstream's {@code expectSyncDaemonSets}: one sync of {@code name}, then the creates, deletes and events. */
  void expectSync(String name, int creates, int deletes, int expectedEvents) {
    sync(name);
    assertThat(podControl.templates).as("creates").hasSize(creates);
    assertThat(podControl.deletePodNames).as("deletes").hasSize(deletes);
    assertThat(events).as("events").hasSize(expectedEvents);
    // every pod created has the set as its controller (upstream's validateSyncDaemonSets)
    for (Pod p : podControl.templates) {
      OwnerReference ref = p.metadata().controllerRef();
      assertThat(ref).isNotNull();
      assertThat(ref.apiVersion()).isEqualTo("apps/v1");
      assertThat(ref.kind()).isEqualTo("DaemonSet");
    }
  }

  /** Exactly one sync of {@code name}, with the fake pod control recording (counters reset first). */
  void sync(String name) {
    start();
    podControl.templates.clear();
    podControl.deletePodNames.clear();
    podControl.createCallCount = 0;
    events.clear();
    failures.clear();
    Sim.drain(controller.controller()); // keys events put in the queue: upstream syncs only the set under test
    controller.controller().enqueue(ObjectKey.of("default", name));
    podControl.armed = true;
    try {
      assertThat(controller.controller().runOnce()).isTrue();
    } finally {
      podControl.armed = false;
    }
  }

  @Override
  public void close() {
    controller.close();
    store.close();
  }
}
