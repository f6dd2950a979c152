package io.fleetkit.api.gateway;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Gateway API kinds' constructor rules (the CRD schema and CEL rules), errors naming object and field. */
final class GatewayKindsTest {
  private static Gateway gateway(Listener... ls) {
    return new Gateway(ObjectMeta.of("infra", "g"), new GatewaySpec("c", List.of(ls)));
  }

  @Test
  void gateway_validListeners_accepted() {
    assertThatCode(() -> gateway(Listener.http("a", "", 80), Listener.http("b", "*.example.com", 80),
        new Listener("tls", "www.example.com", 443, "HTTPS", AllowedRoutes.SAME_NAMESPACE, List.of("cert")),
        new Listener("custom", "", 9000, "example.com/proto", AllowedRoutes.SAME_NAMESPACE, List.of())))
        .doesNotThrowAnyException();
  }

  @Test
  void gateway_everyViolationReportedAtOnce() {
    assertThatThrownBy(() -> gateway(Listener.http("a", "", 80), Listener.http("a", "", 81),
        new Listener("t", "", 82, "HTTP", AllowedRoutes.SAME_NAMESPACE, List.of("cert")),
        Listener.http("s", "", 83).withAllowedRoutes(new AllowedRoutes(FromNamespaces.Same, LabelSelector.EVERYTHING,
            List.of()))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Gateway infra/g")
        .hasMessageContaining("spec.listeners[1].name").hasMessageContaining("must be unique within the Gateway")
        .hasMessageContaining("spec.listeners[2].tls")
        .hasMessageContaining("spec.listeners[3].allowedRoutes.namespaces.selector");
  }

  @Test
  void gateway_noClassNoListeners_refused() {
    assertThatThrownBy(() -> new Gateway(ObjectMeta.of("infra", "g"), new GatewaySpec("", List.of())))
        .hasMessageContaining("spec.gatewayClassName").hasMessageContaining("spec.listeners");
  }

  @Test
  void gatewayClass_controllerNameMustBeDomainPrefixed() {
    assertThatThrownBy(() -> new GatewayClass(ObjectMeta.of("c"), "controller"))
        .hasMessageContaining("GatewayClass c: spec.controllerName");
    assertThatCode(() -> new GatewayClass(ObjectMeta.of("c"), "example.com/gateway")).doesNotThrowAnyException();
  }

  @Test
  void httpRoute_otherBackendKindNeedsNoPort_serviceDoes() {
    HTTPRouteRule bucket = new HTTPRouteRule(List.of(), List.of(new HTTPBackendRef("example.com", "Bucket", "b", "",
        null, 1)));
    assertThatCode(() -> new HTTPRoute(ObjectMeta.of("ns", "r"), new HTTPRouteSpec(List.of(), List.of(),
        List.of(bucket)))).doesNotThrowAnyException();
    HTTPRouteRule svc = new HTTPRouteRule(List.of(), List.of(new HTTPBackendRef("web", "", null, 1)));
    assertThatThrownBy(() -> new HTTPRoute(ObjectMeta.of("ns", "r"), new HTTPRouteSpec(List.of(), List.of(),
        List.of(svc)))).hasMessageContaining("spec.rules[0].backendRefs[0].port");
  }
}
