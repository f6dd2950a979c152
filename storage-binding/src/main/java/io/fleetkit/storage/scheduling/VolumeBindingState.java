package io.fleetkit.storage.scheduling;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.scheduling.NodeSelectorMatcher;
import io.fleetkit.api.storage.StorageClass;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * VolumeBinding's per-cycle state: written by PreFilter, read by Filter (which records each feasible node's choice
 * in the concurrent {@link #byNode} map), then Reserve/PreBind/Unreserve on the chosen node.
 */
final class VolumeBindingState {
  /** A volume and its node-affinity matcher, compiled once per cycle ({@code null} matcher: reachable anywhere). */
  record Candidate(PersistentVolume pv, @Nullable NodeSelectorMatcher matcher) {
    boolean reachableFrom(Node node) {
      return matcher == null || matcher.matches(node.name(), node.metadata().labels());
    }

    static Candidate of(PersistentVolume pv) {
      return new Candidate(pv, pv.spec().nodeAffinity() == null ? null
          : NodeSelectorMatcher.of(pv.spec().nodeAffinity().required()));
    }
  }

  /** A claim already bound; {@code volume} is {@code null} when its volume does not exist. */
  record BoundClaim(PersistentVolumeClaim claim, @Nullable Candidate volume) {}

  /**
   * An unbound WaitForFirstConsumer claim: {@code prebound} (a volume reserved to it, which wins), else the static
   * candidates smallest first.
   */
  record ClaimToBind(PersistentVolumeClaim claim, StorageClass storageClass, @Nullable Candidate prebound,
      List<Candidate> candidates) {}

  /** A static binding chosen for a node. */
  record StaticBinding(PersistentVolumeClaim claim, PersistentVolume pv) {}

  /** What a node needs: static bindings and claims to provision on it. */
  record PodVolumes(Node node, List<StaticBinding> bindings, List<ClaimToBind> provisions) {}

  final List<BoundClaim> bound;
  final List<ClaimToBind> toBind;
  final Map<String, PodVolumes> byNode = new ConcurrentHashMap<>();
  volatile @Nullable PodVolumes reserved;

  VolumeBindingState(List<BoundClaim> bound, List<ClaimToBind> toBind) {
    this.bound = List.copyOf(bound);
    this.toBind = List.copyOf(toBind);
  }
}
