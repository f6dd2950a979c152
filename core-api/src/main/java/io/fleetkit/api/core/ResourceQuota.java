package io.fleetkit.api.core;

import io.fleetkit.api.internal.QuotaChecks;
import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.util.Objects;

/**
 * A resource quota (core/v1): hard limits on what the objects of one namespace may consume together, enforced when
 * objects are created (see the ResourceQuota admission plugin). The status holds the usage charged so far.
 *
 * <p>The constructor checks Kubernetes' {@code ValidateResourceQuota}: resource names are standard quota resources
 * or qualified names, quantities are non-negative (whole numbers for object counts and extended resources), scopes
 * do not conflict and fit the resources, scope selector operators suit their scopes.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken
 */
public record ResourceQuota(ObjectMeta metadata, ResourceQuotaSpec spec, ResourceQuotaStatus status)
    implements ApiObject<ResourceQuota> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "ResourceQuota";

  public ResourceQuota {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    QuotaChecks.resources(v, "spec.hard", spec.hard());
    QuotaChecks.scopes(v, spec);
    QuotaChecks.resources(v, "status.hard", status.hard());
    QuotaChecks.resources(v, "status.used", status.used());
    v.throwIfAny();
  }

  /** A quota {@code namespace/name} with hard limits {@code hard}, no scopes and no status yet. */
  public static ResourceQuota of(String namespace, String name, ResourceList hard) {
    return new ResourceQuota(ObjectMeta.of(namespace, name), ResourceQuotaSpec.of(hard), ResourceQuotaStatus.EMPTY);
  }

  /**
   * Whether quota resource {@code name} must hold a whole number (Kubernetes' {@code IsIntegerResourceName}): object
   * counts such as {@code pods} and {@code count/deployments.apps}, and extended resources.
   */
  public static boolean isIntegerResource(String name) {
    return QuotaChecks.isIntegerResource(name);
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
  public ResourceQuota withMetadata(ObjectMeta m) {
    return new ResourceQuota(m, spec, status);
  }

  @Override
  public ResourceQuota withStatusOf(ResourceQuota other) {
    return new ResourceQuota(metadata, spec, other.status);
  }

  public ResourceQuota withSpec(ResourceQuotaSpec s) {
    return new ResourceQuota(metadata, s, status);
  }

  public ResourceQuota withStatus(ResourceQuotaStatus s) {
    return new ResourceQuota(metadata, spec, s);
  }
}
