package io.fleetkit.api.autoscaling;

import io.fleetkit.api.Violations;
import io.fleetkit.api.Violations.NameRule;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Map;
import java.util.Objects;

/**
 * A VerticalPodAutoscalerCheckpoint ({@code autoscaling.k8s.io/v1}): the usage history of one container name under
 * one VPA, which the recommender writes as it goes and reads back when it starts, so that a restarted recommender
 * does not begin from nothing. Upstream names it {@code <vpa>-<container>}.
 *
 * <p>The constructor checks the name and namespace, that {@code spec.vpaObjectName} is set, and that the histograms'
 * bucket weights are not negative (the API's {@code uint32}) and their total weights are numbers. Bucket indexes and
 * the sign of a total weight are checked by the histogram that loads them, against its bucket count, as upstream.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record VerticalPodAutoscalerCheckpoint(ObjectMeta metadata, VerticalPodAutoscalerCheckpointSpec spec,
    VerticalPodAutoscalerCheckpointStatus status) implements ApiObject<VerticalPodAutoscalerCheckpoint> {
  public static final String API_VERSION = "autoscaling.k8s.io/v1";
  public static final String KIND = "VerticalPodAutoscalerCheckpoint";

  public VerticalPodAutoscalerCheckpoint {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    validate(metadata, spec, status);
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public VerticalPodAutoscalerCheckpoint withMetadata(ObjectMeta m) {
    return new VerticalPodAutoscalerCheckpoint(m, spec, status);
  }

  public VerticalPodAutoscalerCheckpoint withStatus(VerticalPodAutoscalerCheckpointStatus s) {
    return new VerticalPodAutoscalerCheckpoint(metadata, spec, s);
  }

  @Override
  public VerticalPodAutoscalerCheckpoint withStatusOf(VerticalPodAutoscalerCheckpoint other) {
    return withStatus(other.status);
  }

  private static void validate(ObjectMeta metadata, VerticalPodAutoscalerCheckpointSpec spec,
      VerticalPodAutoscalerCheckpointStatus status) {
    Violations v = Violations.forObject(KIND, metadata);
    v.nameAndNamespace(metadata, true, NameRule.DNS1123_SUBDOMAIN);
    if (spec.vpaObjectName().isEmpty()) {
      v.required("spec.vpaObjectName");
    }
    histogram(v, "status.cpuHistogram", status.cpuHistogram());
    histogram(v, "status.memoryHistogram", status.memoryHistogram());
    if (status.totalSamplesCount() < 0) {
      v.add("status.totalSamplesCount", Violations.NON_NEGATIVE, status.totalSamplesCount());
    }
    v.throwIfAny();
  }

  private static void histogram(Violations v, String field, HistogramCheckpoint h) {
    for (Map.Entry<Integer, Integer> e : h.bucketWeights().entrySet()) {
      Integer w = e.getValue();
      if (w == null) {
        v.required(field + ".bucketWeights[" + e.getKey() + "]");
      } else if (w < 0) {
        v.add(field + ".bucketWeights[" + e.getKey() + "]", Violations.NON_NEGATIVE, w);
      }
    }
    if (!Double.isFinite(h.totalWeight())) {
      v.add(field + ".totalWeight", "must be a finite number", h.totalWeight());
    }
  }
}
