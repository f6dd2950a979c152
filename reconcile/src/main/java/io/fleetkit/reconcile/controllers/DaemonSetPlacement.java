package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.scheduling.RequiredNodeAffinity;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Taints;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where a DaemonSet runs its pods, and what pod it runs there: the placement decision of the DaemonSet controller
 * ({@code pkg/controller/daemon/daemon_controller.go} {@code NodeShouldRunDaemonPod}, {@code NewPod},
 * {@code predicates}; {@code util/daemonset_util.go} {@code AddOrUpdateDaemonPodTolerations}), public so that the
 * cluster autoscaler puts on a template node the pods the DaemonSets would run there, exactly as the controller
 * decides, and which node a daemon pod is for ({@code GetTargetNodeName}). The {@link DaemonSetController} uses these
 * same functions.
 *
 * <p>Stateless; thread-safe.
 */
public final class DaemonSetPlacement {
  /** Upstream's {@code metav1.ObjectNameField}: the node field a daemon pod's node affinity pins. */
  public static final String OBJECT_NAME_FIELD = "metadata.name";

  public static final String TAINT_NOT_READY = "node.kubernetes.io/not-ready";
  public static final String TAINT_UNREACHABLE = "node.kubernetes.io/unreachable";
  public static final String TAINT_DISK_PRESSURE = "node.kubernetes.io/disk-pressure";
  public static final String TAINT_MEMORY_PRESSURE = "node.kubernetes.io/memory-pressure";
  public static final String TAINT_PID_PRESSURE = "node.kubernetes.io/pid-pressure";
  public static final String TAINT_UNSCHEDULABLE = "node.kubernetes.io/unschedulable";
  public static final String TAINT_NETWORK_UNAVAILABLE = "node.kubernetes.io/network-unavailable";

  /**
   * The tolerations every daemon pod gets, in upstream's order: not-ready and unreachable NoExecute without
   * tolerationSeconds (the pod survives taint-based eviction), and disk-, memory-, pid-pressure and unschedulable
   * NoSchedule (TaintNodesByCondition). A host-network pod also gets {@link #HOST_NETWORK_TOLERATION}.
   */
  public static final List<Toleration> DAEMON_TOLERATIONS = List.of(
      Toleration.exists(TAINT_NOT_READY, TaintEffect.NoExecute),
      Toleration.exists(TAINT_UNREACHABLE, TaintEffect.NoExecute),
      Toleration.exists(TAINT_DISK_PRESSURE, TaintEffect.NoSchedule),
      Toleration.exists(TAINT_MEMORY_PRESSURE, TaintEffect.NoSchedule),
      Toleration.exists(TAINT_PID_PRESSURE, TaintEffect.NoSchedule),
      Toleration.exists(TAINT_UNSCHEDULABLE, TaintEffect.NoSchedule));

  /**
   * network-unavailable NoSchedule, which upstream adds to a daemon pod with {@code hostNetwork}: it needs no pod
   * network, so it runs on a node whose network is not set up yet (as a CNI's own DaemonSet must).
   */
  public static final Toleration HOST_NETWORK_TOLERATION =
      Toleration.exists(TAINT_NETWORK_UNAVAILABLE, TaintEffect.NoSchedule);

  private DaemonSetPlacement() {}

  /**
   * Whether a node should run the daemon pod, and whether a daemon pod already on it may keep running.
   *
   * @param shouldRun the controller creates the pod on the node
   * @param shouldContinueRunning a pod already there is kept (no untolerated NoExecute taint)
   */
  public record ShouldRun(boolean shouldRun, boolean shouldContinueRunning) {}

  /**
   * Upstream's {@code AddOrUpdateTolerationInPodSpec}: {@code toleration} replaces the one that matches it (same key,
   * operator, value and effect, whatever its tolerationSeconds), or is appended.
   */
  public static List<Toleration> addOrUpdateToleration(List<Toleration> tolerations, Toleration toleration) {
    List<Toleration> out = new ArrayList<>(tolerations.size() + 1);
    boolean replaced = false;
    for (Toleration t : tolerations) {
      if (t.key().equals(toleration.key()) && t.operator() == toleration.operator()
          && t.value().equals(toleration.value()) && t.effect() == toleration.effect()) {
        out.add(toleration);
        replaced = true;
      } else {
        out.add(t);
      }
    }
    if (!replaced) {
      out.add(toleration);
    }
    return out;
  }

