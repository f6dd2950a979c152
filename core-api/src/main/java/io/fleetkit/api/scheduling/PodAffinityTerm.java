package io.fleetkit.api.scheduling;

import io.fleetkit.api.labels.LabelSelector;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Pods matching {@code labelSelector} in {@code namespaces} (or those matched by {@code namespaceSelector}; both
 * empty/null means the pod's own namespace) in the same {@code topologyKey} domain.
 */
public record PodAffinityTerm(@Nullable LabelSelector labelSelector, List<String> namespaces, String topologyKey,
    @Nullable LabelSelector namespaceSelector, List<String> matchLabelKeys, List<String> mismatchLabelKeys) {
  public PodAffinityTerm {
    namespaces = List.copyOf(namespaces);
    Objects.requireNonNull(topologyKey, "topologyKey");
    matchLabelKeys = List.copyOf(matchLabelKeys);
    mismatchLabelKeys = List.copyOf(mismatchLabelKeys);
  }

  public static PodAffinityTerm of(LabelSelector selector, String topologyKey) {
    return new PodAffinityTerm(selector, List.of(), topologyKey, null, List.of(), List.of());
  }
}
