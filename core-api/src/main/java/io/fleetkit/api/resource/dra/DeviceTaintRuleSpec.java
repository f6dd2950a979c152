package io.fleetkit.api.resource.dra;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link DeviceTaintRule} does ({@code DeviceTaintRuleSpec}): adds {@code taint} to every device
 * {@code deviceSelector} matches.
 *
 * @param deviceSelector the devices to taint; {@code null} selects none (upstream: "Without a selector, no devices
 *     are matched"), {@link DeviceTaintSelector#ALL} every device
 * @param taint the taint added to each selected device
 */
public record DeviceTaintRuleSpec(@Nullable DeviceTaintSelector deviceSelector, DeviceTaint taint) {
  public DeviceTaintRuleSpec {
    Objects.requireNonNull(taint, "taint");
  }

  /** Whether the rule taints the device {@code driver}/{@code pool}/{@code device}. */
  public boolean matches(String driver, String pool, String device) {
    return deviceSelector != null && deviceSelector.matches(driver, pool, device);
  }
}
