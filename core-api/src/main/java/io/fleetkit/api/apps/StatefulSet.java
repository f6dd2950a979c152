package io.fleetkit.api.apps;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.internal.PodSpecChecks;
import io.fleetkit.api.internal.WorkloadChecks;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A StatefulSet (apps/v1): pods with stable names {@code <name>-<ordinal>} and per-pod claims from
 * {@code volumeClaimTemplates}. Immutable; the canonical constructor validates and throws one
 * {@link io.fleetkit.api.ValidationException} listing every violation.
 */
public record StatefulSet(ObjectMeta metadata, StatefulSetSpec spec, StatefulSetStatus status)
    implements ApiObject<StatefulSet> {
  public static final String API_VERSION = "apps/v1";
  public static final String KIND = "StatefulSet";

  public StatefulSet {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    v.nonNegative("spec.replicas", spec.replicas());
    v.nonNegative("spec.minReadySeconds", spec.minReadySeconds());
    v.nonNegative("spec.revisionHistoryLimit", spec.revisionHistoryLimit());
    // upstream's ValidateStatefulSetSpec: ValidateNonnegativeField(spec.ordinals.start)
    v.nonNegative("spec.ordinals.start", spec.ordinals().start());
    if (spec.ordinals().start() >= 0 && spec.replicas() >= 0 && spec.endOrdinal() > Integer.MAX_VALUE) {
      // FleetKit's own rule: the last pod's ordinal must fit an int (upstream's int32 fields add up in Go's int)
      v.add("spec.ordinals.start", "plus spec.replicas must not exceed " + (Integer.MAX_VALUE + 1L)
          + " (the last pod ordinal " + spec.endOrdinal() + " must fit in 32 bits)", spec.ordinals().start());
    }
    WorkloadChecks.selectorAndTemplate(spec.selector(), spec.template(), "statefulset", v);
    StatefulSetUpdateStrategy us = spec.updateStrategy();
    RollingUpdateStatefulSetStrategy ru = us.rollingUpdate();
    String ruPath = "spec.updateStrategy.rollingUpdate";
    if (us.type() == StatefulSetUpdateStrategyType.OnDelete && ru != null) {
      v.add(ruPath, "only allowed for updateStrategy 'RollingUpdate'", null);
    } else if (ru != null) {
      v.nonNegative(ruPath + ".partition", ru.partition());
      v.nonNegative(ruPath + ".maxUnavailable", ru.maxUnavailable());
      if (ru.maxUnavailable().value() == 0) {
        v.add(ruPath + ".maxUnavailable", "cannot be 0", ru.maxUnavailable());
      }
      v.notMoreThan100Percent(ruPath + ".maxUnavailable", ru.maxUnavailable());
    }
    List<ClaimTemplate> claims = spec.volumeClaimTemplates();
    if (!claims.isEmpty()) {
      Set<String> names = new HashSet<>();
      for (int i = 0; i < claims.size(); i++) {
        ClaimTemplate c = claims.get(i);
        String p = "spec.volumeClaimTemplates[" + i + "]";
        v.dnsSubdomain(p + ".metadata.name", c.name());
        if (!c.name().isEmpty() && !names.add(c.name())) {
          v.add(p + ".metadata.name", Violations.DUPLICATE, c.name());
        }
        PodSpecChecks.resourceList(c.requests(), p + ".spec.resources.requests", v);
      }
    }
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

  @Override
  public StatefulSet withMetadata(ObjectMeta newMetadata) {
    return new StatefulSet(newMetadata, spec, status);
  }

  @Override
  public StatefulSet withStatusOf(StatefulSet other) {
    return new StatefulSet(metadata, spec, other.status);
  }

  public StatefulSet withSpec(StatefulSetSpec newSpec) {
    return new StatefulSet(metadata, newSpec, status);
  }

  public StatefulSet withStatus(StatefulSetStatus newStatus) {
    return new StatefulSet(metadata, spec, newStatus);
  }

  /** The name of the pod with this ordinal: {@code <name>-<ordinal>}; ordinals start at {@code spec.ordinals.start}. */
  public String podName(int ordinal) {
    return metadata.name() + "-" + ordinal;
  }

  /** Mutable builder with Kubernetes' defaults (namespace {@code default}, 1 replica, OrderedReady). */
  public static final class Builder {
    private ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default");
    private int replicas = 1;
    private @Nullable LabelSelector selector;
    private @Nullable PodTemplateSpec template;
    private @Nullable Map<String, String> matchLabels;
    private @Nullable PodSpec podSpec;
    private String serviceName = "";
    private final List<ClaimTemplate> claims = new ArrayList<>();
    private PodManagementPolicy podManagementPolicy = PodManagementPolicy.OrderedReady;
    private StatefulSetUpdateStrategy updateStrategy = StatefulSetUpdateStrategy.ROLLING_UPDATE;
    private int revisionHistoryLimit = 10;
    private int minReadySeconds;
    private StatefulSetPersistentVolumeClaimRetentionPolicy retention =
        StatefulSetPersistentVolumeClaimRetentionPolicy.RETAIN;
    private StatefulSetOrdinals ordinals = StatefulSetOrdinals.DEFAULT;
    private StatefulSetStatus status = StatefulSetStatus.EMPTY;

    private Builder() {}

    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder name(String v) { meta.name(v); return this; }
    public Builder namespace(String v) { meta.namespace(v); return this; }
    public Builder label(String k, String v) { meta.label(k, v); return this; }
    public Builder replicas(int v) { replicas = v; return this; }
    public Builder selector(LabelSelector v) { selector = v; return this; }
    public Builder template(PodTemplateSpec v) { template = v; return this; }
    /** Shorthand for the selector's matchLabels and the template's labels (see Deployment.Builder). */
    public Builder matchLabels(Map<String, String> v) { matchLabels = Map.copyOf(v); return this; }
    public Builder podSpec(PodSpec v) { podSpec = v; return this; }
    public Builder serviceName(String v) { serviceName = v; return this; }
    public Builder volumeClaimTemplate(ClaimTemplate v) { claims.add(v); return this; }
    public Builder podManagementPolicy(PodManagementPolicy v) { podManagementPolicy = v; return this; }
    public Builder updateStrategy(StatefulSetUpdateStrategy v) { updateStrategy = v; return this; }
    public Builder revisionHistoryLimit(int v) { revisionHistoryLimit = v; return this; }
    public Builder minReadySeconds(int v) { minReadySeconds = v; return this; }
    public Builder status(StatefulSetStatus v) { status = v; return this; }
    public Builder persistentVolumeClaimRetentionPolicy(StatefulSetPersistentVolumeClaimRetentionPolicy v) {
      retention = v;
      return this;
    }
    /** {@code spec.persistentVolumeClaimRetentionPolicy} with these values. */
    public Builder persistentVolumeClaimRetentionPolicy(PersistentVolumeClaimRetentionPolicyType whenDeleted,
        PersistentVolumeClaimRetentionPolicyType whenScaled) {
      retention = StatefulSetPersistentVolumeClaimRetentionPolicy.of(whenDeleted, whenScaled);
      return this;
    }
    public Builder ordinals(StatefulSetOrdinals v) { ordinals = v; return this; }
    /** {@code spec.ordinals.start}: the first pod's ordinal. */
    public Builder startOrdinal(int start) { ordinals = new StatefulSetOrdinals(start); return this; }

    public StatefulSet build() {
      return new StatefulSet(meta.build(), new StatefulSetSpec(replicas, Templates.selector(selector, matchLabels),
          Templates.template(template, matchLabels, podSpec), serviceName, claims, podManagementPolicy,
          updateStrategy, revisionHistoryLimit, minReadySeconds, retention, ordinals), status);
    }
  }
}
