package io.fleetkit.storage.scheduling;

import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeSource;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.storage.EphemeralVolumes;
import io.fleetkit.storage.VolumeMatching;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-scheduler's {@code NodeVolumeLimits} (CSI): a node may attach at most
 * {@code allocatable["attachable-volumes-csi-<driver>"]} distinct volumes of a CSI driver (the key kubelets
 * published before CSINode; FleetKit has no CSINode object). Volumes of the pods on the node and of the new pod are
 * counted once each (the claims of generic ephemeral volumes too, as upstream's CSI limits); an unbound claim counts
 * for its class's provisioner. A node without the key has no limit.
 * Rejects with {@value #REASON_MAX_VOLUME_COUNT} (unschedulable: preemption can free slots). Thread-safe.
 */
public final class NodeVolumeLimitsPlugin implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  public static final String NAME = "NodeVolumeLimits";
  public static final String REASON_MAX_VOLUME_COUNT = "node(s) exceed max volume count";
  /** Prefix of the allocatable key holding a node's limit, followed by the CSI driver name. */
  public static final String LIMIT_KEY_PREFIX = "attachable-volumes-csi-";
  private static final Status MAX = Status.unschedulable(REASON_MAX_VOLUME_COUNT).withPlugin(NAME);

  /** A volume of a driver: {@code id} is the volume (or, unbound, claim) identity. */
  record AttachedVolume(String driver, String id) {
    String limitKey() {
      return LIMIT_KEY_PREFIX + driver;
    }
  }

  /** PreFilter's result: the new pod's volumes, and the allocatable key of each one's driver. */
  private record PodVolumes(List<AttachedVolume> list, List<String> limitKeys) {}

  private static final StateKey<PodVolumes> KEY = StateKey.of("PreFilter" + NAME, PodVolumes.class);

  private final ObjectStore store;
  /** Volumes of pods whose claims were all bound when first seen (a bound claim never moves), by pod uid+key. */
  private final Map<String, List<AttachedVolume>> boundPodVolumes = new ConcurrentHashMap<>();

  NodeVolumeLimitsPlugin(ObjectStore store) {
    this.store = store;
  }

  public static PluginFactory factory(ObjectStore store) {
    return handle -> new NodeVolumeLimitsPlugin(store);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return Set.of(ClusterEvent.ASSIGNED_POD_DELETE, ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE,
        ClusterEvent.STORAGE);
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
    List<AttachedVolume> mine = volumesOf(pod.pod(), true);
    if (mine.isEmpty()) {
      return PreFilterResult.skip();
    }
    List<String> keys = new ArrayList<>(mine.size());
    for (AttachedVolume v : mine) {
      keys.add(v.limitKey());
    }
    state.write(KEY, new PodVolumes(mine, keys));
    return PreFilterResult.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    PodVolumes mine = state.read(KEY);
    if (mine == null) {
      return Status.success();
    }
    ResourceList alloc = node.allocatable();
    // Fast path: even if every claim of every pod here were a distinct volume of one driver, no limit is reached.
    long upperBound = -1;
    Map<String, Set<String>> byDriver = null;
    List<AttachedVolume> list = mine.list();
    for (int i = 0; i < list.size(); i++) {
      String key = mine.limitKeys().get(i);
      if (!alloc.has(key)) {
        continue;
      }
      long limit = alloc.value(key);
      if (upperBound < 0) {
        upperBound = claimVolumesOn(node) + list.size();
      }
      if (upperBound <= limit) {
        continue;
      }
      if (byDriver == null) {
        byDriver = attached(node);
      }
      Set<String> ids = byDriver.computeIfAbsent(list.get(i).driver(), k -> new HashSet<>());
      ids.add(list.get(i).id());
      if (ids.size() > limit) {
        return MAX;
      }
    }
    return Status.success();
  }

  private static long claimVolumesOn(NodeInfo node) {
    long n = 0;
    for (PodInfo p : node.pods()) {
      for (io.fleetkit.api.core.Volume v : p.pod().spec().volumes()) {
        if (v.claim() != null || v.ephemeral() != null) {
          n++;
        }
      }
    }
    return n;
  }

  private Map<String, Set<String>> attached(NodeInfo node) {
    Map<String, Set<String>> out = new HashMap<>();
    for (PodInfo p : node.pods()) {
      for (AttachedVolume v : volumesOf(p.pod(), false)) {
        out.computeIfAbsent(v.driver(), k -> new HashSet<>()).add(v.id());
      }
    }
    return out;
  }

  private List<AttachedVolume> volumesOf(Pod pod, boolean includeUnbound) {
    String cacheKey = pod.metadata().uid() + "/" + pod.metadata().key();
    List<AttachedVolume> cached = boundPodVolumes.get(cacheKey);
    if (cached != null) {
      return cached;
    }
    List<PodClaims.Ref> claims = PodClaims.withEphemeral(pod);
    if (claims.isEmpty()) {
      return List.of();
    }
    List<AttachedVolume> out = new ArrayList<>();
    boolean allBound = true;
    String ns = pod.metadata().namespace();
    for (PodClaims.Ref ref : claims) {
      Optional<PersistentVolumeClaim> c = store.get(PersistentVolumeClaim.class, ns, ref.name());
      // an ephemeral volume's claim counts only once it exists and is the pod's (VolumeBinding refuses the pod else)
      if (c.isEmpty() || (ref.ephemeral() && EphemeralVolumes.checkVolumeIsForPod(pod, c.get()).isPresent())) {
        allBound = false;
        continue;
      }
      String volumeName = c.get().spec().volumeName();
      if (volumeName.isEmpty()) {
        allBound = false;
        String cls = VolumeMatching.claimClass(c.get());
        Optional<StorageClass> sc = cls.isEmpty() ? Optional.empty() : store.get(StorageClass.class, "", cls);
        if (includeUnbound && sc.isPresent()) {
          out.add(new AttachedVolume(sc.get().provisioner(), "claim:" + c.get().metadata().key()));
        }
        continue;
      }
      Optional<PersistentVolume> pv = store.get(PersistentVolume.class, "", volumeName);
      if (pv.isPresent() && pv.get().spec().source() instanceof PersistentVolumeSource.Csi csi) {
        out.add(new AttachedVolume(csi.driver(), csi.volumeHandle()));
      }
    }
    List<AttachedVolume> result = List.copyOf(out);
    if (allBound && boundPodVolumes.size() < 100_000) {
      boundPodVolumes.put(cacheKey, result);
    }
    return result;
  }
}
