package io.fleetkit.api.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Every key of a ConfigMap or a Secret of the pod's namespace as an environment variable of a container, its name
 * the key after {@code prefix} (Kubernetes' {@code EnvFromSource}). Exactly one of {@code configMapRef} and
 * {@code secretRef} is set in a valid pod; the pod's validation reports none or both, as Kubernetes does. A
 * container's {@code env} entries replace variables of the same name its {@code envFrom} entries give.
 *
 * @param prefix put before every key; empty for none
 * @param configMapRef the ConfigMap, or {@code null}
 * @param secretRef the Secret, or {@code null}
 */
public record EnvFromSource(String prefix, @Nullable Reference configMapRef, @Nullable Reference secretRef) {
  public EnvFromSource {
    Objects.requireNonNull(prefix, "prefix");
  }

  /** Every key of ConfigMap {@code name}, without prefix. */
  public static EnvFromSource configMap(String name, boolean optional) {
    return new EnvFromSource("", new Reference(name, optional), null);
  }

  /** Every key of Secret {@code name}, without prefix. */
  public static EnvFromSource secret(String name, boolean optional) {
    return new EnvFromSource("", null, new Reference(name, optional));
  }

  /** This source with another prefix. */
  public EnvFromSource withPrefix(String newPrefix) {
    return new EnvFromSource(newPrefix, configMapRef, secretRef);
  }

  /**
   * A ConfigMap or Secret by name (Kubernetes' {@code ConfigMapEnvSource} and {@code SecretEnvSource}).
   *
   * @param optional whether the container may start without the object
   */
  public record Reference(String name, boolean optional) {
    public Reference {
      Objects.requireNonNull(name, "name");
    }
  }
}
