package io.fleetkit.api.gateway;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;

/**
 * A GatewayClass ({@code gateway.networking.k8s.io/v1}, cluster-scoped): names the controller that implements
 * Gateways of this class, which writes its status ({@link GatewayClassStatus#EMPTY} until then). {@link #spec()}
 * returns {@link Desired}: its {@code spec} fields, whose change bumps {@code metadata.generation}.
 *
 * @param controllerName a domain-prefixed path, such as {@code example.com/gateway-controller}
 * @param description {@code spec.description}, at most 64 characters; empty when unset
 * @throws io.fleetkit.api.ValidationException when {@code controllerName} is missing or not domain-prefixed, or the
 *     description is too long
 */
public record GatewayClass(ObjectMeta metadata, String controllerName, String description,
    GatewayClassStatus status) implements ApiObject<GatewayClass> {
  public static final String API_VERSION = Gateway.API_VERSION;
  public static final String KIND = "GatewayClass";

  /** The fields of a GatewayClass's {@code spec}, what {@link #spec()} returns. */
  public record Desired(String controllerName, String description) {}

  public GatewayClass {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(controllerName, "controllerName");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, false);
    GatewayRules.controllerName(v, "spec.controllerName", controllerName);
    if (description.length() > 64) {
      v.add("spec.description", "must have at most 64 characters", description.length());
    }
    v.throwIfAny();
  }

  /** A GatewayClass without description or status. */
  public GatewayClass(ObjectMeta metadata, String controllerName) {
    this(metadata, controllerName, "", GatewayClassStatus.EMPTY);
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
    return new GatewayClass(m, controllerName, description, status);
  }

  @Override
  public Desired spec() {
    return new Desired(controllerName, description);
  }

  /** This class with {@code d} as its description. */
  public GatewayClass withDescription(String d) {
    return new GatewayClass(metadata, controllerName, d, status);
  }

  /** This class with {@code s} as its status. */
  public GatewayClass withStatus(GatewayClassStatus s) {
    return new GatewayClass(metadata, controllerName, description, s);
  }

  @Override
  public GatewayClass withStatusOf(GatewayClass other) {
    return new GatewayClass(metadata, controllerName, description, other.status);
  }
}
