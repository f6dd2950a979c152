package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.autoscale.cluster.simulator.SimulatedCluster;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Packs pods onto new nodes Karpenter-style: each new node (a "claim") keeps the instance types that can still hold
 * all its pods; a pod joins the first claim that keeps at least one type, else opens a new claim; every claim
 * launches its cheapest remaining type.
 *
 * <p>Whether a pod may run on a type at all (labels, node affinity, taints, resources of an empty node) is decided by
 * the scheduler's real filters on a probe node of that type; whether a claim's pods fit together is a sum of
 * requests against the type's capacity and pod count. Inter-pod constraints between the pods of one claim are not
 * modelled (the scheduler enforces them when it binds, and the next batch covers pods that then stay pending).
 * Not thread-safe.
 */
final class Packer {
  private final List<InstanceType> types;
  private final SimulatedCluster probe;
  private final Map<PodSpec, boolean[]> compatibility = new HashMap<>();

  /** A planned new node. */
  static final class Claim {
    final List<PodInfo> pods = new ArrayList<>();
    List<InstanceType> compatible;
    ResourceList requested = ResourceList.EMPTY;

    Claim(List<InstanceType> compatible) {
      this.compatible = compatible;
    }

    InstanceType cheapest() {
      return compatible.get(0);
    }
  }

  /** The claims, and the pods no type can take. */
  record Packing(List<Claim> claims, List<Pod> unschedulable) {}

  /** @param types sorted by price, cheapest first */
  Packer(List<InstanceType> types, SimulatedCluster probe) {
    this.types = List.copyOf(types);
    this.probe = probe;
    for (int i = 0; i < this.types.size(); i++) {
      probe.addNode(node(this.types.get(i), probeName(i)));
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
      boolean placed = false;
      for (Claim c : claims) {
        List<InstanceType> keep = new ArrayList<>();
        ResourceList req = c.requested.add(p.requests());
        for (InstanceType t : c.compatible) {
          if (ok[types.indexOf(t)] && fits(req, c.pods.size() + 1, t)) {
            keep.add(t);
          }
        }
        if (!keep.isEmpty()) {
          c.pods.add(p);
          c.requested = req;
          c.compatible = keep;
          placed = true;
          break;
        }
      }
      if (placed) {
        continue;
      }
      List<InstanceType> fresh = new ArrayList<>();
      for (int i = 0; i < types.size(); i++) {
        if (ok[i] && fits(p.requests(), 1, types.get(i))) {
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
      claims.add(c);
    }
    return new Packing(claims, unschedulable);
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
