package io.fleetkit.api.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An environment variable of a container (Kubernetes' {@code EnvVar}): a literal {@code value}, or a value the
 * kubelet takes from a source when it starts the container ({@code valueFrom}: a field of the pod, a resource of a
 * container, a key of a ConfigMap or of a Secret). A valid pod sets at most one of them; the pod's validation says so
 * ({@code valueFrom} "may not be specified when `value` is not empty").
 *
 * @param name the variable's name; required in a valid pod
 * @param value the literal value; empty when the variable takes its value from {@code valueFrom}
 * @param valueFrom where the value comes from; {@code null} for a literal
 */
public record EnvVar(String name, String value, @Nullable EnvVarSource valueFrom) {
  public EnvVar {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
  }

  /** A literal variable. */
  public EnvVar(String name, String value) {
    this(name, value, null);
  }

  /** A variable whose value the kubelet takes from {@code source}. */
  public static EnvVar from(String name, EnvVarSource source) {
    return new EnvVar(name, "", Objects.requireNonNull(source, "source"));
  }
}
