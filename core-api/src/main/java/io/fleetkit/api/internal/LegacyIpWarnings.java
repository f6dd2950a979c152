package io.fleetkit.api.internal;

import io.fleetkit.api.Violation;
import io.fleetkit.api.net.IpText;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Collects the API server's warnings for the IP and CIDR fields Kubernetes validates as legacy ones
 * ({@code IsValidIPForLegacyField}, {@code IsValidCIDRForLegacyField} with {@code StrictIPCIDRValidation} off):
 * {@code GetWarningsForIP} and {@code GetWarningsForCIDR} at the field, each a {@link Violation} whose rule is the
 * warning's text and whose value is the field's. A value that is not an address at all gets no warning: validation
 * refuses it. Not thread-safe: one collector per object.
 */
public final class LegacyIpWarnings {
  private final String object;
  private final List<Violation> found = new ArrayList<>(0);

  /** Warnings of {@code object} ({@code Kind namespace/name}, or empty for a part of an object). */
  public LegacyIpWarnings(String object) {
    this.object = object;
  }

  /** Warns of {@code ip} at {@code field} when it is in a non-standard form ({@link IpText#legacyWarning}). */
  public LegacyIpWarnings ip(String field, String ip) {
    String warning = IpText.legacyWarning(ip);
    if (warning != null) {
      found.add(new Violation(object, field, warning, ip));
    }
    return this;
  }

  /** {@link #ip} for each of {@code ips}, at {@code field[i]}. */
  public LegacyIpWarnings ips(String field, List<String> ips) {
    return each(field, ips, this::ip);
  }

  /** Warns of {@code cidr} at {@code field} for each way it is non-standard ({@link IpText#cidrLegacyWarnings}). */
  public LegacyIpWarnings cidr(String field, String cidr) {
    for (String warning : IpText.cidrLegacyWarnings(cidr)) {
      found.add(new Violation(object, field, warning, cidr));
    }
    return this;
  }

  /** {@link #cidr} for each of {@code cidrs}, at {@code field[i]}. */
  public LegacyIpWarnings cidrs(String field, List<String> cidrs) {
    return each(field, cidrs, this::cidr);
  }

  private LegacyIpWarnings each(String field, List<String> values, BiConsumer<String, String> one) {
    for (int i = 0; i < values.size(); i++) {
      one.accept(field + "[" + i + "]", values.get(i));
    }
    return this;
  }

  /** The warnings so far, in the order found. */
  public List<Violation> warnings() {
    return List.copyOf(found);
  }
}