  /**
   * Upstream's {@code AddOrUpdateDaemonPodTolerations}: {@code spec} with {@link #DAEMON_TOLERATIONS}, and with
   * {@link #HOST_NETWORK_TOLERATION} when it uses the host network.
   */
  public static PodSpec withDaemonTolerations(PodSpec spec) {
    List<Toleration> t = spec.tolerations();
    for (Toleration d : DAEMON_TOLERATIONS) {
      t = addOrUpdateToleration(t, d);
    }
    if (spec.hostNetwork()) {
      t = addOrUpdateToleration(t, HOST_NETWORK_TOLERATION);
    }
    return spec.withTolerations(t);
  }

  /**
   * The spec of upstream's {@code NewPod}: the DaemonSet's template spec with the daemon tolerations and
   * {@code nodeName}.
   */
  public static PodSpec newPodSpec(DaemonSet ds, String nodeName) {
    return withDaemonTolerations(ds.spec().template().spec()).withNodeName(nodeName);
  }

  /**
   * Upstream's {@code NewPod}: the pod {@code ds} would run on {@code nodeName}, in the DaemonSet's namespace with
   * its template's labels and annotations, the {@link #newPodSpec spec} above, a controller reference to {@code ds}
   * and the name {@code podName} (upstream's pod has none; callers name it), Pending.
   *
   * @throws NullPointerException when an argument is null
   * @throws IllegalArgumentException when {@code nodeName} or {@code podName} is empty
   */
  public static Pod newPod(DaemonSet ds, String nodeName, String podName) {
    Objects.requireNonNull(ds, "ds");
    requireNonEmpty(nodeName, "nodeName", ds);
    requireNonEmpty(podName, "podName", ds);
    ObjectMeta tm = ds.spec().template().metadata();
    ObjectMeta meta = ObjectMeta.builder().namespace(ds.metadata().namespace()).name(podName)
        .labels(tm.labels()).annotations(tm.annotations()).ownerReference(OwnerReference.controllerOf(ds)).build();
    return new Pod(meta, newPodSpec(ds, nodeName), PodStatus.PENDING);
  }

  private static void requireNonEmpty(String v, String field, DaemonSet ds) {
    Objects.requireNonNull(v, field);
    if (v.isEmpty()) {
      throw new IllegalArgumentException("daemon pod of DaemonSet " + ds.metadata().key() + ": " + field
          + " must not be empty");
    }
  }

  /**
   * Upstream's {@code NodeShouldRunDaemonPod}: a node should run the daemon pod when the template's node name (if
   * any) is the node's, its node selector and required node affinity match the node, and its tolerations (with the
   * daemon tolerations) tolerate every NoSchedule and NoExecute taint; a pod already there may keep running on a
   * node it should not be scheduled to only when no NoExecute taint is untolerated. Resources and host ports are not
   * checked: the scheduler places the pod.
   */
  public static ShouldRun nodeShouldRunDaemonPod(Node node, DaemonSet ds) {
    PodSpec template = ds.spec().template().spec();
    String name = node.metadata().name();
    if (!(template.nodeName().isEmpty() || template.nodeName().equals(name))) {
      return new ShouldRun(false, false);
    }
    PodSpec pod = newPodSpec(ds, name);
    boolean fitsNodeAffinity = RequiredNodeAffinity.fromAffinity(pod.nodeSelector(), pod.affinity())
        .match(name, node.metadata().labels());
    if (!fitsNodeAffinity) {
      return new ShouldRun(false, false);
    }
    List<Taint> taints = node.spec().taints();
    if (Taints.findMatchingUntoleratedTaint(taints, pod.tolerations(), Taints.NO_SCHEDULE_OR_NO_EXECUTE).isPresent()) {
      boolean untoleratedNoExecute = Taints.findMatchingUntoleratedTaint(taints, pod.tolerations(), Taints.NO_EXECUTE)
          .isPresent();
      return new ShouldRun(false, !untoleratedNoExecute);
    }
    return new ShouldRun(true, true);
  }

  /**
   * Upstream's {@code GetTargetNodeName}: {@code spec.nodeName}, else the single value of the first
   * {@code matchFields metadata.name In} requirement of the required node affinity.
   *
   * @return the node name, or null when there is none or it is not unique (upstream's error cases)
   */
  public static @Nullable String targetNodeName(Pod pod) {
    if (!pod.spec().nodeName().isEmpty()) {
      return pod.spec().nodeName();
    }
    NodeAffinity na = pod.spec().affinity().nodeAffinity();
    NodeSelector required = na == null ? null : na.requiredDuringSchedulingIgnoredDuringExecution();
    if (required == null) {
      return null;
    }
    for (NodeSelectorTerm term : required.nodeSelectorTerms()) {
      for (NodeSelectorRequirement r : term.matchFields()) {
        if (r.key().equals(OBJECT_NAME_FIELD) && r.operator() == NodeSelectorOperator.In) {
          return r.values().size() == 1 ? r.values().get(0) : null;
        }
      }
    }
    return null;
  }
}
