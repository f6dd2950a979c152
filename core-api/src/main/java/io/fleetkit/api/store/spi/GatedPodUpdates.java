package io.fleetkit.api.store.spi;

import io.fleetkit.api.Violations;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The part of kubernetes {@code ValidatePodUpdate} that applies while the stored pod still has scheduling gates
 * (KEP-3838, mutable scheduling directives): such a pod's {@code spec.nodeSelector} may gain entries, the required
 * terms of its node affinity may gain requirements, and its preferred node affinity terms may change freely; every
 * other change is refused with upstream's field path and words ({@code validateNodeSelectorMutation},
 * {@code validateNodeAffinityMutation}, {@code validateNodeSelectorTermHasOnlyAdditions}). Pod affinity and
 * anti-affinity stay immutable, as upstream keeps them. Stateless; used by {@link UpdateChecks} only.
 */
final class GatedPodUpdates {
  /** {@code validateNodeSelectorMutation}'s rule. */
  static final String NODE_SELECTOR_RULE =
      "Invalid value: only additions to spec.nodeSelector are allowed (no mutations or deletions)";
  /** {@code validateNodeAffinityMutation}'s rule for the list of required terms. */
  static final String TERMS_RULE =
      "Invalid value: no additions/deletions to non-empty NodeSelectorTerms list are allowed";
  /** {@code validateNodeAffinityMutation}'s rule for one required term. */
  static final String TERM_RULE = "Invalid value: only additions are allowed (no mutations or deletions)";

  private GatedPodUpdates() {}

  /** {@code validateNodeSelectorMutation}: every entry of {@code o} is kept with its value; entries may be added. */
  static void nodeSelectorMutation(Map<String, String> n, Map<String, String> o, String path, Violations v) {
    for (Map.Entry<String, String> e : o.entrySet()) {
      if (!e.getValue().equals(n.get(e.getKey()))) {
        v.add(path, NODE_SELECTOR_RULE, n.toString());
        return;
      }
    }
  }

  /**
   * {@code validateNodeAffinityMutation}: without required terms before, anything goes; with them, the new required
   * selector has as many terms (else one violation on the list), and each term only gained requirements (else one
   * violation per term, {@code path.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[i]}).
   */
  static void nodeAffinityMutation(@Nullable NodeAffinity n, @Nullable NodeAffinity o, String path, Violations v) {
    NodeSelector oldRequired = o == null ? null : o.requiredDuringSchedulingIgnoredDuringExecution();
    if (oldRequired == null) {
      return;
    }
    List<NodeSelectorTerm> oldTerms = oldRequired.nodeSelectorTerms();
    NodeSelector newRequired = n == null ? null : n.requiredDuringSchedulingIgnoredDuringExecution();
    List<NodeSelectorTerm> newTerms = newRequired == null ? List.of() : newRequired.nodeSelectorTerms();
    String termsPath = path + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
    if (!oldTerms.isEmpty() && oldTerms.size() != newTerms.size()) {
      v.add(termsPath, TERMS_RULE, newTerms.toString());
      return;
    }
    for (int i = 0; i < oldTerms.size(); i++) {
      if (!termHasOnlyAdditions(newTerms.get(i), oldTerms.get(i))) {
        v.add(termsPath + "[" + i + "]", TERM_RULE, newTerms.get(i).toString());
      }
    }
  }

  /**
   * {@code validateNodeSelectorTermHasOnlyAdditions}: an empty term (it selects nothing) stays empty; otherwise the
   * old matchExpressions and matchFields are each a prefix of the new ones.
   */
  static boolean termHasOnlyAdditions(NodeSelectorTerm n, NodeSelectorTerm o) {
    if (o.matchExpressions().isEmpty() && o.matchFields().isEmpty()) {
      return n.matchExpressions().isEmpty() && n.matchFields().isEmpty();
    }
    return isPrefix(o.matchExpressions(), n.matchExpressions()) && isPrefix(o.matchFields(), n.matchFields());
  }

  private static <T> boolean isPrefix(List<T> prefix, List<T> list) {
    return prefix.size() <= list.size() && list.subList(0, prefix.size()).equals(prefix);
  }

  /**
   * The affinity the munged spec carries once the node affinity change was judged: {@code n}'s pod affinity and
   * anti-affinity with {@code o}'s node affinity. Upstream needs four cases here because a Go pod may have no
   * Affinity at all or one whose parts are all nil; FleetKit's {@link Affinity#NONE} is both, and each of the four
   * cases comes down to this one record.
   */
  static Affinity withNodeAffinityOf(Affinity n, Affinity o) {
    return new Affinity(o.nodeAffinity(), n.podAffinity(), n.podAntiAffinity());
  }
}
