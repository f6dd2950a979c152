package io.fleetkit.api.core;

import io.fleetkit.api.Violations;
import io.fleetkit.api.Violations.NameRule;
import io.fleetkit.api.internal.ClaimSpecChecks;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import java.util.Objects;

/**
 * A PersistentVolumeClaim ({@code v1}): a request for storage that binds one PersistentVolume.
 *
 * <p>The constructor checks Kubernetes' rules and reports every violation at once: the name is a DNS-1123
 * subdomain, at least one access mode (ReadWriteOncePod alone), {@code resources.requests.storage} greater than
 * zero, a class name (when not empty) and a volume name are DNS-1123 subdomains.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record PersistentVolumeClaim(ObjectMeta metadata, PersistentVolumeClaimSpec spec,
    PersistentVolumeClaimStatus status) implements ApiObject<PersistentVolumeClaim> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "PersistentVolumeClaim";

  public PersistentVolumeClaim {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    validate(metadata, spec);
  }

  /** A new claim in phase Pending. */
  public static PersistentVolumeClaim of(ObjectMeta metadata, PersistentVolumeClaimSpec spec) {
    return new PersistentVolumeClaim(metadata, spec, PersistentVolumeClaimStatus.INITIAL);
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
  public PersistentVolumeClaim withMetadata(ObjectMeta m) {
    return new PersistentVolumeClaim(m, spec, status);
  }

  public PersistentVolumeClaim withSpec(PersistentVolumeClaimSpec s) {
    return new PersistentVolumeClaim(metadata, s, status);
  }

  public PersistentVolumeClaim withStatus(PersistentVolumeClaimStatus s) {
    return new PersistentVolumeClaim(metadata, spec, s);
  }

  @Override
  public PersistentVolumeClaim withStatusOf(PersistentVolumeClaim other) {
    return withStatus(other.status);
  }

  /** {@code spec.resources.requests.storage}. */
  public Quantity requestedStorage() {
    return spec.resources().requests().get(VolumeRules.STORAGE);
  }

  private static void validate(ObjectMeta metadata, PersistentVolumeClaimSpec spec) {
    Violations v = Violations.forObject(KIND, metadata);
    v.nameAndNamespace(metadata, true, NameRule.DNS1123_SUBDOMAIN);
    ClaimSpecChecks.spec(v, "spec", spec);
    v.throwIfAny();
  }
}
