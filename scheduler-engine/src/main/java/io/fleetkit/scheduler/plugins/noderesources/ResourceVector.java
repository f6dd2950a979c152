package io.fleetkit.scheduler.plugins.noderesources;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.api.framework.PodInfo;
import java.util.List;

/**
 * The resources a scorer looks at, resolved once at construction, with kube's rules for reading a node's allocatable
 * and requested amount of each ({@code resourceAllocationScorer.calculateResourceAllocatableRequest}).
 *
 * <p>cpu is in milli-cores, everything else in whole units. Scoring cpu and memory uses the non-zero requests
 * (100m / 200Mi for a pod asking for none) unless {@code useRequested}; ephemeral storage and scalar resources always
 * use the real requests. A scalar resource the pod does not request, or the node does not have, is left out (its
 * allocatable reads as 0). Other native names ({@code pods}, {@code storage}) are never scored, as in kube.
 * Reading allocates nothing. Immutable and thread-safe.
 */
final class ResourceVector {
  private static final int CPU = 0;
  private static final int MEMORY = 1;
  private static final int EPHEMERAL = 2;
  private static final int SCALAR = 3;
  private static final int IGNORED = 4;

  private final String[] names;
  private final int[] kinds;
  private final long[] weights;
  private final boolean useRequested;
  private final boolean cpuMemory;

  ResourceVector(List<ResourceSpec> resources, boolean useRequested) {
    int n = resources.size();
    names = new String[n];
    kinds = new int[n];
    weights = new long[n];
    for (int i = 0; i < n; i++) {
      names[i] = resources.get(i).name();
      weights[i] = resources.get(i).weight();
      kinds[i] = kindOf(names[i]);
    }
    this.useRequested = useRequested;
    this.cpuMemory = n == 2 && kinds[0] == CPU && kinds[1] == MEMORY;
  }

  /**
   * Whether the resources are exactly cpu then memory (both plugins' default): scorers then read the node's fields
   * directly, with the same arithmetic in the same order as the general loop.
   */
  boolean cpuMemory() {
    return cpuMemory;
  }

  /** The node's requested milli-cpu with the pod's request added ({@link #requested} for cpu). */
  long requestedCpu(NodeInfo node, long podRequest) {
    return (useRequested ? node.requestedMilliCpu() : node.nonZeroRequestedMilliCpu()) + podRequest;
  }

  /** The node's requested memory with the pod's request added ({@link #requested} for memory). */
  long requestedMemory(NodeInfo node, long podRequest) {
    return (useRequested ? node.requestedMemory() : node.nonZeroRequestedMemory()) + podRequest;
  }

  /** {@link #requestedCpu(NodeInfo, long)} for the node at position {@code node} of {@code table}. */
  long requestedCpu(NodeTable table, int node, long podRequest) {
    return (useRequested ? table.requestedMilliCpu(node) : table.nonZeroRequestedMilliCpu(node)) + podRequest;
  }

  /** {@link #requestedMemory(NodeInfo, long)} for the node at position {@code node} of {@code table}. */
  long requestedMemory(NodeTable table, int node, long podRequest) {
    return (useRequested ? table.requestedMemory(node) : table.nonZeroRequestedMemory(node)) + podRequest;
  }

  private static int kindOf(String name) {
    return switch (name) {
      case ResourceNames.CPU -> CPU;
      case ResourceNames.MEMORY -> MEMORY;
      case ResourceNames.EPHEMERAL_STORAGE -> EPHEMERAL;
      default -> isScalar(name) ? SCALAR : IGNORED;
    };
  }

  /**
   * kube's {@code IsScalarResourceName}: extended ({@code domain/name}), prefixed native ({@code kubernetes.io/...}),
   * hugepages and attachable-volume resources.
   */
  static boolean isScalar(String name) {
    return name.indexOf('/') >= 0 || name.startsWith("hugepages-") || name.startsWith("attachable-volumes-");
  }

  int size() {
    return names.length;
  }

  long weight(int i) {
    return weights[i];
  }

  /** The pod's request for each resource, in order: computed once per pod in PreScore. */
  long[] podRequests(PodInfo pod) {
    ResourceList r = pod.requests();
    long[] out = new long[names.length];
    for (int i = 0; i < names.length; i++) {
      out[i] = switch (kinds[i]) {
        case CPU -> useRequested ? r.milliCpu() : pod.nonZeroMilliCpu();
        case MEMORY -> useRequested ? r.memoryBytes() : pod.nonZeroMemory();
        case EPHEMERAL -> r.ephemeralStorageBytes();
        case SCALAR -> r.value(names[i]);
        default -> 0;
      };
    }
    return out;
  }

  /** Whether every request is zero (kube's {@code isBestEffortPod} over these resources). */
  static boolean allZero(long[] podRequests) {
    for (long r : podRequests) {
      if (r != 0) {
        return false;
      }
    }
    return true;
  }

  /** The node's allocatable amount of resource {@code i}, or 0 when the resource is left out of scoring. */
  long allocatable(int i, NodeInfo node, long podRequest) {
    ResourceList a = node.allocatable();
    return switch (kinds[i]) {
      case CPU -> a.milliCpu();
      case MEMORY -> a.memoryBytes();
      case EPHEMERAL -> a.ephemeralStorageBytes();
      case SCALAR -> podRequest == 0 || !a.has(names[i]) ? 0 : a.value(names[i]);
      default -> 0;
    };
  }

  /** The node's requested amount of resource {@code i} with the pod added. */
  long requested(int i, NodeInfo node, long podRequest) {
    return switch (kinds[i]) {
      case CPU -> (useRequested ? node.requestedMilliCpu() : node.nonZeroRequestedMilliCpu()) + podRequest;
      case MEMORY -> (useRequested ? node.requestedMemory() : node.nonZeroRequestedMemory()) + podRequest;
      case EPHEMERAL -> node.requestedEphemeralStorage() + podRequest;
      case SCALAR -> node.requested().value(names[i]) + podRequest;
      default -> 0;
    };
  }
}
