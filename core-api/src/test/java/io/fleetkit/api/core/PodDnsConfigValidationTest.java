package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code spec.dnsConfig}, {@code spec.dnsPolicy}, {@code spec.hostAliases} and {@code spec.serviceAccountName} checked
 * when a pod is built, as Kubernetes' {@code ValidatePodSpec}. Cases ported from kubernetes
 * {@code pkg/apis/core/validation/validation_test.go} (commit 000f26050b9be6fb3d79fae95e06b47fc96128cd):
 * {@code TestValidatePodDNSConfig} (all 20 rows, each with the policy it runs under, ClusterFirst unless it names
 * None) and the host-alias and service-account rows of {@code TestValidatePodSpec}. Upstream only asserts that an
 * error exists; the field each error is reported on is asserted too.
 */
final class PodDnsConfigValidationTest {

  private static List<Violation> violations(Pod.Builder b) {
    try {
      b.build();
      return List.of();
    } catch (ValidationException e) {
      return e.violations();
    }
  }

  private static Pod.Builder pod() {
    return Pod.builder().namespace("ns").name("p").container("c", "img", ResourceList.EMPTY);
  }

  private static String a(int n) {
    return "a".repeat(n);
  }

  private static List<String> searches(int first, int each, int count) {
    List<String> l = new ArrayList<>();
    l.add(a(first));
    for (int i = 1; i < count; i++) {
      l.add(a(each));
    }
    return l;
  }

  private static PodDNSConfig config(List<String> nameservers, List<String> searches, PodDNSConfigOption... options) {
    return new PodDNSConfig(nameservers, searches, List.of(options));
  }

  private static final List<String> SIX = List.of("custom", "mydomain.com", "local", "cluster.local",
      "svc.cluster.local", "default.svc.cluster.local.");

  private static List<String> thirtyTwo(int n) {
    List<String> l = new ArrayList<>(SIX);
    for (int i = 7; i <= n; i++) {
      l.add(String.valueOf(i));
    }
    return l;
  }

