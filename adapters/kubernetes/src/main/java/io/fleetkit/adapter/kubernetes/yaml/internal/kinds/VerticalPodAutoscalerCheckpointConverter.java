package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.autoscaling.HistogramCheckpoint;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpoint;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpointSpec;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpointStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.text.GoIntegers;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * autoscaling.k8s.io/v1 VerticalPodAutoscalerCheckpoint (a CRD, read as a {@code GenericKubernetesResource}), as
 * {@code kubectl get vpacheckpoints -o yaml} prints it: {@code spec.vpaObjectName} and {@code containerName}, and the
 * saved histories in {@code status}, whose {@code bucketWeights} are maps from a bucket index (a JSON key, so a
 * string of digits) to a scaled weight. Loading such objects beside their VPAs gives the simulator's recommender the
 * cluster's usage history on its first run.
 */
public final class VerticalPodAutoscalerCheckpointConverter
    extends AbstractKindConverter<GenericKubernetesResource, VerticalPodAutoscalerCheckpoint> {
  private static final Set<String> SPEC_FIELDS = Set.of("vpaObjectName", "containerName");
  private static final Set<String> STATUS_FIELDS = Set.of("lastUpdateTime", "version", "cpuHistogram",
      "memoryHistogram", "firstSampleStart", "lastSampleStart", "totalSamplesCount");
  private static final Set<String> HISTOGRAM_FIELDS = Set.of("referenceTimestamp", "bucketWeights", "totalWeight");

  public VerticalPodAutoscalerCheckpointConverter() {
    super(VerticalPodAutoscalerCheckpoint.API_VERSION, VerticalPodAutoscalerCheckpoint.KIND, true,
        GenericKubernetesResource.class, VerticalPodAutoscalerCheckpoint.class);
  }

  @Override
  public @Nullable VerticalPodAutoscalerCheckpoint toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    Untyped.known(spec, SPEC_FIELDS, "spec", ctx);
    String vpa = Untyped.string(spec, "vpaObjectName", "", "spec.vpaObjectName", ctx);
    String container = Untyped.string(spec, "containerName", "", "spec.containerName", ctx);
    Map<String, Object> st = GenericKinds.section(in, "status", ctx);
    Untyped.known(st, STATUS_FIELDS, "status", ctx);
    Instant updated = time(st, "lastUpdateTime", "status", ctx);
    String version = Untyped.string(st, "version", "", "status.version", ctx);
    HistogramCheckpoint cpu = histogram(Untyped.map(st, "cpuHistogram", "status.cpuHistogram", ctx),
        "status.cpuHistogram", ctx);
    HistogramCheckpoint memory = histogram(Untyped.map(st, "memoryHistogram", "status.memoryHistogram", ctx),
        "status.memoryHistogram", ctx);
    Instant first = time(st, "firstSampleStart", "status", ctx);
    Instant last = time(st, "lastSampleStart", "status", ctx);
    Long samples = Untyped.integer(st, "totalSamplesCount", "status.totalSamplesCount", ctx);
    if (ctx.hasErrors()) {
      return null;
    }
    VerticalPodAutoscalerCheckpointStatus status = new VerticalPodAutoscalerCheckpointStatus(updated, version, cpu,
        memory, first, last, samples == null ? 0 : samples);
    return ctx.build("", () -> new VerticalPodAutoscalerCheckpoint(meta,
        new VerticalPodAutoscalerCheckpointSpec(vpa, container), status));
  }

  private static @Nullable Instant time(Map<String, Object> m, String key, String parent, DocumentContext ctx) {
    String p = parent + "." + key;
    return Values.instant(Untyped.string(m, key, "", p, ctx), p, ctx);
  }

  /** A histogram; bucket keys that are not whole numbers from 0 and weights beyond 32 bits are reported. */
  private static HistogramCheckpoint histogram(Map<String, Object> m, String p, DocumentContext ctx) {
    Untyped.known(m, HISTOGRAM_FIELDS, p, ctx);
    Instant reference = time(m, "referenceTimestamp", p, ctx);
    Map<String, Object> raw = Untyped.map(m, "bucketWeights", p + ".bucketWeights", ctx);
    Map<Integer, Integer> weights = new TreeMap<>();
    for (String key : raw.keySet()) {
      String kp = p + ".bucketWeights[" + key + "]";
      int bucket;
      try {
        bucket = GoIntegers.parseInt32(key); // encoding/json reads an int map key with strconv.ParseInt
      } catch (NumberFormatException e) {
        ctx.error(kp, "must be keyed by a bucket index, a whole number", key);
        continue;
      }
      if (bucket < 0) {
        ctx.error(kp, "must be keyed by a bucket index of 0 or more", key);
        continue;
      }
      Integer w = Untyped.int32(raw, key, kp, ctx);
      if (w != null) {
        weights.put(bucket, w);
      } else if (raw.get(key) == null) {
        ctx.error(kp, "is required", null);
      }
    }
    Double total = Untyped.number(m, "totalWeight", p + ".totalWeight", ctx);
    return new HistogramCheckpoint(reference, weights, total == null ? 0.0 : total);
  }

  @Override
  public GenericKubernetesResource toFabric8(VerticalPodAutoscalerCheckpoint in) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("vpaObjectName", in.spec().vpaObjectName());
    Untyped.put(spec, "containerName", in.spec().containerName());
    VerticalPodAutoscalerCheckpointStatus s = in.status();
    Map<String, Object> status = new LinkedHashMap<>();
    Untyped.put(status, "lastUpdateTime", Values.instant(s.lastUpdateTime()));
    Untyped.put(status, "version", s.version());
    status.put("cpuHistogram", histogram(s.cpuHistogram()));
    status.put("memoryHistogram", histogram(s.memoryHistogram()));
    Untyped.put(status, "firstSampleStart", Values.instant(s.firstSampleStart()));
    Untyped.put(status, "lastSampleStart", Values.instant(s.lastSampleStart()));
    status.put("totalSamplesCount", s.totalSamplesCount());
    return GenericKinds.resource(in, spec, status);
  }

  private static Map<String, Object> histogram(HistogramCheckpoint h) {
    Map<String, Object> m = new LinkedHashMap<>();
    Untyped.put(m, "referenceTimestamp", Values.instant(h.referenceTimestamp()));
    Map<String, Object> weights = new LinkedHashMap<>();
    h.bucketWeights().forEach((bucket, weight) -> weights.put(Integer.toString(bucket), weight));
    m.put("bucketWeights", weights);
    m.put("totalWeight", h.totalWeight());
    return m;
  }
}
