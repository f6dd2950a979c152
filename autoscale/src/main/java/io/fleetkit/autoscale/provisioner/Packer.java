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
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import io.fleetkit.scheduler.dra.AllocationOutcome;
import io.fleetkit.scheduler.dra.StructuredAllocator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
 * pods that then stay pending). Not thread-safe.
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
