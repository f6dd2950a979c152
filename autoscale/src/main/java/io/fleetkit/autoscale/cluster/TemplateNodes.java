package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.reconcile.controllers.DaemonSetPlacement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pods a new node of a pool would run from the start: its DaemonSet pods (and, for a template made from an example
 * node, the example's mirror pods), so that scale-up counts what they request (upstream
 * {@code utils/daemonset/daemonset.go} {@code GetDaemonSetPodsForNode} and {@code simulator/node_info_utils.go}
 * {@code SanitizedTemplateNodeInfoFromNodeGroup}, {@code SanitizedTemplateNodeInfoFromNodeInfo},
 * {@code podsExpectedOnFreshNode}; {@code core/podlistprocessor/filter_out_daemon_sets.go}).
 *
 * <p>Whether a DaemonSet runs a pod on a node is the DaemonSet controller's own decision
 * ({@link DaemonSetPlacement#nodeShouldRunDaemonPod}: node name, node selector and required node affinity, taints
 * against the daemon tolerations), as upstream calls the controller's {@code NodeShouldRunDaemonPod}; resources are not
 * checked (a daemon pod that does not fit still lands, and the node is then full), as upstream's.
 *
 * <p>Stateless; thread-safe. The pods returned are new objects, bound to the node given.
 */
public final class TemplateNodes {
  /** Upstream's {@code labels.SystemNodeCriticalLabel}: the priority class of node-critical pods. */
  public static final String SYSTEM_NODE_CRITICAL = "system-node-critical";
  /** Upstream's {@code DaemonSetPodAnnotationKey}: marks a pod to be treated as a DaemonSet's. */
  public static final String DAEMON_SET_POD_ANNOTATION = "cluster-autoscaler.kubernetes.io/daemonset-pod";

  private static final Logger LOG = LoggerFactory.getLogger(TemplateNodes.class);
  /** The longest object name (a DNS subdomain). */


  private TemplateNodes() {}

  /**
   * Upstream's {@code GetDaemonSetPodsForNode}: for every DaemonSet that should run a pod on {@code node}, in the
   * given order, the pod it would run there ({@link DaemonSetPlacement#newPod}, named
   * {@code <daemonset>-pod-<node>}, with a controller reference to the DaemonSet). A DaemonSet whose template cannot
   * make a valid pod bound to the node adds none (logged at DEBUG): such a pod would never be bound there.
   *
   * @throws NullPointerException when an argument or element is null
   */
  public static List<Pod> daemonSetPodsForNode(Node node, List<DaemonSet> daemonSets) {
    Objects.requireNonNull(node, "node");
    List<Pod> out = new ArrayList<>();
    for (DaemonSet ds : daemonSets) {
      Objects.requireNonNull(ds, "daemonSets element");
      if (DaemonSetPlacement.nodeShouldRunDaemonPod(node, ds).shouldRun()) {
        try {
          out.add(DaemonSetPlacement.newPod(ds, node.name(), name(ds.metadata().name() + "-pod-" + node.name())));
        } catch (ValidationException e) {
          // a template that cannot make a pod bound to a node (one the API would refuse to bind) takes no room there
          LOG.debug("DaemonSet {}: no pod for node {}: {}", ds.metadata().key(), node.name(), e.getMessage());
        }
      }
    }
    return out;
  }

  /** {@code name}, or when it is longer than a pod name may be, its start and a hash of it (still unique in practice). */
  static String name(String name) {
    return io.fleetkit.api.meta.ObjectMeta.shortenedName(name);
  }

  /**
   * The pods on a new node made from a pool's own template (upstream's {@code SanitizedTemplateNodeInfoFromNodeGroup},
   * which forces the DaemonSets in): the pod of every DaemonSet that should run on {@code templateNode}.
   */
  public static List<Pod> forPoolTemplate(Node templateNode, List<DaemonSet> daemonSets) {
    return expectedOnFreshNode(templateNode, List.of(), daemonSets, true);
  }

  /**
   * Upstream's {@code podsExpectedOnFreshNode} (of {@code SanitizedTemplateNodeInfoFromNodeInfo}): the pods a fresh
   * node made from an example node runs. The example's mirror and DaemonSet pods not being deleted are kept, rebound
   * to {@code node} and named {@code <pod>-<node>}; of the DaemonSets with no pod on the example (being deleted or
   * not), those that should run on {@code node} add their pod when {@code forceDaemonSets} ({@code --force-ds}), and
   * otherwise only when it is {@value #SYSTEM_NODE_CRITICAL} and may preempt.
   *
   * @param node the template node (already given its new name and labels)
   * @param examplePods the pods on the example node
   * @throws NullPointerException when an argument or element is null
   */
  public static List<Pod> expectedOnFreshNode(Node node, List<Pod> examplePods, List<DaemonSet> daemonSets,
      boolean forceDaemonSets) {
    Objects.requireNonNull(node, "node");
    List<Pod> out = new ArrayList<>();
    Set<String> running = new HashSet<>();
    for (Pod p : examplePods) {
      if (p.metadata().deletionTimestamp() != null) {
        continue;
      }
      if (isMirrorPod(p) || isDaemonSetPod(p)) {
        out.add(rebound(p, node.name()));
      }
      OwnerReference c = p.metadata().controllerRef();
      if (c != null && c.kind().equals(DaemonSet.KIND)) {
        running.add(c.uid());
      }
    }
    List<DaemonSet> pending = new ArrayList<>();
    for (DaemonSet ds : daemonSets) {
      if (!running.contains(ds.metadata().uid())) {
        pending.add(ds);
      }
    }
    for (Pod p : daemonSetPodsForNode(node, pending)) {
      if (forceDaemonSets || isPreemptingSystemNodeCritical(p)) {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * The DRA devices of a new node of {@code pool}: one node-local ResourceSlice per device template of the pool
   * ({@link io.fleetkit.api.autoscaling.NodeTemplate#resourceSlicesFor}), named and pooled after {@code node}, as its
   * drivers will publish them; empty for a pool without device templates.
   */
  public static List<ResourceSlice> resourceSlicesFor(NodePool pool, Node node) {
    return pool.spec().template().resourceSlicesFor(node.name());
  }

  /**
   * Copies of an example node's node-local slices for a new node made from it.
   *
   * @param slices the copies, in order
   * @param oldPoolNames the pool names of the originals
   */
  public record SanitizedSlices(List<ResourceSlice> slices, Set<String> oldPoolNames) {
    public SanitizedSlices {
      slices = List.copyOf(slices);
      oldPoolNames = Set.copyOf(oldPoolNames);
    }
  }

  /**
   * Upstream's {@code SanitizedNodeResourceSlices} ({@code simulator/dynamicresources/utils/sanitize.go}), for a
   * template made from an example node: each of the example's node-local slices copied for {@code newNodeName}, named
   * {@code <slice>-<suffix>}, of the pool {@code <pool>-<suffix>} (pool names are unique per driver, so a copy cannot
   * keep its pool's), {@code spec.nodeName} the new node; the copies carry no uid (the store gives one), and keep
   * everything else. Returns them with the pools' old names.
   *
   * @throws IllegalArgumentException if a slice is not node-local (upstream's {@code can't sanitize slice ... because
   *     it isn't node-local})
   */
  public static SanitizedSlices sanitizedNodeResourceSlices(List<ResourceSlice> nodeLocalSlices, String newNodeName,
      String nameSuffix) {
    List<ResourceSlice> out = new ArrayList<>(nodeLocalSlices.size());
    Set<String> oldPools = new java.util.LinkedHashSet<>();
    for (ResourceSlice s : nodeLocalSlices) {
      if (s.spec().nodeName() == null || s.spec().nodeName().isEmpty()) {
        throw new IllegalArgumentException("can't sanitize slice " + s.metadata().name()
            + " because it isn't node-local");
      }
      ResourceSliceSpec spec = s.spec();
      ResourcePool pool = spec.pool();
      ResourceSliceSpec copy = new ResourceSliceSpec(spec.driver(),
          new ResourcePool(pool.name() + "-" + nameSuffix, pool.generation(), pool.resourceSliceCount()), newNodeName,
          null, false, spec.devices(), spec.perDeviceNodeSelection(), spec.sharedCounters());
      ObjectMeta meta = s.metadata().toBuilder().name(s.metadata().name() + "-" + nameSuffix).uid("")
          .resourceVersion("").build();
      out.add(new ResourceSlice(meta, copy));
      oldPools.add(pool.name());
    }
    return new SanitizedSlices(out, oldPools);
  }

  /** Upstream's {@code isPreemptingSystemNodeCritical}: priority class system-node-critical and may preempt. */
  public static boolean isPreemptingSystemNodeCritical(Pod pod) {
    return pod.spec().priorityClassName().equals(SYSTEM_NODE_CRITICAL)
        && pod.spec().preemptionPolicy() == PreemptionPolicy.PreemptLowerPriority;
  }

  /**
   * Upstream's {@code IsDaemonSetPod}: the pod's controller is a DaemonSet, or it is annotated
   * {@value #DAEMON_SET_POD_ANNOTATION}{@code : "true"} (a pod of another daemon-like controller). The autoscaler's one
   * test for "DaemonSet pod": templates, pending pods, utilization, drainability and eviction all use it.
   */
  public static boolean isDaemonSetPod(Pod pod) {
    OwnerReference c = pod.metadata().controllerRef();
    return c != null && c.kind().equals(DaemonSet.KIND)
        || "true".equals(pod.metadata().annotations().get(DAEMON_SET_POD_ANNOTATION));
  }

  /** Upstream's {@code IsMirrorPod}: the pod has the {@value Drainability#MIRROR_ANNOTATION} annotation. */
  public static boolean isMirrorPod(Pod pod) {
    return pod.metadata().annotations().containsKey(Drainability.MIRROR_ANNOTATION);
  }

  /**
   * Upstream's {@code filterOutDaemonSetPodListProcessor}: {@code pods} without the DaemonSet pods, in order. A
   * pending daemon pod is pinned to one node; a new node cannot help it, so scale-up does not consider it.
   */
  public static List<Pod> withoutDaemonSetPods(List<Pod> pods) {
    List<Pod> out = new ArrayList<>(pods.size());
    for (Pod p : pods) {
      if (!isDaemonSetPod(p)) {
        out.add(p);
      }
    }
    return out;
  }

  private static Pod rebound(Pod p, String nodeName) {
    return new Pod(p.metadata().toBuilder().name(name(p.metadata().name() + "-" + nodeName)).build(),
        p.spec().withNodeName(nodeName), p.status());
  }
}
