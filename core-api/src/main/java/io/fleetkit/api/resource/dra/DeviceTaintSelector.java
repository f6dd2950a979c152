package io.fleetkit.api.resource.dra;

import org.jspecify.annotations.Nullable;

/**
 * Which devices a {@link DeviceTaintRule} taints ({@code DeviceTaintSelector}): every criterion that is set must
 * hold, so the empty selector matches every device. Upstream's newest API ({@code resource.k8s.io/v1beta2} and
 * {@code v1}) selects by driver, pool and device name only; the device class and CEL selectors of
 * {@code v1alpha3} were dropped there and are not modelled.
 *
 * @param driver the driver name the device must have, or {@code null} for any (a DNS subdomain of at most 63
 *     characters)
 * @param pool the pool name the device must be in, or {@code null} for any (DNS subdomains separated by {@code /})
 * @param device the device name, or {@code null} for any (a DNS label); usually given with driver and pool, since
 *     device names are only unique within a pool
 */
public record DeviceTaintSelector(@Nullable String driver, @Nullable String pool, @Nullable String device) {
  /** The selector matching every device. */
  public static final DeviceTaintSelector ALL = new DeviceTaintSelector(null, null, null);

  /** Every device of {@code driver}. */
  public static DeviceTaintSelector driver(String driver) {
    return new DeviceTaintSelector(driver, null, null);
  }

  /** The one device {@code driver}/{@code pool}/{@code device}. */
  public static DeviceTaintSelector device(String driver, String pool, String device) {
    return new DeviceTaintSelector(driver, pool, device);
  }

  /** Whether the device {@code device} of pool {@code pool} published by {@code driver} matches (upstream's {@code ruleMatchesDevice}). */
  public boolean matches(String driver, String pool, String device) {
    return (this.driver == null || this.driver.equals(driver)) && (this.pool == null || this.pool.equals(pool))
        && (this.device == null || this.device.equals(device));
  }
}
