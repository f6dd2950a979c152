package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.DaemonSetUpdateStrategyType;
import io.fleetkit.api.apps.RollingUpdateDaemonSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.text.GoIntegers;
import io.fleetkit.reconcile.controllers.DaemonSetPlacement;
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
 * ({@code CreatePodTemplate}, {@code IsPodUpdated}, {@code SurgeCount},
 * {@code UnavailableCount}, {@code ReplaceDaemonSetPodNodeNameNodeAffinity}) and
 * {@code daemon_controller.go} ({@code podByCreationTimestampAndPhase}); the placement decision
 * ({@code NodeShouldRunDaemonPod}, {@code NewPod}, the daemon tolerations) is the public {@link DaemonSetPlacement}.
 * Stateless; thread-safe.
 */
public final class DaemonSetPods {
  /** Upstream's {@code metav1.ObjectNameField}: the node field a daemon pod's node affinity pins. */
  public static final String OBJECT_NAME_FIELD = DaemonSetPlacement.OBJECT_NAME_FIELD;

  /** The taint keys of the daemon tolerations: {@link DaemonSetPlacement}'s, named here for the controller's code. */
  public static final String TAINT_NOT_READY = DaemonSetPlacement.TAINT_NOT_READY;
  public static final String TAINT_UNREACHABLE = DaemonSetPlacement.TAINT_UNREACHABLE;
  public static final String TAINT_DISK_PRESSURE = DaemonSetPlacement.TAINT_DISK_PRESSURE;
  public static final String TAINT_MEMORY_PRESSURE = DaemonSetPlacement.TAINT_MEMORY_PRESSURE;
  public static final String TAINT_PID_PRESSURE = DaemonSetPlacement.TAINT_PID_PRESSURE;
  public static final String TAINT_UNSCHEDULABLE = DaemonSetPlacement.TAINT_UNSCHEDULABLE;

  private DaemonSetPods() {}

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
    return new PodTemplateSpec(m.build(), DaemonSetPlacement.withDaemonTolerations(template.spec()));
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
      return GoIntegers.parseInt(a, 64); // strconv.ParseInt(annotation, 10, 64)
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
      String node = DaemonSetPlacement.targetNodeName(p);
      if (node != null) {
        out.computeIfAbsent(node, k -> new ArrayList<>()).add(p);
      }
    }
    return out;
  }
}
