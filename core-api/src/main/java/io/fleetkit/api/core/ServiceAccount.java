package io.fleetkit.api.core;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A service account (core/v1): an identity for pods, with the secrets it may use. It has no status; {@link #spec()}
 * returns the desired fields as a {@link Desired}.
 *
 * <p>The constructor checks Kubernetes' {@code ValidateServiceAccount}: the name is a DNS-1123 subdomain and the
 * referenced secret names are too.
 *
 * @param secrets names of secrets in the same namespace that pods of this account may use
 * @param imagePullSecrets names of secrets used to pull images for pods of this account
 * @param automountServiceAccountToken whether pods get the account's token mounted; {@code null} when unset
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken
 */
public record ServiceAccount(ObjectMeta metadata, List<String> secrets, List<String> imagePullSecrets,
    @Nullable Boolean automountServiceAccountToken) implements ApiObject<ServiceAccount> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "ServiceAccount";

  /** The desired fields of a service account, what {@link #spec()} returns. */
  public record Desired(List<String> secrets, List<String> imagePullSecrets,
      @Nullable Boolean automountServiceAccountToken) {}

  public ServiceAccount {
    Objects.requireNonNull(metadata, "metadata");
    secrets = List.copyOf(secrets);
    imagePullSecrets = List.copyOf(imagePullSecrets);
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    for (int i = 0; i < secrets.size(); i++) {
      v.dnsSubdomain("secrets[" + i + "].name", secrets.get(i));
    }
    for (int i = 0; i < imagePullSecrets.size(); i++) {
      v.dnsSubdomain("imagePullSecrets[" + i + "].name", imagePullSecrets.get(i));
    }
    v.throwIfAny();
  }

  /** The account {@code namespace/name} with no secrets. */
  public static ServiceAccount of(String namespace, String name) {
    return new ServiceAccount(ObjectMeta.of(namespace, name), List.of(), List.of(), null);
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
  public ServiceAccount withMetadata(ObjectMeta m) {
    return new ServiceAccount(m, secrets, imagePullSecrets, automountServiceAccountToken);
  }

  @Override
  public Desired spec() {
    return new Desired(secrets, imagePullSecrets, automountServiceAccountToken);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  @Override
  public ServiceAccount withStatusOf(ServiceAccount other) {
    return this;
  }
}