  /** TestValidatePodDNSConfig: description, config, policy, the field of the error or {@code null} for none. */
  static Stream<Arguments> testValidatePodDNSConfig() {
    DNSPolicy first = DNSPolicy.ClusterFirst;
    return Stream.of(
        Arguments.of("valid: empty DNSConfig", config(List.of(), List.of()), first, null),
        Arguments.of("valid: 1 option", config(List.of(), List.of(), PodDNSConfigOption.of("ndots", "2")), first,
            null),
        Arguments.of("valid: 1 nameserver", config(List.of("127.0.0.1"), List.of()), first, null),
        Arguments.of("valid: DNSNone with 1 nameserver", config(List.of("127.0.0.1"), List.of()), DNSPolicy.None,
            null),
        Arguments.of("valid: 1 search path", config(List.of(), List.of("custom")), first, null),
        Arguments.of("valid: 1 search path with trailing period", config(List.of(), List.of("custom.")), first, null),
        Arguments.of("valid: 3 nameservers and 6 search paths(legacy)",
            config(List.of("127.0.0.1", "10.0.0.10", "8.8.8.8"), SIX), first, null),
        Arguments.of("valid: 3 nameservers and 32 search paths",
            config(List.of("127.0.0.1", "10.0.0.10", "8.8.8.8"), thirtyTwo(32)), first, null),
        Arguments.of("valid: 256 characters in search path list(legacy)", config(List.of(), searches(1, 50, 6)),
            first, null),
        Arguments.of("valid: 2048 characters in search path list", config(List.of(), searches(64, 63, 32)), first,
            null),
        Arguments.of("valid: ipv6 nameserver", config(List.of("FE80::0202:B3FF:FE1E:8329"), List.of()), first, null),
        Arguments.of("invalid: 4 nameservers", config(List.of("127.0.0.1", "10.0.0.10", "8.8.8.8", "1.2.3.4"),
            List.of()), first, "spec.dnsConfig.nameservers"),
        Arguments.of("valid: 7 search paths", config(List.of(), List.of("custom", "mydomain.com", "local",
            "cluster.local", "svc.cluster.local", "default.svc.cluster.local", "exceeded")), first, null),
        Arguments.of("invalid: 33 search paths", config(List.of(), thirtyTwo(33)), first, "spec.dnsConfig.searches"),
        Arguments.of("valid: 257 characters in search path list", config(List.of(), searches(2, 50, 6)), first,
            null),
        Arguments.of("invalid: 2049 characters in search path list", config(List.of(), searches(65, 63, 32)), first,
            "spec.dnsConfig.searches"),
        Arguments.of("invalid search path", config(List.of(), List.of("custom?")), first,
            "spec.dnsConfig.searches[0]"),
        Arguments.of("invalid nameserver", config(List.of("invalid"), List.of()), first,
            "spec.dnsConfig.nameservers[0]"),
        Arguments.of("invalid empty option name", config(List.of(), List.of(), new PodDNSConfigOption("", "2")),
            first, "spec.dnsConfig.options[0]"),
        Arguments.of("invalid: DNSNone with 0 nameserver", config(List.of(), List.of("custom")), DNSPolicy.None,
            "spec.dnsConfig.nameservers"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testValidatePodDNSConfig(String desc, PodDNSConfig config, DNSPolicy policy, @Nullable String field) {
    List<Violation> found = violations(pod().dnsPolicy(policy).dnsConfig(config));
    if (field == null) {
      assertThat(found).as(desc).isEmpty();
    } else {
      assertThat(found).as(desc).isNotEmpty().extracting(Violation::field).containsOnly(field);
    }
  }

  @Test
  void build_dnsConfigAtLimits_messagesAreUpstreams() {
    assertThat(violations(pod().dnsConfig(config(List.of("127.0.0.1", "10.0.0.10", "8.8.8.8", "1.2.3.4"),
        List.of())))).extracting(Violation::rule).containsExactly("must not have more than 3 nameservers");
    assertThat(violations(pod().dnsConfig(config(List.of(), searches(65, 63, 32))))).extracting(Violation::rule)
        .containsExactly("must not have more than 2048 characters (including spaces) in the search list");
    assertThat(violations(pod().dnsConfig(config(List.of("invalid"), List.of())))).extracting(Violation::rule)
        .containsExactly("must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)");
    assertThat(violations(pod().dnsConfig(config(List.of(), List.of(), new PodDNSConfigOption("", null)))))
        .extracting(Violation::rule).containsExactly("Required value: must not be empty");
  }

  @Test
  void build_dnsPolicyNoneWithoutConfig_requiredOnDnsConfig() {
    assertThat(violations(pod().dnsPolicy(DNSPolicy.None))).extracting(Violation::field, Violation::rule)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.dnsConfig",
            "Required value: must provide `dnsConfig` when `dnsPolicy` is None"));
  }

  @Test
  void build_relaxedSearchValidation_dotAndUnderscoresAccepted_uppercaseRefused() {
    // RelaxedDNSSearchValidation, GA and locked on since Kubernetes 1.34 (FleetKit's own cases of the rule)
    assertThat(violations(pod().dnsConfig(config(List.of(), List.of(".", "_sip._tcp.example.com", "a_b.c.")))))
        .isEmpty();
    assertThat(violations(pod().dnsConfig(config(List.of(), List.of("ok", "Custom", "-x")))))
        .extracting(Violation::field, Violation::value)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.dnsConfig.searches[1]", "Custom"),
            org.assertj.core.groups.Tuple.tuple("spec.dnsConfig.searches[2]", "-x"));
  }

  // TestValidatePodSpec's host-alias and service-account rows

  @Test
  void testValidatePodSpec_hostAliasesAndServiceAccount_successCases() {
    assertThat(violations(pod().serviceAccountName("acct"))).as("populate all fields (its serviceAccountName)")
        .isEmpty();
    assertThat(violations(pod().hostAlias(HostAlias.of("12.34.56.78", "host1", "host2")))).as("populate HostAliases")
        .isEmpty();
    assertThat(violations(pod().hostAlias(HostAlias.of("12.34.56.78", "host1.foo", "host2.bar"))))
        .as("populate HostAliases with `foo.bar` hostnames").isEmpty();
    for (DNSPolicy p : DNSPolicy.values()) { // TestValidateDNSPolicy's success cases (None with a nameserver)
      assertThat(violations(pod().dnsPolicy(p).dnsConfig(config(List.of("10.0.0.10"), List.of())))).as(p.name())
          .isEmpty();
    }
  }

