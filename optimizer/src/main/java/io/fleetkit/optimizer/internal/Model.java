package io.fleetkit.optimizer.internal;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.scheduling.RequiredNodeAffinity;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Taints;
import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.scheduler.plugins.coscheduling.GangTopologyPlugin;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Turns nodes, pods that stay put, pods to plan and PodGroups into a {@link PlacementSolution}. Inputs are assumed
 * validated by the public layer (unique names, fixed pods on known nodes).
 */
final class Model {
  static final Taint UNSCHEDULABLE = Taint.of("node.kubernetes.io/unschedulable", "", TaintEffect.NoSchedule);

  final PlacementSolution solution;
  final List<Pod> planned;

  private Model(PlacementSolution solution, List<Pod> planned) {
    this.solution = solution;
    this.planned = planned;
  }

  /**
   * @param fixed pods that keep their node ({@code spec.nodeName}); their usage is taken off the nodes
   * @param planned pods the solver places
   * @param origins for defragmentation, each planned pod's current node (same order), else {@code null}
   */
  static Model of(List<Node> nodes, List<Pod> fixed, List<Pod> planned, List<PodGroup> groups,
      @Nullable List<String> origins, int moveBudget, long useCost, long deviceUseCost) {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      index.put(nodes.get(i).name(), i);
    }
    int n = nodes.size();
    long[] cpu = new long[n];
    long[] mem = new long[n];
    int[][] dev = new int[n][];
    for (int i = 0; i < n; i++) {
      Node node = nodes.get(i);
      cpu[i] = node.allocatable().milliCpu();
      mem[i] = node.allocatable().memoryBytes();
      int count = node.status().gpus().isEmpty()
          ? (int) GpuRequests.whole(node.allocatable()) : node.status().gpus().size();
      dev[i] = new int[count];
      Arrays.fill(dev[i], 1000);
    }
    Map<String, Integer> runningByGroup = new HashMap<>();
    boolean[] hasFixed = new boolean[n];
    for (Pod p : fixed) {
      int i = index.get(p.spec().nodeName());
      hasFixed[i] = true;
      ResourceList r = p.effectiveRequests();
      cpu[i] -= r.milliCpu();
      mem[i] -= r.memoryBytes();
      takeDevices(nodes.get(i), dev[i], p);
      String g = groupKey(p);
      if (g != null) {
        runningByGroup.merge(g, 1, Integer::sum);
      }
    }
    List<NodeFact> facts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Node node = nodes.get(i);
      List<String> models = node.status().gpus().stream().map(GpuDevice::model).distinct().toList();
      facts.add(new NodeFact(i, node.name(), cpu[i], mem[i], dev[i], models, node.metadata().labels(),
          hasFixed[i] ? 0 : useCost, deviceUseCost)); // a node holding pods that stay put is in use anyway
    }
    Map<String, GangFact> gangs = new LinkedHashMap<>();
    for (PodGroup g : groups) {
      Map<String, String> ann = g.metadata().annotations();
      String req = ann.getOrDefault(GangTopologyPlugin.REQUIRED, ann.get(GangTopologyPlugin.KUEUE_REQUIRED));
      String pref = ann.getOrDefault(GangTopologyPlugin.PREFERRED, ann.get(GangTopologyPlugin.KUEUE_PREFERRED));
      String topo = req != null && !req.isBlank() ? req : pref != null && !pref.isBlank() ? pref : null;
      String key = g.metadata().key();
      gangs.put(key, new GangFact(key, g.spec().minMember(), runningByGroup.getOrDefault(key, 0), topo,
          topo != null && topo.equals(req)));
    }
    Map<List<Object>, BitSet> allowedCache = new HashMap<>();
    List<PodSlot> slots = new ArrayList<>(planned.size());
    for (int k = 0; k < planned.size(); k++) {
      Pod p = planned.get(k);
      ResourceList r = p.effectiveRequests();
      int whole = (int) GpuRequests.whole(r);
      int milli = (int) GpuRequests.milli(r);
      BitSet allowed = allowedCache.computeIfAbsent(signature(p, whole, milli),
          s -> allowed(nodes, facts, p, whole, milli));
      String g = groupKey(p);
      PodSlot slot = new PodSlot(k, p.metadata().key(), r.milliCpu(), r.memoryBytes(), whole, milli, allowed,
          g == null ? null : gangs.get(g));
      if (origins != null) {
        NodeFact origin = facts.get(index.get(origins.get(k)));
        slot.origin = origin;
        slot.mustPlace = true;
        slot.setNode(origin);
      }
      slot.moveBudget = moveBudget;
      slots.add(slot);
    }
    return new Model(new PlacementSolution(facts, List.copyOf(gangs.values()), slots), List.copyOf(planned));
  }

  /** The pod's PodGroup as {@code namespace/name}, or null. */
  static @Nullable String groupKey(Pod p) {
    String g = p.podGroupName();
    if (g == null || g.isEmpty()) {
      return null;
    }
    String ns = p.metadata().namespace();
    return ns.isEmpty() ? g : ns + "/" + g;
  }

  private static List<Object> signature(Pod p, int whole, int milli) {
    return Arrays.asList(p.spec().tolerations(), p.spec().nodeSelector(), p.spec().affinity().nodeAffinity(),
        GpuRequests.acceptedModels(p.metadata()), whole, milli > 0);
  }

  private static BitSet allowed(List<Node> nodes, List<NodeFact> facts, Pod p, int whole, int milli) {
    RequiredNodeAffinity affinity = RequiredNodeAffinity.fromAffinity(p.spec().nodeSelector(), p.spec().affinity());
    List<String> models = GpuRequests.acceptedModels(p.metadata());
    BitSet b = new BitSet(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      Node node = nodes.get(i);
      NodeFact f = facts.get(i);
      List<Taint> taints = node.spec().taints();
      if (node.spec().unschedulable()) {
        taints = new ArrayList<>(taints);
        taints.add(UNSCHEDULABLE);
      }
      if (Taints.findMatchingUntoleratedTaint(taints, p.spec().tolerations(), Taints.NO_SCHEDULE_OR_NO_EXECUTE)
          .isPresent()) {
        continue;
      }
      if (!affinity.match(node.name(), node.metadata().labels())) {
        continue;
      }
      if (whole + milli > 0) {
        if (f.deviceFree.length < Math.max(whole, 1)) {
          continue;
        }
        if (!models.isEmpty() && !f.models.isEmpty() && f.models.stream().noneMatch(models::contains)) {
          continue;
        }
      }
      b.set(i);
    }
    return b;
  }

  /** Marks the devices a pod that stays put holds: its recorded ids, else whole devices first-fit, a share best-fit. */
  private static void takeDevices(Node node, int[] free, Pod p) {
    ResourceList r = p.effectiveRequests();
    long whole = GpuRequests.whole(r);
    long milli = GpuRequests.milli(r);
    if (whole + milli == 0) {
      return;
    }
    List<String> ids = GpuRequests.assignedIds(p.metadata());
    List<GpuDevice> devices = node.status().gpus();
    if (!ids.isEmpty() && !devices.isEmpty()) {
      for (String id : ids) {
        for (int d = 0; d < devices.size() && d < free.length; d++) {
          if (devices.get(d).id().equals(id)) {
            free[d] = (int) Math.max(0, free[d] - (whole > 0 ? 1000 : milli));
          }
        }
      }
      return;
    }
    for (int d = 0; d < free.length && whole > 0; d++) {
      if (free[d] == 1000) {
        free[d] = 0;
        whole--;
      }
    }
    if (milli > 0) {
      int best = -1;
      for (int d = 0; d < free.length; d++) {
        if (free[d] >= milli && (best < 0 || free[d] < free[best])) {
          best = d;
        }
      }
      if (best >= 0) {
        free[best] -= (int) milli;
      }
    }
  }
}
