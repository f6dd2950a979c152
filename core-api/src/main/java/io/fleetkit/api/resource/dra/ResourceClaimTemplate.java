package io.fleetkit.api.resource.dra;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A ResourceClaimTemplate ({@code resource.k8s.io/v1}, namespaced): the template from which one claim per pod is
 * generated. The constructor checks the name (DNS-1123 subdomain), the template's labels, and the claim spec with
 * the rules of {@link ResourceClaim} (under {@code spec.spec}), and throws
 * {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record ResourceClaimTemplate(ObjectMeta metadata, ResourceClaimTemplateSpec spec)
    implements ApiObject<ResourceClaimTemplate> {
  public static final String API_VERSION = "resource.k8s.io/v1";
  public static final String KIND = "ResourceClaimTemplate";

  public ResourceClaimTemplate {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    v.labels("spec.metadata.labels", spec.labels());
    DraChecks.deviceClaim(v, "spec.spec.devices", spec.spec().devices());
    v.throwIfAny();
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
  public ResourceClaimTemplate withMetadata(ObjectMeta m) {
    return new ResourceClaimTemplate(m, spec);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  @Override
  public ResourceClaimTemplate withStatusOf(ResourceClaimTemplate other) {
    return this;
  }
}
