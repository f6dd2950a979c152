package io.fleetkit.api.gateway;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A GatewayClass ({@code gateway.networking.k8s.io/v1}, cluster-scoped): names the controller that implements
 * Gateways of this class. No spec/status split: {@link #spec()} returns the controller name.
 *
 * @param controllerName a domain-prefixed path, such as {@code example.com/gateway-controller}
 * @throws io.fleetkit.api.ValidationException when {@code controllerName} is missing or not domain-prefixed
 */
public record GatewayClass(ObjectMeta metadata, String controllerName) implements ApiObject<GatewayClass> {
  public static final String API_VERSION = Gateway.API_VERSION;
  public static final String KIND = "GatewayClass";

  public GatewayClass {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(controllerName, "controllerName");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, false);
    GatewayRules.controllerName(v, "spec.controllerName", controllerName);
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
    return false;
  }

  @Override
  public GatewayClass withMetadata(ObjectMeta m) {
    return new GatewayClass(m, controllerName);
  }

  @Override
  public String spec() {
    return controllerName;
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  /** No status kept: returns this. */
  @Override
  public GatewayClass withStatusOf(GatewayClass other) {
    return this;
  }
}
