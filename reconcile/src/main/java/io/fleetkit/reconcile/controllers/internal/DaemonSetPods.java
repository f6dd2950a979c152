package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.DaemonSetUpdateStrategyType;
import io.fleetkit.api.apps.RollingUpdateDaemonSet;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.RequiredNodeAffinity;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Taints;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The pure functions of the DaemonSet controller, after {@code pkg/controller/daemon/util/daemonset_util.go}
 * ({@code AddOrUpdateDaemonPodTolerations}, {@code CreatePodTemplate}, {@code IsPodUpdated}, {@code SurgeCount},
 * {@code UnavailableCount}, {@code ReplaceDaemonSetPodNodeNameNodeAffinity}, {@code GetTargetNodeName}) and
 * {@code daemon_controller.go} ({@code NodeShouldRunDaemonPod}, {@code NewPod}, {@code predicates},
 * {@code podByCreationTimestampAndPhase}). Stateless; thread-safe.
 */
public final class DaemonSetPods {
  /** Upstream's {@code metav1.ObjectNameField}: the node field a daemon pod's node affinity pins. */
  public static final String OBJECT_NAME_FIELD = "metadata.name";

  public static final String TAINT_NOT_READY = "node.kubernetes.io/not-ready";
  public static final String TAINT_UNREACHABLE = "node.kubernetes.io/unreachable";
  public static final String TAINT_DISK_PRESSURE = "node.kubernetes.io/disk-pressure";
  public static final String TAINT_MEMORY_PRESSURE = "node.kubernetes.io/memory-pressure";
  public static final String TAINT_PID_PRESSURE = "node.kubernetes.io/pid-pressure";
  public static final String TAINT_UNSCHEDULABLE = "node.kubernetes.io/unschedulable";

  /**
   * The tolerations every daemon pod gets, in upstream's order: not-ready and unreachable NoExecute without
   * tolerationSeconds (the pod survives taint-based eviction), and disk-, memory-, pid-pressure and unschedulable
   * NoSchedule (TaintNodesByCondition). Upstream adds network-unavailable NoSchedule for host-network pods too;
   * FleetKit's pods have no host network, so that one never applies.
   */
  public static final List<Toleration> DAEMON_TOLERATIONS = List.of(
      Toleration.exists(TAINT_NOT_READY, TaintEffect.NoExecute),
      Toleration.exists(TAINT_UNREACHABLE, TaintEffect.NoExecute),
      Toleration.exists(TAINT_DISK_PRESSURE, TaintEffect.NoSchedule),
      Toleration.exists(TAINT_MEMORY_PRESSURE, TaintEffect.NoSchedule),
      Toleration.exists(TAINT_PID_PRESSURE, TaintEffect.NoSchedule),
      Toleration.exists(TAINT_UNSCHEDULABLE, TaintEffect.NoSchedule));

  private DaemonSetPods() {}

  /** Whether a node should run the daemon pod, and whether a daemon pod already on it may keep running. */
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

  /** Upstream's {@code AddOrUpdateDaemonPodTolerations}: {@code spec} with {@link #DAEMON_TOLERATIONS}. */
  public static PodSpec withDaemonTolerations(PodSpec spec) {
    List<Toleration> t = spec.tolerations();
    for (Toleration d : DAEMON_TOLERATIONS) {
      t = addOrUpdateToleration(t, d);
    }
    return spec.withTolerations(t);
  }

  /**
   * Upstream's {@code CreatePodTemplate}: the template with the daemon tolerations, label
   * {@value WorkloadLabels#POD_TEMPLATE_GENERATION} when {@code generation} is known and
   * {@value WorkloadLabels#CONTROLLER_REVISION_HASH} when {@code hash} is not empty.
   */
  public static PodTemplateSpec createPodTemplate(PodTemplateSpec template, @Nullable Long generation, String hash) {
    ObjectMeta.Builder m = template.metadata().toBuilder();
    if (generation != null) {
      m.label(WorkloadLabels.POD_TEMPLATE_GENERATION, Long.toString(generation));
    }
    if (!hash.isEmpty()) {
      m.label(WorkloadLabels.CONTROLLER_REVISION_HASH, hash);
    }
    return new PodTemplateSpec(m.build(), withDaemonTolerations(template.spec()));
  }

