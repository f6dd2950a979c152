package io.fleetkit.api.core;

import io.fleetkit.api.internal.LimitRangeChecks;
import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A limit range (core/v1): per-namespace defaults and bounds for container, pod and claim resources, applied when
 * pods and claims are created (see the LimitRanger admission plugin). It has no status.
 *
 * <p>The constructor checks Kubernetes' {@code ValidateLimitRange}: one item per type, no defaults for type Pod, a
 * storage bound for type PersistentVolumeClaim, {@code min <= defaultRequest <= default <= max}, ratios at least 1
 * and at most max/min, and equal default and defaultRequest for resources that cannot be overcommitted.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken
 */
public record LimitRange(ObjectMeta metadata, LimitRangeSpec spec) implements ApiObject<LimitRange> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "LimitRange";

  public LimitRange {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    LimitRangeChecks.check(v, spec);
    v.throwIfAny();
  }

  /** A limit range {@code namespace/name} with {@code items}. */
  public static LimitRange of(String namespace, String name, LimitRangeItem... items) {
    return new LimitRange(ObjectMeta.of(namespace, name), new LimitRangeSpec(List.of(items)));
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
  public LimitRange withMetadata(ObjectMeta m) {
    return new LimitRange(m, spec);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  @Override
  public LimitRange withStatusOf(LimitRange other) {
    return this;
  }

  /** The item of {@code type}, or {@code null}. */
  public @Nullable LimitRangeItem item(LimitType type) {
    for (LimitRangeItem i : spec.limits()) {
      if (i.type() == type) {
        return i;
      }
    }
    return null;
  }
}
