package io.fleetkit.api.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Service's {@code targetPort}: a port number, or the name of a container port (Kubernetes' IntOrString).
 *
 * @param number the port number; 0 when {@code name} is set
 * @param name the container port name, or {@code null} for a number
 */
public record ServiceTargetPort(int number, @Nullable String name) {
  public ServiceTargetPort {
    if (name != null && number != 0) {
      throw new IllegalArgumentException(
          "targetPort is a number or a name, not both: number " + number + ", name \"" + name + "\"");
    }
  }

  public static ServiceTargetPort of(int number) {
    return new ServiceTargetPort(number, null);
  }

  public static ServiceTargetPort named(String name) {
    return new ServiceTargetPort(0, Objects.requireNonNull(name, "name"));
  }

  /**
   * A number when {@code value} is all ASCII digits (as YAML {@code 8080} or {@code "8080"}), else a name (digits of
   * other scripts too, which a port name's validation then refuses).
   */
  public static ServiceTargetPort parse(String value) {
    if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9') && value.length() <= 9) {
      return of(Integer.parseInt(value));
    }
    return named(value);
  }

  public boolean isNamed() {
    return name != null;
  }

  @Override
  public String toString() {
    return name != null ? name : Integer.toString(number);
  }
}
