package io.fleetkit.networking.dns;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * How {@link Forwarder} checks an upstream after a failed query, CoreDNS's {@code forward} option
 * {@code health_check DURATION [no_rec] [domain FQDN]} ({@code plugin/pkg/proxy/health.go}): every {@code interval}
 * it asks the upstream {@code <domain> IN NS}, with recursion desired unless {@code no_rec}, until an answer comes.
 * Any answer counts, whatever its rcode (REFUSED, SERVFAIL, ...); only silence or an unreachable upstream is a
 * failed check.
 *
 * @param interval how long to wait between two checks of one upstream; CoreDNS's default 0.5 s
 * @param recursionDesired the RD flag of the check's query ({@code false} for {@code no_rec})
 * @param domain the absolute name asked, lower case; {@code .} by default
 */
public record ForwardHealthCheck(Duration interval, boolean recursionDesired, String domain) {
  /** CoreDNS's default: every 0.5 s, {@code . IN NS} with recursion desired. */
  public static final ForwardHealthCheck DEFAULT = new ForwardHealthCheck(Duration.ofMillis(500), true, ".");

  /**
   * Validates and normalises the domain (made absolute, lower case, as CoreDNS's {@code plugin.Name.Normalize}).
   *
   * @throws IllegalArgumentException when the interval is under 1 ms or the domain is not a domain name
   */
  public ForwardHealthCheck {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(domain, "domain");
    if (interval.isNegative() || interval.toMillis() < 1) {
      // CoreDNS takes 0 and then probes a dead upstream without pause; FleetKit wants a pause
      throw new IllegalArgumentException("forward health_check interval " + interval + " must be at least 1 ms");
    }
    domain = normalize("health_check domain", domain);
  }

  /** This check every {@code v}. */
  public ForwardHealthCheck withInterval(Duration v) {
    return new ForwardHealthCheck(v, recursionDesired, domain);
  }

  /** This check with the RD flag {@code v} ({@code false}: CoreDNS's {@code no_rec}). */
  public ForwardHealthCheck withRecursionDesired(boolean v) {
    return new ForwardHealthCheck(interval, v, domain);
  }

  /** This check asking {@code v} (CoreDNS's {@code domain FQDN}). */
  public ForwardHealthCheck withDomain(String v) {
    return new ForwardHealthCheck(interval, recursionDesired, v);
  }

  /**
   * The absolute lower-case form of {@code name}, as CoreDNS reads the names of {@code health_check domain} and
   * {@code except}.
   *
   * @throws IllegalArgumentException naming {@code field} when {@code name} is not a domain name
   */
  static String normalize(String field, String name) {
    String s = name.strip();
    String why = s.isEmpty() ? "is empty" : s.contains("..") || (s.startsWith(".") && s.length() > 1)
        ? "has an empty label" : null;
    if (why == null) {
      try {
        return Name.fromString(s.endsWith(".") ? s : s + ".").toString().toLowerCase(Locale.ROOT);
      } catch (TextParseException e) {
        why = "is not a domain name (" + e.getMessage() + ")";
      }
    }
    throw new IllegalArgumentException("forward " + field + " \"" + name + "\" " + why);
  }
}
