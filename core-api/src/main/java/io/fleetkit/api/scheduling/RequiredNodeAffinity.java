package io.fleetkit.api.scheduling;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A pod's hard node constraints, compiled: its {@code nodeSelector} map AND its required node affinity (component
 * helpers {@code nodeaffinity.GetRequiredNodeAffinity}). A pod with neither matches every node; a required node
 * affinity without terms matches none.
 *
 * <p>Immutable and thread-safe; {@link #match} does not allocate, so one instance per pod can be shared by every
 * filter call of a scheduling cycle.
 */
public final class RequiredNodeAffinity {
  private static final RequiredNodeAffinity NONE = new RequiredNodeAffinity(new String[0], new String[0], null,
      null);

  private final String[] selectorKeys;
  private final String[] selectorValues;
  private final @Nullable NodeSelectorMatcher affinity;
  private final @Nullable NodeSelector required;

  private RequiredNodeAffinity(String[] selectorKeys, String[] selectorValues, @Nullable NodeSelectorMatcher affinity,
      @Nullable NodeSelector required) {
    this.selectorKeys = selectorKeys;
    this.selectorValues = selectorValues;
    this.affinity = affinity;
    this.required = required;
  }

  /**
   * Compiles a pod's {@code nodeSelector} map and node affinity ({@code null} for none). Invalid affinity terms
   * never match (see {@link #errors()}), as upstream's lazy-error selector.
   */
  public static RequiredNodeAffinity of(Map<String, String> nodeSelector, @Nullable NodeAffinity nodeAffinity) {
    NodeSelector req = nodeAffinity == null ? null : nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution();
    if (nodeSelector.isEmpty() && req == null) {
      return NONE;
    }
    Map<String, String> sorted = new TreeMap<>(nodeSelector);
    return new RequiredNodeAffinity(sorted.keySet().toArray(new String[0]), sorted.values().toArray(new String[0]),
        req == null ? null : NodeSelectorMatcher.lazy(req), req);
  }

  /** As {@link #of(Map, NodeAffinity)} with the node affinity of {@code affinity} ({@code null} for none). */
  public static RequiredNodeAffinity fromAffinity(Map<String, String> nodeSelector, @Nullable Affinity affinity) {
    return of(nodeSelector, affinity == null ? null : affinity.nodeAffinity());
  }

  /** Whether the node satisfies both the node selector map and the required node affinity. */
  public boolean match(String nodeName, Map<String, String> nodeLabels) {
    for (int i = 0; i < selectorKeys.length; i++) {
      if (!selectorValues[i].equals(nodeLabels.get(selectorKeys[i]))) {
        return false;
      }
    }
    return affinity == null || affinity.matches(nodeName, nodeLabels);
  }

  /** Whether this affinity constrains nothing (every node matches). */
  public boolean isEmpty() {
    return this == NONE;
  }

  /** Problems of invalid required affinity terms (those terms never match); empty when all are valid. */
  public List<String> errors() {
    return affinity == null ? List.of() : affinity.errors();
  }

  /**
   * The only node names that can match, when every required term pins {@code metadata.name} with In (the
   * NodeAffinity plugin's PreFilter result): the union over terms of the intersection of each term's names. Empty
   * when some term (or no required affinity) leaves every node possible.
   */
  public Optional<Set<String>> nodeNames() {
    if (required == null || required.nodeSelectorTerms().isEmpty()) {
      return Optional.empty();
    }
    Set<String> union = new HashSet<>();
    for (NodeSelectorTerm term : required.nodeSelectorTerms()) {
      Set<String> termNames = null;
      for (NodeSelectorRequirement r : term.matchFields()) {
        if (CompiledTerm.NODE_NAME_FIELD.equals(r.key()) && r.operator() == NodeSelectorOperator.In) {
          if (termNames == null) {
            termNames = new HashSet<>(r.values());
          } else {
            termNames.retainAll(r.values());
          }
        }
      }
      if (termNames == null) {
        return Optional.empty();
      }
      union.addAll(termNames);
    }
    return Optional.of(Set.copyOf(union));
  }
}
