package io.fleetkit.scheduler.plugins.interpodaffinity;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Arguments of {@link InterPodAffinityPlugin} (upstream {@code InterPodAffinityArgs}, plus the namespace-labels
 * lookup, see {@link NamespaceLookups}).
 *
 * @param hardPodAffinityWeight the score weight of an existing pod's required affinity term that the incoming pod
 *     matches (symmetric scoring), 0..100; kube's default is 1
 * @param ignorePreferredTermsOfExistingPods skip the existing pods' preferred terms when scoring, unless the
 *     incoming pod has preferred terms of its own (a throughput option)
 * @param namespaceLabels the labels of a namespace by name, used by {@code namespaceSelector}; it returns an empty
 *     map for a namespace without labels and may return {@code null} for a namespace that does not exist (then no
 *     non-empty namespace selector of the incoming pod selects it, and an existing pod's selector sees no labels,
 *     as upstream). The default, {@link #NO_NAMESPACE_LABELS}, says every namespace exists and has no labels. It is
 *     called from PreFilter and PreScore and must be thread-safe and cheap.
 */
public record InterPodAffinityArgs(int hardPodAffinityWeight, boolean ignorePreferredTermsOfExistingPods,
    Function<String, @Nullable Map<String, String>> namespaceLabels) {
  /** Every namespace exists and has no labels. */
  public static final Function<String, @Nullable Map<String, String>> NO_NAMESPACE_LABELS = ns -> Map.of();
  /** kube's default hardPodAffinityWeight. */
  public static final int DEFAULT_HARD_POD_AFFINITY_WEIGHT = 1;
  /** kube's defaults: weight 1, existing pods' preferred terms considered, no namespace labels. */
  public static final InterPodAffinityArgs DEFAULT =
      new InterPodAffinityArgs(DEFAULT_HARD_POD_AFFINITY_WEIGHT, false, NO_NAMESPACE_LABELS);

  /** Map keys understood by {@link #fromMap}. */
  public static final String HARD_POD_AFFINITY_WEIGHT = "hardPodAffinityWeight";
  public static final String IGNORE_PREFERRED_TERMS_OF_EXISTING_PODS = "ignorePreferredTermsOfExistingPods";
  public static final String NAMESPACE_LABELS = "namespaceLabels";

  /**
   * Validates as upstream's {@code ValidateInterPodAffinityArgs}.
   *
   * @throws IllegalArgumentException if hardPodAffinityWeight is outside 0..100
   */
  public InterPodAffinityArgs {
    if (hardPodAffinityWeight < 0 || hardPodAffinityWeight > 100) {
      throw new IllegalArgumentException("InterPodAffinityArgs: hardPodAffinityWeight " + hardPodAffinityWeight
          + " must be in the range 0-100");
    }
    Objects.requireNonNull(namespaceLabels, "namespaceLabels");
  }

  /** These args with another namespace-labels lookup. */
  public InterPodAffinityArgs withNamespaceLabels(Function<String, @Nullable Map<String, String>> lookup) {
    return new InterPodAffinityArgs(hardPodAffinityWeight, ignorePreferredTermsOfExistingPods, lookup);
  }

  /**
   * Args from a profile's plugin-args map: {@value #HARD_POD_AFFINITY_WEIGHT} (a whole Number),
   * {@value #IGNORE_PREFERRED_TERMS_OF_EXISTING_PODS} (a Boolean) and {@value #NAMESPACE_LABELS} (a
   * {@code Function<String, Map<String, String>>}); missing keys take the defaults.
   *
   * @throws IllegalArgumentException naming the key for an unknown key or a value of the wrong type or range
   */
  @SuppressWarnings("unchecked")
  public static InterPodAffinityArgs fromMap(Map<String, ?> args) {
    int weight = DEFAULT_HARD_POD_AFFINITY_WEIGHT;
    boolean ignore = false;
    Function<String, @Nullable Map<String, String>> lookup = NO_NAMESPACE_LABELS;
    for (Map.Entry<String, ?> e : args.entrySet()) {
      Object v = e.getValue();
      switch (e.getKey()) {
        case HARD_POD_AFFINITY_WEIGHT -> {
          if (!(v instanceof Number n) || n.doubleValue() != n.intValue()) {
            throw bad(e.getKey(), v, "must be a whole number");
          }
          weight = n.intValue();
        }
        case IGNORE_PREFERRED_TERMS_OF_EXISTING_PODS -> {
          if (!(v instanceof Boolean b)) {
            throw bad(e.getKey(), v, "must be a boolean");
          }
          ignore = b;
        }
        case NAMESPACE_LABELS -> {
          if (!(v instanceof Function<?, ?> f)) {
            throw bad(e.getKey(), v, "must be a Function<String, Map<String, String>>");
          }
          lookup = (Function<String, @Nullable Map<String, String>>) f;
        }
        default -> throw bad(e.getKey(), v, "is not an argument of " + InterPodAffinityPlugin.NAME
            + " (known: " + HARD_POD_AFFINITY_WEIGHT + ", " + IGNORE_PREFERRED_TERMS_OF_EXISTING_PODS + ", "
            + NAMESPACE_LABELS + ")");
      }
    }
    return new InterPodAffinityArgs(weight, ignore, lookup);
  }

  private static IllegalArgumentException bad(String key, @Nullable Object value, String rule) {
    return new IllegalArgumentException("InterPodAffinityArgs: " + key + " \"" + value + "\" " + rule);
  }
}
