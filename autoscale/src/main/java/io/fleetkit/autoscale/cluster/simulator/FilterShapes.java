package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.scheduler.plugins.nodeaffinity.NodeAffinityPlugin;
import io.fleetkit.scheduler.plugins.nodename.NodeNamePlugin;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import io.fleetkit.scheduler.plugins.nodeunschedulable.NodeUnschedulablePlugin;
import io.fleetkit.scheduler.plugins.tainttoleration.TaintTolerationPlugin;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The drain simulation's fast Filter decision: for a pod whose Filter plugins left after PreFilter are all decidable
 * from the node object and the slot's numbers, whether it passes on a slot is the conjunction of
 * <ul>
 *   <li>the <em>node-object</em> plugins ({@code NodeUnschedulable}, {@code NodeName}, {@code TaintToleration},
 *       {@code NodeAffinity}), which read the pod's tolerations, node selector, affinity and node name (and the
 *       state their own PreFilter made of those) and the node's name, labels, taints and {@code spec.unschedulable}:
 *       their verdict is a function of the pod's <em>shape</em> (those fields, plus which plugins PreFilter skipped)
 *       and of the slot's node object, computed by running the plugins on the slot's view the first time a shape
 *       meets a node object, then kept by {@linkplain SlotNumbers#nodeVersion node version};</li>
 *   <li>{@code NodeResourcesFit}, decided on {@link SlotNumbers} with the plugin's rules
 *       ({@link NodeResourcesFitPlugin#roomForOneMorePod}, {@link NodeResourcesFitPlugin#requestFits}), for pods
 *       requesting nothing but cpu, memory, ephemeral storage and pods.</li>
 * </ul>
 * These plugins write no cycle state in Filter and read nothing else, so the conjunction is what running them in
 * the profile's order gives. Plugins are recognised by their exact class; a pod for which any other Filter plugin
 * is left (inter-pod affinity, topology spread, volumes, a plugin of the caller's), whose PreFilter limited the
 * nodes, or which requests extended resources, has no shape and takes the general path (every Filter plugin on the
 * view).
 *
 * <p>Not thread-safe: one per simulation.
 */
final class FilterShapes {
  private static final byte OTHER = 0;
  private static final byte NODE_OBJECT = 1;
  private static final byte FIT = 2;

  private final FilterPlugin[] filter;
  private final byte[] role;
  private final Map<Key, Shape> shapes = new HashMap<>();

  FilterShapes(FilterPlugin[] filter) {
    this.filter = filter;
    this.role = new byte[filter.length];
    for (int i = 0; i < filter.length; i++) {
      Class<?> c = filter[i].getClass();
      if (c == NodeUnschedulablePlugin.class || c == NodeNamePlugin.class || c == TaintTolerationPlugin.class
          || c == NodeAffinityPlugin.class) {
        role[i] = NODE_OBJECT;
      } else if (c == NodeResourcesFitPlugin.class) {
        role[i] = FIT;
      }
    }
  }

  /** What makes two pods' node-object verdicts equal: the plugins left after PreFilter and the fields they read. */
  private record Key(long left, List<Toleration> tolerations, Map<String, String> nodeSelector, Affinity affinity,
      String nodeName) {}

  /**
   * The node-object verdicts of one pod shape, by slot: known for a slot while its {@link SlotNumbers#nodeVersion}
   * is the one recorded.
   */
  static final class Shape {
    /** The node-object plugins left after PreFilter, by index into the simulation's Filter plugins. */
    private final int[] nodeObject;
    /** Whether {@code NodeResourcesFit} is left after PreFilter. */
    final boolean fit;
    private int[] version = new int[0];
    private boolean[] passes = new boolean[0];

    private Shape(int[] nodeObject, boolean fit) {
      this.nodeObject = nodeObject;
      this.fit = fit;
    }

    /** Whether the verdict for {@code slot} is known for the node object of version {@code v}. */
    boolean known(int slot, int v) {
      return slot < version.length && version[slot] == v;
    }

    /** The known verdict for {@code slot}. */
    boolean passes(int slot) {
      return passes[slot];
    }

    void record(int slot, int v, boolean pass) {
      if (slot >= version.length) {
        int n = Math.max(slot + 1, version.length * 2);
        version = Arrays.copyOf(version, n);
        passes = Arrays.copyOf(passes, n);
      }
      version[slot] = v;
      passes[slot] = pass;
    }
  }

  /**
   * The shape of {@code pod} after a PreFilter run that skipped the Filter plugins marked in {@code skip} and did not
   * limit the nodes, or {@code null} when the pod takes the general path.
   */
  @Nullable Shape shapeOf(PodInfo pod, boolean[] skip) {
    if (filter.length > 64) {
      return null;
    }
    long left = 0;
    boolean fit = false;
    int count = 0;
    for (int i = 0; i < filter.length; i++) {
      if (skip[i]) {
        continue;
      }
      if (role[i] == OTHER) {
        return null;
      }
      left |= 1L << i;
      if (role[i] == FIT) {
        fit = true;
      } else {
        count++;
      }
    }
    if (fit && !standardOnly(pod.requests())) {
      return null;
    }
    PodSpec spec = pod.pod().spec();
    Key key = new Key(left, spec.tolerations(), spec.nodeSelector(), spec.affinity(), spec.nodeName());
    Shape s = shapes.get(key);
    if (s == null) {
      int[] nodeObject = new int[count];
      int k = 0;
      for (int i = 0; i < filter.length; i++) {
        if (!skip[i] && role[i] == NODE_OBJECT) {
          nodeObject[k++] = i;
        }
      }
      s = new Shape(nodeObject, fit);
      shapes.put(key, s);
    }
    return s;
  }

  /** Whether {@code pod}, of shape {@code s}, passes the node-object plugins on {@code view}. */
  boolean passesNodeObject(Shape s, CycleState state, PodInfo pod, NodeInfo view) {
    for (int i : s.nodeObject) {
      if (!filter[i].filter(state, pod, view).isSuccess()) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code r} names no resource but cpu, memory, ephemeral storage and pods. */
  private static boolean standardOnly(ResourceList r) {
    int n = 0;
    for (String name : STANDARD) {
      if (r.has(name)) {
        n++;
      }
    }
    return r.size() == n;
  }

  private static final String[] STANDARD = {"cpu", "memory", "ephemeral-storage", "pods"};
}
