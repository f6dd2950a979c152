package io.fleetkit.storage.scheduling;

import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreBindPlugin;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.storage.PersistentVolumeController;
import io.fleetkit.storage.scheduling.VolumeBindingState.PodVolumes;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Volume binding with the pod, as kube-scheduler's {@code VolumeBinding}
 * ({@code pkg/scheduler/framework/plugins/volumebinding}), over a {@link PersistentVolumeController}'s store.
 *
 * <ul>
 *   <li>PreFilter ({@link VolumeClaims}): skips pods without claims (a generic ephemeral volume's claim,
 *       {@code <pod>-<volume>}, counts as the pod's claim: it must exist, {@value #REASON_WAITING_FOR_EPHEMERAL}
 *       until the ephemeral volume controller made it, and be controlled by the pod, else upstream's
 *       {@code PVC ns/name was not created for pod ns/pod (pod is not owner)}); rejects missing claims, unbound
 *       claims of Immediate classes ({@value #REASON_UNBOUND_IMMEDIATE}) and bound claims whose volumes share no
 *       zone; lists each WaitForFirstConsumer claim's static candidates once.
 *   <li>Filter: bound volumes must be reachable ({@value #REASON_NODE_CONFLICT}, {@value #REASON_PV_NOT_EXIST});
 *       unbound claims, smallest request first, each take the smallest reachable candidate not taken by an
 *       earlier claim of the pod (a claim whose node was already selected must be provisioned there), else
 *       must be provisionable here: a registered provisioner, no selector, the node within allowedTopologies
 *       ({@value #REASON_BIND_CONFLICT}) and capacity ({@value #REASON_NOT_ENOUGH_SPACE}). The choice is kept per
 *       node.
 *   <li>Reserve assumes the chosen volumes (other pods' cycles skip them); Unreserve releases them.
 *   <li>PreBind reserves the pod's static volumes (their claim references), provisions the claims to provision
 *       (setting {@value StorageAnnotations#SELECTED_NODE}), then binds the reserved claims: a claim's
 *       {@code volumeName} can be set only once, so if a step fails before, the reservations are released and no
 *       static claim is bound; provisioned claims stay bound to their new volumes, as upstream.
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
  /** The start of the rejection of a pod whose ephemeral volume's claim does not exist yet (upstream's text). */
  public static final String REASON_WAITING_FOR_EPHEMERAL =
      "waiting for ephemeral volume controller to create the persistentvolumeclaim";

  static final StateKey<VolumeBindingState> KEY = StateKey.of("PreFilter" + NAME, VolumeBindingState.class);
  static final Status BIND_CONFLICT = Status.unresolvable(REASON_BIND_CONFLICT).withPlugin(NAME);
  static final Status NODE_CONFLICT = Status.unresolvable(REASON_NODE_CONFLICT).withPlugin(NAME);
  static final Status NOT_ENOUGH_SPACE = Status.unresolvable(REASON_NOT_ENOUGH_SPACE).withPlugin(NAME);
  static final Status PV_NOT_EXIST = Status.unresolvable(REASON_PV_NOT_EXIST).withPlugin(NAME);

  private final PersistentVolumeController controller;
  private final AssumeCache assumed;
  private final VolumeIndex index;
  private final PodVolumeFinder finder;

  VolumeBindingPlugin(PersistentVolumeController controller, AssumeCache assumed, VolumeIndex index) {
    this.controller = controller;
    this.assumed = assumed;
    this.index = index;
    this.finder = new PodVolumeFinder(controller);
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

  /** {@value #REASON_WAITING_FOR_EPHEMERAL} {@code "<claim>"}. */
  static String waitingForEphemeralClaim(String claimName) {
    return REASON_WAITING_FOR_EPHEMERAL + " \"" + claimName + "\"";
  }

  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return Set.of(ClusterEvent.STORAGE, ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE);
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
    List<PodClaims.Ref> names = PodClaims.withEphemeral(pod.pod());
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

  /** Upstream's FindPodVolumes ({@link PodVolumeFinder}): every failed check adds its reason. */
  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo nodeInfo) {
    VolumeBindingState st = state.read(KEY);
    return st == null ? Status.success() : finder.find(st, nodeInfo.node());
  }

  @Override
  public Status reserve(CycleState state, PodInfo pod, String nodeName) {
    VolumeBindingState st = state.read(KEY);
    PodVolumes pv = st == null ? null : st.byNode.get(nodeName);
    if (pv == null) {
      return Status.success();
    }
    if (!assumed.tryAssumeAll(pv.bindings())) {
      return BIND_CONFLICT;
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
    assumed.releaseAll(pv.bindings());
  }

  @Override
  public Status preBind(CycleState state, PodInfo pod, String nodeName) {
    VolumeBindingState st = state.read(KEY);
    PodVolumes pv = st == null ? null : st.reserved;
    if (pv == null) {
      return Status.success();
    }
    Optional<String> failure = new PodVolumeBinder(controller).bindAll(pv);
    assumed.releaseAll(pv.bindings());
    st.reserved = null;
    return failure.map(f -> Status.error("binding volumes of pod " + pod.key() + " on node " + nodeName + ": "
        + f)).orElse(Status.success());
  }
}
