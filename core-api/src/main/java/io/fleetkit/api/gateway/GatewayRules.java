package io.fleetkit.api.gateway;

import io.fleetkit.api.Violations;
import java.util.regex.Pattern;

/** Field rules shared by the Gateway API kinds. */
final class GatewayRules {
  private static final Pattern IPV4 = Pattern.compile("\\d+\\.\\d+\\.\\d+\\.\\d+");

  private GatewayRules() {}

  /** A host name: a DNS-1123 subdomain with an optional leading {@code *.}, not an IP address. */
  static void hostname(Violations v, String field, String h) {
    if (IPV4.matcher(h).matches() || h.contains(":")) {
      v.add(field, "must be a hostname, not an IP address", h);
      return;
    }
    v.dnsSubdomain(field, h.startsWith("*.") ? h.substring(2) : h);
  }

  /** A controller name: a domain-prefixed path such as {@code example.com/gateway}. */
  static void controllerName(Violations v, String field, String name) {
    if (name.isEmpty()) {
      v.required(field);
      return;
    }
    int slash = name.indexOf('/');
    if (slash <= 0 || slash == name.length() - 1) {
      v.add(field, "must be a domain-prefixed path (such as \"example.com/gateway-controller\")", name);
    } else {
      v.dnsSubdomain(field, name.substring(0, slash));
    }
  }
}
