package io.fleetkit.storage.scheduling;

import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
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
import io.fleetkit.api.store.ObjectStore;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * kube-scheduler's {@code VolumeRestrictions} ({@code pkg/scheduler/framework/plugins/volumerestrictions/
 * volume_restrictions.go}): a claim with access mode ReadWriteOncePod is used by one pod at a time.
 *
 * <ul>
 *   <li>PreFilter reads every claim the pod mounts from the store: a missing one rejects the pod as
 *       UNSCHEDULABLE_AND_UNRESOLVABLE with {@code persistentvolumeclaim "<name>" not found} (upstream's lister
 *       error). It then counts the pod's ReadWriteOncePod claims already used by a pod on some node of the snapshot
 *       (bound or assumed; upstream's {@code StorageInfos().IsPVCUsedByPods}); with none, the pod is skipped.
 *   <li>Filter rejects every node while that count is above zero, as UNSCHEDULABLE (preemption may evict the user)
 *       with {@value #REASON_READ_WRITE_ONCE_POD_CONFLICT}.
 *   <li>PreFilter extensions: preemption's dry run adds or removes pods, counting their volumes that mount one of the
 *       pod's ReadWriteOncePod claims (upstream's {@code updateWithPod}; FleetKit also requires the same namespace,
 *       as claim names are namespaced).
 *   <li>Queueing hints: upstream's {@code isSchedulableAfterPodDeleted} (a deleted pod of the namespace sharing a
 *       claim name) and {@code isSchedulableAfterPersistentVolumeClaimAdded} (a claim the pod mounts was created);
 *       a node addition re-queues without a hint.
 * </ul>
 *
 * <p>Upstream's in-tree disk conflicts (GCE PD, AWS EBS, Ceph RBD, iSCSI: {@value #REASON_DISK_CONFLICT}) are not
 * ported: FleetKit's {@link VolumeSource} has none of those sources, so no pod can conflict that way.
 *
 * <p>Thread-safe: the plugin holds only the store; its cycle state is immutable.
 */
