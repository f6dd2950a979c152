package io.fleetkit.storage.scheduling;

import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.storage.EphemeralVolumes;
import io.fleetkit.storage.VolumeMatching;
import io.fleetkit.storage.scheduling.VolumeBindingState.BoundClaim;
import io.fleetkit.storage.scheduling.VolumeBindingState.Candidate;
import io.fleetkit.storage.scheduling.VolumeBindingState.ClaimToBind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * VolumeBinding's PreFilter work: reads a pod's claims (those of its generic ephemeral volumes too, which must exist
 * and be the pod's) from the store and sorts them into bound claims and
 * WaitForFirstConsumer claims with their static candidates (the node-independent rules of
 * {@link VolumeMatching#findMatchingVolume}, access modes included, smallest first), or says why the pod cannot run
 * anywhere.
 */
final class VolumeClaims {
  /** Either a state or a rejection reason. */
  record Result(@Nullable VolumeBindingState state, @Nullable String rejection) {}

  private VolumeClaims() {}

  static Result read(ObjectStore store, VolumeIndex index, AssumeCache assumed, Pod pod,
      List<PodClaims.Ref> claims) {
    String ns = pod.metadata().namespace();
    List<BoundClaim> bound = new ArrayList<>();
    List<ClaimToBind> toBind = new ArrayList<>();
    for (PodClaims.Ref ref : claims) {
      String name = ref.name();
      Optional<PersistentVolumeClaim> found = store.get(PersistentVolumeClaim.class, ns, name);
      if (found.isEmpty()) {
        // upstream's podHasPVCs: for an ephemeral volume this is normal right after the pod was created
        return reject(ref.ephemeral() ? VolumeBindingPlugin.waitingForEphemeralClaim(name)
            : "persistentvolumeclaim \"" + name + "\" not found");
      }
      PersistentVolumeClaim claim = found.get();
      if (claim.metadata().deletionTimestamp() != null) {
        return reject("persistentvolumeclaim \"" + name + "\" is being deleted");
      }
      if (ref.ephemeral()) {
        Optional<String> notOwner = EphemeralVolumes.checkVolumeIsForPod(pod, claim);
        if (notOwner.isPresent()) {
          return reject(notOwner.get());
        }
      }
      boolean fullyBound = !claim.spec().volumeName().isEmpty()
          && claim.metadata().annotations().containsKey(StorageAnnotations.BIND_COMPLETED);
      if (fullyBound) {
        PersistentVolume pv = store.get(PersistentVolume.class, "", claim.spec().volumeName()).orElse(null);
        if (pv == null && claim.status().phase() == PersistentVolumeClaimPhase.Lost) {
          return reject("persistentvolumeclaim \"" + name + "\" bound to non-existent persistentvolume \""
              + claim.spec().volumeName() + "\"");
        }
        bound.add(new BoundClaim(claim, pv == null ? null : Candidate.of(pv)));
        continue;
      }
      String cls = VolumeMatching.claimClass(claim);
      StorageClass sc = cls.isEmpty() ? null : store.get(StorageClass.class, "", cls).orElse(null);
      // As upstream, a claim pre-bound by volumeName but not yet bound by the controller counts as immediate.
      if (sc == null || sc.volumeBindingMode() != VolumeBindingMode.WaitForFirstConsumer
          || !claim.spec().volumeName().isEmpty()) {
        return reject(VolumeBindingPlugin.REASON_UNBOUND_IMMEDIATE);
      }
      toBind.add(candidates(claim, sc, cls, index.candidates(cls, claim.metadata().key()), assumed));
    }
    // Upstream sorts the claims to bind by increasing request, so that the smallest fit first.
    toBind.sort(Comparator.comparing(c -> c.claim().requestedStorage()));
    String zoneConflict = zoneConflict(bound);
    if (zoneConflict != null) {
      return reject(zoneConflict);
    }
    return new Result(new VolumeBindingState(bound, toBind), null);
  }

  private static Result reject(String reason) {
    return new Result(null, reason);
  }

  private static ClaimToBind candidates(PersistentVolumeClaim claim, StorageClass sc, String cls,
      List<PersistentVolume> volumes, AssumeCache assumed) {
    String key = claim.metadata().key();
    LabelSelector selector = claim.spec().selector();
    Candidate prebound = null;
    List<PersistentVolume> out = new ArrayList<>();
    for (PersistentVolume v : volumes) {
      if (assumed.assumedByOther(v.metadata().name(), key)) {
        continue;
      }
      boolean mine = VolumeMatching.isBoundToClaim(v, claim);
      if ((v.spec().claimRef() != null && !mine) || v.storage().compareTo(claim.requestedStorage()) < 0
          || VolumeMatching.volumeModeMismatch(claim, v) || v.metadata().deletionTimestamp() != null) {
        continue;
      }
      if (mine) {
        if (prebound == null) {
          prebound = Candidate.of(v);
        }
        continue;
      }
      if (v.status().phase() != PersistentVolumePhase.Available
          || (selector != null && !selector.matches(v.metadata().labels()))
          || !VolumeMatching.volumeClass(v).equals(cls) || !VolumeMatching.checkAccessModes(claim, v)) {
        continue;
      }
      out.add(v);
    }
    out.sort(Comparator.comparing(PersistentVolume::storage));
    List<Candidate> cands = new ArrayList<>(out.size());
    for (PersistentVolume v : out) {
      cands.add(Candidate.of(v));
    }
    return new ClaimToBind(claim, sc, prebound, cands);
  }

  /** A message when the pod's bound volumes are pinned to zones that share none, else {@code null}. */
  private static @Nullable String zoneConflict(List<BoundClaim> bound) {
    Set<String> common = null;
    List<String> described = new ArrayList<>();
    for (BoundClaim b : bound) {
      if (b.volume() == null) {
        continue;
      }
      Set<String> zones = VolumeTopology.zones(b.volume().pv());
      if (zones.isEmpty()) {
        continue;
      }
      described.add("claim " + b.claim().metadata().name() + " -> volume " + b.volume().pv().metadata().name()
          + " in zone " + String.join(",", new TreeSet<>(zones)));
      if (common == null) {
        common = new HashSet<>(zones);
      } else {
        common.retainAll(zones);
      }
    }
    if (common != null && common.isEmpty()) {
      return "pod's bound persistent volumes are in different zones, no node can reach them all ("
          + String.join("; ", described) + ")";
    }
    return null;
  }
}
