package io.fleetkit.storage.scheduling;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.scheduler.ClusterEvent;
import io.fleetkit.api.scheduler.CycleState;
import io.fleetkit.api.scheduler.EnqueueExtensions;
import io.fleetkit.api.scheduler.FilterPlugin;
import io.fleetkit.api.scheduler.NodeInfo;
import io.fleetkit.api.scheduler.PluginFactory;
import io.fleetkit.api.scheduler.PodInfo;
import io.fleetkit.api.scheduler.PreBindPlugin;
import io.fleetkit.api.scheduler.PreFilterPlugin;
import io.fleetkit.api.scheduler.PreFilterResult;
import io.fleetkit.api.scheduler.ReservePlugin;
import io.fleetkit.api.scheduler.Snapshot;
import io.fleetkit.api.scheduler.StateKey;
import io.fleetkit.api.scheduler.Status;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.storage.PersistentVolumeController;
import io.fleetkit.storage.provision.Provisioner;
import io.fleetkit.storage.scheduling.VolumeBindingState.Candidate;
import io.fleetkit.storage.scheduling.VolumeBindingState.ClaimToBind;
import io.fleetkit.storage.scheduling.VolumeBindingState.PodVolumes;
import io.fleetkit.storage.scheduling.VolumeBindingState.StaticBinding;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Volume binding with the pod, as kube-scheduler's {@code VolumeBinding}
 * ({@code pkg/scheduler/framework/plugins/volumebinding}), over a {@link PersistentVolumeController}'s store.
 *
 * <ul>
 *   <li>PreFilter ({@link VolumeClaims}): skips pods without claims; rejects missing claims, unbound claims of
 *       Immediate classes ({@value #REASON_UNBOUND_IMMEDIATE}) and bound claims whose volumes share no zone; lists
 *       each WaitForFirstConsumer claim's static candidates once.
 *   <li>Filter: bound volumes must be reachable ({@value #REASON_NODE_CONFLICT}, {@value #REASON_PV_NOT_EXIST});
 *       unbound claims, smallest request first, each take the smallest reachable candidate not taken by an
 *       earlier claim of the pod (a claim whose node was already selected must be provisioned there), else
 *       must be provisionable here: a registered provisioner, no selector, the node within allowedTopologies
 *       ({@value #REASON_BIND_CONFLICT}) and capacity ({@value #REASON_NOT_ENOUGH_SPACE}). The choice is kept per
 *       node.
 *   <li>Reserve assumes the chosen volumes (other pods' cycles skip them); Unreserve releases them.
 *   <li>PreBind binds every claim of the pod through the controller, static ones first, then provisioned ones
 *       (setting {@value StorageAnnotations#SELECTED_NODE}); if one fails, those already bound are rolled back, so
 *       a pod's claims bind all or none.
 * </ul>
 *
 * <p>Every rejection is UNSCHEDULABLE_AND_UNRESOLVABLE, as upstream: preemption cannot free a volume. Thread-safe.
 */
public final class VolumeBindingPlugin
    implements PreFilterPlugin, FilterPlugin, ReservePlugin, PreBindPlugin, EnqueueExtensions {
  public static final String NAME = "VolumeBinding";
  public static final String REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
  public static final String REASON_NODE_CONFLICT = "node(s) had volume node affinity conflict";
  public static final String REASON_NOT_ENOUGH_SPACE = "node(s) did not have enough free storage";
  public static final String REASON_PV_NOT_EXIST =
      "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
  public static final String REASON_UNBOUND_IMMEDIATE = "pod has unbound immediate PersistentVolumeClaims";

  static final StateKey<VolumeBindingState> KEY = StateKey.of("PreFilter" + NAME, VolumeBindingState.class);
  private static final Status BIND_CONFLICT = Status.unresolvable(REASON_BIND_CONFLICT).withPlugin(NAME);
  private static final Status NODE_CONFLICT = Status.unresolvable(REASON_NODE_CONFLICT).withPlugin(NAME);
  private static final Status NOT_ENOUGH_SPACE = Status.unresolvable(REASON_NOT_ENOUGH_SPACE).withPlugin(NAME);
  private static final Status PV_NOT_EXIST = Status.unresolvable(REASON_PV_NOT_EXIST).withPlugin(NAME);

  private final PersistentVolumeController controller;
  private final AssumeCache assumed;
  private final VolumeIndex index;

  VolumeBindingPlugin(PersistentVolumeController controller, AssumeCache assumed, VolumeIndex index) {
    this.controller = controller;
    this.assumed = assumed;
    this.index = index;
  }

  /**
   * A factory for profiles; plugins it creates share one assume cache and one volume index (a watch on the
   * controller's store: build the store with direct delivery for exact, deterministic reads).
   */
  public static PluginFactory factory(PersistentVolumeController controller) {
    AssumeCache cache = new AssumeCache();
    VolumeIndex index = new VolumeIndex(controller.store());
    return handle -> new VolumeBindingPlugin(controller, cache, index);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return Set.of(ClusterEvent.STORAGE, ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE);
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
    List<String> names = PodClaims.of(pod.pod());
    if (names.isEmpty()) {
      return PreFilterResult.skip();
    }
    VolumeClaims.Result r = VolumeClaims.read(controller.store(), index, assumed, pod.pod(), names);
    if (r.rejection() != null) {
      return PreFilterResult.of(Status.unresolvable(r.rejection()));
    }
    state.write(KEY, r.state());
    return PreFilterResult.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo nodeInfo) {
    VolumeBindingState st = state.read(KEY);
    if (st == null) {
      return Status.success();
    }
    Node node = nodeInfo.node();
    // Upstream's FindPodVolumes: every failed check adds its reason.
    boolean boundSatisfied = true;
    boolean boundFound = true;
    for (VolumeBindingState.BoundClaim b : st.bound) {
      if (b.volume() == null) {
        boundFound = false;
        break;
      }
      if (!b.volume().reachableFrom(node)) {
        boundSatisfied = false;
        break;
      }
    }
    boolean unboundSatisfied = true;
    boolean enoughStorage = true;
    List<StaticBinding> bindings = new ArrayList<>();
    List<ClaimToBind> provisions = new ArrayList<>();
    if (!st.toBind.isEmpty() && boundFound) {
      Set<String> excluded = new HashSet<>();
      for (ClaimToBind c : st.toBind) {
        String selected = c.claim().metadata().annotations().get(StorageAnnotations.SELECTED_NODE);
        if (selected != null) {
          if (!selected.equals(node.name())) {
            unboundSatisfied = false;
            break;
          }
          provisions.add(c);
          continue;
        }
        PersistentVolume chosen = choose(c, node, excluded);
        if (chosen != null) {
          excluded.add(chosen.metadata().name());
          bindings.add(new StaticBinding(c.claim(), chosen));
        } else {
          provisions.add(c);
        }
      }
      for (int i = 0; unboundSatisfied && i < provisions.size(); i++) {
        ClaimToBind c = provisions.get(i);
        Optional<Provisioner> p = controller.provisioner(c.storageClass().provisioner());
        if (c.prebound() != null || c.claim().spec().selector() != null || p.isEmpty()
            || !c.storageClass().allowsTopology(node.metadata().labels())) {
          unboundSatisfied = false;
        } else if (!p.get().hasCapacity(c.storageClass(), node, c.claim().requestedStorage())) {
          enoughStorage = false;
          break;
        }
      }
    }
    if (boundSatisfied && boundFound && unboundSatisfied && enoughStorage) {
      if (!st.toBind.isEmpty()) {
        st.byNode.put(node.name(), new PodVolumes(node, List.copyOf(bindings), List.copyOf(provisions)));
      }
      return Status.success();
    }
    if (boundSatisfied && unboundSatisfied && enoughStorage) {
      return PV_NOT_EXIST;
    }
    List<String> reasons = new ArrayList<>(2);
    if (!boundSatisfied) {
      reasons.add(REASON_NODE_CONFLICT);
    }
    if (!unboundSatisfied) {
      reasons.add(REASON_BIND_CONFLICT);
    }
    if (!boundFound) {
      reasons.add(REASON_PV_NOT_EXIST);
    }
    if (!enoughStorage) {
      reasons.add(REASON_NOT_ENOUGH_SPACE);
    }
    if (reasons.size() == 1) {
      return reasons.get(0).equals(REASON_NODE_CONFLICT) ? NODE_CONFLICT
          : reasons.get(0).equals(REASON_BIND_CONFLICT) ? BIND_CONFLICT : NOT_ENOUGH_SPACE;
    }
    return new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reasons, NAME);
  }

  /** The pre-bound volume if reachable, else the smallest reachable free candidate; {@code null} for none. */
  private static PersistentVolume choose(ClaimToBind c, Node node, Set<String> excluded) {
    Candidate pre = c.prebound();
    if (pre != null) {
      return pre.reachableFrom(node) && !excluded.contains(pre.pv().metadata().name()) ? pre.pv() : null;
    }
    for (Candidate cand : c.candidates()) {
      if (!excluded.contains(cand.pv().metadata().name()) && cand.reachableFrom(node)) {
        return cand.pv();
      }
    }
    return null;
  }

  @Override
  public Status reserve(CycleState state, PodInfo pod, String nodeName) {
    VolumeBindingState st = state.read(KEY);
    PodVolumes pv = st == null ? null : st.byNode.get(nodeName);
    if (pv == null) {
      return Status.success();
    }
    List<StaticBinding> done = new ArrayList<>();
    for (StaticBinding b : pv.bindings()) {
      if (!assumed.tryAssume(b.pv().metadata().name(), b.claim().metadata().key())) {
        done.forEach(d -> assumed.release(d.pv().metadata().name(), d.claim().metadata().key()));
        return BIND_CONFLICT;
      }
      done.add(b);
    }
    st.reserved = pv;
    return Status.success();
  }

  @Override
  public void unreserve(CycleState state, PodInfo pod, String nodeName) {
    VolumeBindingState st = state.read(KEY);
    PodVolumes pv = st == null ? null : st.reserved;
    if (pv == null) {
      return;
    }
    st.reserved = null;
    for (StaticBinding b : pv.bindings()) {
      assumed.release(b.pv().metadata().name(), b.claim().metadata().key());
    }
  }

  @Override
  public Status preBind(CycleState state, PodInfo pod, String nodeName) {
    VolumeBindingState st = state.read(KEY);
    PodVolumes pv = st == null ? null : st.reserved;
    if (pv == null) {
      return Status.success();
    }
    Optional<String> failure = new PodVolumeBinder(controller).bindAll(pv);
    for (StaticBinding b : pv.bindings()) {
      assumed.release(b.pv().metadata().name(), b.claim().metadata().key());
    }
    st.reserved = null;
    return failure.map(f -> Status.error("binding volumes of pod " + pod.key() + " on node " + nodeName + ": "
        + f)).orElse(Status.success());
  }
}