public final class VolumeRestrictionsPlugin implements PreFilterPlugin, FilterPlugin,
    PreFilterPlugin.PreFilterExtensions, EnqueueExtensions {
  public static final String NAME = "VolumeRestrictions";
  /** Upstream's {@code ErrReasonReadWriteOncePodConflict}, verbatim. */
  public static final String REASON_READ_WRITE_ONCE_POD_CONFLICT =
      "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";
  /** Upstream's {@code ErrReasonDiskConflict}; never given here (see the class comment). */
  public static final String REASON_DISK_CONFLICT = "node(s) had no available disk";

  private static final StateKey<State> KEY = StateKey.of("PreFilter" + NAME, State.class);
  private static final Status CONFLICT =
      Status.unschedulable(REASON_READ_WRITE_ONCE_POD_CONFLICT).withPlugin(NAME);
  private static final Status NO_STATE =
      Status.error("cannot read \"PreFilter" + NAME + "\" from cycleState").withPlugin(NAME);

  /**
   * PreFilter's result: the pod's namespace and ReadWriteOncePod claim names, and how many references to them
   * scheduled pods hold (upstream's {@code preFilterState}). Immutable: the extensions write an updated copy.
   */
  private record State(String namespace, Set<String> readWriteOncePodClaims, int conflictingRefCount) {
    State withPod(Pod other, int multiplier) {
      if (!other.metadata().namespace().equals(namespace)) {
        return this;
      }
      int refs = 0;
      for (Volume v : other.spec().volumes()) {
        VolumeSource.PersistentVolumeClaim c = v.claim();
        if (c != null && readWriteOncePodClaims.contains(c.claimName())) {
          refs++;
        }
      }
      return refs == 0 ? this : new State(namespace, readWriteOncePodClaims, conflictingRefCount + multiplier * refs);
    }
  }

  private final ObjectStore store;

  VolumeRestrictionsPlugin(ObjectStore store) {
    this.store = store;
  }

  /** A factory reading claims from {@code store} (upstream's PVC lister). */
  public static PluginFactory factory(ObjectStore store) {
    return handle -> new VolumeRestrictionsPlugin(store);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
    List<String> claims = PodClaims.of(pod.pod());
    if (claims.isEmpty()) {
      return PreFilterResult.skip();
    }
    String ns = pod.pod().metadata().namespace();
    Set<String> rwop = new HashSet<>();
    for (String name : claims) {
      Optional<PersistentVolumeClaim> c = store.get(PersistentVolumeClaim.class, ns, name);
      if (c.isEmpty()) {
        return PreFilterResult.of(Status.unresolvable("persistentvolumeclaim \"" + name + "\" not found")
            .withPlugin(NAME));
      }
      if (c.get().spec().accessModes().contains(PersistentVolumeAccessMode.ReadWriteOncePod)) {
        rwop.add(name);
      }
    }
    if (rwop.isEmpty()) {
      return PreFilterResult.skip();
    }
    int used = usedClaims(snapshot, ns, rwop);
    if (used == 0) {
      return PreFilterResult.skip();
    }
    state.write(KEY, new State(ns, Set.copyOf(rwop), used));
    return PreFilterResult.success();
  }

  /** How many of {@code claims} (in {@code namespace}) a pod in the snapshot mounts: each counts once. */
  private static int usedClaims(Snapshot snapshot, String namespace, Set<String> claims) {
    Set<String> used = new HashSet<>();
    for (NodeInfo node : snapshot.nodes()) {
      for (PodInfo p : node.pods()) {
        Pod other = p.pod();
        if (other.spec().volumes().isEmpty() || !other.metadata().namespace().equals(namespace)) {
          continue;
        }
        for (Volume v : other.spec().volumes()) {
          VolumeSource.PersistentVolumeClaim c = v.claim();
          if (c != null && claims.contains(c.claimName()) && used.add(c.claimName()) && used.size() == claims.size()) {
            return used.size();
          }
        }
      }
    }
    return used.size();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    State s = state.read(KEY);
    if (s == null) {
      return NO_STATE;
    }
    return s.conflictingRefCount() > 0 ? CONFLICT : Status.success();
  }

  @Override
  public PreFilterExtensions preFilterExtensions() {
    return this;
  }

  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node) {
    return update(state, other, 1);
  }

  @Override
  public Status removePod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node) {
    return update(state, other, -1);
  }

  private static Status update(CycleState state, PodInfo other, int multiplier) {
    State s = state.read(KEY);
    if (s == null) {
      return NO_STATE;
    }
    State updated = s.withPod(other.pod(), multiplier);
    if (updated != s) {
      state.write(KEY, updated);
    }
    return Status.success();
  }

  /**
   * Upstream's {@code Pod/Delete}, {@code Node/Add} (with queueing hints on, its default) and
   * {@code PersistentVolumeClaim/Add}: {@link ClusterEvent#ASSIGNED_POD_DELETE}, {@link ClusterEvent#NODE_ADD} and
   * {@link ClusterEvent#STORAGE}, FleetKit's one event for every storage object, which {@link #isSchedulableAfter}
   * narrows to claim additions.
   */
  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return EnumSet.of(ClusterEvent.ASSIGNED_POD_DELETE, ClusterEvent.NODE_ADD, ClusterEvent.STORAGE);
  }

  /**
   * For a deleted pod, upstream's {@code isSchedulableAfterPodDeleted}: yes when it is in the pod's namespace and
   * mounts a claim of the same name (the access mode is not read, as upstream); no otherwise. For a storage event,
   * upstream's {@code isSchedulableAfterPersistentVolumeClaimAdded}: yes when the added claim is one the pod mounts
   * in its namespace; no for other claims, for claim updates and deletions and for other storage objects (upstream
   * registers none of them). Other events and objects re-queue.
   */
  @Override
  public boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
      @Nullable Object newObject) {
    if (event == ClusterEvent.ASSIGNED_POD_DELETE && oldObject instanceof Pod deleted) {
      return isSchedulableAfterPodDeleted(pod, deleted);
    }
    if (event == ClusterEvent.STORAGE && (oldObject != null || newObject != null)) {
      return oldObject == null && newObject instanceof PersistentVolumeClaim added
          && isSchedulableAfterClaimAdded(pod, added);
    }
    return true;
  }

  private static boolean isSchedulableAfterPodDeleted(Pod pod, Pod deleted) {
    if (!deleted.metadata().namespace().equals(pod.metadata().namespace())) {
      return false;
    }
    // upstream first asks whether the deleted pod held a conflicting in-tree disk: FleetKit models none
    List<String> claims = PodClaims.of(pod);
    for (Volume v : deleted.spec().volumes()) {
      VolumeSource.PersistentVolumeClaim c = v.claim();
      if (c != null && claims.contains(c.claimName())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isSchedulableAfterClaimAdded(Pod pod, PersistentVolumeClaim added) {
    return added.metadata().namespace().equals(pod.metadata().namespace())
        && PodClaims.of(pod).contains(added.metadata().name());
  }

  @Override
  public String toString() {
    return NAME;
  }
}
