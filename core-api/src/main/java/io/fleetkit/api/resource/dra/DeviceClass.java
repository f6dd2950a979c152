package io.fleetkit.api.resource.dra;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A DeviceClass ({@code resource.k8s.io/v1}, cluster-scoped): selectors shared by every request of the class,
 * typically {@code device.driver == "gpu.example.com"}.
 *
 * <p>The constructor checks the name (a DNS-1123 subdomain) and the selectors (at most 32, each a non-empty
 * expression in the subset {@link DeviceSelectorExpression} supports), and throws
 * {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record DeviceClass(ObjectMeta metadata, DeviceClassSpec spec) implements ApiObject<DeviceClass> {
  public static final String API_VERSION = "resource.k8s.io/v1";
  public static final String KIND = "DeviceClass";

  public DeviceClass {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, false);
    DraChecks.selectors(v, "spec.selectors", spec.selectors());
    v.throwIfAny();
  }

  public static DeviceClass of(String name, DeviceSelector... selectors) {
    return new DeviceClass(ObjectMeta.of(name), DeviceClassSpec.of(selectors));
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
    return false;
  }

  @Override
  public DeviceClass withMetadata(ObjectMeta m) {
    return new DeviceClass(m, spec);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  @Override
  public DeviceClass withStatusOf(DeviceClass other) {
    return this;
  }
}
