package io.fleetkit.networking.dns;

import java.util.Locale;
import java.util.Objects;

/**
 * How cluster DNS answers pod names ({@code 1-2-3-4.ns.pod.<zone>}), CoreDNS's {@code kubernetes} option
 * {@code pods disabled|insecure|verified}.
 */
public enum PodsMode {
  /** Pod names do not exist (NXDOMAIN); CoreDNS's default. */
  DISABLED,
  /** Any well-formed dashed IP in an existing namespace is answered with that IP, without looking at pods. */
  INSECURE,
  /** Only the primary IP of a running (not terminal, not terminating) pod of that namespace is answered. */
  VERIFIED;

  /**
   * The mode named {@code text} as CoreDNS's Corefile spells it ({@code disabled}, {@code insecure},
   * {@code verified}; any case).
   *
   * @throws IllegalArgumentException for any other text, naming the three values
   */
  public static PodsMode parse(String text) {
    Objects.requireNonNull(text, "text");
    for (PodsMode m : values()) {
      if (m.name().equalsIgnoreCase(text)) {
        return m;
      }
    }
    throw new IllegalArgumentException("pods mode \"" + text + "\" must be disabled, insecure or verified");
  }

  /** The Corefile spelling: {@code disabled}, {@code insecure} or {@code verified}. */
  public String corefileName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
