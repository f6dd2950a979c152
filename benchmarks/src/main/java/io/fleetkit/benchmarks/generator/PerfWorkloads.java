package io.fleetkit.benchmarks.generator;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import io.fleetkit.api.scheduling.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The node and pod templates of kube-scheduler's scheduler_perf suite
 * (kubernetes/kubernetes test/integration/scheduler_perf/templates/*.yaml), as FleetKit objects.
 */
public final class PerfWorkloads {
  public static final String HOSTNAME = "kubernetes.io/hostname";
  public static final String ZONE = "topology.kubernetes.io/zone";
  private static final ResourceList NODE_DEFAULT = ResourceList.builder()
      .put("cpu", "4").put("memory", "32Gi").put("pods", "110").build();
  private static final ResourceList POD_DEFAULT = ResourceList.builder()
      .put("cpu", "100m").put("memory", "500Mi").build();

  private PerfWorkloads() {}

  /** node-default.yaml: 4 CPU, 32Gi, 110 pods, Ready; hostname label; zone label from {@code zones} round robin. */
  public static List<Node> nodes(int count, List<String> zones) {
    List<Node> nodes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String name = "node-" + i;
      Node.Builder b = Node.builder().name(name).label(HOSTNAME, name).capacity(NODE_DEFAULT)
          .allocatable(NODE_DEFAULT).ready();
      if (!zones.isEmpty()) {
        b.label(ZONE, zones.get(i % zones.size()));
      }
      nodes.add(b.build());
    }
    return nodes;
  }

  /** Nodes of the given capacity (for peer comparisons). */
  public static List<Node> nodes(int count, ResourceList capacity) {
    List<Node> nodes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String name = "node-" + i;
      nodes.add(Node.builder().name(name).label(HOSTNAME, name).capacity(capacity).allocatable(capacity).ready()
          .build());
    }
    return nodes;
  }

  private static Pod.Builder base(String namespace, String name, ResourceList requests) {
    return Pod.builder().namespace(namespace).name(name)
        .container("pause", "registry.k8s.io/pause:3.10", requests, requests);
  }

  private static List<Pod> make(int count, IntFunction<Pod> f) {
    List<Pod> pods = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      pods.add(f.apply(i));
    }
    return pods;
  }

  /** pod-default.yaml: one pause container, requests = limits = 100m / 500Mi. */
  public static List<Pod> defaultPods(String namespace, String prefix, int count) {
    return make(count, i -> base(namespace, prefix + i, POD_DEFAULT).build());
  }

  /** Pods with the given requests (= limits), for peer comparisons. */
  public static List<Pod> pods(String namespace, String prefix, int count, ResourceList requests) {
    return make(count, i -> base(namespace, prefix + i, requests).build());
  }

  /** pod-with-pod-anti-affinity.yaml: color=green, required anti-affinity on hostname in sched-0/sched-1. */
  public static List<Pod> antiAffinityPods(String namespace, String prefix, int count) {
    PodAffinityTerm term = new PodAffinityTerm(LabelSelector.of(Map.of("color", "green")),
        List.of("sched-1", "sched-0"), HOSTNAME, null, List.of(), List.of());
    Affinity affinity = new Affinity(null, null, new PodAffinity(List.of(term), List.of()));
    return make(count, i -> base(namespace, prefix + i, POD_DEFAULT).label("color", "green").affinity(affinity)
        .build());
  }

  /** pod-with-pod-affinity.yaml: color=blue, required affinity on zone in sched-0/sched-1. */
  public static List<Pod> affinityPods(String namespace, String prefix, int count) {
    PodAffinityTerm term = new PodAffinityTerm(LabelSelector.of(Map.of("color", "blue")),
        List.of("sched-1", "sched-0"), ZONE, null, List.of(), List.of());
    Affinity affinity = new Affinity(null, new PodAffinity(List.of(term), List.of()), null);
    return make(count, i -> base(namespace, prefix + i, POD_DEFAULT).label("color", "blue").affinity(affinity)
        .build());
  }

  /** pod-with-preferred-pod-affinity.yaml: color=red, preferred affinity weight 1 on hostname. */
  public static List<Pod> preferredAffinityPods(String namespace, String prefix, int count) {
    PodAffinityTerm term = new PodAffinityTerm(LabelSelector.of(Map.of("color", "red")),
        List.of("sched-1", "sched-0"), HOSTNAME, null, List.of(), List.of());
    Affinity affinity = new Affinity(null,
        new PodAffinity(List.of(), List.of(new WeightedPodAffinityTerm(1, term))), null);
    return make(count, i -> base(namespace, prefix + i, POD_DEFAULT).label("color", "red").affinity(affinity)
        .build());
  }

  /** pod-with-node-affinity.yaml: required zone In [zone1, zone2]. */
  public static List<Pod> nodeAffinityPods(String namespace, String prefix, int count) {
    NodeSelector required = new NodeSelector(List.of(new NodeSelectorTerm(List.of(
        new NodeSelectorRequirement(ZONE, NodeSelectorOperator.In, List.of("zone1", "zone2"))), List.of())));
    Affinity affinity = new Affinity(new NodeAffinity(required, List.of()), null, null);
    return make(count, i -> base(namespace, prefix + i, POD_DEFAULT).affinity(affinity).build());
  }

  /** pod-with-topology-spreading.yaml (DoNotSchedule) or its preferred variant (ScheduleAnyway): maxSkew 5, zone. */
  public static List<Pod> spreadingPods(String namespace, String prefix, int count, boolean hard) {
    TopologySpreadConstraint tsc = TopologySpreadConstraint.of(5, ZONE,
        hard ? UnsatisfiableConstraintAction.DoNotSchedule : UnsatisfiableConstraintAction.ScheduleAnyway,
        LabelSelector.of(Map.of("color", "blue")));
    return make(count, i -> base(namespace, prefix + i, POD_DEFAULT).label("color", "blue")
        .topologySpreadConstraint(tsc).build());
  }

  /** pod-low-priority.yaml: priority 0, 900m / 500Mi (four fill a node's 4 CPUs to 3.6). */
  public static List<Pod> lowPriorityPods(String namespace, String prefix, int count) {
    ResourceList r = ResourceList.builder().put("cpu", "900m").put("memory", "500Mi").build();
    return make(count, i -> base(namespace, prefix + i, r).priority(0).terminationGracePeriodSeconds(0).build());
  }

  /** pod-high-priority.yaml: priority 10, 3000m / 500Mi (must preempt three low-priority pods). */
  public static List<Pod> highPriorityPods(String namespace, String prefix, int count) {
    ResourceList r = ResourceList.builder().put("cpu", "3000m").put("memory", "500Mi").build();
    return make(count, i -> base(namespace, prefix + i, r).priority(10).build());
  }

  /** pod-high-priority-large-cpu.yaml: priority 10, 9 CPUs: never fits a 4-CPU node. */
  public static Pod largeCpuPod(String namespace, String name) {
    ResourceList r = ResourceList.builder().put("cpu", "9").put("memory", "500Mi").build();
    return base(namespace, name, r).priority(10).build();
  }

  /** Zone names zone1..zoneN. */
  public static List<String> zones(int n) {
    List<String> z = new ArrayList<>(n);
    for (int i = 1; i <= n; i++) {
      z.add("zone" + i);
    }
    return z;
  }
}
