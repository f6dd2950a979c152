package io.fleetkit.scheduler.plugins.interpodaffinity;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.Selector;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A compiled pod (anti-)affinity term (upstream {@code framework.AffinityTerm} / {@code WeightedAffinityTerm}): the
 * namespace set, the namespace selector, the label selector and the topology key, plus the weight of a preferred
 * term. Immutable; matching does not allocate.
 */
final class AffinityTerm {
  final Set<String> namespaces;
  final Selector namespaceSelector;
  final Selector selector;
  final String topologyKey;
  final int weight;
  /** Whether the topology key is {@code kubernetes.io/hostname}: such terms are checked node-locally in Filter. */
  final boolean hostScoped;
  /** What decides which pods match (not the topology key or weight): equal keys match the same pods. */
  final MatchKey matchKey;
  /** Whether matching may consult the namespace-labels lookup (a namespace selector that is neither empty nor null). */
  final boolean usesNamespaceLabels;

  AffinityTerm(Set<String> namespaces, Selector namespaceSelector, Selector selector, String topologyKey, int weight) {
    this.namespaces = namespaces;
    this.namespaceSelector = namespaceSelector;
    this.selector = selector;
    this.topologyKey = topologyKey;
    this.weight = weight;
    this.hostScoped = InterPodAffinityPlugin.LABEL_HOSTNAME.equals(topologyKey);
    this.matchKey = new MatchKey(namespaces, namespaceSelector, selector);
    this.usesNamespaceLabels = !namespaceSelector.matchesNothing() && !namespaceSelector.isEmpty();
  }

  /** The parts of a term that decide which pods it matches; compared by value. */
  record MatchKey(Set<String> namespaces, Selector namespaceSelector, Selector selector) {}

  /**
   * Whether {@code pod} is in one of this term's namespaces (listed, or selected by the namespace selector through
   * {@code nsLabels}) and its labels match the selector (upstream {@code AffinityTerm.Matches}).
   */
  boolean matches(Pod pod, NamespaceLabels nsLabels) {
    String ns = pod.metadata().namespace();
    if (!namespaces.contains(ns) && !namespaceSelects(ns, nsLabels)) {
      return false;
    }
    return selector.matches(pod.metadata().labels());
  }

  private boolean namespaceSelects(String ns, NamespaceLabels nsLabels) {
    if (namespaceSelector.matchesNothing()) {
      return false;
    }
    if (namespaceSelector.isEmpty()) {
      return true;
    }
    Map<String, String> labels = nsLabels.labelsOf(ns);
    return labels != null && namespaceSelector.matches(labels);
  }

  @Override
  public String toString() {
    return "AffinityTerm{ns=" + namespaces + ", nsSelector=" + namespaceSelector + ", selector=" + selector
        + ", topologyKey=" + topologyKey + (weight != 0 ? ", weight=" + weight : "") + "}";
  }

  /** The labels of a namespace, or {@code null} for a namespace that does not exist. */
  @FunctionalInterface
  interface NamespaceLabels {
    @Nullable Map<String, String> labelsOf(String namespace);

    /** The same labels for every namespace (an existing pod's selector sees the incoming pod's namespace). */
    static NamespaceLabels constant(Map<String, String> labels) {
      return ns -> labels;
    }

    /** {@code lookup}, asked at most once per namespace; thread-safe. */
    static NamespaceLabels memoized(Function<String, @Nullable Map<String, String>> lookup) {
      ConcurrentHashMap<String, Map<String, String>> memo = new ConcurrentHashMap<>();
      return ns -> {
        Map<String, String> v = memo.get(ns);
        if (v == null) {
          Map<String, String> found = lookup.apply(ns);
          v = found == null ? MISSING : found;
          memo.put(ns, v);
        }
        return v == MISSING ? null : v;
      };
    }
  }

  /** Marks a namespace the lookup does not know (identity-compared). */
  private static final Map<String, String> MISSING = new java.util.HashMap<>(0);
}
