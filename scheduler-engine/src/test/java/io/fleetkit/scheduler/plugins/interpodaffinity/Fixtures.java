package io.fleetkit.scheduler.plugins.interpodaffinity;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Test builders in the spirit of upstream's {@code st.MakePod()} wrappers. Namespaces that are not DNS-1123 labels
 * in the upstream tables ({@code NS1}, {@code subteam1.team1}) are written lower-case with {@code -} for {@code .};
 * the empty namespace is kept, as upstream's {@code defaultNamespace = ""}. Node names are lower-cased.
 */
final class Fixtures {
  private static final AtomicInteger NAMES = new AtomicInteger();

  private Fixtures() {}

  static MakePod makePod() {
    return new MakePod();
  }

  static Node node(String name, Map<String, String> labels) {
    return Node.builder().name(nodeName(name)).labels(labels).allocatable(ResourceList.ofCpuMemory(4000, 32L << 30)).build();
  }

  /** Upstream node names such as {@code nodeA} are not DNS subdomains: they are lower-cased (label values are kept). */
  static String nodeName(String upstream) {
    return upstream.toLowerCase(Locale.ROOT);
  }

  static Map<String, String> labels(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  static LabelSelectorRequirement in(String key, String... values) {
    return new LabelSelectorRequirement(key, LabelSelectorOperator.In, Arrays.asList(values));
  }

  static LabelSelectorRequirement notIn(String key, String... values) {
    return new LabelSelectorRequirement(key, LabelSelectorOperator.NotIn, Arrays.asList(values));
  }

  static LabelSelectorRequirement exists(String key) {
    return new LabelSelectorRequirement(key, LabelSelectorOperator.Exists, List.of());
  }

  static LabelSelectorRequirement doesNotExist(String key) {
    return new LabelSelectorRequirement(key, LabelSelectorOperator.DoesNotExist, List.of());
  }

  static LabelSelector selector(LabelSelectorRequirement... reqs) {
    return new LabelSelector(Map.of(), List.of(reqs));
  }

  static PodAffinityTerm term(LabelSelector selector, String topologyKey) {
    return PodAffinityTerm.of(selector, topologyKey);
  }

  static PodAffinityTerm term(@Nullable LabelSelector selector, String topologyKey, List<String> namespaces,
      @Nullable LabelSelector namespaceSelector) {
    return new PodAffinityTerm(selector, namespaces, topologyKey, namespaceSelector, List.of(), List.of());
  }

  static WeightedPodAffinityTerm weighted(int weight, PodAffinityTerm term) {
    return new WeightedPodAffinityTerm(weight, term);
  }

  static PodAffinity required(PodAffinityTerm... terms) {
    return new PodAffinity(List.of(terms), List.of());
  }

  static PodAffinity preferred(WeightedPodAffinityTerm... terms) {
    return new PodAffinity(List.of(), List.of(terms));
  }

  /** A mutable pod builder: {@code makePod().namespace("").labels(..).podAffinityIn(..).obj()}. */
  static final class MakePod {
    private String name = "";
    private String namespace = "";
    private final Map<String, String> labels = new LinkedHashMap<>();
    private String node = "";
    private final List<PodAffinityTerm> reqAff = new ArrayList<>();
    private final List<PodAffinityTerm> reqAnti = new ArrayList<>();
    private final List<WeightedPodAffinityTerm> prefAff = new ArrayList<>();
    private final List<WeightedPodAffinityTerm> prefAnti = new ArrayList<>();
    private @Nullable Affinity affinity;

    MakePod name(String v) { name = v.toLowerCase(Locale.ROOT); return this; }
    MakePod namespace(String v) { namespace = v; return this; }
    MakePod labels(Map<String, String> v) { labels.putAll(v); return this; }
    MakePod label(String k, String v) { labels.put(k, v); return this; }
    MakePod node(String v) { node = nodeName(v); return this; }
    /** Replaces the built-up affinity with a whole one (upstream tables that spell {@code v1.Affinity} out). */
    MakePod affinity(Affinity v) { affinity = v; return this; }

    MakePod podAffinityIn(String key, String topologyKey, List<String> values) {
      reqAff.add(term(selector(in(key, values.toArray(String[]::new))), topologyKey));
      return this;
    }

    MakePod podAffinityNotIn(String key, String topologyKey, List<String> values) {
      reqAff.add(term(selector(notIn(key, values.toArray(String[]::new))), topologyKey));
      return this;
    }

    MakePod podAffinityExists(String key, String topologyKey) {
      reqAff.add(term(selector(exists(key)), topologyKey));
      return this;
    }

    MakePod podAntiAffinityIn(String key, String topologyKey, List<String> values) {
      reqAnti.add(term(selector(in(key, values.toArray(String[]::new))), topologyKey));
      return this;
    }

    MakePod podAntiAffinityNotIn(String key, String topologyKey, List<String> values) {
      reqAnti.add(term(selector(notIn(key, values.toArray(String[]::new))), topologyKey));
      return this;
    }

    MakePod podAntiAffinityExists(String key, String topologyKey) {
      reqAnti.add(term(selector(exists(key)), topologyKey));
      return this;
    }

    MakePod requiredAffinity(PodAffinityTerm... t) { reqAff.addAll(List.of(t)); return this; }
    MakePod requiredAntiAffinity(PodAffinityTerm... t) { reqAnti.addAll(List.of(t)); return this; }
    MakePod preferredAffinity(WeightedPodAffinityTerm... t) { prefAff.addAll(List.of(t)); return this; }
    MakePod preferredAntiAffinity(WeightedPodAffinityTerm... t) { prefAnti.addAll(List.of(t)); return this; }

    Pod obj() {
      Pod.Builder b = Pod.builder()
          .name(name.isEmpty() ? "pod-" + NAMES.incrementAndGet() : name)
          .namespace(namespace)
          .labels(labels)
          .container("c", "pause", ResourceList.EMPTY);
      if (!node.isEmpty()) {
        b.nodeName(node);
      }
      Affinity a = affinity;
      if (a == null && (!reqAff.isEmpty() || !reqAnti.isEmpty() || !prefAff.isEmpty() || !prefAnti.isEmpty())) {
        a = new Affinity(null,
            reqAff.isEmpty() && prefAff.isEmpty() ? null : new PodAffinity(reqAff, prefAff),
            reqAnti.isEmpty() && prefAnti.isEmpty() ? null : new PodAffinity(reqAnti, prefAnti));
      }
      if (a != null) {
        b.affinity(a);
      }
      return b.build();
    }
  }
}
