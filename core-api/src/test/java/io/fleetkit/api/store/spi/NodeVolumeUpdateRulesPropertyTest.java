package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.VolumeNodeAffinity;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The node and volume update rules as invariants: a node's pod CIDRs and provider ID may be set once and then never
 * change, whatever else the update changes; a volume's node affinity accepts exactly the updates that keep every
 * requirement or move a beta topology key to its GA successor, and refuses any other change of a key or value.
 */
final class NodeVolumeUpdateRulesPropertyTest {
  private static final String[][] BETA_GA = {
      {"failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone"},
      {"failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region"},
      {"beta.kubernetes.io/os", "kubernetes.io/os"},
      {"beta.kubernetes.io/arch", "kubernetes.io/arch"},
      {"beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type"}};

  @Property(tries = 200)
  void node_cidrsAndProviderId_setOnceThenFixed(@ForAll @IntRange(min = 0, max = 255) int subnet,
      @ForAll boolean setProvider, @ForAll boolean unschedulable, @ForAll @IntRange(min = 0, max = 3) int change) {
    Node fresh = Node.builder().name("n").build();
    Node.Builder assigned = fresh.toBuilder().unschedulable(unschedulable).label("l", "v" + subnet)
        .podCIDRs(List.of("10." + subnet + ".0.0/24"));
    if (setProvider) {
      assigned.providerID("pool://n/" + subnet);
    }
    Node set = assigned.build();
    assertThatCode(() -> WriteRules.update(fresh, set)).doesNotThrowAnyException();
    // once set: any other update of labels and unschedulable is accepted, as long as both are kept
    assertThatCode(() -> WriteRules.update(set, set.toBuilder().unschedulable(!unschedulable).label("l", "w").build()))
        .doesNotThrowAnyException();
    Node changed = switch (change) {
      case 0 -> set.toBuilder().podCIDRs(List.of("10." + ((subnet + 1) % 256) + ".0.0/24")).build();
      case 1 -> set.toBuilder().podCIDRs(List.of()).build();
      case 2 -> set.toBuilder().podCIDRs(List.of("10." + subnet + ".0.0/24", "fd00::/64")).build();
      default -> set.toBuilder().providerID(setProvider ? "pool://other" : "pool://new").build();
    };
    Throwable t = catchThrowable(() -> WriteRules.update(set, changed));
    if (change == 3 && !setProvider) {
      assertThat(t).isNull(); // provider ID set from empty
    } else {
      assertThat(t).isInstanceOf(ValidationException.class);
      assertThat(((ValidationException) t).violations()).extracting(Violation::field)
          .containsOnly(change == 3 ? "spec.providerID" : "spec.podCIDRs");
    }
  }

  @Property(tries = 200)
  void volumeAffinity_onlyBetaToGaKeyMoves(
      @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 0, max = 5) Integer> keys,
      @ForAll @IntRange(min = 0, max = 3) int position, @ForAll @IntRange(min = 0, max = 2) int change) {
    List<String> oldKeys = new ArrayList<>();
    for (int k : keys) {
      oldKeys.add(k < BETA_GA.length ? BETA_GA[k][0] : "example.com/key-" + k);
    }
    int at = position % oldKeys.size();
    List<String> newKeys = new ArrayList<>(oldKeys);
    List<String> newValues = new ArrayList<>(Collections.nCopies(oldKeys.size(), "v"));
    int k = keys.get(at);
    boolean accepted;
    if (change == 0) { // the beta key at `at` (if any) becomes GA
      if (k < BETA_GA.length) {
        newKeys.set(at, BETA_GA[k][1]);
      }
      accepted = true;
    } else if (change == 1) { // the value changes
      newValues.set(at, "w");
      accepted = false;
    } else { // the key becomes another, non-GA key
      newKeys.set(at, "example.com/other");
      accepted = false;
    }
    PersistentVolume old = volume(affinity(oldKeys, Collections.nCopies(oldKeys.size(), "v")));
    PersistentVolume updated = volume(affinity(newKeys, newValues));
    Throwable t = catchThrowable(() -> UpdateChecks.update(old, updated, false));
    if (accepted) {
      assertThat(t).isNull();
      // and never back: GA to beta is a change
      if (k < BETA_GA.length) {
        assertThat(catchThrowable(() -> UpdateChecks.update(updated, old, false)))
            .isInstanceOf(ValidationException.class);
      }
    } else {
      assertThat(t).isInstanceOf(ValidationException.class);
      assertThat(((ValidationException) t).violations()).extracting(Violation::field)
          .containsExactly("spec.nodeAffinity");
    }
  }

  private static VolumeNodeAffinity affinity(List<String> keys, List<String> values) {
    List<NodeSelectorRequirement> reqs = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      reqs.add(new NodeSelectorRequirement(keys.get(i), NodeSelectorOperator.In, List.of(values.get(i))));
    }
    return new VolumeNodeAffinity(new NodeSelector(List.of(new NodeSelectorTerm(reqs, List.of()))));
  }

  private static PersistentVolume volume(VolumeNodeAffinity affinity) {
    return PersistentVolume.of(ObjectMeta.of("pv"), PersistentVolumeSpec.builder().storage("1Gi")
        .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).nodeAffinity(affinity).build());
  }
}
