package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.DNSPolicy;
import io.fleetkit.api.core.HostAlias;
import io.fleetkit.api.core.PodDNSConfig;
import io.fleetkit.api.core.PodDNSConfigOption;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.labels.Validation;
import io.fleetkit.api.net.IpText;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The pod spec's identity and name-resolution fields checked as Kubernetes' {@code ValidatePodSpec} does
 * ({@code pkg/apis/core/validation/validation.go}): {@code serviceAccountName} a DNS-1123 subdomain
 * ({@code ValidateServiceAccountName}), {@code validatePodDNSConfig} and {@code ValidateHostAliases}, with upstream's
 * messages. The nameservers and host-alias addresses are legacy IP fields ({@code IsValidIPForLegacyField} with
 * {@code StrictIPCIDRValidation} off: {@link IpText#isIpSloppy}). The search domains are checked as with {@code RelaxedDNSSearchValidation}, GA and locked on since
 * Kubernetes 1.34: {@code "."} is allowed and underscores are too. The policy is an enum, so
 * {@code validateDNSPolicy} has nothing left to refuse. Stateless.
 */
final class PodDnsChecks {
  /** Upstream's {@code dns1123SubdomainFmtWithUnderscore}. */
  private static final String SUBDOMAIN_WITH_UNDERSCORE_FMT =
      "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*";
  private static final Pattern SUBDOMAIN_WITH_UNDERSCORE = Pattern.compile(SUBDOMAIN_WITH_UNDERSCORE_FMT);
  private static final String SUBDOMAIN_WITH_UNDERSCORE_MSG = "a lowercase RFC 1123 subdomain must consist of lower"
      + " case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character"
      + " (e.g. 'example.com', regex used for validation is '" + SUBDOMAIN_WITH_UNDERSCORE_FMT + "')";
  private static final int SUBDOMAIN_MAX_LENGTH = 253;

  private PodDnsChecks() {}

  /** Adds the violations of {@code spec}'s service account, DNS and host-alias fields under {@code path}. */
  static void check(PodSpec spec, String path, Violations v) {
    if (!spec.serviceAccountName().isEmpty() && !Names.isDnsSubdomain(spec.serviceAccountName())) {
      v.dnsSubdomain(path + ".serviceAccountName", spec.serviceAccountName());
    }
    if (spec.dnsConfig() != null || spec.dnsPolicy() == DNSPolicy.None) {
      dnsConfig(spec.dnsConfig(), spec.dnsPolicy(), path + ".dnsConfig", v);
    }
    if (!spec.hostAliases().isEmpty()) {
      hostAliases(spec.hostAliases(), path + ".hostAliases", v);
    }
  }

  /** Upstream's {@code validatePodDNSConfig}. */
  private static void dnsConfig(@Nullable PodDNSConfig config, DNSPolicy policy, String path, Violations v) {
    if (policy == DNSPolicy.None) {
      if (config == null) {
        v.required(path, "must provide `dnsConfig` when `dnsPolicy` is None");
        return;
      }
      if (config.nameservers().isEmpty()) {
        v.required(path + ".nameservers", "must provide at least one DNS nameserver when `dnsPolicy` is None");
        return;
      }
    }
    if (config == null) {
      return;
    }
    List<String> nameservers = config.nameservers();
    if (nameservers.size() > PodDNSConfig.MAX_NAMESERVERS) {
      v.add(path + ".nameservers", "must not have more than " + PodDNSConfig.MAX_NAMESERVERS + " nameservers",
          nameservers);
    }
    for (int i = 0; i < nameservers.size(); i++) {
      if (!IpText.isIpSloppy(nameservers.get(i))) { // a legacy field: IsValidIPForLegacyField
        v.add(path + ".nameservers[" + i + "]", IpText.INVALID_IP, nameservers.get(i));
      }
    }
    List<String> searches = config.searches();
    if (searches.size() > PodDNSConfig.MAX_SEARCH_PATHS) {
      v.add(path + ".searches", "must not have more than " + PodDNSConfig.MAX_SEARCH_PATHS + " search paths",
          searches);
    }
    if (String.join(" ", searches).length() > PodDNSConfig.MAX_SEARCH_LIST_CHARS) {
      v.add(path + ".searches", "must not have more than " + PodDNSConfig.MAX_SEARCH_LIST_CHARS
          + " characters (including spaces) in the search list", searches);
    }
    for (int i = 0; i < searches.size(); i++) {
      String search = searches.get(i);
      if (search.equals(".")) {
        continue;
      }
      String trimmed = search.endsWith(".") ? search.substring(0, search.length() - 1) : search;
      if (trimmed.length() > SUBDOMAIN_MAX_LENGTH) {
        v.add(path + ".searches[" + i + "]", "must be no more than " + SUBDOMAIN_MAX_LENGTH + " characters", trimmed);
      }
      if (!SUBDOMAIN_WITH_UNDERSCORE.matcher(trimmed).matches()) {
        v.add(path + ".searches[" + i + "]", SUBDOMAIN_WITH_UNDERSCORE_MSG, trimmed);
      }
    }
    List<PodDNSConfigOption> options = config.options();
    for (int i = 0; i < options.size(); i++) {
      if (options.get(i).name().isEmpty()) {
        v.required(path + ".options[" + i + "]", "must not be empty");
      }
    }
  }

  /**
   * Upstream's {@code ValidateHostAliases}: each {@code ip} an IP address (a legacy field, read sloppily), each host
   * name a DNS-1123 subdomain.
   */
  private static void hostAliases(List<HostAlias> aliases, String path, Violations v) {
    for (int i = 0; i < aliases.size(); i++) {
      HostAlias a = aliases.get(i);
      String at = path + "[" + i + "]";
      if (!IpText.isIpSloppy(a.ip())) { // a legacy field: IsValidIPForLegacyField
        v.add(at + ".ip", IpText.INVALID_IP, a.ip());
      }
      List<String> names = a.hostnames();
      for (int j = 0; j < names.size(); j++) {
        String name = names.get(j);
        if (!Names.isDnsSubdomain(name)) { // upstream's ValidateDNS1123Subdomain: an empty name breaks the regex
          for (String rule : Validation.isDNS1123Subdomain(name)) {
            v.add(at + ".hostnames[" + j + "]", rule, name);
          }
        }
      }
    }
  }
}
