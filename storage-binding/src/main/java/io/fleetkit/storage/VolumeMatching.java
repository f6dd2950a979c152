package io.fleetkit.storage;

import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.VolumeNodeAffinity;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.scheduling.NodeSelectorMatcher;
import io.fleetkit.api.storage.StorageAnnotations;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Upstream's PersistentVolumeClaim to PersistentVolume matching rules ({@code FindMatchingVolume} and the PV
 * controller's {@code findBestMatchForClaim}), as pure functions over immutable objects. Thread-safe.
 *
 * <p>{@link #findMatchingVolume} checks each volume, in this order: excluded by name; reserved to another claim;
 * too small; volumeMode mismatch; being deleted; node affinity (when a node is given); a volume pre-bound to this
 * claim wins at once (or, with a node whose labels its affinity rejects, nothing matches); with no node and delayed
 * binding unbound volumes are skipped; not Available; the claim's selector; the storage class; node affinity; and
 * (scheduler path, with a node) the access modes. Of the rest the smallest capacity wins (the first seen on ties).
 *
 * <p>{@link #findBestMatchForClaim} (the controller path) groups volumes by their exact access-mode set, tries the
 * groups that hold every mode the claim asks for from the fewest modes to the most, and returns the smallest
 * volume of the first group with a match.
 */
public final class VolumeMatching {
  private VolumeMatching() {}

  /** The claim's class: {@code spec.storageClassName}, else the beta annotation, else {@code ""}. */
  public static String claimClass(PersistentVolumeClaim claim) {
    String c = claim.spec().storageClassName();
    if (c != null) {
      return c;
    }
    return claim.metadata().annotations().getOrDefault(StorageAnnotations.BETA_STORAGE_CLASS, "");
  }

  /** The volume's class: the beta annotation when set (it wins upstream), else {@code spec.storageClassName}. */
  public static String volumeClass(PersistentVolume volume) {
    String beta = volume.metadata().annotations().get(StorageAnnotations.BETA_STORAGE_CLASS);
    return beta != null ? beta : volume.spec().storageClassName();
  }

  /** Whether the volume offers every access mode the claim asks for ({@code CheckAccessModes}). */
  public static boolean checkAccessModes(PersistentVolumeClaim claim, PersistentVolume volume) {
    return volume.spec().accessModes().containsAll(claim.spec().accessModes());
  }

  /** Whether claim and volume disagree on volumeMode (both default to Filesystem). */
  public static boolean volumeModeMismatch(PersistentVolumeClaim claim, PersistentVolume volume) {
    return claim.spec().volumeMode() != volume.spec().volumeMode();
  }

  /** Whether the volume's {@code spec.claimRef} names this claim (name and namespace, and uid when set). */
  public static boolean isBoundToClaim(PersistentVolume volume, PersistentVolumeClaim claim) {
    ClaimReference ref = volume.spec().claimRef();
    return ref != null && ref.refersTo(claim.metadata());
  }

  /** Whether a node with this name and these labels satisfies the volume's node affinity (always, without one). */
  public static boolean nodeAffinityMatches(PersistentVolume volume, String nodeName, Map<String, String> labels) {
    VolumeNodeAffinity affinity = volume.spec().nodeAffinity();
    return affinity == null || NodeSelectorMatcher.of(affinity.required()).matches(nodeName, labels);
  }

  /**
   * Upstream's {@code FindMatchingVolume}.
   *
   * @param node the node the claim's pod would run on (scheduler path), or {@code null} (controller path)
   * @param excludedVolumes names of volumes already chosen for other claims of the same pod
   * @param delayBinding whether the claim's class binds on first consumer (WaitForFirstConsumer)
   * @return the matching volume, or empty
   */
  public static Optional<PersistentVolume> findMatchingVolume(PersistentVolumeClaim claim,
      Collection<PersistentVolume> volumes, @Nullable Node node, Set<String> excludedVolumes, boolean delayBinding) {
    Quantity requested = claim.requestedStorage();
    String requestedClass = claimClass(claim);
    LabelSelector selector = claim.spec().selector();
    PersistentVolume smallest = null;
    for (PersistentVolume volume : volumes) {
      if (excludedVolumes.contains(volume.metadata().name())) {
        continue;
      }
      boolean boundToClaim = isBoundToClaim(volume, claim);
      if (volume.spec().claimRef() != null && !boundToClaim) {
        continue;
      }
      Quantity size = volume.storage();
      if (size.compareTo(requested) < 0) {
        continue;
      }
      if (volumeModeMismatch(claim, volume)) {
        continue;
      }
      if (volume.metadata().deletionTimestamp() != null) {
        continue;
      }
      boolean affinityValid = node == null
          || nodeAffinityMatches(volume, node.name(), node.metadata().labels());
      if (boundToClaim) {
        return affinityValid ? Optional.of(volume) : Optional.empty();
      }
      if (node == null && delayBinding) {
        continue;
      }
      if (volume.status().phase() != PersistentVolumePhase.Available) {
        continue;
      }
      if (selector != null && !selector.matches(volume.metadata().labels())) {
        continue;
      }
      if (!volumeClass(volume).equals(requestedClass)) {
        continue;
      }
      if (!affinityValid) {
        continue;
      }
      if (node != null && !checkAccessModes(claim, volume)) {
        continue;
      }
      if (smallest == null || smallest.storage().compareTo(size) > 0) {
        smallest = volume;
      }
    }
    return Optional.ofNullable(smallest);
  }

  /**
   * The PV controller's {@code findBestMatchForClaim}: {@link #findMatchingVolume} without a node, over the
   * access-mode groups that satisfy the claim, fewest modes first.
   */
  public static Optional<PersistentVolume> findBestMatchForClaim(PersistentVolumeClaim claim,
      Collection<PersistentVolume> volumes, boolean delayBinding) {
    Map<Set<PersistentVolumeAccessMode>, List<PersistentVolume>> groups = groupByAccessModes(volumes);
    for (Set<PersistentVolumeAccessMode> modes : allPossibleMatchingAccessModes(groups.keySet(),
        claim.spec().accessModes())) {
      Optional<PersistentVolume> match = findMatchingVolume(claim, groups.get(modes), null, Set.of(), delayBinding);
      if (match.isPresent()) {
        return match;
      }
    }
    return Optional.empty();
  }

  /** Volumes grouped by their exact access-mode set, in first-seen order. */
  public static Map<Set<PersistentVolumeAccessMode>, List<PersistentVolume>> groupByAccessModes(
      Collection<PersistentVolume> volumes) {
    Map<Set<PersistentVolumeAccessMode>, List<PersistentVolume>> groups = new LinkedHashMap<>();
    for (PersistentVolume v : volumes) {
      Set<PersistentVolumeAccessMode> modes = EnumSet.noneOf(PersistentVolumeAccessMode.class);
      modes.addAll(v.spec().accessModes());
      groups.computeIfAbsent(Set.copyOf(modes), k -> new ArrayList<>()).add(v);
    }
    return groups;
  }

  /**
   * Upstream's {@code allPossibleMatchingAccessModes}: the mode sets that contain every requested mode, fewest modes
   * first (ties ordered by mode names, for reproducibility).
   */
  public static List<Set<PersistentVolumeAccessMode>> allPossibleMatchingAccessModes(
      Collection<Set<PersistentVolumeAccessMode>> indexed, Collection<PersistentVolumeAccessMode> requested) {
    List<Set<PersistentVolumeAccessMode>> out = new ArrayList<>();
    for (Set<PersistentVolumeAccessMode> modes : indexed) {
      if (modes.containsAll(requested)) {
        out.add(modes);
      }
    }
    out.sort(Comparator.<Set<PersistentVolumeAccessMode>>comparingInt(Set::size)
        .thenComparing(VolumeMatching::modesKey));
    return out;
  }

  private static String modesKey(Set<PersistentVolumeAccessMode> modes) {
    EnumSet<PersistentVolumeAccessMode> sorted = EnumSet.noneOf(PersistentVolumeAccessMode.class);
    sorted.addAll(modes);
    StringBuilder sb = new StringBuilder();
    for (PersistentVolumeAccessMode m : sorted) {
      sb.append(m.shortName()).append(',');
    }
    return sb.toString();
  }
}
