package io.fleetkit.storage.scheduling;

import static io.fleetkit.storage.scheduling.VolumeBindingPlugin.BIND_CONFLICT;
import static io.fleetkit.storage.scheduling.VolumeBindingPlugin.NAME;
import static io.fleetkit.storage.scheduling.VolumeBindingPlugin.NODE_CONFLICT;
import static io.fleetkit.storage.scheduling.VolumeBindingPlugin.NOT_ENOUGH_SPACE;
import static io.fleetkit.storage.scheduling.VolumeBindingPlugin.PV_NOT_EXIST;
import static io.fleetkit.storage.scheduling.VolumeBindingPlugin.REASON_BIND_CONFLICT;
import static io.fleetkit.storage.scheduling.VolumeBindingPlugin.REASON_NODE_CONFLICT;
import static io.fleetkit.storage.scheduling.VolumeBindingPlugin.REASON_NOT_ENOUGH_SPACE;
import static io.fleetkit.storage.scheduling.VolumeBindingPlugin.REASON_PV_NOT_EXIST;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.storage.PersistentVolumeController;
import io.fleetkit.storage.provision.VolumeProvisioner;
import io.fleetkit.storage.scheduling.VolumeBindingState.Candidate;
import io.fleetkit.storage.scheduling.VolumeBindingState.ClaimToBind;
import io.fleetkit.storage.scheduling.VolumeBindingState.PodVolumes;
import io.fleetkit.storage.scheduling.VolumeBindingState.StaticBinding;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * VolumeBinding's Filter work, as upstream's {@code FindPodVolumes}: whether a node can serve all of a pod's claims
 * (bound volumes reachable, unbound claims matched to free static volumes or provisionable there), recording the
 * node's choice in the cycle state. Every failed check adds its reason. Thread-safe: Filter runs it concurrently
 * for many nodes of one cycle.
 */
final class PodVolumeFinder {
  private final PersistentVolumeController controller;

  PodVolumeFinder(PersistentVolumeController controller) {
    this.controller = controller;
  }

  /** Success (the node's {@link PodVolumes} put in {@code st.byNode}), else the reasons the node fails. */
  Status find(VolumeBindingState st, Node node) {
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
        Optional<VolumeProvisioner> p = controller.provisioner(c.storageClass().provisioner());
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
  private static @Nullable PersistentVolume choose(ClaimToBind c, Node node, Set<String> excluded) {
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
}
