package io.fleetkit.api.store.spi;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.VolumeNodeAffinity;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' {@code ValidatePersistentVolumeUpdate} beyond the new volume's own validation: the volume source and
 * {@code volumeMode} are immutable, and node affinity, once set, may change only by replacing a deprecated beta
 * topology label key with its GA successor (same position, operator and values); a volume without node affinity may
 * get one. Capacity, access modes, reclaim policy, class, claim reference and mount options may change. Upstream
 * reports the last two rules on the paths {@code volumeMode} and {@code nodeAffinity}; here they carry the
 * {@code spec.} prefix. Stateless.
 */
final class PersistentVolumeUpdateRule {
  /** The rule of a changed node affinity, in upstream's words. */
  static final String NODE_AFFINITY_IMMUTABLE = UpdateChecks.IMMUTABLE + ", except for updating from beta label to GA";

  /** Deprecated beta label keys and their GA successors ({@code betaToGALabel} in upstream's validation). */
  private static final Map<String, String> BETA_TO_GA = Map.of(
      "failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone",
      "failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region",
      "beta.kubernetes.io/os", "kubernetes.io/os",
      "beta.kubernetes.io/arch", "kubernetes.io/arch",
      "beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type");

  private PersistentVolumeUpdateRule() {}

  static void check(PersistentVolume stored, PersistentVolume updated) {
    PersistentVolumeSpec o = stored.spec();
    PersistentVolumeSpec n = updated.spec();
    if (o == n) {
      return;
    }
    boolean sourceKept = Objects.equals(o.source(), n.source());
    boolean affinityKept = o.nodeAffinity() == null || affinitiesEqual(o.nodeAffinity(), n.nodeAffinity());
    if (sourceKept && affinityKept && o.volumeMode() == n.volumeMode()) {
      return;
    }
    Violations v = UpdateChecks.violations(updated);
    if (!sourceKept) {
      v.add("spec.persistentvolumesource", "Forbidden: spec.persistentvolumesource is immutable after creation",
          n.source());
    }
    if (o.volumeMode() != n.volumeMode()) {
      v.add("spec.volumeMode", UpdateChecks.IMMUTABLE, n.volumeMode());
    }
    if (!affinityKept) {
      v.add("spec.nodeAffinity", NODE_AFFINITY_IMMUTABLE, null);
    }
    v.throwIfAny();
  }

  /** {@code volumeNodeAffinitiesEqual}: equal term by term, a beta key of {@code o} may be GA in {@code n}. */
  private static boolean affinitiesEqual(VolumeNodeAffinity o, @Nullable VolumeNodeAffinity n) {
    if (n == null) {
      return false;
    }
    if (o.equals(n)) {
      return true;
    }
    List<NodeSelectorTerm> ot = o.required().nodeSelectorTerms();
    List<NodeSelectorTerm> nt = n.required().nodeSelectorTerms();
    if (ot.size() != nt.size()) {
      return false;
    }
    for (int i = 0; i < ot.size(); i++) {
      if (!requirementsEqual(ot.get(i).matchExpressions(), nt.get(i).matchExpressions())
          || !requirementsEqual(ot.get(i).matchFields(), nt.get(i).matchFields())) {
        return false;
      }
    }
    return true;
  }

  private static boolean requirementsEqual(List<NodeSelectorRequirement> o, List<NodeSelectorRequirement> n) {
    if (o.size() != n.size()) {
      return false;
    }
    for (int i = 0; i < o.size(); i++) {
      NodeSelectorRequirement a = o.get(i);
      NodeSelectorRequirement b = n.get(i);
      boolean sameKey = a.key().equals(b.key()) || b.key().equals(BETA_TO_GA.get(a.key()));
      if (!sameKey || a.operator() != b.operator() || !a.values().equals(b.values())) {
        return false;
      }
    }
    return true;
  }
}
