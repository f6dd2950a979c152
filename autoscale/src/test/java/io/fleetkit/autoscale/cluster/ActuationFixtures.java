package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A store for actuation tests that fails and records what upstream's actuator tests fail and record through their
 * fake client and cloud provider: an admission plugin refuses the updates (taints) of some nodes, the deletions
 * (evictions) of some pods and the deletions of some nodes, and records the taints of every node update, the pods
 * deleted while their node exists (evictions) and the nodes deleted.
 */
final class ActuationFixtures implements ValidatingAdmissionPlugin {
  static final long MI = 1024L * 1024;
  static final OwnerReference DS = new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-uid", true, true);

  final Set<String> failedNodeTaint = Collections.synchronizedSet(new HashSet<>());
  final Set<String> failedPodDrain = Collections.synchronizedSet(new HashSet<>());
  final Set<String> failedNodeDeletion = Collections.synchronizedSet(new HashSet<>());
  /** Per node, the taint keys of each update, in order. */
  final Map<String, List<List<String>>> taintUpdates = Collections.synchronizedMap(new LinkedHashMap<>());
  final List<String> evictedPods = Collections.synchronizedList(new ArrayList<>());
  final List<String> deletedNodes = Collections.synchronizedList(new ArrayList<>());
  final ManualClock clock = ManualClock.atEpoch2026();
  final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().admission(AdmissionChain.of(this))
      .build();

  @Override
  public String name() {
    return "actuation-test";
  }

  @Override
  public AdmissionVerdict validate(AdmissionRequest r, ObjectStore s) {
    String name = r.object().metadata().name();
    if (r.object() instanceof Node n && r.operation() == AdmissionOperation.UPDATE) {
      if (failedNodeTaint.contains(name)) {
        return AdmissionVerdict.deny("spec.taints", "SIMULATED ERROR: won't taint");
      }
      List<String> keys = new ArrayList<>();
      for (Taint t : n.spec().taints()) {
        keys.add(t.key() + ":" + t.effect());
      }
      taintUpdates.computeIfAbsent(name, k -> new ArrayList<>()).add(keys);
    }
    if (r.object() instanceof Node && r.operation() == AdmissionOperation.DELETE) {
      if (failedNodeDeletion.contains(name)) {
        return AdmissionVerdict.deny("metadata.name", "SIMULATED ERROR: won't remove node");
      }
      deletedNodes.add(name);
    }
    if (r.object() instanceof Pod p && r.operation() == AdmissionOperation.DELETE && !finishing) {
      if (failedPodDrain.contains(name)) {
        return AdmissionVerdict.deny("metadata.name", "SIMULATED ERROR: won't evict");
      }
      if (s.get(Node.class, "", p.spec().nodeName()).isPresent()) {
        evictedPods.add(name);
      }
    }
    return AdmissionVerdict.allow();
  }

  /** A pool of 8-CPU, 8 GiB nodes (upstream's test nodes, on which each test pod is 1/8). */
  static NodePool pool(String name, boolean atomic) {
    return NodePool.builder().name(name).capacity(CaFixtures.resources(8000, 8192 * MI, 110)).minSize(0)
        .maxSize(100).zeroOrMaxNodeScaling(atomic).build();
  }

  /** Upstream's {@code generateNodeGroupViewList}: nodes {@code <pool>-node-<from..to-1>}, created in the store. */
  List<Node> nodes(NodePool pool, String prefix, int from, int to) {
    if (store.get(NodePool.class, "", pool.metadata().name()).isEmpty()) {
      store.create(pool);
    }
    List<Node> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      String name = prefix + "-node-" + i;
      Node n = store.get(Node.class, "", name).orElseGet(() -> store.create(ClusterAutoscaler.templateNode(pool, name)));
      out.add(n);
    }
    return out;
  }

  /** Upstream's {@code removablePod}: a pod of 1 CPU and 1 GiB on {@code node}, annotated safe-to-evict. */
  static Pod removablePod(String name, String node) {
    return Pod.builder().name(name).namespace("default").annotation(Drainability.SAFE_TO_EVICT, "true")
        .nodeName(node).container("test-container", "pause", ResourceList.ofCpuMemory(1000, 1024 * MI)).build();
  }

  static Pod removablePod(String name, String node, long grace) {
    return removablePod(name, node).toBuilder().terminationGracePeriodSeconds(grace).build();
  }

  /** Upstream's {@code removablePods}: {@code <node>-pod-<i>}. */
  static List<Pod> removablePods(int count, String node) {
    List<Pod> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(removablePod(node + "-pod-" + i, node));
    }
    return out;
  }

  /** Upstream's {@code generateDsPods}: {@link #removablePod}s owned by a DaemonSet, {@code <node>-ds-pod-<i>}. */
  static List<Pod> dsPods(int count, String node) {
    List<Pod> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(removablePod(node + "-ds-pod-" + i, node).toBuilder().ownerReference(DS).build());
    }
    return out;
  }

  void create(List<Pod> pods) {
    for (Pod p : pods) {
      store.create(p);
    }
  }

  /** Advances {@code a} second by second until no deletion is in progress or waiting (at most 10 minutes). */
  /**
   * The kubelets' side of an eviction, done at once: every pod being deleted is removed (grace period 0), as
   * upstream's tests make an evicted pod disappear (their fake client answers NotFound for it).
   */
  void finishTerminating() {
    finishing = true; // the kubelet's final deletion is no eviction
    try {
      for (Pod p : store.list(Pod.class, "").items()) {
        if (p.metadata().deletionTimestamp() != null) {
          store.delete(Pod.class, p.metadata().namespace(), p.metadata().name(),
              io.fleetkit.api.store.DeleteOptions.gracePeriod(0));
        }
      }
    } finally {
      finishing = false;
    }
  }

  private boolean finishing;

  void runUntilIdle(ScaleDownActuator a) {
    for (int i = 0; i < 600; i++) {
      a.advance(clock.instant());
      finishTerminating();
      if (!a.busy() && a.batched() == 0) {
        return;
      }
      clock.advance(Duration.ofSeconds(1));
    }
    throw new AssertionError("deletions still in progress after 10 minutes");
  }
}
