package io.fleetkit.api.core;

import io.fleetkit.api.meta.ObjectMeta;
import java.util.Map;
import java.util.Objects;

/**
 * The pod a workload stamps out: metadata (usually only labels and annotations) and a pod spec. Validated by the
 * owning workload under {@code spec.template}.
 */
public record PodTemplateSpec(ObjectMeta metadata, PodSpec spec) {
  public PodTemplateSpec {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
  }

  /** A template with these labels and spec. */
  public static PodTemplateSpec of(Map<String, String> labels, PodSpec spec) {
    return new PodTemplateSpec(ObjectMeta.builder().labels(labels).build(), spec);
  }

  public Map<String, String> labels() {
    return metadata.labels();
  }
}
