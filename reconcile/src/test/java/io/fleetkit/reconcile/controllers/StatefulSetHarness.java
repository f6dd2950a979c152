package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.apps.ClaimTemplate;
import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.PodManagementPolicy;
import io.fleetkit.api.apps.RollingUpdateStatefulSetStrategy;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.fleetkit.api.apps.StatefulSetSpec;
import io.fleetkit.api.apps.StatefulSetUpdateStrategy;
import io.fleetkit.api.apps.StatefulSetUpdateStrategyType;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.internal.ControllerHistory;
import io.fleetkit.reconcile.controllers.internal.StatefulSetClaimOwnership;
import io.fleetkit.reconcile.controllers.internal.StatefulSetPods;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A store and a StatefulSet controller in stepping mode, with upstream's test fixtures ({@code newStatefulSet}:
 * set "foo" with claim template "datadir" and a hostPath volume "home") and its drivers
 * ({@code scaleUpStatefulSetControl}, {@code scaleDownStatefulSetControl}, {@code updateStatefulSetControl}) that
 * play the kubelet between syncs and check an invariant after each.
 */
final class StatefulSetHarness implements AutoCloseable {
  static final String ORIGINAL_IMAGE = "nginx";

  final ManualClock clock = ManualClock.atEpoch2026();
  final ObjectStore store = Sim.store(clock);
  final StatefulSetController controller;
  /** The controller's events, as {@code "<type> <reason>: <note>"}. */
  final List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();

  StatefulSetHarness() {
    this(UnaryOperator.identity());
  }

  /** A harness whose controller writes through {@code controllerView} of the store (to inject failures). */
  StatefulSetHarness(UnaryOperator<ObjectStore> controllerView) {
    this(controllerView, MetricsRegistry.NOOP);
  }

  /** A harness whose controller records its metrics in {@code metrics}. */
  StatefulSetHarness(MetricsRegistry metrics) {
    this(UnaryOperator.identity(), metrics);
  }

  private StatefulSetHarness(UnaryOperator<ObjectStore> controllerView, MetricsRegistry metrics) {
    controller = StatefulSetController.builder(controllerView.apply(store)).clock(clock).stepping().metrics(metrics)
        .events((regarding, related, type, reason, action, note) -> events.add(type + " " + reason + ": " + note))
        .build();
    controller.start().join();
  }

  /** Upstream's {@code newStatefulSet(replicas)}: "foo" in "default", claim "datadir", service "governingsvc". */
  static StatefulSet newStatefulSet(int replicas) {
    PodSpec spec = PodSpec.builder().container("nginx", ORIGINAL_IMAGE, ResourceList.EMPTY)
        .volume(new Volume("home", new io.fleetkit.api.core.VolumeSource.HostPath("/tmp/home"))).build();
    return StatefulSet.builder().namespace("default").name("foo").replicas(replicas)
        .matchLabels(Map.of("foo", "bar")).podSpec(spec).serviceName("governingsvc")
        .volumeClaimTemplate(ClaimTemplate.of("datadir", null,
            ResourceList.of(Map.of("storage", Quantity.parse("1Gi")))))
        .revisionHistoryLimit(2).build();
  }

  /** {@code set} with this retention policy (upstream's tests set {@code PersistentVolumeClaimRetentionPolicy}). */
  static StatefulSet withPolicy(StatefulSet set, StatefulSetPersistentVolumeClaimRetentionPolicy policy) {
    return set.withSpec(set.spec().withPersistentVolumeClaimRetentionPolicy(policy));
  }

  /** Upstream's {@code burst(set)}: Parallel pod management. */
  static StatefulSet burst(StatefulSet set) {
    return set.withSpec(set.spec().withPodManagementPolicy(PodManagementPolicy.Parallel));
  }

  static StatefulSet withStrategy(StatefulSet set, StatefulSetUpdateStrategy strategy) {
    return set.withSpec(set.spec().withUpdateStrategy(strategy));
  }

  static StatefulSet withPartition(StatefulSet set, int partition) {
    return withStrategy(set, new StatefulSetUpdateStrategy(StatefulSetUpdateStrategyType.RollingUpdate,
        new RollingUpdateStatefulSetStrategy(partition, IntOrPercent.ONE)));
  }