  /**
   * Upstream's {@code GetTemplateGeneration}: the generation in annotation
   * {@value WorkloadLabels#DEPRECATED_TEMPLATE_GENERATION}, or null when absent or not a number (upstream returns the
   * parse error; every caller then goes by the hash alone, as here).
   */
  public static @Nullable Long templateGeneration(DaemonSet ds) {
    String a = ds.metadata().annotations().get(WorkloadLabels.DEPRECATED_TEMPLATE_GENERATION);
    if (a == null) {
      return null;
    }
    try {
      return Long.parseLong(a);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Upstream's {@code IsPodUpdated}: the pod's hash label equals a non-empty {@code hash}, or its generation label. */
  public static boolean isPodUpdated(Pod pod, String hash, @Nullable Long generation) {
    Map<String, String> labels = pod.metadata().labels();
    boolean templateMatches = generation != null
        && Long.toString(generation).equals(labels.get(WorkloadLabels.POD_TEMPLATE_GENERATION));
    boolean hashMatches = !hash.isEmpty() && hash.equals(labels.get(WorkloadLabels.CONTROLLER_REVISION_HASH));
    return hashMatches || templateMatches;
  }

  /** Upstream's {@code SurgeCount}: maxSurge of {@code numberToSchedule} rounded up; 0 unless RollingUpdate. */
  public static int surgeCount(DaemonSet ds, int numberToSchedule) {
    RollingUpdateDaemonSet ru = ds.spec().updateStrategy().rollingUpdate();
    if (ds.spec().updateStrategy().type() != DaemonSetUpdateStrategyType.RollingUpdate || ru == null) {
      return 0;
    }
    return ru.maxSurge().scaledValue(numberToSchedule, true);
  }

  /** Upstream's {@code UnavailableCount}: maxUnavailable of {@code numberToSchedule} rounded up; 0 unless RollingUpdate. */
  public static int unavailableCount(DaemonSet ds, int numberToSchedule) {
    RollingUpdateDaemonSet ru = ds.spec().updateStrategy().rollingUpdate();
    if (ds.spec().updateStrategy().type() != DaemonSetUpdateStrategyType.RollingUpdate || ru == null) {
      return 0;
    }
    return ru.maxUnavailable().scaledValue(numberToSchedule, true);
  }

  /** Upstream's {@code AllowsSurge}: whether a node may run more than one daemon pod during an update. */
  public static boolean allowsSurge(DaemonSet ds) {
    return surgeCount(ds, 1) > 0;
  }

  /**
   * Upstream's {@code ReplaceDaemonSetPodNodeNameNodeAffinity}: {@code affinity} whose required node affinity is
   * exactly one term {@code matchFields metadata.name In [nodeName]}; its preferred terms and pod (anti-)affinity
   * are kept.
   */
  public static Affinity replaceNodeNameNodeAffinity(@Nullable Affinity affinity, String nodeName) {
    NodeSelector pinned = new NodeSelector(List.of(new NodeSelectorTerm(List.of(), List.of(
        new NodeSelectorRequirement(OBJECT_NAME_FIELD, NodeSelectorOperator.In, List.of(nodeName))))));
    if (affinity == null) {
      return new Affinity(new NodeAffinity(pinned, List.of()), null, null);
    }
    NodeAffinity na = affinity.nodeAffinity();
    NodeAffinity replaced = new NodeAffinity(pinned,
        na == null ? List.of() : na.preferredDuringSchedulingIgnoredDuringExecution());
    return new Affinity(replaced, affinity.podAffinity(), affinity.podAntiAffinity());
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

  /**
   * Upstream's {@code NewPod}: the pod the DaemonSet would run on {@code nodeName} (its template with the daemon
   * tolerations and the node name), for the scheduling predicates.
   */
  public static PodSpec newPodSpec(DaemonSet ds, String nodeName) {
    return withDaemonTolerations(ds.spec().template().spec()).withNodeName(nodeName);
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
   * Upstream's {@code podByCreationTimestampAndPhase}: pods bound to a node first, then the oldest, then by name.
   */
  public static final Comparator<Pod> BY_CREATION_AND_PHASE = (a, b) -> {
    boolean as = !a.spec().nodeName().isEmpty();
    boolean bs = !b.spec().nodeName().isEmpty();
    if (as != bs) {
      return as ? -1 : 1;
    }
    Instant at = a.metadata().creationTimestamp();
    Instant bt = b.metadata().creationTimestamp();
    if (Objects.equals(at, bt)) {
      return a.metadata().name().compareTo(b.metadata().name());
    }
    return Comparator.nullsFirst(Comparator.<Instant>naturalOrder()).compare(at, bt);
  };

  /**
   * Upstream's {@code getNodesToDaemonPods} over already claimed pods: the pods by target node, in the given order;
   * pods being deleted that have finished are left out unless {@code includeDeletedTerminal}, and pods without a
   * target node are left out (upstream logs them).
   */
  public static Map<String, List<Pod>> byNode(Iterable<Pod> claimed, boolean includeDeletedTerminal) {
    Map<String, List<Pod>> out = new LinkedHashMap<>();
    for (Pod p : claimed) {
      if (!includeDeletedTerminal && p.metadata().deletionTimestamp() != null && p.status().phase().isTerminal()) {
        continue;
      }
      String node = targetNodeName(p);
      if (node != null) {
        out.computeIfAbsent(node, k -> new ArrayList<>()).add(p);
      }
    }
    return out;
  }
}
