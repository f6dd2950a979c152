package io.fleetkit.networking.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.networking.HTTPIngressPath;
import io.fleetkit.api.networking.Ingress;
import io.fleetkit.api.networking.IngressBackend;
import io.fleetkit.api.networking.IngressClass;
import io.fleetkit.api.networking.IngressRule;
import io.fleetkit.api.networking.IngressSpec;
import io.fleetkit.api.networking.IngressTLS;
import io.fleetkit.api.networking.PathType;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The scenarios of kubernetes-sigs/ingress-controller-conformance {@code features/*.feature} (default_backend,
 * host_rules, ingress_class, path_rules; load_balancing is in {@code RoutingLoadBalancingTest}) and the path table
 * of the Ingress documentation. Each scenario's expected backend or 404 is upstream's; HTTP-level assertions
 * (status line, headers, TLS handshake) belong to a data plane and are not ported.
 */
final class IngressConformanceTest {
  private static final IngressClass CLASS = new IngressClass(ObjectMeta.builder().name("conformance")
      .annotation(IngressClass.DEFAULT_ANNOTATION, "true").build(), "fleetkit.io/router");

  private static HTTPIngressPath path(PathType type, String p, String service) {
    return new HTTPIngressPath(p, type, IngressBackend.of(service, 8080));
  }

  private static Ingress ingress(String name, IngressBackend dflt, List<IngressTLS> tls, IngressRule... rules) {
    return Ingress.of(ObjectMeta.of("conformance", name), new IngressSpec("conformance", dflt, tls, List.of(rules)));
  }

  private static IngressRouter router(Ingress... ingresses) {
    return new IngressRouter(List.of(CLASS), List.of(ingresses), "fleetkit.io/router");
  }

  private static String serviceFor(IngressRouter r, String host, String path) {
    RouteResult res = r.route(HttpRequest.get(host, path));
    return res.service() == null ? "404" : res.service().substring(res.service().indexOf('/') + 1);
  }

  // default_backend.feature: Scenario Outline, 6 examples (methods GET/POST/PUT/DELETE/PATCH, hosts and paths)
  @ParameterizedTest
  @CsvSource({"GET, my-host, /", "GET, my-host, /sub-path", "POST, some-host, /", "PUT, '', /resource",
      "DELETE, some-host, /resource", "PATCH, my-host, /resource"})
  void defaultBackend_onlyDefault_everyRequestToEchoService(String method, String host, String path) {
    IngressRouter r = router(ingress("default-backend", IngressBackend.of("echo-service", 8080), List.of()));
    RouteResult res = r.route(HttpRequest.of(method, host, path, Map.of()));
    assertThat(res.status()).isEqualTo(200);
    assertThat(res.service()).isEqualTo("conformance/echo-service");
    assertThat(res.port()).isEqualTo(8080);
    assertThat(res.route()).isEqualTo("Ingress/conformance/default-backend");
  }

  private static IngressRouter hostRules() {
    return router(ingress("host-rules", null, List.of(new IngressTLS(List.of("foo.bar.com"), "conformance-tls")),
        new IngressRule("*.foo.com", List.of(path(PathType.Prefix, "/", "wildcard-foo-com"))),
        new IngressRule("foo.bar.com", List.of(path(PathType.Prefix, "/", "foo-bar-com")))));
  }

  // host_rules.feature: 6 scenarios (the TLS one checks the route; the certificate check needs a data plane)
  @ParameterizedTest
  @CsvSource({"foo.bar.com, foo-bar-com", "foo.bar.com:443, foo-bar-com", "subdomain.bar.com, 404",
      "bar.foo.com, wildcard-foo-com", "baz.bar.foo.com, 404", "foo.com, 404"})
  void hostRules_exactAndOneLabelWildcard(String host, String want) {
    assertThat(serviceFor(hostRules(), host, "/")).isEqualTo(want);
  }

  // ingress_class.feature: an Ingress naming a class that does not exist is not served
  @Test
  void ingressClass_unknownClass_notServed() {
    Ingress bad = Ingress.of(ObjectMeta.of("conformance", "ingress-class"), new IngressSpec(
        "some-invalid-class-name", IngressBackend.of("echo-service", 8080), List.of(), List.of()));
    IngressRouter r = new IngressRouter(List.of(CLASS), List.of(bad), null);
    assertThat(r.served()).isEmpty();
    assertThat(r.route(HttpRequest.get("x", "/")).status()).isEqualTo(404);
  }

  @Test
  void ingressClass_defaultClass_newestWinsTiesByName_andAdmissionFillsIt() {
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    IngressClass older = new IngressClass(ObjectMeta.builder().name("a-old").creationTimestamp(t0)
        .annotation(IngressClass.DEFAULT_ANNOTATION, "true").build(), "x.io/c");
    IngressClass newerB = new IngressClass(ObjectMeta.builder().name("b-new").creationTimestamp(t0.plusSeconds(5))
        .annotation(IngressClass.DEFAULT_ANNOTATION, "true").build(), "x.io/c");
    IngressClass newerA = new IngressClass(ObjectMeta.builder().name("a-new").creationTimestamp(t0.plusSeconds(5))
        .annotation(IngressClass.DEFAULT_ANNOTATION, "true").build(), "x.io/c");
    IngressClass notDefault = new IngressClass(ObjectMeta.builder().name("c").creationTimestamp(t0.plusSeconds(9))
        .annotation(IngressClass.DEFAULT_ANNOTATION, "True").build(), "x.io/c");
    assertThat(IngressRouter.defaultClass(List.of(older, newerB, newerA, notDefault)).metadata().name())
        .isEqualTo("a-new");
    Ingress plain = Ingress.of(ObjectMeta.of("ns", "i"), new IngressSpec("", IngressBackend.of("s", 80), List.of(),
        List.of()));
    assertThat(IngressRouter.admit(plain, List.of(older)).spec().ingressClassName()).isEqualTo("a-old");
    Ingress legacy = plain.withMetadata(plain.metadata().toBuilder().annotation(Ingress.CLASS_ANNOTATION, "nginx")
        .build());
    assertThat(IngressRouter.admit(legacy, List.of(older)).spec().ingressClassName()).isEmpty();
  }

  // path_rules.feature: exact-path-rules, prefix-path-rules, mixed-path-rules, trailing-slash-path-rules
  @ParameterizedTest
  @CsvSource({
      "exact-path-rules, /foo, foo-exact", "exact-path-rules, /foo/, 404", "exact-path-rules, /FOO, 404",
      "exact-path-rules, /bar, 404",
      "prefix-path-rules, /foo, foo-prefix", "prefix-path-rules, /foo/, foo-prefix", "prefix-path-rules, /FOO, 404",
      "prefix-path-rules, /aaa/bbb, aaa-slash-bbb-prefix", "prefix-path-rules, /aaa/bbb/ccc, aaa-slash-bbb-prefix",
      "prefix-path-rules, /aaa/ccc, aaa-prefix", "prefix-path-rules, /aaaccc, 404",
      // the feature's second "should ignore the request trailing slash" scenario repeats the request
      "prefix-path-rules, /foo/, foo-prefix",
      "mixed-path-rules, /foo, foo-exact",
      "trailing-slash-path-rules, /aaa/bbb, aaa-slash-bbb-slash-prefix",
      "trailing-slash-path-rules, /aaa/bbb/, aaa-slash-bbb-slash-prefix", "trailing-slash-path-rules, /foo, 404",
  })
  void pathRules_exactPrefixPrecedence(String host, String path, String want) {
    IngressRouter r = router(
        ingress("exact-path-rules", null, List.of(), new IngressRule("exact-path-rules",
            List.of(path(PathType.Exact, "/foo", "foo-exact")))),
        ingress("prefix-path-rules", null, List.of(), new IngressRule("prefix-path-rules", List.of(
            path(PathType.Prefix, "/foo", "foo-prefix"), path(PathType.Prefix, "/aaa/bbb", "aaa-slash-bbb-prefix"),
            path(PathType.Prefix, "/aaa", "aaa-prefix")))),
        ingress("mixed-path-rules", null, List.of(), new IngressRule("mixed-path-rules", List.of(
            path(PathType.Prefix, "/foo", "foo-prefix"), path(PathType.Exact, "/foo", "foo-exact")))),
        ingress("trailing-slash-path-rules", null, List.of(), new IngressRule("trailing-slash-path-rules", List.of(
            path(PathType.Prefix, "/aaa/bbb/", "aaa-slash-bbb-slash-prefix"),
            path(PathType.Exact, "/foo/", "foo-slash-exact")))));
    assertThat(serviceFor(r, host, path)).isEqualTo(want);
  }

  // kubernetes/website ingress.md, "Examples" table of path matching: its 13 single-path rows (the two rows with
  // requests `/foo`, `/foo/` as two requests each); the four rows with several paths and the Mixed row below
  @ParameterizedTest
  @CsvSource({
      "Prefix, /, /aaa/bbb, true", "Exact, /foo, /foo, true", "Exact, /foo, /bar, false", "Exact, /foo, /foo/, false",
      "Exact, /foo/, /foo, false", "Prefix, /foo, /foo, true", "Prefix, /foo, /foo/, true", "Prefix, /foo/, /foo, true",
      "Prefix, /foo/, /foo/, true", "Prefix, /aaa/bb, /aaa/bbb, false", "Prefix, /aaa/bbb, /aaa/bbb, true",
      "Prefix, /aaa/bbb/, /aaa/bbb, true", "Prefix, /aaa/bbb, /aaa/bbb/, true", "Prefix, /aaa/bbb, /aaa/bbb/ccc, true",
      "Prefix, /aaa/bbb, /aaa/bbbxyz, false"})
  void docsTable_pathMatches(PathType type, String rule, String path, boolean want) {
    assertThat(IngressRouter.pathMatches(new HTTPIngressPath(rule, type, IngressBackend.of("s", 80)), path))
        .isEqualTo(want);
  }

  @Test
  void docsTable_longestPrefixAndDefaultBackend() {
    IngressRouter r = router(ingress("docs", IngressBackend.of("default", 8080), List.of(), new IngressRule("",
        List.of(path(PathType.Prefix, "/", "root"), path(PathType.Prefix, "/aaa", "aaa"),
            path(PathType.Prefix, "/aaa/bbb", "aaa-bbb")))));
    assertThat(serviceFor(r, "x", "/aaa/ccc")).isEqualTo("aaa");
    assertThat(serviceFor(r, "x", "/aaa/bbb")).isEqualTo("aaa-bbb");
    assertThat(serviceFor(r, "x", "/ccc")).isEqualTo("root");
    IngressRouter onlyAaa = router(ingress("docs2", IngressBackend.of("default", 8080), List.of(),
        new IngressRule("", List.of(path(PathType.Prefix, "/aaa", "aaa")))));
    assertThat(serviceFor(onlyAaa, "x", "/ccc")).isEqualTo("default");
    // Mixed: `/foo` (Prefix), `/foo` (Exact), request `/foo`: prefers Exact
    IngressRouter mixed = router(ingress("docs3", null, List.of(), new IngressRule("", List.of(
        path(PathType.Prefix, "/foo", "foo-prefix"), path(PathType.Exact, "/foo", "foo-exact")))));
    assertThat(serviceFor(mixed, "x", "/foo")).isEqualTo("foo-exact");
  }

  @Test
  void validation_badIngress_everyViolationNamed() {
    assertThatThrownBy(() -> Ingress.of(ObjectMeta.of("ns", "bad"), new IngressSpec("", null, List.of(), List.of(
        new IngressRule("*.*.foo.com", List.of(new HTTPIngressPath("foo", PathType.Exact,
            IngressBackend.of("svc", 0))))))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.rules[0].host \"*.*.foo.com\"")
        .hasMessageContaining("spec.rules[0].http.paths[0].path \"foo\" must be an absolute path")
        .hasMessageContaining("spec.rules[0].http.paths[0].backend.service.port.number \"0\"");
    assertThatThrownBy(() -> Ingress.of(ObjectMeta.of("ns", "empty"), new IngressSpec("", null, List.of(),
        List.of()))).hasMessageContaining("either `defaultBackend` or `rules` must be specified");
  }
}
