package io.fleetkit.networking.gateway;

import static io.fleetkit.networking.gateway.StatusConformance.APP;
import static io.fleetkit.networking.gateway.StatusConformance.INFRA;
import static io.fleetkit.networking.gateway.StatusConformance.WEB;
import static io.fleetkit.networking.gateway.StatusConformance.cond;
import static io.fleetkit.networking.gateway.StatusConformance.gateway;
import static io.fleetkit.networking.gateway.StatusConformance.http;
import static io.fleetkit.networking.gateway.StatusConformance.https;
import static io.fleetkit.networking.gateway.StatusConformance.listener;
import static io.fleetkit.networking.gateway.StatusConformance.route;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.GatewaySpec;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.gateway.Listener;
import io.fleetkit.api.gateway.ParentReference;
import io.fleetkit.api.gateway.ReferenceGrant;
import io.fleetkit.api.gateway.SecretObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kubernetes-sigs/gateway-api {@code conformance/tests/*.go} and {@code *.yaml} at commit 4564255a, the cases about
 * the status a Gateway controller writes to the API server: run against {@link GatewayStatusController} on a store
 * ({@link StatusConformance}), each asserting what upstream asserts on the stored objects, with upstream's expected
 * conditions, reasons and attached-route counts. Where upstream patches an object, the test updates it in the store
 * and lets the controller settle, as the suite polls until its timeout. The certificate Secrets are the self-signed
 * pair of {@code src/test/resources/tls} (made with OpenSSL) where upstream generates one per run. No case sends a
 * request (the HTTPS listeners' traffic cases, httproute-https-listener and
 * httproute-https-listener-detect-misdirected-requests, are in the routing package's {@code GatewayConformanceTest}).
 */
final class GatewayStatusConformanceTest {
  private final StatusConformance s = new StatusConformance();

  @AfterEach
  void close() {
    s.close();
  }

  private static SecretObjectReference webCertificate() {
    return new SecretObjectReference("", "Secret", "certificate", WEB);
  }

  /** gateway-secret-missing-reference-grant.go / .yaml. */
  @Test
  void gatewaySecretMissingReferenceGrant_refNotPermitted() {
    s.store.create(gateway("gateway-secret-missing-reference-grant", https("https", "", webCertificate())));
    s.settle();
    s.gatewayStatusMustHaveListeners("gateway-secret-missing-reference-grant", listener("https", 0,
        cond(Conditions.RESOLVED_REFS, false, Conditions.REF_NOT_PERMITTED)));
  }

  /** gateway-secret-invalid-reference-grant.go / .yaml: seven grants, none for this Gateway and Secret. */
  @Test
  void gatewaySecretInvalidReferenceGrant_refNotPermitted() {
    s.store.create(gateway("gateway-secret-invalid-reference-grant", https("https", "", webCertificate())));
    ReferenceGrant.From gatewayFromInfra = new ReferenceGrant.From(Gateway.GROUP, "Gateway", INFRA);
    ReferenceGrant.To certificate = new ReferenceGrant.To("", "Secret", "certificate");
    s.store.create(grant(APP, "reference-grant-wrong-namespace", gatewayFromInfra, certificate));
    s.store.create(grant(WEB, "reference-grant-wrong-from-group",
        new ReferenceGrant.From("not-the-group-youre-looking-for", "Gateway", INFRA), certificate));
    s.store.create(grant(WEB, "reference-grant-wrong-from-kind",
        new ReferenceGrant.From(Gateway.GROUP, "HTTPRoute", INFRA), certificate));
    s.store.create(grant(WEB, "reference-grant-wrong-from-namespace",
        new ReferenceGrant.From(Gateway.GROUP, "Gateway", "not-the-namespace-youre-looking-for"), certificate));
    s.store.create(grant(WEB, "reference-grant-wrong-to-group", gatewayFromInfra,
        new ReferenceGrant.To("not-the-group-youre-looking-for", "Secret", "not-the-certificate-youre-looking-for")));
    s.store.create(grant(WEB, "reference-grant-wrong-to-kind", gatewayFromInfra,
        new ReferenceGrant.To("", "Service", "certificate")));
    s.store.create(grant(WEB, "reference-grant-wrong-to-name", gatewayFromInfra,
        new ReferenceGrant.To("", "Secret", "not-the-certificate-youre-looking-for")));
    s.settle();
    s.gatewayStatusMustHaveListeners("gateway-secret-invalid-reference-grant", listener("https", 0,
        cond(Conditions.RESOLVED_REFS, false, Conditions.REF_NOT_PERMITTED)));
  }

  /** gateway-secret-reference-grant-all-in-namespace.go / .yaml: a grant for every Secret of the namespace. */
  @Test
  void gatewaySecretReferenceGrantAllInNamespace_programmed() {
    s.store.create(gateway("gateway-secret-reference-grant-all-in-namespace", https("https", "", webCertificate())));
    s.store.create(grant(WEB, "reference-grant-all-in-namespace",
        new ReferenceGrant.From(Gateway.GROUP, "Gateway", INFRA), new ReferenceGrant.To("", "Secret", "")));
    s.settle();
    s.gatewayStatusMustHaveListeners("gateway-secret-reference-grant-all-in-namespace", listener("https", 0,
        cond(Conditions.PROGRAMMED, true, "Programmed"), cond(Conditions.RESOLVED_REFS, true, "")));
  }

  /**
   * gateway-secret-reference-grant-specific.go / .yaml: a grant for that Secret. Beyond upstream: the grant deleted,
   * the controller hears it and the listener is RefNotPermitted again.
   */
  @Test
  void gatewaySecretReferenceGrantSpecific_programmed_thenRefusedOnceTheGrantIsGone() {
    String gw = "gateway-secret-reference-grant-specific";
    s.store.create(gateway(gw, https("https", "", webCertificate())));
    s.store.create(grant(WEB, "reference-grant-specific", new ReferenceGrant.From(Gateway.GROUP, "Gateway", INFRA),
        new ReferenceGrant.To("", "Secret", "certificate")));
    s.settle();
    s.gatewayStatusMustHaveListeners(gw, listener("https", 0,
        cond(Conditions.PROGRAMMED, true, "Programmed"), cond(Conditions.RESOLVED_REFS, true, "")));

    s.store.delete(ReferenceGrant.class, WEB, "reference-grant-specific");
    s.settle();
    s.gatewayStatusMustHaveListeners(gw, listener("https", 0,
        cond(Conditions.RESOLVED_REFS, false, Conditions.REF_NOT_PERMITTED), cond(Conditions.PROGRAMMED, false, "")));
  }

  /**
   * gateway-invalid-tls-configuration.go / .yaml: the four Gateways (annotated to be skipped by the readiness
   * checks, as upstream's), each listener {@code ResolvedRefs=False InvalidCertificateRef} with no route attached.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"gateway-certificate-nonexistent-secret", "gateway-certificate-unsupported-group",
      "gateway-certificate-unsupported-kind", "gateway-certificate-malformed-secret"})
  void gatewayInvalidTlsConfiguration_invalidCertificateRef(String name) {
    s.store.create(invalidTls("gateway-certificate-nonexistent-secret",
        new SecretObjectReference("", "Secret", "nonexistent-certificate", "")));
    s.store.create(invalidTls("gateway-certificate-unsupported-group",
        new SecretObjectReference("wrong.group.company.io", "Secret", "tls-validity-checks-certificate", "")));
    s.store.create(invalidTls("gateway-certificate-unsupported-kind",
        new SecretObjectReference("", "WrongKind", "tls-validity-checks-certificate", "")));
    s.store.create(invalidTls("gateway-certificate-malformed-secret",
        new SecretObjectReference("", "Secret", "malformed-certificate", "")));
    // "this certificate is invalid because contains an invalid pem (base64 of "Hello world"), and the certificate
    // and the key are identical"
    s.store.create(new Secret(ObjectMeta.of(INFRA, "malformed-certificate"), Secret.TYPE_TLS,
        Map.of("tls.crt", Bytes.ofBase64("SGVsbG8gd29ybGQK"), "tls.key", Bytes.ofBase64("SGVsbG8gd29ybGQK")), false));
    s.settle();
    s.gatewayStatusMustHaveListeners(name, listener("https", 0,
        cond(Conditions.RESOLVED_REFS, false, Conditions.INVALID_CERTIFICATE_REF)));
    // the readiness checks skip them; the base Gateway is ready
    s.namespaceGatewaysMustBeReady(INFRA);
  }

  /**
   * gateway-invalid-tls-backend-configuration.go / .yaml: five Gateways whose {@code spec.tls.backend
   * .clientCertificateRef} does not resolve (a missing Secret, another group, another kind, a Secret without the
   * keys, another namespace without a ReferenceGrant): Gateway {@code ResolvedRefs=False} with
   * {@code InvalidClientCertificateRef} or {@code RefNotPermitted}, and {@code Accepted=True Accepted}; conditions of
   * the Gateway's generation. Beyond upstream: the valid certificate resolves, and the readiness checks pass.
   */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.CsvSource({
      "gateway-client-certificate-nonexistent-secret, InvalidClientCertificateRef",
      "gateway-client-certificate-unsupported-group, InvalidClientCertificateRef",
      "gateway-client-certificate-unsupported-kind, InvalidClientCertificateRef",
      "gateway-client-certificate-malformed-secret, InvalidClientCertificateRef",
      "gateway-client-certificate-missing-reference-grant, RefNotPermitted"})
  void gatewayInvalidTlsBackendConfiguration_resolvedRefsFalse(String name, String reason) {
    s.store.create(clientCertificate("gateway-client-certificate-nonexistent-secret",
        new SecretObjectReference("", "Secret", "nonexistent-certificate", "")));
    s.store.create(clientCertificate("gateway-client-certificate-unsupported-group",
        new SecretObjectReference("wrong.group.company.io", "Secret", "tls-validity-checks-certificate", "")));
    s.store.create(clientCertificate("gateway-client-certificate-unsupported-kind",
        new SecretObjectReference("", "WrongKind", "tls-validity-checks-certificate", "")));
    s.store.create(clientCertificate("gateway-client-certificate-malformed-secret",
        new SecretObjectReference("", "Secret", "malformed-client-certificate", "")));
    // "this certificate is invalid because it does not contain the keys named tls.crt and tls.key"
    s.store.create(new Secret(ObjectMeta.of(INFRA, "malformed-client-certificate"), Secret.TYPE_OPAQUE, Map.of(),
        false));
    s.store.create(clientCertificate("gateway-client-certificate-missing-reference-grant",
        new SecretObjectReference("", "Secret", "certificate", WEB)));
    s.settle();
    // GatewayMustHaveLatestConditions, then GatewayMustHaveCondition twice
    s.gatewayMustHaveLatestConditions(name);
    StatusConformance.conditionsMatch("Gateway " + name, s.gateway(name).status().conditions(), List.of(
        cond(Conditions.RESOLVED_REFS, false, reason), cond(Conditions.ACCEPTED, true, "Accepted")));
    assertThat(s.gateway(name).status().condition(Conditions.RESOLVED_REFS).message())
        .startsWith("spec.tls.backend.clientCertificateRef: ");
    s.namespaceGatewaysMustBeReady(INFRA);
  }

  @Test
  void tlsBackendClientCertificate_valid_resolvedRefsTrue() {
    s.store.create(clientCertificate("gateway-client-certificate-valid",
        new SecretObjectReference("", "Secret", "tls-validity-checks-certificate", "")));
    s.settle();
    StatusConformance.conditionsMatch("Gateway", s.gateway("gateway-client-certificate-valid").status().conditions(),
        List.of(cond(Conditions.RESOLVED_REFS, true, "ResolvedRefs")));
    // a listener with an unresolved certificate makes the Gateway's summary False
    s.store.create(gateway("listener-unresolved", https("https", "", new SecretObjectReference("", "Secret",
        "nonexistent-certificate", ""))));
    s.settle();
    StatusConformance.conditionsMatch("Gateway", s.gateway("listener-unresolved").status().conditions(),
        List.of(cond(Conditions.RESOLVED_REFS, false, Conditions.LISTENERS_NOT_RESOLVED)));
  }

  private static Gateway clientCertificate(String name, SecretObjectReference ref) {
    Gateway g = gateway(name, http("http", "", 80, FromNamespaces.Same));
    return new Gateway(g.metadata(), new GatewaySpec(g.spec().gatewayClassName(), g.spec().listeners(), ref));
  }

  private static Gateway invalidTls(String name, SecretObjectReference ref) {
    Gateway g = gateway(name, https("https", "", ref));
    return new Gateway(g.metadata().toBuilder().annotations(Map.of("gateway-api/skip-this-for-readiness",
        "true")).build(), g.spec());
  }

  private static ReferenceGrant grant(String ns, String name, ReferenceGrant.From from, ReferenceGrant.To to) {
    return new ReferenceGrant(ObjectMeta.of(ns, name), List.of(from), List.of(to));
  }

  /**
   * gateway-name-maximum-length.go / .yaml: a Gateway whose name has 253 characters, the most a DNS subdomain may
   * have, is reconciled. Upstream checks only that its conditions are of its generation (the Gateway is annotated
   * {@code gateway-api/skip-this-for-readiness}); beyond upstream, it is Accepted and Programmed and its listener
   * takes a route.
   */
  @Test
  void gatewayNameMaximumLength_reconciled() {
    String prefix = "gateway-name-maximum-length-";
    String name = prefix + "a".repeat(253 - prefix.length());
    assertThat(name).hasSize(253);
    Gateway g = gateway(name, http("http", "", 80, FromNamespaces.Same));
    s.store.create(g.withMetadata(g.metadata().toBuilder().annotation("gateway-api/skip-this-for-readiness", "true")
        .build()));
    s.store.create(route("to-the-long-name", new ParentReference(name, "", ""), "infra-backend-v1"));
    s.settle();
    // GatewayMustHaveLatestConditions
    s.gatewayMustHaveLatestConditions(name);
    Gateway stored = s.gateway(name);
    assertThat(stored.status().condition(Conditions.ACCEPTED).isTrue()).isTrue();
    assertThat(stored.status().condition(Conditions.PROGRAMMED).isTrue()).isTrue();
    assertThat(stored.status().listener("http").attachedRoutes()).isEqualTo(1);
    assertThat(s.route("to-the-long-name").status().parents().get(0).parentRef().name()).isEqualTo(name);
  }

  /** gatewayclass-observed-generation-bump.go / .yaml. */
  @Test
  void gatewayClassObservedGenerationBump() {
    s.store.create(new GatewayClass(ObjectMeta.of("gatewayclass-observed-generation-bump"),
        GatewayStatusController.DEFAULT_CONTROLLER_NAME).withDescription("old"));
    s.settle();
    GatewayClass original = s.store.require(GatewayClass.class, "", "gatewayclass-observed-generation-bump");
    // GWCMustHaveAcceptedConditionAny, GatewayClassMustHaveLatestConditions
    assertThat(original.status().condition(Conditions.ACCEPTED)).isNotNull();
    StatusConformance.conditionsHaveLatestObservedGeneration(original.metadata(), original.status().conditions());

    s.store.update(original.withDescription("new"));
    s.settle();
    GatewayClass updated = s.store.require(GatewayClass.class, "", "gatewayclass-observed-generation-bump");
    assertThat(updated.status().condition(Conditions.ACCEPTED)).isNotNull();
    StatusConformance.conditionsHaveLatestObservedGeneration(updated.metadata(), updated.status().conditions());
    assertThat(updated.metadata().generation()).as("generation should change after an update")
        .isNotEqualTo(original.metadata().generation());
  }

  /** gateway-observed-generation-bump.go / .yaml. */
  @Test
  void gatewayObservedGenerationBump() {
    String gw = "gateway-observed-generation-bump";
    s.store.create(gateway(gw, http("http", "bar.com", 80, FromNamespaces.All)));
    s.settle();
    s.namespaceGatewaysMustBeReady(INFRA);
    s.gatewayMustHaveLatestConditions(gw);
    Gateway original = s.gateway(gw);

    List<Listener> listeners = new ArrayList<>(original.spec().listeners());
    listeners.add(http("alternate", "foo.com", 80, FromNamespaces.All));
    s.store.update(new Gateway(original.metadata(), new GatewaySpec(original.spec().gatewayClassName(), listeners)));
    s.settle();

    s.namespaceGatewaysMustBeReady(INFRA);
    s.gatewayMustHaveLatestConditions(gw);
    Gateway updated = s.gateway(gw);
    assertThat(updated.metadata().generation()).as("generation should change after an update")
        .isNotEqualTo(original.metadata().generation());
    assertThat(updated.status().listeners()).extracting(l -> l.name()).containsExactly("http", "alternate");
  }

  /** httproute-observed-generation-bump.go / .yaml. */
  @Test
  void httpRouteObservedGenerationBump() {
    String name = "observed-generation-bump";
    s.store.create(route(name, new ParentReference("same-namespace", "", ""), "infra-backend-v1"));
    s.settle();
    s.namespaceGatewaysMustBeReady(INFRA);
    HTTPRoute original = s.route(name);
    s.httpRouteMustHaveLatestConditions(name);

    HTTPRouteRule rule = original.spec().rules().get(0);
    HTTPRouteRule mutated = new HTTPRouteRule(rule.matches(), List.of(new HTTPBackendRef("infra-backend-v2", "",
        8080, 1)));
    s.store.update(new HTTPRoute(original.metadata(), new HTTPRouteSpec(original.spec().parentRefs(),
        original.spec().hostnames(), List.of(mutated))));
    s.settle();

    s.httpRouteMustHaveCondition(name, "same-namespace", cond(Conditions.ACCEPTED, true, ""));
    // HTTPRouteMustHaveResolvedRefsConditionsTrue
    s.httpRouteMustHaveCondition(name, "same-namespace", cond(Conditions.RESOLVED_REFS, true, "ResolvedRefs"));
    s.httpRouteMustHaveLatestConditions(name);
    HTTPRoute updated = s.route(name);
    assertThat(updated.metadata().generation()).as("generation should change after an update")
        .isNotEqualTo(original.metadata().generation());
  }

  /** gateway-modify-listeners.go / .yaml. */
  @Nested
  final class GatewayModifyListeners {
    private final ParentReference addParent = new ParentReference("", "Gateway", "gateway-add-listener", INFRA, "",
        null);
    private final ParentReference removeParent = new ParentReference("", "Gateway", "gateway-remove-listener", INFRA,
        "", null);
    private final SecretObjectReference cert = new SecretObjectReference("", "Secret",
        "tls-validity-checks-certificate", INFRA);

    private void apply() {
      s.store.create(gateway("gateway-add-listener", https("https", "secure.test.com", cert)));
      s.store.create(route("http-route-1", addParent, "infra-backend-v1"));
      s.store.create(gateway("gateway-remove-listener", https("https", "secure.test.com", cert),
          http("http", "", 80, FromNamespaces.All)));
      s.store.create(route("http-route-2", removeParent, "infra-backend-v1"));
      s.settle();
    }

    /** "should be able to add a listener that then becomes available for routing traffic". */
    @Test
    void addListener() {
      apply();
      s.namespaceGatewaysMustBeReady(INFRA);
      s.gatewayMustHaveLatestConditions("gateway-add-listener");
      Gateway original = s.gateway("gateway-add-listener");

      List<Listener> listeners = new ArrayList<>(original.spec().listeners());
      listeners.add(http("http", "data.test.com", 80, FromNamespaces.All));
      s.store.update(new Gateway(original.metadata(), new GatewaySpec(original.spec().gatewayClassName(),
          listeners)));
      s.settle();

      s.namespaceGatewaysMustBeReady(INFRA);
      s.gatewayStatusMustHaveListeners("gateway-add-listener",
          listener("https", 1, cond(Conditions.ACCEPTED, true, ""), cond(Conditions.RESOLVED_REFS, true, "")),
          listener("http", 1, cond(Conditions.ACCEPTED, true, ""), cond(Conditions.RESOLVED_REFS, true, "")));
      s.gatewayMustHaveLatestConditions("gateway-add-listener");
      assertThat(s.gateway("gateway-add-listener").metadata().generation())
          .as("generation should change after an update").isNotEqualTo(original.metadata().generation());
    }

    /** "should be able to remove listeners, which would then stop routing the relevant traffic". */
    @Test
    void removeListener() {
      apply();
      s.namespaceGatewaysMustBeReady(INFRA);
      s.gatewayMustHaveLatestConditions("gateway-remove-listener");
      Gateway original = s.gateway("gateway-remove-listener");
      assertThat(original.spec().listeners()).as("the gateway must have 2 listeners").hasSize(2);

      List<Listener> listeners = original.spec().listeners().stream().filter(l -> l.name().equals("http")).toList();
      s.store.update(new Gateway(original.metadata(), new GatewaySpec(original.spec().gatewayClassName(),
          listeners)));
      s.settle();

      s.namespaceGatewaysMustBeReady(INFRA);
      s.gatewayStatusMustHaveListeners("gateway-remove-listener",
          listener("http", 1, cond(Conditions.ACCEPTED, true, ""), cond(Conditions.RESOLVED_REFS, true, "")));
      s.gatewayMustHaveLatestConditions("gateway-remove-listener");
      assertThat(s.gateway("gateway-remove-listener").metadata().generation())
          .as("generation should change after an update").isNotEqualTo(original.metadata().generation());
    }
  }
}
