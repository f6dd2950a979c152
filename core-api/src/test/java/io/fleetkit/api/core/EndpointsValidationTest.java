package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Endpoints.Address;
import io.fleetkit.api.core.Endpoints.Port;
import io.fleetkit.api.core.Endpoints.Subset;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules of an Endpoints object, checked when it is built, as Kubernetes' {@code ValidateEndpoints}. Cases ported
 * from kubernetes {@code pkg/apis/core/validation/validation_test.go} (commit
 * 000f26050b9be6fb3d79fae95e06b47fc96128cd): {@code TestValidateEndpointsCreate} (5 success cases, 13 of its 16
 * error cases here, "Invalid protocol" in the adapter's {@code EndpointsYamlTest}), {@code TestValidateEndpointsUpdate} (2), {@code TestEndpointAddressNodeNameUpdateRestrictions},
 * {@code TestEndpointAddressNodeNameInvalidDNSSubdomain}, {@code TestEndpointAddressNodeNameCanBeAnIPAddress}.
 * Upstream asserts the type of the first error; here its field and rule, and the object named.
 */
final class EndpointsValidationTest {
  private static final ObjectMeta META = ObjectMeta.of("namespace", "mysvc");

  private static List<Violation> violations(ObjectMeta meta, List<Subset> subsets) {
    try {
      new Endpoints(meta, subsets);
      return List.of();
    } catch (ValidationException e) {
      return e.violations();
    }
  }

  private static Subset subset(List<Address> addresses, Port... ports) {
    return Subset.of(addresses, List.of(ports));
  }

  private static Port tcp(String name, int port) {
    return Port.of(name, port);
  }

  /** TestValidateEndpointsCreate's successCases. */
  static Stream<Arguments> successCases() {
    return Stream.of(
        Arguments.of("simple endpoint", List.of(
            subset(List.of(Address.of("10.10.1.1"), Address.of("10.10.2.2")), tcp("a", 8675), tcp("b", 309)),
            subset(List.of(Address.of("10.10.3.3")), tcp("a", 93), tcp("b", 76)))),
        Arguments.of("empty subsets", List.of()),
        Arguments.of("no name required for singleton port",
            List.of(subset(List.of(Address.of("10.10.1.1")), tcp("", 8675)))),
        Arguments.of("valid appProtocol", List.of(subset(List.of(Address.of("10.10.1.1")),
            new Port("", 8675, ServiceProtocol.TCP, "HTTP")))),
        Arguments.of("empty ports", List.of(subset(List.of(Address.of("10.10.3.3"))))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("successCases")
  void create_validEndpoints_accepted(String name, List<Subset> subsets) {
    assertThat(violations(META, subsets)).isEmpty();
  }

  /**
   * TestValidateEndpointsCreate's errorCases: name, metadata, subsets, the field and the start of the rule of the
   * first violation. Not ported: "missing namespace" (an empty namespace is left for the object store to fill in),
   * "Invalid protocol" and "Port missing protocol" (the protocol is an enum, required here; the manifest reader
   * refuses an unknown protocol and gives a missing one TCP, as v1 defaulting does: {@code EndpointsYamlTest}).
   */
  static Stream<Arguments> errorCases() {
    List<Address> one = List.of(Address.of("10.10.1.1"));
    return Stream.of(
        Arguments.of("missing name", ObjectMeta.of("namespace", ""), List.of(), "metadata.name", "Required value"),
        Arguments.of("invalid namespace", ObjectMeta.of("no@#invalid.;chars\"allowed", "mysvc"), List.of(),
            "metadata.namespace", "a lowercase RFC 1123 label"),
        Arguments.of("invalid name", ObjectMeta.of("namespace", "-_Invliad^&Characters"), List.of(), "metadata.name",
            "a lowercase RFC 1123 subdomain"),
        Arguments.of("empty addresses", META, List.of(subset(List.of(), tcp("a", 93))), "subsets[0]",
            "Required value: must specify `addresses` or `notReadyAddresses`"),
        Arguments.of("invalid IP", META, List.of(subset(List.of(Address.of("[2001:0db8:85a3:0042:1000:8a2e:0370:7334]")),
            tcp("a", 93))), "subsets[0].addresses[0].ip", "must be a valid IP address"),
        Arguments.of("Multiple ports, one without name", META, List.of(subset(one, tcp("", 8675), tcp("b", 309))),
            "subsets[0].ports[0].name", "Required value"),
        Arguments.of("Invalid port number", META, List.of(subset(one, tcp("a", 66000))), "subsets[0].ports[0].port",
            "must be between 1 and 65535"),
        Arguments.of("Address missing IP", META, List.of(subset(List.of(Address.of("")), tcp("a", 93))),
            "subsets[0].addresses[0].ip", "must be a valid IP address"),
        Arguments.of("Port missing number", META, List.of(subset(one, tcp("a", 0))), "subsets[0].ports[0].port",
            "must be between 1 and 65535"),
        Arguments.of("Address is loopback", META, List.of(subset(List.of(Address.of("127.0.0.1")), tcp("p", 93))),
            "subsets[0].addresses[0].ip", "may not be in the loopback range"),
        Arguments.of("Address is link-local", META,
            List.of(subset(List.of(Address.of("169.254.169.254")), tcp("p", 93))), "subsets[0].addresses[0].ip",
            "may not be in the link-local range"),
        Arguments.of("Address is link-local multicast", META,
            List.of(subset(List.of(Address.of("224.0.0.1")), tcp("p", 93))), "subsets[0].addresses[0].ip",
            "may not be in the link-local multicast range"),
        Arguments.of("Invalid AppProtocol", META, List.of(subset(one,
            new Port("p", 93, ServiceProtocol.TCP, "lots-of[invalid]-{chars}"))), "subsets[0].ports[0].appProtocol",
            "name part must consist of alphanumeric characters"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errorCases")
  void create_invalidEndpoints_refusedNamingFieldAndRule(String name, ObjectMeta meta, List<Subset> subsets,
      String field, String rule) {
    List<Violation> v = violations(meta, subsets);
    assertThat(v).as(name).isNotEmpty();
    assertThat(v.get(0).field()).isEqualTo(field);
    assertThat(v.get(0).rule()).startsWith(rule);
    assertThat(v.get(0).object()).startsWith("Endpoints ");
  }

  /** TestValidateEndpointsUpdate: the ports of the new object, and its error count (no rule is update-only). */
  static Stream<Arguments> updateCases() {
    return Stream.of(
        Arguments.of("update to valid app protocol", "https", 0),
        Arguments.of("update to invalid app protocol", "~https", 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updateCases")
  void update_appProtocol_checkedOnTheNewObject(String name, String appProtocol, int errors) {
    Endpoints old = new Endpoints(ObjectMeta.of("namespace", "mysvc"),
        List.of(subset(List.of(Address.of("10.1.2.3")), tcp("a", 8675))));
    List<Violation> v = violations(old.metadata(), List.of(subset(List.of(Address.of("10.1.2.3")),
        new Port("a", 8675, ServiceProtocol.TCP, appProtocol))));
    assertThat(v).as(name).hasSize(errors);
  }

  private static List<Subset> withNodeName(String nodeName) {
    return List.of(subset(List.of(new Address("8.8.8.8", "zookeeper1", nodeName, null)), tcp("https", 443)));
  }

  /** TestEndpointAddressNodeNameUpdateRestrictions: a node name may change (a reused node IP or pod CIDR). */
  @Test
  void update_nodeNameChanged_accepted() {
    Endpoints old = new Endpoints(ObjectMeta.of("default", "foo"), withNodeName("kubernetes-node-setup-by-backend"));
    Endpoints updated = old.withSubsets(withNodeName("kubernetes-changed-nodename"));
    assertThat(updated.subsets().get(0).addresses().get(0).nodeName()).isEqualTo("kubernetes-changed-nodename");
  }

  /** TestEndpointAddressNodeNameInvalidDNSSubdomain. */
  @Test
  void create_nodeNameNotASubdomain_refused() {
    List<Violation> v = violations(ObjectMeta.of("default", "foo"), withNodeName("illegal*.nodename"));
    assertThat(v).extracting(Violation::field).containsExactly("subsets[0].addresses[0].nodeName");
  }

  /** TestEndpointAddressNodeNameCanBeAnIPAddress. */
  @Test
  void create_nodeNameAnIpAddress_accepted() {
    assertThat(violations(ObjectMeta.of("default", "foo"), withNodeName("10.10.1.1"))).isEmpty();
  }

  @Test
  void create_manyViolations_allReportedAtOnce() {
    List<Violation> v = violations(META, List.of(
        new Subset(List.of(Address.of("0.0.0.0")), List.of(new Address("10.0.0.1", "Bad_Host", "", null)),
            List.of(tcp("", 1), tcp("b", 70000)))));
    assertThat(v).extracting(Violation::field).containsExactly("subsets[0].addresses[0].ip",
        "subsets[0].notReadyAddresses[0].hostname", "subsets[0].ports[0].name", "subsets[0].ports[1].port");
    assertThatThrownBy(() -> new Endpoints(META, List.of(subset(List.of(Address.of("::1"))))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Endpoints namespace/mysvc").hasMessageContaining("subsets[0].addresses[0].ip");
  }

  @Test
  void spec_isTheSubsets_statusNone() {
    Endpoints e = new Endpoints(META, List.of(subset(List.of(Address.of("10.0.0.1")), tcp("", 80))));
    assertThat(e.spec().subsets()).isEqualTo(e.subsets());
    assertThat(e.status()).isNull();
    assertThat(e.describe()).isEqualTo("Endpoints namespace/mysvc");
    assertThat(e.withStatusOf(e)).isSameAs(e);
  }
}