  @Test
  void testValidatePodSpec_hostAliasesAndServiceAccount_failureCases() {
    assertThat(violations(pod().serviceAccountName("invalidName"))).as("bad service account name")
        .extracting(Violation::field, Violation::value)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.serviceAccountName", "invalidName"));
    assertThat(violations(pod().hostAlias(HostAlias.of("999.999.999.999", "host1", "host2"))))
        .as("with hostAliases with invalid IP").extracting(Violation::field, Violation::rule)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.hostAliases[0].ip",
            "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"));
    assertThat(violations(pod().hostAlias(HostAlias.of("12.34.56.78", "@#$^#@#$"))))
        .as("with hostAliases with invalid hostname").extracting(Violation::field, Violation::value)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.hostAliases[0].hostnames[0]", "@#$^#@#$"));
  }

  @Test
  void update_changingAccountOrDnsFields_forbidden_keepingThem_allowed() {
    // ValidatePodUpdate: none of these fields is among the updatable ones
    Pod old = pod().serviceAccountName("a").dnsConfig(config(List.of("1.1.1.1"), List.of())).build();
    assertThat(violations(() -> io.fleetkit.api.store.spi.UpdateChecks.update(old, old.withSpec(old.spec()), false)))
        .isEmpty();
    for (Pod updated : List.of(old.withSpec(old.spec().withServiceAccountName("b")),
        old.withSpec(old.spec().toBuilder().automountServiceAccountToken(true).build()),
        old.withSpec(old.spec().toBuilder().dnsPolicy(DNSPolicy.Default).build()),
        old.withSpec(old.spec().toBuilder().dnsConfig(null).build()),
        old.withSpec(old.spec().toBuilder().hostAlias(HostAlias.of("10.0.0.1", "x")).build()))) {
      assertThat(violations(() -> io.fleetkit.api.store.spi.UpdateChecks.update(old, updated, false)))
          .singleElement().satisfies(v -> {
            assertThat(v.field()).isEqualTo("spec");
            assertThat(v.rule()).startsWith("Forbidden: " + io.fleetkit.api.store.spi.UpdateChecks.POD_UPDATABLE);
          });
    }
  }

  private static List<Violation> violations(Runnable r) {
    try {
      r.run();
    } catch (ValidationException e) {
      return e.violations();
    }
    return List.of();
  }

  @Test
  void builder_defaults_dnsPolicyClusterFirst_noAccount_toBuilderAndWithersKeepFields() {
    Pod plain = pod().build();
    assertThat(plain.spec().dnsPolicy()).isEqualTo(DNSPolicy.ClusterFirst);
    assertThat(plain.spec().serviceAccountName()).isEmpty();
    assertThat(plain.spec().automountServiceAccountToken()).isNull();
    assertThat(plain.spec().dnsConfig()).isNull();
    assertThat(plain.spec().hostAliases()).isEmpty();
    PodSpec s = pod().serviceAccountName("builder").automountServiceAccountToken(false).dnsPolicy(DNSPolicy.None)
        .dnsConfig(config(List.of("1.1.1.1"), List.of("x.y"), PodDNSConfigOption.of("ndots", "1")))
        .hostAlias(HostAlias.of("::1", "me")).build().spec();
    assertThat(s.toBuilder().build()).isEqualTo(s);
    assertThat(s.withNodeName("n1").withPriority(3).withTolerations(List.of()).withServiceAccountName("other"))
        .isEqualTo(s.toBuilder().nodeName("n1").priority(3).serviceAccountName("other").build());
    PodSpec old = new PodSpec(s.containers(), s.initContainers(), s.overhead(), s.priority(), s.priorityClassName(),
        s.preemptionPolicy(), s.nodeSelector(), s.affinity(), s.tolerations(), s.topologySpreadConstraints(),
        s.schedulerName(), s.nodeName(), s.volumes(), s.restartPolicy(), s.terminationGracePeriodSeconds(),
        s.activeDeadlineSeconds(), s.hostname(), s.subdomain(), s.resources(), s.schedulingGates(),
        s.resourceClaims(), s.readinessGates(), s.os());
    assertThat(old).as("the constructor without these fields").isEqualTo(plain.spec());
  }
}
