package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The gated-pod node affinity rule as an invariant: for a pod that is still gated, appending requirements to the
 * existing required terms is accepted whatever the terms hold; changing one existing requirement of one term is
 * refused with exactly one violation, on that term's path, and with the gates gone the same change is a plain
 * spec change.
 */
final class GatedPodUpdatesPropertyTest {
  private static final String TERMS =
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";

  private static NodeSelectorRequirement req(String key, int value) {
    return new NodeSelectorRequirement(key, NodeSelectorOperator.In, List.of("v" + value));
  }

  /** {@code terms} terms, term {@code t} with {@code 1 + (t + seed) % 3} expressions and {@code t % 2} fields. */
  private static List<NodeSelectorTerm> terms(int terms, int seed) {
    List<NodeSelectorTerm> out = new ArrayList<>();
    for (int t = 0; t < terms; t++) {
      List<NodeSelectorRequirement> expressions = new ArrayList<>();
      for (int e = 0; e < 1 + (t + seed) % 3; e++) {
        expressions.add(req("k" + e, t));
      }
      List<NodeSelectorRequirement> fields = t % 2 == 0 ? List.of()
          : List.of(new NodeSelectorRequirement("metadata.name", NodeSelectorOperator.In, List.of("node-" + t)));
      out.add(new NodeSelectorTerm(expressions, fields));
    }
    return out;
  }

  private static Pod pod(List<NodeSelectorTerm> terms, boolean gated) {
    Pod.Builder b = Pod.builder().namespace("ns").name("p").container("c", "img", ResourceList.EMPTY)
        .affinity(new Affinity(new NodeAffinity(new NodeSelector(terms), List.of()), null, null));
    if (gated) {
      b.schedulingGate("example.com/gate");
    }
    return b.build();
  }

  @Property(tries = 200)
  void gatedPod_appendedRequirements_accepted(@ForAll @IntRange(min = 1, max = 4) int termCount,
      @ForAll @IntRange(min = 0, max = 5) int seed, @ForAll @IntRange(min = 0, max = 3) int added) {
    List<NodeSelectorTerm> old = terms(termCount, seed);
    List<NodeSelectorTerm> grown = new ArrayList<>();
    for (int t = 0; t < old.size(); t++) {
      List<NodeSelectorRequirement> expressions = new ArrayList<>(old.get(t).matchExpressions());
      for (int a = 0; a < (added + t) % 4; a++) {
        expressions.add(req("extra" + a, seed));
      }
      grown.add(new NodeSelectorTerm(expressions, old.get(t).matchFields()));
    }
    Pod stored = pod(old, true);
    assertThatCode(() -> UpdateChecks.update(stored, pod(grown, true), false)).doesNotThrowAnyException();
    assertThatCode(() -> UpdateChecks.update(stored, pod(grown, false), false)).doesNotThrowAnyException();
  }

  @Property(tries = 200)
  void gatedPod_oneChangedRequirement_refusedOnItsTermOnly(@ForAll @IntRange(min = 1, max = 4) int termCount,
      @ForAll @IntRange(min = 0, max = 5) int seed, @ForAll @IntRange(min = 0, max = 3) int which) {
    List<NodeSelectorTerm> old = terms(termCount, seed);
    int t = which % termCount;
    List<NodeSelectorTerm> changed = new ArrayList<>(old);
    List<NodeSelectorRequirement> expressions = new ArrayList<>(old.get(t).matchExpressions());
    int e = which % expressions.size();
    expressions.set(e, req(expressions.get(e).key(), 1000 + which));
    changed.set(t, new NodeSelectorTerm(expressions, old.get(t).matchFields()));

    Throwable gated = catchThrowable(() -> UpdateChecks.update(pod(old, true), pod(changed, true), false));
    assertThat(gated).isInstanceOf(ValidationException.class);
    assertThat(((ValidationException) gated).violations()).extracting(Violation::field)
        .containsExactly(TERMS + "[" + t + "]");

    Throwable ungated = catchThrowable(() -> UpdateChecks.update(pod(old, false), pod(changed, false), false));
    assertThat(ungated).isInstanceOf(ValidationException.class);
    assertThat(((ValidationException) ungated).violations()).extracting(Violation::field).containsExactly("spec");
  }
}
