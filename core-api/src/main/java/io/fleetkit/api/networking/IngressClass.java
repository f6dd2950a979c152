package io.fleetkit.api.networking;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An IngressClass ({@code networking.k8s.io/v1}, cluster-scoped): names the controller that serves Ingresses of
 * this class. The annotation {@value #DEFAULT_ANNOTATION}{@code : "true"} (exactly {@code true}) makes it the
 * default for new Ingresses without a class. No spec/status split: {@link #spec()} returns the controller name.
 */
public record IngressClass(ObjectMeta metadata, String controller) implements ApiObject<IngressClass> {
  public static final String API_VERSION = "networking.k8s.io/v1";
  public static final String KIND = "IngressClass";
  public static final String DEFAULT_ANNOTATION = "ingressclass.kubernetes.io/is-default-class";
  /** Upstream's {@code maxLenIngressClassController}. */
  public static final int MAX_CONTROLLER_LENGTH = 250;

  public IngressClass {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(controller, "controller");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, false);
    // upstream's validateIngressClassSpec: at most 250 characters, a domain-prefixed path
    if (controller.length() > MAX_CONTROLLER_LENGTH) {
      v.add("spec.controller", "Too long: may not be more than " + MAX_CONTROLLER_LENGTH + " bytes", controller);
    }
    v.domainPrefixedPath("spec.controller", controller);
    v.throwIfAny();
  }

  /** Whether this class is marked default. */
  public boolean isDefault() {
    return "true".equals(metadata.annotations().get(DEFAULT_ANNOTATION));
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
  public IngressClass withMetadata(ObjectMeta m) {
    return new IngressClass(m, controller);
  }

  @Override
  public String spec() {
    return controller;
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  /** IngressClasses have no status: returns this. */
  @Override
  public IngressClass withStatusOf(IngressClass other) {
    return this;
  }
}
