package io.fleetkit.api.batch;

import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;

/**
 * The Job a CronJob stamps out at each scheduled time: metadata (labels and annotations copied onto each Job) and a
 * Job spec. Validated by the owning CronJob under {@code spec.jobTemplate}.
 */
public record JobTemplateSpec(ObjectMeta metadata, JobSpec spec) {
  public JobTemplateSpec {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
  }
}
