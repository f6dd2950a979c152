package io.fleetkit.simulator;

import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * GPU devices of a node turning unhealthy and healthy again, as a device plugin reports them to the kubelet. The
 * kubelet's device manager keeps unhealthy devices in the node's capacity and leaves them out of its allocatable
 * ({@code pkg/kubelet/cm/devicemanager/manager.go}, {@code GetCapacity}), so the scheduler stops counting them.
 * Kube itself does not evict the pods holding them (kubernetes/kubernetes#60388); the workload on a GPU that has
 * fallen off the bus crashes, so the simulation evicts those pods the way kube's taint manager does
 * ({@code DisruptionTarget=True}, reason {@value #REASON}, then deleted) and their controllers replace them.
 *
 * <p>The failed devices are the node's first {@code devices} ones (its {@code status.gpus} ids, or {@code GPU-0},
 * {@code GPU-1}, ... when it lists none). The pods holding them are read from the ids the scheduler recorded
 * ({@link GpuRequests#IDS_ANNOTATION}); without recorded ids the node's GPU pods are taken to hold its devices in
 * pod-name order, each as many as it requests whole (a share of a device counts as that device). When the node
 * lists its devices, the failed ones also leave {@code status.gpus} until they heal, so that the per-device GPU
 * plugins stop placing pods on them too. Stateless.
 */
final class GpuDeviceFaults {
  /** The reason of the evicted pods' {@code DisruptionTarget} condition. */
  static final String REASON = "DeviceUnhealthy";

  private GpuDeviceFaults() {}

  /**
   * Marks {@code devices} GPUs of {@code nodeName} unhealthy now: allocatable {@code nvidia.com/gpu} drops by that
   * many (not below 0) and the pods holding them are evicted.
   *
   * @return the evicted pods' keys, in order
   */
  static List<String> fail(ObjectStore store, String nodeName, int devices, Instant now) {
    Node node = store.require(Node.class, "", nodeName);
    long alloc = node.allocatable().value(ResourceNames.NVIDIA_GPU);
    List<String> ids = deviceIds(node);
    Set<String> failed = new LinkedHashSet<>(ids.subList(0, Math.min(devices, ids.size())));
    NodeStatus st = node.status();
    List<GpuDevice> healthy = st.gpus().stream().filter(g -> !failed.contains(g.id())).toList();
    store.updateStatus(node.withStatus(new NodeStatus(st.capacity(), withGpus(st.allocatable(),
        Math.max(0, alloc - devices)), st.conditions(), healthy, st.addresses(), st.images())));
    List<String> evicted = new ArrayList<>();
    for (Pod p : holders(store, nodeName, ids, failed)) {
      try {
        PodCondition target = PodCondition.of(PodCondition.DISRUPTION_TARGET, ConditionStatus.True, REASON,
            "GPU device(s) " + String.join(", ", failed) + " of node " + nodeName + " are unhealthy", now);
        PodStatus status = p.status().withConditionUpdated(target);
        if (status != p.status()) {
          store.updateStatus(p.withStatus(status));
        }
        store.delete(Pod.class, p.metadata().namespace(), p.metadata().name());
        evicted.add(p.metadata().key());
      } catch (NotFoundException e) {
        // gone already
      }
    }
    return evicted;
  }

  /**
   * The {@code devices} GPUs of {@code nodeName} are healthy again: allocatable grows back, up to the capacity, and
   * the devices of {@code listed} (the node's device list before the fault) that are missing come back, in order.
   */
  static void heal(ObjectStore store, String nodeName, int devices, List<GpuDevice> listed) {
    store.get(Node.class, "", nodeName).ifPresent(node -> {
      NodeStatus st = node.status();
      long cap = st.capacity().value(ResourceNames.NVIDIA_GPU);
      long alloc = node.allocatable().value(ResourceNames.NVIDIA_GPU);
      List<GpuDevice> gpus = st.gpus();
      if (!listed.isEmpty()) {
        Set<String> present = new LinkedHashSet<>();
        gpus.forEach(g -> present.add(g.id()));
        List<GpuDevice> back = new ArrayList<>();
        int healed = 0;
        for (GpuDevice g : listed) {
          if (present.contains(g.id()) || healed++ < devices) {
            back.add(g);
          }
        }
        gpus = back;
      }
      store.updateStatus(node.withStatus(new NodeStatus(st.capacity(), withGpus(st.allocatable(),
          Math.min(cap, alloc + devices)), st.conditions(), gpus, st.addresses(), st.images())));
    });
  }

  private static ResourceList withGpus(ResourceList r, long gpus) {
    Map<String, Quantity> m = new LinkedHashMap<>(r.asMap());
    m.put(ResourceNames.NVIDIA_GPU, Quantity.of(gpus));
    return ResourceList.of(m);
  }

  private static List<String> deviceIds(Node node) {
    List<String> ids = new ArrayList<>();
    for (GpuDevice g : node.status().gpus()) {
      ids.add(g.id());
    }
    if (ids.isEmpty()) {
      long n = node.status().capacity().value(ResourceNames.NVIDIA_GPU);
      for (int i = 0; i < n; i++) {
        ids.add("GPU-" + i);
      }
    }
    return ids;
  }

  /** The running pods of the node that hold one of {@code failed}. */
  private static List<Pod> holders(ObjectStore store, String nodeName, List<String> ids, Set<String> failed) {
    List<Pod> gpuPods = new ArrayList<>();
    for (Pod p : store.list(Pod.class, "", (Pod q) -> q.spec().nodeName().equals(nodeName)).items()) {
      ResourceList r = p.spec().effectiveRequests();
      if (!p.isTerminal() && p.metadata().deletionTimestamp() == null
          && (GpuRequests.whole(r) > 0 || GpuRequests.milli(r) > 0)) {
        gpuPods.add(p);
      }
    }
    gpuPods.sort(Comparator.comparing(p -> p.metadata().key()));
    List<Pod> out = new ArrayList<>();
    int next = 0; // the next device of the implicit assignment
    for (Pod p : gpuPods) {
      List<String> held = GpuRequests.assignedIds(p.metadata());
      if (held.isEmpty()) {
        long whole = GpuRequests.whole(p.spec().effectiveRequests());
        int n = (int) Math.max(1, whole);
        held = ids.subList(Math.min(next, ids.size()), Math.min(next + n, ids.size()));
        next += whole > 0 ? n : 0;
      }
      for (String id : held) {
        if (failed.contains(id)) {
          out.add(p);
          break;
        }
      }
    }
    return out;
  }
}
