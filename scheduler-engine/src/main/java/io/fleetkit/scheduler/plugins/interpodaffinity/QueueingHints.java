package io.fleetkit.scheduler.plugins.interpodaffinity;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The per-pod queueing hints of {@link InterPodAffinityPlugin}: whether a change of a pod, a node or a namespace may
 * make a pod this plugin rejected schedulable. The pod and node hints are upstream's
 * {@code isSchedulableAfterPodChange} and {@code isSchedulableAfterNodeChange}
 * ({@code pkg/scheduler/framework/plugins/interpodaffinity/plugin.go}); the namespace hint is FleetKit's own (kube
 * has no namespace event). Stateless apart from the namespace-labels lookup; thread-safe.
 */
final class QueueingHints {
  private final Function<String, @Nullable Map<String, String>> namespaceLabels;

  QueueingHints(Function<String, @Nullable Map<String, String>> namespaceLabels) {
    this.namespaceLabels = Objects.requireNonNull(namespaceLabels, "namespaceLabels");
  }

  /**
   * A bound pod was added ({@code oldPod} null), changed, or deleted ({@code newPod} null). The pending pod itself
   * changing re-queues it; an unbound pod never helps. Otherwise: an added pod helps when it matches all of the
   * pending pod's required affinity terms; a changed pod when it starts matching them all, or stops matching all of
   * its required anti-affinity terms; a deleted pod when it matched all the anti-affinity terms, or when one of the
   * deleted pod's own required anti-affinity terms matched the pending pod (the symmetric rule Filter applies).
   */
  boolean afterPodChange(Pod pod, @Nullable Pod oldPod, @Nullable Pod newPod) {
    Pod changed = newPod != null ? newPod : oldPod;
    if (changed == null || changed.metadata().key().equals(pod.metadata().key())) {
      return true;
    }
    if ((newPod != null && !newPod.isBound()) || (oldPod != null && !oldPod.isBound())) {
      return false;
    }
    PodTerms terms = PodTerms.of(pod);
    AffinityTerm.NamespaceLabels existingNs = AffinityTerm.NamespaceLabels.memoized(namespaceLabels);
    if (oldPod != null && newPod != null) {
      return (!matchesAll(terms.requiredAffinity, oldPod, existingNs)
          && matchesAll(terms.requiredAffinity, newPod, existingNs))
          || (matchesAll(terms.requiredAntiAffinity, oldPod, existingNs)
          && !matchesAll(terms.requiredAntiAffinity, newPod, existingNs));
    }
    if (newPod != null) {
      return matchesAll(terms.requiredAffinity, newPod, existingNs);
    }
    if (matchesAll(terms.requiredAntiAffinity, oldPod, existingNs)) {
      return true;
    }
    Map<String, String> ownLabels = namespaceLabels.apply(pod.metadata().namespace());
    AffinityTerm.NamespaceLabels ownNs = AffinityTerm.NamespaceLabels.constant(ownLabels == null ? Map.of()
        : ownLabels);
    for (AffinityTerm t : PodTerms.of(oldPod).requiredAntiAffinity) {
      if (t.matches(pod, ownNs)) {
        return true;
      }
    }
    return false;
  }

  /** Upstream's {@code podMatchesAllAffinityTerms}: false without terms. */
  private static boolean matchesAll(List<AffinityTerm> terms, Pod pod, AffinityTerm.NamespaceLabels ns) {
    if (terms.isEmpty()) {
      return false;
    }
    for (AffinityTerm t : terms) {
      if (!t.matches(pod, ns)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A node was added ({@code oldNode} null) or its labels changed. For required affinity, a node that has (or gains,
   * or changes the value of) a term's topology key may hold the domain the term needs. For required anti-affinity,
   * any new node may be free of matching pods, and a node that loses a term's topology key (or changes its value)
   * may leave the domain that held them.
   */
  static boolean afterNodeChange(Pod pod, @Nullable Node oldNode, @Nullable Node newNode) {
    if (newNode == null) {
      return true;
    }
    PodTerms terms = PodTerms.of(pod);
    Map<String, String> after = newNode.metadata().labels();
    Map<String, String> before = oldNode == null ? null : oldNode.metadata().labels();
    for (AffinityTerm t : terms.requiredAffinity) {
      String v = after.get(t.topologyKey);
      if (v != null && (before == null || !v.equals(before.get(t.topologyKey)))) {
        return true;
      }
    }
    if (!terms.requiredAntiAffinity.isEmpty() && before == null) {
      return true;
    }
    for (AffinityTerm t : terms.requiredAntiAffinity) {
      String was = before == null ? null : before.get(t.topologyKey);
      if (was != null && !was.equals(after.get(t.topologyKey))) {
        return true;
      }
    }
    return false;
  }

  /**
   * A Namespace was added ({@code before} null), changed, or deleted ({@code after} null). A change of the pod's own
   * namespace re-queues it (an existing pod's anti-affinity term may have selected that namespace by label); a change
   * of another namespace re-queues it only when one of its required affinity terms' {@code namespaceSelector} now
   * selects that namespace and did not before (it may hold the pods the term needs), or one of its required
   * anti-affinity terms' selector selected it and no longer does (its pods stop counting). A namespace named in a
   * term's {@code namespaces} is selected whatever its labels; selectors see the namespace's labels plus
   * {@value Namespace#NAME_LABEL}, as in Filter.
   */
  static boolean afterNamespaceChange(Pod pod, @Nullable Namespace before, @Nullable Namespace after) {
    Namespace changed = after != null ? after : before;
    if (changed == null) {
      return true;
    }
    String name = changed.metadata().name();
    if (name.equals(pod.metadata().namespace())) {
      return true;
    }
    Affinity a = pod.spec().affinity();
    return a != null && (selectionChanged(a.podAffinity(), name, before, after, true)
        || selectionChanged(a.podAntiAffinity(), name, before, after, false));
  }

  /**
   * Whether a required term of {@code terms} starts selecting namespace {@code name} by label ({@code gained}) or
   * stops selecting it (not {@code gained}) between {@code before} and {@code after}.
   */
  private static boolean selectionChanged(@Nullable PodAffinity terms, String name, @Nullable Namespace before,
      @Nullable Namespace after, boolean gained) {
    if (terms == null) {
      return false;
    }
    for (PodAffinityTerm t : terms.requiredDuringSchedulingIgnoredDuringExecution()) {
      LabelSelector selector = t.namespaceSelector();
      if (selector == null || t.namespaces().contains(name)) {
        continue;
      }
      boolean was = before != null && selector.matches(before.selectorLabels());
      boolean is = after != null && selector.matches(after.selectorLabels());
      if (gained ? is && !was : was && !is) {
        return true;
      }
    }
    return false;
  }
}
