package io.fleetkit.api.apps;

import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Builder shorthands shared by the workload kinds of this package. */
final class Templates {
  private Templates() {}

  static LabelSelector selector(@Nullable LabelSelector selector, @Nullable Map<String, String> matchLabels) {
    if (selector != null) {
      return selector;
    }
    return matchLabels == null ? LabelSelector.EVERYTHING : LabelSelector.of(matchLabels);
  }

  static PodTemplateSpec template(@Nullable PodTemplateSpec template, @Nullable Map<String, String> matchLabels,
      @Nullable PodSpec podSpec) {
    if (template != null) {
      return template;
    }
    return PodTemplateSpec.of(matchLabels == null ? Map.of() : matchLabels,
        podSpec == null ? PodSpec.builder().build() : podSpec);
  }
}
