package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.Taints;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import io.fleetkit.scheduler.dra.AllocationOutcome;
import io.fleetkit.scheduler.dra.StructuredAllocator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Packs pods onto new nodes Karpenter-style: each new node (a "claim") keeps the instance types that can still hold
 * all its pods; a pod joins the first claim that keeps at least one type, else opens a new claim; every claim
 * launches its cheapest remaining type.
 *
 * <p>Whether a pod may run on a type at all (labels, node affinity, taints, resources and DRA devices of an empty
 * node) is decided by the scheduler's real filters on a probe node of that type, which has the type's device slices
 * ({@link InstanceType#resourceSlicesFor}); whether a claim's pods fit together is a sum of requests against the
 * type's capacity and pod count, and, for pods with ResourceClaims not allocated yet, whether the scheduler's
 * {@link StructuredAllocator} can allocate all of those claims together on the type's devices. Inter-pod constraints
 * between the pods of one claim are not modelled (the scheduler enforces them when it binds, and the next batch covers
 * pods that then stay pending). Why a pod fits no type is worked out only when asked ({@link #error}). Not thread-safe.
 */
final class Packer {
  private final List<InstanceType> types;
  private final SimulatedCluster probe;
  private final Map<PodSpec, boolean[]> compatibility = new HashMap<>();
  /** The DeviceClasses the allocator reads. */
  private final List<DeviceClass> deviceClasses;
  /** Per type, its probe node and that node's device slices. */
  private final Node[] probeNodes;
  private final List<List<ResourceSlice>> probeSlices = new ArrayList<>();

  /** A planned new node. */
  static final class Claim {
    final List<PodInfo> pods = new ArrayList<>();
    List<InstanceType> compatible;
    ResourceList requested = ResourceList.EMPTY;
    /** The ResourceClaims of its pods not allocated yet, each once: allocated together on the new node. */
    List<ResourceClaim> deviceClaims = List.of();

    Claim(List<InstanceType> compatible) {
      this.compatible = compatible;
    }

    InstanceType cheapest() {
      return compatible.get(0);
    }
  }

  /** The claims, and the pods no type can take. */
  record Packing(List<Claim> claims, List<Pod> unschedulable) {}

  /**
   * @param types sorted by price, cheapest first
   * @param probe a simulation without nodes, with the cluster's DRA objects (claims, classes)
   * @param deviceClasses the cluster's DeviceClasses
   */
  Packer(List<InstanceType> types, SimulatedCluster probe, List<DeviceClass> deviceClasses) {
    this.types = List.copyOf(types);
    this.probe = probe;
    this.deviceClasses = List.copyOf(deviceClasses);
    this.probeNodes = new Node[this.types.size()];
    for (int i = 0; i < this.types.size(); i++) {
      probeNodes[i] = node(this.types.get(i), probeName(i));
      List<ResourceSlice> slices = this.types.get(i).resourceSlicesFor(probeName(i));
      probeSlices.add(slices);
      probe.addNode(probeNodes[i], slices);
    }
  }

  private static String probeName(int i) {
    return "probe-" + i;
  }

  /** A node of {@code type} named {@code name}. */
  static Node node(InstanceType type, String name) {
    return Node.builder().name(name).labels(type.labels()).label(Provisioner.INSTANCE_TYPE_LABEL, type.name())
        .label("kubernetes.io/hostname", name).taints(type.taints()).capacity(type.capacity()).ready().build();
  }

  /** Packs {@code pods}, largest (cpu plus memory share of the largest type) first. */
  Packing pack(List<Pod> pods) {
    List<PodInfo> sorted = new ArrayList<>();
    for (Pod p : pods) {
      sorted.add(PodInfos.of(p.withNodeName("")));
    }
    sorted.sort(Comparator.comparingLong((PodInfo p) -> p.requests().milliCpu())
        .thenComparingLong(p -> p.requests().memoryBytes()).reversed().thenComparing(PodInfo::key));
    List<Claim> claims = new ArrayList<>();
    List<Pod> unschedulable = new ArrayList<>();
    for (PodInfo p : sorted) {
      boolean[] ok = compatible(p);
      List<ResourceClaim> own = unallocatedClaims(p.pod());
      boolean placed = false;
      for (Claim c : claims) {
        List<InstanceType> keep = new ArrayList<>();
        ResourceList req = c.requested.add(p.requests());
        List<ResourceClaim> devices = own.isEmpty() ? c.deviceClaims : union(c.deviceClaims, own);
        for (InstanceType t : c.compatible) {
          int i = types.indexOf(t);
          if (ok[i] && fits(req, c.pods.size() + 1, t) && (own.isEmpty() || devicesFit(i, devices))) {
            keep.add(t);
          }
        }
        if (!keep.isEmpty()) {
          c.pods.add(p);
          c.requested = req;
          c.compatible = keep;
          c.deviceClaims = devices;
          placed = true;
          break;
        }
      }
      if (placed) {
        continue;
      }
      List<InstanceType> fresh = new ArrayList<>();
      for (int i = 0; i < types.size(); i++) {
        if (ok[i] && fits(p.requests(), 1, types.get(i)) && (own.isEmpty() || devicesFit(i, own))) {
          fresh.add(types.get(i));
        }
      }
      if (fresh.isEmpty()) {
        unschedulable.add(p.pod());
        continue;
      }
      Claim c = new Claim(fresh);
      c.pods.add(p);
      c.requested = p.requests();
      c.deviceClaims = own;
      claims.add(c);
    }
    return new Packing(claims, unschedulable);
  }

  /**
   * Why no type can take {@code pod} on a new node, worded as Karpenter's scheduler for one NodePool
   * ({@code pkg/controllers/provisioning/scheduling}: {@code Scheduler.add}, {@code NodeClaim.CanAdd},
   * {@code InstanceTypeFilterError.Error}): no type offered at all; the types' taints the pod does not tolerate (each
   * {@code did not tolerate taint}, {@code "; "}-joined as {@code multierr}), when every type rejects it for a taint
   * (Karpenter checks a NodePool's taints before its types); which of requirements (labels, affinity and the other
   * filters on an empty node of the type) and resources (its requests and one pod against the type's capacity) no
   * type met, with {@code requirements=} the NodePool's ({@link #requirements}) and {@code resources=} the pod's
   * requests; or, when types meet both, that none satisfies its ResourceClaims too. Each type
   * is its own single offering, so Karpenter's "had a required offering" criterion always holds. Built only when
   * asked: for events.
   */
  String error(Pod pod, String nodePool) {
    if (types.isEmpty()) {
      return "nodepool requirements filtered out all available instance types";
    }
    PodInfo p = PodInfos.of(pod.withNodeName(""));
    List<ResourceClaim> own = unallocatedClaims(p.pod());
    boolean allTaints = true;
    boolean requirementsMet = false;
    boolean fit = false;
    boolean requirementsAndOfferingOnly = false; // met the requirements, not the resources
    boolean fitsAndOfferingOnly = false; // had the resources, not the requirements
    boolean both = false; // met both: then its devices failed
    for (int i = 0; i < types.size(); i++) {
      Status s = probe.check(p, probeName(i));
      String plugin = s.plugin();
      boolean taint = !s.isSuccess() && "TaintToleration".equals(plugin);
      allTaints &= taint;
      boolean compat = s.isSuccess() || "NodeResourcesFit".equals(plugin) || "DynamicResources".equals(plugin);
      boolean fits = fits(p.requests(), 1, types.get(i));
      requirementsMet |= compat;
      fit |= fits;
      requirementsAndOfferingOnly |= compat && !fits;
      fitsAndOfferingOnly |= fits && !compat;
      both |= compat && fits;
    }
    if (allTaints) {
      List<String> errs = new ArrayList<>();
      for (Taint t : types.get(0).taints()) {
        if (Taints.NO_SCHEDULE_OR_NO_EXECUTE.test(t)
            && !Taints.tolerationsTolerateTaint(pod.spec().tolerations(), t)) {
          errs.add("did not tolerate taint (taint=" + (t.value().isEmpty() ? t.key() : t.key() + "=" + t.value())
              + ":" + t.effect() + ")");
        }
      }
      if (!errs.isEmpty()) {
        return String.join("; ", errs);
      }
    }
    if (both && !own.isEmpty()) {
      // Karpenter filters the instance types that meet requirements and resources by the devices it could allocate
      return "no instance type satisfies both scheduling and dynamic resource requirements";
    }
    String tail = ", requirements=" + requirements(pod, nodePool) + ", resources=" + resources(p.requests());
    if (both) {
      return "no instance type met the requirements/resources/offering tuple" + tail;
    }
    if (!requirementsMet && !fit) {
      return "no instance type met the scheduling requirements or had enough resources" + tail;
    }
    if (!requirementsMet) {
      return "no instance type met all requirements" + tail;
    }
    if (!fit) {
      String msg = "no instance type has enough resources" + tail;
      // Karpenter's special case for a user typo: a CPU request of at least 1M (m vs M)
      return p.requests().milliCpu() >= 1_000_000_000L ? msg + " (CPU request >= 1 Million, m vs M typo?)" : msg;
    }
    if (fitsAndOfferingOnly) {
      return "no instance type which had enough resources and the required offering met the scheduling requirements"
          + tail;
    }
    if (requirementsAndOfferingOnly) {
      return "no instance type which met the scheduling requirements and the required offering had the required "
          + "resources" + tail;
    }
    return "no instance type met the requirements/resources/offering tuple" + tail;
  }

  /**
   * Karpenter's {@code Requirements.String} of a new NodeClaim's requirements for {@code pod}: those its NodePool's
   * template always has ({@code karpenter.sh/nodepool In [<nodePool>]}, {@code karpenter.sh/initialized In [true]},
   * {@code karpenter.sh/registered In [true]}; FleetKit has no NodeClass label) and the pod's, {@code key In [v]} per
   * node-selector entry and the expressions of its first required node-affinity term ({@code key Op [v1 v2]},
   * {@code key Exists}), sorted, {@code ", "}-joined; the hostname label left out, as Karpenter's restricted labels. A
   * key the pod also constrains is shown as the pod's.
   */
  static String requirements(Pod pod, String nodePool) {
    Map<String, String> out = new TreeMap<>();
    out.put("karpenter.sh/initialized", "karpenter.sh/initialized In [true]");
    out.put("karpenter.sh/nodepool", "karpenter.sh/nodepool In [" + nodePool + "]");
    out.put("karpenter.sh/registered", "karpenter.sh/registered In [true]");
    for (Map.Entry<String, String> e : pod.spec().nodeSelector().entrySet()) {
      if (!e.getKey().equals("kubernetes.io/hostname")) {
        out.put(e.getKey(), e.getKey() + " In [" + e.getValue() + "]");
      }
    }
    NodeAffinity na = pod.spec().affinity().nodeAffinity();
    if (na != null && na.requiredDuringSchedulingIgnoredDuringExecution() != null
        && !na.requiredDuringSchedulingIgnoredDuringExecution().nodeSelectorTerms().isEmpty()) {
      NodeSelectorTerm term = na.requiredDuringSchedulingIgnoredDuringExecution().nodeSelectorTerms().get(0);
      for (NodeSelectorRequirement r : term.matchExpressions()) {
        if (r.key().equals("kubernetes.io/hostname")) {
          continue;
        }
        if (r.operator() == NodeSelectorOperator.Exists || r.operator() == NodeSelectorOperator.DoesNotExist) {
          out.put(r.key(), r.key() + " " + r.operator());
        } else {
          List<String> values = new ArrayList<>(r.values());
          Collections.sort(values);
          if (values.size() > 5) {
            int others = values.size() - 5;
            values = new ArrayList<>(values.subList(0, 5));
            values.add("and " + others + " others");
          }
          out.put(r.key(), r.key() + " " + r.operator() + " [" + String.join(" ", values) + "]");
        }
      }
    }
    List<String> sorted = new ArrayList<>(out.values());
    Collections.sort(sorted);
    return String.join(", ", sorted);
  }

  /** Karpenter's {@code resources.String} of a pod's requests: JSON, keys sorted, with {@code "pods":"1"}. */
  static String resources(ResourceList requests) {
    Map<String, String> all = new TreeMap<>();
    requests.forEach((name, q) -> {
      if (!q.isZero()) {
        all.put(name, q.toString());
      }
    });
    all.put("pods", "1");
    StringBuilder b = new StringBuilder("{");
    for (Map.Entry<String, String> e : all.entrySet()) {
      if (b.length() > 1) {
        b.append(',');
      }
      b.append('"').append(e.getKey()).append("\":\"").append(e.getValue()).append('"');
    }
    return b.append('}').toString();
  }

  /** The claims of {@code pod} (as the probe holds them) not allocated yet. */
  private List<ResourceClaim> unallocatedClaims(Pod pod) {
    if (pod.spec().resourceClaims().isEmpty()) {
      return List.of();
    }
    List<ResourceClaim> out = new ArrayList<>();
    for (ResourceClaim c : probe.claimsOf(pod)) {
      if (c.status().allocation() == null) {
        out.add(c);
      }
    }
    return out;
  }

  /** {@code a} followed by the claims of {@code b} not in it (by {@code namespace/name}). */
  private static List<ResourceClaim> union(List<ResourceClaim> a, List<ResourceClaim> b) {
    Map<String, ResourceClaim> all = new LinkedHashMap<>();
    for (ResourceClaim c : a) {
      all.put(c.metadata().key(), c);
    }
    for (ResourceClaim c : b) {
      all.putIfAbsent(c.metadata().key(), c);
    }
    return List.copyOf(all.values());
  }

  /** Whether {@code claims} can all be allocated together on a new node of type {@code i}. */
  private boolean devicesFit(int i, List<ResourceClaim> claims) {
    if (probeSlices.get(i).isEmpty()) {
      return false;
    }
    return StructuredAllocator.of(deviceClasses, probeSlices.get(i), Set.of()).allocate(probeNodes[i], claims)
        instanceof AllocationOutcome.Allocated;
  }

  private static boolean fits(ResourceList requested, int podCount, InstanceType t) {
    return podCount <= t.capacity().pods() && requested.fitsIn(t.capacity());
  }

  private boolean[] compatible(PodInfo p) {
    return compatibility.computeIfAbsent(p.pod().spec(), s -> {
      boolean[] ok = new boolean[types.size()];
      for (int i = 0; i < ok.length; i++) {
        ok[i] = probe.check(p, probeName(i)).isSuccess();
      }
      return ok;
    });
  }
}