  static StatefulSetSpec withImage(StatefulSetSpec s, String image) {
    PodSpec spec = s.template().spec().toBuilder().containers(List.of(
        io.fleetkit.api.core.Container.of("nginx", image, ResourceList.EMPTY))).build();
    return s.withTemplate(new PodTemplateSpec(s.template().metadata(), spec));
  }

  StatefulSet set() {
    return store.require(StatefulSet.class, "default", "foo");
  }

  StatefulSet update(UnaryOperator<StatefulSetSpec> change) {
    StatefulSet s = set();
    return store.update(s.withSpec(change.apply(s.spec())));
  }

  StatefulSet scale(int replicas) {
    return update(s -> s.withReplicas(replicas));
  }

  List<Pod> pods() {
    List<Pod> pods = new ArrayList<>(store.list(Pod.class, "default").items());
    pods.sort(StatefulSetPods.ascendingOrdinal());
    return pods;
  }

  /** Upstream's {@code ssc.ListRevisions(set)}: the set's ControllerRevisions (and orphans it selects). */
  List<ControllerRevision> revisions() {
    return new ControllerHistory(store).list(set(), set().spec().selector());
  }

  List<PersistentVolumeClaim> claims() {
    return store.list(PersistentVolumeClaim.class, "default").items();
  }

  List<String> images() {
    return pods().stream().map(p -> p.spec().containers().get(0).image()).toList();
  }

  /** Upstream's {@code scaleUpStatefulSetControl}: sync, then make the lowest not-ready pod running and ready. */
  void scaleUp(Invariant invariant) {
    for (int i = 0; i < 1000; i++) {
      controller.runUntilIdle();
      invariant.check(this);
      StatefulSet set = set();
      if (set.status().readyReplicas() == set.spec().replicas() && pods().size() == set.spec().replicas()) {
        return;
      }
      advancePods();
      controller.runUntilIdle();
      invariant.check(this);
    }
    throw new AssertionError("scale up did not converge: " + set().status());
  }

  /** Upstream's {@code scaleDownStatefulSetControl}. */
  void scaleDown(Invariant invariant) {
    for (int i = 0; i < 1000; i++) {
      controller.runUntilIdle();
      invariant.check(this);
      Sim.finishTerminating(store); // upstream's addTerminatingPod, then the pod's removal from the indexer
      if (pods().size() == set().spec().replicas()) {
        controller.runUntilIdle();
        return;
      }
    }
    throw new AssertionError("scale down did not converge: " + set().status());
  }

  /** Upstream's {@code updateStatefulSetControl}: sync and ready pods until nothing changes any more. */
  void updateUntilSettled(Invariant invariant) {
    for (int i = 0; i < 1000; i++) {
      controller.runUntilIdle();
      invariant.check(this);
      if (!advancePods()) {
        controller.runUntilIdle();
        if (!advancePods()) {
          return;
        }
      }
    }
    throw new AssertionError("update did not converge: " + set().status());
  }

  /**
   * Moves every pod one kubelet step: a pod being deleted goes (upstream's fake pod control removes it), Pending ->
   * Running -> Ready (lowest ordinal first); whether one moved.
   */
  boolean advancePods() {
    boolean moved = Sim.finishTerminating(store) > 0;
    for (Pod p : pods()) {
      if (p.status().phase() == PodPhase.Pending) {
        Sim.run(store, p, "node-" + StatefulSetPods.ordinal(p));
        moved = true;
      } else if (p.status().phase() == PodPhase.Running && !p.isReady()) {
        Sim.ready(store, clock, p, p.spec().nodeName());
        moved = true;
      }
    }
    return moved;
  }

  @Override
  public void close() {
    controller.close();
    store.close();
  }

  /** A check run after every sync. */
  interface Invariant {
    void check(StatefulSetHarness h);
  }

