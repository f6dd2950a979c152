package io.fleetkit.api.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One resolver option of a pod's {@link PodDNSConfig} ({@code spec.dnsConfig.options[i]}), such as {@code ndots: "2"}.
 *
 * @param name the option's name; must not be empty (checked when the pod is built)
 * @param value the option's value; {@code null} for an option without one ({@code edns0})
 */
public record PodDNSConfigOption(String name, @Nullable String value) {
  public PodDNSConfigOption {
    Objects.requireNonNull(name, "name");
  }

  /** The option {@code name} without a value. */
  public static PodDNSConfigOption of(String name) {
    return new PodDNSConfigOption(name, null);
  }

  /** The option {@code name:value}. */
  public static PodDNSConfigOption of(String name, String value) {
    return new PodDNSConfigOption(name, value);
  }
}
