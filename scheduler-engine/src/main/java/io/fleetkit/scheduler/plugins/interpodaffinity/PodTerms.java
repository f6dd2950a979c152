package io.fleetkit.scheduler.plugins.interpodaffinity;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.labels.Selector;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A pod's compiled (anti-)affinity terms, as upstream's {@code framework.PodInfo} holds them: required affinity,
 * required anti-affinity, preferred affinity and preferred anti-affinity. {@code matchLabelKeys} and
 * {@code mismatchLabelKeys} are merged into the label selector here, as kube-apiserver does at pod creation
 * ({@code applyMatchLabelKeysAndMismatchLabelKeys}). A term that does not compile makes {@link #error} non-null; the
 * other terms are kept, the broken one left out.
 *
 * <p>Compiled once per {@link Pod} object ({@link #of}, an identity-keyed cache with weak keys, so that the terms of
 * existing pods are not recompiled every scheduling cycle). Immutable and thread-safe.
 */
final class PodTerms {
  static final PodTerms NONE = new PodTerms(List.of(), List.of(), List.of(), List.of(), null);
  private static final LoadingCache<Pod, PodTerms> CACHE = Caffeine.newBuilder().weakKeys()
      .build(PodTerms::compile);

  final List<AffinityTerm> requiredAffinity;
  final List<AffinityTerm> requiredAntiAffinity;
  final List<AffinityTerm> preferredAffinity;
  final List<AffinityTerm> preferredAntiAffinity;
  /** The first compile error, upstream's "parsing pod" message; {@code null} when every term compiled. */
  final @Nullable String error;

  private PodTerms(List<AffinityTerm> requiredAffinity, List<AffinityTerm> requiredAntiAffinity,
      List<AffinityTerm> preferredAffinity, List<AffinityTerm> preferredAntiAffinity, @Nullable String error) {
    this.requiredAffinity = requiredAffinity;
    this.requiredAntiAffinity = requiredAntiAffinity;
    this.preferredAffinity = preferredAffinity;
    this.preferredAntiAffinity = preferredAntiAffinity;
    this.error = error;
  }

  /** The compiled terms of {@code pod}; {@link #NONE} without allocation when it has no pod (anti-)affinity. */
  static PodTerms of(Pod pod) {
    Affinity a = pod.spec().affinity();
    if (a == null || (isEmpty(a.podAffinity()) && isEmpty(a.podAntiAffinity()))) {
      return NONE;
    }
    Last l = last;
    if (l != null && l.pod == pod) {
      return l.terms;
    }
    PodTerms t = CACHE.get(pod);
    last = new Last(pod, t);
    return t;
  }

  /**
   * The pod {@link #of} answered last and its terms (what {@link #CACHE} holds for it, kept reachable here): PreFilter
   * and PreScore of one cycle ask for the same pod, and the second asks nothing of the cache.
   */
  private static volatile @Nullable Last last;

  private record Last(Pod pod, PodTerms terms) {}

  boolean hasRequired() {
    return !requiredAffinity.isEmpty() || !requiredAntiAffinity.isEmpty();
  }

  boolean hasPreferred() {
    return !preferredAffinity.isEmpty() || !preferredAntiAffinity.isEmpty();
  }

  private static boolean isEmpty(@Nullable PodAffinity p) {
    return p == null || p.isEmpty();
  }

  /**
   * Whether the pod (which has required anti-affinity) has a required anti-affinity term whose topology key is not
   * {@code kubernetes.io/hostname}; reads the spec directly, without compiling.
   */
  static boolean hasNonHostScopedRequiredAntiAffinity(Pod pod) {
    return hasRequiredAntiAffinityTerm(pod, false);
  }

  /** Whether the pod has a required anti-affinity term keyed by {@code kubernetes.io/hostname}. */
  static boolean hasHostScopedRequiredAntiAffinity(Pod pod) {
    return hasRequiredAntiAffinityTerm(pod, true);
  }

  private static boolean hasRequiredAntiAffinityTerm(Pod pod, boolean hostScoped) {
    Affinity a = pod.spec().affinity();
    if (a == null || a.podAntiAffinity() == null) {
      return false;
    }
    List<PodAffinityTerm> terms = a.podAntiAffinity().requiredDuringSchedulingIgnoredDuringExecution();
    for (int i = 0, n = terms.size(); i < n; i++) {
      if (InterPodAffinityPlugin.LABEL_HOSTNAME.equals(terms.get(i).topologyKey()) == hostScoped) {
        return true;
      }
    }
    return false;
  }

  /** Whether the pod has required affinity or any preferred term (what PreScore looks at in existing pods). */
  static boolean hasScoringTerms(Pod pod) {
    Affinity a = pod.spec().affinity();
    if (a == null) {
      return false;
    }
    PodAffinity aff = a.podAffinity();
    PodAffinity anti = a.podAntiAffinity();
    return (aff != null && !aff.isEmpty())
        || (anti != null && !anti.preferredDuringSchedulingIgnoredDuringExecution().isEmpty());
  }

  private static PodTerms compile(Pod pod) {
    Affinity a = pod.spec().affinity();
    PodAffinity aff = a == null || a.podAffinity() == null ? PodAffinity.NONE : a.podAffinity();
    PodAffinity anti = a == null || a.podAntiAffinity() == null ? PodAffinity.NONE : a.podAntiAffinity();
    List<String> errors = new ArrayList<>(0);
    List<AffinityTerm> ra = required(pod, aff, "requiredAffinityTerms", errors);
    List<AffinityTerm> rn = required(pod, anti, "requiredAntiAffinityTerms", errors);
    List<AffinityTerm> pa = preferred(pod, aff, "preferredAffinityTerms", errors);
    List<AffinityTerm> pn = preferred(pod, anti, "preferredAntiAffinityTerms", errors);
    return new PodTerms(ra, rn, pa, pn, errors.isEmpty() ? null : String.join(", ", errors));
  }

  private static List<AffinityTerm> required(Pod pod, PodAffinity p, String field, List<String> errors) {
    List<PodAffinityTerm> terms = p.requiredDuringSchedulingIgnoredDuringExecution();
    List<AffinityTerm> out = new ArrayList<>(terms.size());
    for (int i = 0; i < terms.size(); i++) {
      AffinityTerm t = RECENT.compile(pod, terms.get(i), 0, field, i, errors);
      if (t != null) {
        out.add(t);
      }
    }
    return List.copyOf(out);
  }

  private static List<AffinityTerm> preferred(Pod pod, PodAffinity p, String field, List<String> errors) {
    List<WeightedPodAffinityTerm> terms = p.preferredDuringSchedulingIgnoredDuringExecution();
    List<AffinityTerm> out = new ArrayList<>(terms.size());
    for (int i = 0; i < terms.size(); i++) {
      WeightedPodAffinityTerm w = terms.get(i);
      AffinityTerm t = RECENT.compile(pod, w.podAffinityTerm(), w.weight(), field, i, errors);
      if (t != null) {
        out.add(t);
      }
    }
    return List.copyOf(out);
  }

  private static final RecentTerms RECENT = new RecentTerms();

  /**
   * The terms compiled last, by their source: the pods of one workload carry their template's term objects, and a
   * term without {@code matchLabelKeys} or {@code mismatchLabelKeys} compiles, for owners in one namespace and with
   * one weight, to equal terms whatever else the owner holds ({@link #compileTerm} reads nothing more). Sharing the
   * compiled term skips compiling it per pod and lets {@link MatchIndex.Cache} find its index by identity. Holds the
   * last {@value #SIZE} sources (identity-compared); thread-safe.
   */
  static final class RecentTerms {
    static final int SIZE = 16;
    private final PodAffinityTerm[] sources = new PodAffinityTerm[SIZE];
    private final String[] namespaces = new String[SIZE];
    private final int[] weights = new int[SIZE];
    private final AffinityTerm[] compiled = new AffinityTerm[SIZE];
    private int next;

    /** {@link #compileTerm}'s term for {@code owner}, shared with an earlier owner's where it would be equal. */
    @Nullable AffinityTerm compile(Pod owner, PodAffinityTerm term, int weight, String field, int index,
        List<String> errors) {
      if (!term.matchLabelKeys().isEmpty() || !term.mismatchLabelKeys().isEmpty()) {
        return compileTerm(owner, term, weight, field + "[" + index + "]", errors);
      }
      String ns = owner.metadata().namespace();
      synchronized (this) {
        for (int i = 0; i < SIZE; i++) {
          if (sources[i] == term && weights[i] == weight && ns.equals(namespaces[i])) {
            return compiled[i];
          }
        }
      }
      AffinityTerm t = compileTerm(owner, term, weight, field + "[" + index + "]", errors);
      if (t != null) {
        synchronized (this) {
          sources[next] = term;
          namespaces[next] = ns;
          weights[next] = weight;
          compiled[next] = t;
          next = (next + 1) % SIZE;
        }
      }
      return t;
    }
  }

  /** Compiles one term for the pod that carries it (upstream {@code newAffinityTerm}). */
  static @Nullable AffinityTerm compileTerm(Pod owner, PodAffinityTerm term, int weight, String path,
      List<String> errors) {
    Set<String> namespaces = term.namespaces().isEmpty() && term.namespaceSelector() == null
        ? Set.of(owner.metadata().namespace()) : Set.copyOf(term.namespaces());
    try {
      Selector selector = Selector.fromLabelSelector(withLabelKeys(term, owner.metadata().labels()));
      Selector nsSelector = Selector.fromLabelSelector(term.namespaceSelector());
      return new AffinityTerm(namespaces, nsSelector, selector, term.topologyKey(), weight);
    } catch (IllegalArgumentException e) {
      errors.add(path + ": " + e.getMessage());
      return null;
    }
  }

  /**
   * The term's label selector with {@code key in (value)} for each {@code matchLabelKeys} key and
   * {@code key notin (value)} for each {@code mismatchLabelKeys} key the owner has a label for; a {@code null}
   * selector stays {@code null} (it matches nothing anyway).
   */
  static @Nullable LabelSelector withLabelKeys(PodAffinityTerm term, Map<String, String> ownerLabels) {
    LabelSelector sel = term.labelSelector();
    if (sel == null || (term.matchLabelKeys().isEmpty() && term.mismatchLabelKeys().isEmpty())) {
      return sel;
    }
    List<LabelSelectorRequirement> exprs = new ArrayList<>(sel.matchExpressions());
    for (String key : term.matchLabelKeys()) {
      String v = ownerLabels.get(key);
      if (v != null) {
        exprs.add(new LabelSelectorRequirement(key, LabelSelectorOperator.In, List.of(v)));
      }
    }
    for (String key : term.mismatchLabelKeys()) {
      String v = ownerLabels.get(key);
      if (v != null) {
        exprs.add(new LabelSelectorRequirement(key, LabelSelectorOperator.NotIn, List.of(v)));
      }
    }
    return new LabelSelector(sel.matchLabels(), exprs);
  }
}