  /**
   * Upstream's {@code assertBurstInvariants}: identity, storage, and the claims of every pod as the retention policy
   * asks ({@link #checkClaimInvariants}).
   */
  static void burstInvariants(StatefulSetHarness h) {
    StatefulSet set = h.set();
    for (Pod p : h.pods()) {
      if (!StatefulSetPods.identityMatches(set, p)) {
        throw new AssertionError("pod " + p.metadata().name() + " has a bad identity");
      }
      if (!StatefulSetPods.storageMatches(set, p)) {
        throw new AssertionError("pod " + p.metadata().name() + " has bad storage");
      }
      for (Volume v : p.spec().volumes()) {
        if (v.claim() != null) {
          checkClaimInvariants(set, p, h.store.get(PersistentVolumeClaim.class, "default", v.claim().claimName())
              .orElse(null), v.claim().claimName());
        }
      }
    }
  }

  /**
   * Upstream's {@code checkClaimInvariants}: a retained claim exists; once the pod is running and ready, its claim's
   * owner references are those the policy asks (none for Retain/Retain; the set for whenDeleted: Delete unless the
   * pod is condemned under whenScaled: Delete; the pod when it is condemned under whenScaled: Delete).
   */
  static void checkClaimInvariants(StatefulSet set, Pod pod, @Nullable PersistentVolumeClaim claim, String name) {
    StatefulSetPersistentVolumeClaimRetentionPolicy policy = set.spec().persistentVolumeClaimRetentionPolicy();
    boolean retained = policy.whenScaled() == PersistentVolumeClaimRetentionPolicyType.Retain;
    if (claim == null) {
      if (retained) {
        throw new AssertionError("claim " + name + " for pod " + pod.metadata().name() + " was not created");
      }
      return; // a non-retained claim has no invariants to satisfy
    }
    if (!StatefulSetPods.isRunningAndReady(pod)) {
      return; // the owner references are not expected yet
    }
    List<OwnerReference> refs = claim.metadata().ownerReferences();
    boolean setRef = StatefulSetClaimOwnership.hasOwnerRef(refs, set.metadata().uid());
    boolean podRef = StatefulSetClaimOwnership.hasOwnerRef(refs, pod.metadata().uid());
    boolean inRange = StatefulSetClaimOwnership.podInOrdinalRange(pod, set);
    boolean scaleDelete = !retained;
    boolean setDelete = policy.whenDeleted() == PersistentVolumeClaimRetentionPolicyType.Delete;
    String what = "claim " + name + " of pod " + pod.metadata().name() + " under " + policy + ": " + refs;
    if (!scaleDelete && !setDelete && (setRef || podRef)) {
      throw new AssertionError("unexpected owner reference on " + what);
    }
    if (!scaleDelete && setDelete && (!setRef || podRef)) {
      throw new AssertionError("set deletion needs the set, not the pod, on " + what);
    }
    if (scaleDelete && !setDelete && (setRef || inRange == podRef)) {
      throw new AssertionError("scale-down deletion needs the pod on a condemned claim only: " + what);
    }
    if (scaleDelete && setDelete && (inRange ? podRef || !setRef : !podRef || setRef)) {
      throw new AssertionError((inRange ? "live" : "condemned") + " claim has bad owner references: " + what);
    }
  }

  /** Upstream's {@code assertMonotonicInvariants}: burst invariants, and no pod before its predecessors are ready. */
  static void monotonicInvariants(StatefulSetHarness h) {
    burstInvariants(h);
    List<Pod> pods = h.pods();
    pods.sort(Comparator.comparingInt(StatefulSetPods::ordinal));
    int start = h.set().spec().startOrdinal();
    for (int i = 0; i < pods.size(); i++) {
      int ord = StatefulSetPods.ordinal(pods.get(i));
      if (ord != i + start) {
        throw new AssertionError("pods are not contiguous: found ordinal " + ord + " at position " + i);
      }
      if (i > 0 && !StatefulSetPods.isRunningAndReady(pods.get(i - 1))) {
        throw new AssertionError("successor " + pods.get(i).metadata().name() + " exists before predecessor "
            + pods.get(i - 1).metadata().name() + " is running and ready");
      }
    }
  }

  /** Upstream's {@code assertUpdateInvariants}: identity, storage and claims hold during updates. */
  static void updateInvariants(StatefulSetHarness h) {
    burstInvariants(h);
  }
}
