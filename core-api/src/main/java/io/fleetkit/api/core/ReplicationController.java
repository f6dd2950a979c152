package io.fleetkit.api.core;

import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.WorkloadChecks;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A replication controller (core/v1): keeps {@code replicas} pods matching its equality-based selector, the
 * predecessor of the {@link io.fleetkit.api.apps.ReplicaSet}. Immutable; the canonical constructor validates as
 * Kubernetes' {@code ValidateReplicationController} and {@code ValidateReplicationControllerStatus} and throws one
 * {@link io.fleetkit.api.ValidationException} listing every violation. The {@link Builder} applies the v1 defaults
 * first (one replica; an empty selector, and empty labels, taken from the template's labels).
 */
public record ReplicationController(ObjectMeta metadata, ReplicationControllerSpec spec,
    ReplicationControllerStatus status) implements ApiObject<ReplicationController> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "ReplicationController";

  public ReplicationController {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    WorkloadChecks.replicationControllerSpec(spec.replicas(), spec.minReadySeconds(), spec.selector(),
        spec.template(), v);
    WorkloadChecks.replicaStatus(status.replicas(), status.fullyLabeledReplicas(), status.readyReplicas(),
        status.availableReplicas(), status.observedGeneration(), v);
    v.throwIfAny();
  }

  public static Builder builder() {
    return new Builder();
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

  /** The pod template; never {@code null} (the constructor requires it). */
  public PodTemplateSpec template() {
    return Objects.requireNonNull(spec.template(), "spec.template");
  }

  @Override
  public ReplicationController withMetadata(ObjectMeta newMetadata) {
    return new ReplicationController(newMetadata, spec, status);
  }

  @Override
  public ReplicationController withStatusOf(ReplicationController other) {
    return new ReplicationController(metadata, spec, other.status);
  }

  public ReplicationController withSpec(ReplicationControllerSpec newSpec) {
    return new ReplicationController(metadata, newSpec, status);
  }

  public ReplicationController withStatus(ReplicationControllerStatus newStatus) {
    return new ReplicationController(metadata, spec, newStatus);
  }

  /**
   * Mutable builder (namespace {@code default}, 1 replica) that applies Kubernetes' v1 defaulting
   * ({@code SetDefaults_ReplicationController}) on {@link #build()}: with a template, an empty selector becomes the
   * template's labels, and so do empty object labels. Not thread-safe.
   */
  public static final class Builder {
    private ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default");
    private int replicas = 1;
    private int minReadySeconds;
    private Map<String, String> selector = Map.of();
    private @Nullable PodTemplateSpec template;
    private ReplicationControllerStatus status = ReplicationControllerStatus.EMPTY;

    private Builder() {}

    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder name(String v) { meta.name(v); return this; }
    public Builder namespace(String v) { meta.namespace(v); return this; }
    public Builder label(String k, String v) { meta.label(k, v); return this; }
    public Builder ownerReference(OwnerReference v) { meta.ownerReference(v); return this; }
    public Builder replicas(int v) { replicas = v; return this; }
    public Builder minReadySeconds(int v) { minReadySeconds = v; return this; }
    public Builder selector(Map<String, String> v) { selector = Map.copyOf(v); return this; }
    public Builder template(@Nullable PodTemplateSpec v) { template = v; return this; }
    /** Shorthand for a template with these labels and pod spec (the selector defaults to the labels). */
    public Builder template(Map<String, String> labels, PodSpec podSpec) {
      template = PodTemplateSpec.of(labels, podSpec);
      return this;
    }
    public Builder status(ReplicationControllerStatus v) { status = v; return this; }

    /** @throws io.fleetkit.api.ValidationException listing every violation of the defaulted object */
    public ReplicationController build() {
      Map<String, String> sel = selector;
      ObjectMeta m = meta.build();
      if (template != null) {
        Map<String, String> templateLabels = template.metadata().labels();
        if (sel.isEmpty()) {
          sel = templateLabels;
        }
        if (m.labels().isEmpty()) {
          m = m.withLabels(templateLabels);
        }
      }
      return new ReplicationController(m, new ReplicationControllerSpec(replicas, minReadySeconds, sel, template),
          status);
    }
  }
}
