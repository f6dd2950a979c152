package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.ListenerStatus;
import io.fleetkit.api.gateway.ParentReference;
import io.fleetkit.api.gateway.RouteGroupKind;
import io.fleetkit.api.gateway.RouteParentStatus;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * GatewayClass, Gateway and HTTPRoute {@code status} through the YAML loader and writer, in the form
 * {@code kubectl get -o yaml} prints it (the fixture is in that form): read, written, round-tripped, and bad status
 * refused with the object and field named.
 */
final class GatewayStatusYamlTest {
  private static final Instant T0 = Instant.parse("2026-03-01T08:00:00Z");

  private static LoadedObjects fixture() {
    return KubernetesYaml.parse(RoundTripTest.resource("roundtrip/gateway-status.yaml"), "gateway-status.yaml");
  }

  @Test
  void parse_gatewayClassStatus_readsConditions() {
    GatewayClass c = fixture().ofType(GatewayClass.class).get(0);
    assertThat(c.status().conditions()).containsExactly(
        new Condition("Accepted", ConditionStatus.True, 1, T0, "Accepted", ""),
        new Condition("SupportedVersion", ConditionStatus.True, 1, T0, "SupportedVersion",
            "Gateway API bundle version v1.3.0 is supported"));
  }

  @Test
  void parse_gatewayStatus_readsConditionsAndListeners() {
    Gateway g = fixture().ofType(Gateway.class).get(0);
    assertThat(g.status().conditions()).containsExactly(
        new Condition("Accepted", ConditionStatus.True, 2, T0, "ListenersNotValid",
            "some listeners are not accepted"),
        new Condition("Programmed", ConditionStatus.True, 2, T0.plusSeconds(5), "Programmed", ""));
    assertThat(g.status().listeners()).extracting(ListenerStatus::name).containsExactly("http", "https", "tcp");
    ListenerStatus http = g.status().listener("http");
    assertThat(http.attachedRoutes()).isEqualTo(2);
    assertThat(http.supportedKinds()).containsExactly(RouteGroupKind.of("HTTPRoute"));
    assertThat(http.conditions()).extracting(Condition::type).containsExactly("Accepted", "Programmed");
    ListenerStatus https = g.status().listener("https");
    // an unset group is the API's default, as the CRD defaults it
    assertThat(https.supportedKinds()).containsExactly(new RouteGroupKind("gateway.networking.k8s.io", "HTTPRoute"));
    assertThat(https.condition("ResolvedRefs")).isEqualTo(new Condition("ResolvedRefs", ConditionStatus.False, 2, T0,
        "InvalidCertificateRef", "certificate Secret infra/missing-cert not found"));
    ListenerStatus tcp = g.status().listener("tcp");
    assertThat(tcp.attachedRoutes()).isZero();
    assertThat(tcp.supportedKinds()).isEmpty();
    assertThat(tcp.condition("Accepted").reason()).isEqualTo("UnsupportedProtocol");
  }

  @Test
  void parse_httpRouteStatus_readsParentsOfEveryController() {
    HTTPRoute r = fixture().ofType(HTTPRoute.class).get(0);
    assertThat(r.status().parents()).hasSize(2);
    ParentReference http = new ParentReference("edge", "infra", "http");
    // the status parentRef is read as a spec parentRef is: the same reference finds its entry
    assertThat(r.spec().parentRefs().get(0)).isEqualTo(http);
    RouteParentStatus ours = r.status().parent(http, "fleetkit.io/gateway-controller");
    assertThat(ours).isNotNull();
    assertThat(ours.conditions()).containsExactly(
        new Condition("Accepted", ConditionStatus.True, 3, T0, "Accepted", "attached to listeners [http]"),
        new Condition("ResolvedRefs", ConditionStatus.False, 3, T0.plusSeconds(60), "BackendNotFound",
            "Service shop/cart not found"));
    ParentReference https = new ParentReference("gateway.networking.k8s.io", "Gateway", "edge", "infra", "", 443);
    RouteParentStatus theirs = r.status().parent(https, "example.com/other-controller");
    assertThat(theirs).isNotNull();
    assertThat(theirs.condition("Accepted")).as("observedGeneration absent is 0")
        .isEqualTo(new Condition("Accepted", ConditionStatus.True, 0, T0, "Accepted", ""));
    assertThat(r.status().parentsFor("shop", "infra", "edge")).hasSize(2);
  }

  @Test
  void dump_routeStatus_printedAsKubectlDoes() {
    String yaml = KubernetesYaml.dump(fixture().ofType(HTTPRoute.class));
    assertThat(yaml).endsWith("""
        status:
          parents:
          - conditions:
            - lastTransitionTime: "2026-03-01T08:00:00Z"
              message: "attached to listeners [http]"
              observedGeneration: 3
              reason: "Accepted"
              status: "True"
              type: "Accepted"
            - lastTransitionTime: "2026-03-01T08:01:00Z"
              message: "Service shop/cart not found"
              observedGeneration: 3
              reason: "BackendNotFound"
              status: "False"
              type: "ResolvedRefs"
            controllerName: "fleetkit.io/gateway-controller"
            parentRef:
              name: "edge"
              namespace: "infra"
              sectionName: "http"
          - conditions:
            - lastTransitionTime: "2026-03-01T08:00:00Z"
              message: ""
              reason: "Accepted"
              status: "True"
              type: "Accepted"
            controllerName: "example.com/other-controller"
            parentRef:
              kind: "Gateway"
              group: "gateway.networking.k8s.io"
              name: "edge"
              namespace: "infra"
              port: 443
        """);
  }

  @Test
  void dump_listenerStatus_printsAttachedRoutesZeroAndTheDefaultGroup() {
    String yaml = KubernetesYaml.dump(fixture().ofType(Gateway.class));
    assertThat(yaml).contains("""
          - attachedRoutes: 1
            conditions:
            - lastTransitionTime: "2026-03-01T08:00:00Z"
              message: "certificate Secret infra/missing-cert not found"
              observedGeneration: 2
              reason: "InvalidCertificateRef"
              status: "False"
              type: "ResolvedRefs"
            name: "https"
            supportedKinds:
            - kind: "HTTPRoute"
              group: "gateway.networking.k8s.io"
          - attachedRoutes: 0
        """);
  }

  /**
   * A listener that supports no route kind (kubernetes-sigs/gateway-api {@code conformance/tests/
   * gateway-invalid-route-kind.go} at 4564255ac2c35d582249b3cdf261bdf51c8bca32 expects {@code SupportedKinds:
   * []v1.RouteGroupKind{}}) is written with {@code supportedKinds: []}, as a Go controller's empty list is printed
   * ({@code omitzero}), which CRDs before v1.5 require; read back it is the same empty list.
   */
  @Test
  void dump_listenerWithoutSupportedKinds_printsAnEmptyList() {
    Gateway g = fixture().ofType(Gateway.class).get(0);
    String yaml = KubernetesYaml.dump(List.of(g));
    assertThat(yaml).endsWith("""
            name: "tcp"
            supportedKinds: []
        """);
    assertThat(yaml.split("supportedKinds:", -1)).as("one per listener").hasSize(4);
    Gateway back = KubernetesYaml.parse(yaml, "g.yaml").ofType(Gateway.class).get(0);
    assertThat(back.status().listener("tcp").supportedKinds()).isEmpty();
    assertThat(back).isEqualTo(g);
  }

  @Test
  void dumpThenParse_objectsWithStatus_givesEqualObjects() {
    LoadedObjects first = fixture();
    String yaml = KubernetesYaml.dump(first.objects());
    LoadedObjects second = KubernetesYaml.parse(yaml, "dumped");
    assertThat(second.objects()).as(yaml).isEqualTo(first.objects());
    assertThat(KubernetesYaml.dump(second.objects())).isEqualTo(yaml);
  }

  @Test
  void dump_withoutStatus_writesNoStatus() {
    LoadedObjects plain = KubernetesYaml.parse(RoundTripTest.resource("roundtrip/gateway.yaml"), "gateway.yaml");
    assertThat(KubernetesYaml.dump(plain.objects())).doesNotContain("status:");
  }

  @Test
  void dump_conditionWithoutTimeOrGeneration_leavesThemOut() {
    GatewayClass c = fixture().ofType(GatewayClass.class).get(0).withStatus(new io.fleetkit.api.gateway
        .GatewayClassStatus(List.of(Condition.of("Accepted", ConditionStatus.Unknown, "Pending", "Waiting"))));
    String yaml = KubernetesYaml.dump(List.of(c));
    assertThat(yaml).endsWith("""
        status:
          conditions:
          - message: "Waiting"
            reason: "Pending"
            status: "Unknown"
            type: "Accepted"
        """);
    assertThat(KubernetesYaml.parse(yaml, "c.yaml").objects()).containsExactly(c);
  }

  private static final String GW = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: g, namespace: infra}
      spec:
        gatewayClassName: c
        listeners: [{name: a, port: 80, protocol: HTTP}]
      status:
      """;

  private static final String ROUTE = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: r, namespace: shop}
      spec:
        parentRefs: [{name: g}]
      status:
      """;

  private static final String CLASS = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: c}
      spec: {controllerName: example.com/c}
      status:
      """;

  /** Each row: the kind (G, R, C), one line of its {@code status} (indented by the test), the error expected. */
  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '|', value = {
      "G|conditions: [{type: Accepted, status: Maybe, reason: A, message: ''}]"
          + "| Gateway infra/g: status.conditions[0].status",
      "G|conditions: [{status: 'True', reason: A, message: ''}]"
          + "| Gateway infra/g: status.conditions[0].type",
      "G|conditions: [{type: Accepted, status: 'True'}, {type: Accepted, status: 'False'}]"
          + "| status.conditions[1].type",
      "G|conditions: [{type: Accepted, status: 'True', observedGeneration: -1}]"
          + "| status.conditions[0].observedGeneration",
      "G|conditions: [{type: Accepted, status: 'True', lastTransitionTime: yesterday}]"
          + "| status.conditions[0].lastTransitionTime",
      "G|listeners: [{name: a, attachedRoutes: -1}]"
          + "| status.listeners[0].attachedRoutes",
      "G|listeners: [{name: a}]"
          + "| status.listeners[0].attachedRoutes",
      "G|listeners: [{name: a, attachedRoutes: 0}, {name: a, attachedRoutes: 1}]"
          + "| status.listeners[1].name",
      "G|listeners: [{attachedRoutes: 0}]"
          + "| status.listeners[0].name",
      "G|listeners: [{name: a, attachedRoutes: 0, supportedKinds: [{group: gateway.networking.k8s.io}]}]"
          + "| status.listeners[0].supportedKinds[0].kind",
      "G|listeners: [{name: a, attachedRoutes: 0, conditions: [{type: Accepted, status: 'yes'}]}]"
          + "| status.listeners[0].conditions[0].status",
      "R|parents: [{parentRef: {name: g}}]"
          + "| HTTPRoute shop/r: status.parents[0].controllerName",
      "R|parents: [{controllerName: example.com/c}]"
          + "| status.parents[0].parentRef",
      "R|parents: [{controllerName: example.com/c, parentRef: {namespace: x}}]"
          + "| status.parents[0].parentRef.name",
      "R|parents: [{controllerName: example.com/c, parentRef: {name: g}}, {controllerName: example.com/c, parentRef: {name: g}}]"
          + "| status.parents[1]",
      "R|parents: [{controllerName: example.com/c, parentRef: {name: g}, conditions: [{type: Accepted}]}]"
          + "| status.parents[0].conditions[0].status",
      "C|conditions: [{type: Accepted, status: 'True'}, {type: Accepted, status: 'True'}]"
          + "| GatewayClass c: status.conditions[1].type",
  })
  void parse_badStatus_errorNamesObjectAndField(String kind, String status, String expected) {
    String head = switch (kind) {
      case "G" -> GW;
      case "R" -> ROUTE;
      default -> CLASS;
    };
    Throwable t = catchThrowable(() -> KubernetesYaml.parse(head + "  " + status + "\n", "s.yaml"));
    assertThat(t).isInstanceOf(ManifestException.class).hasMessageContaining(expected);
  }

  @Test
  void parse_statusPartsNotModelled_areLeftOut() {
    // what a real cluster's dump carries and FleetKit's controllers do not write: read past, not kept, not written
    LoadedObjects gl = KubernetesYaml.parse(GW + "  addresses: [{type: IPAddress, value: 10.0.0.1}]\n"
        + "  attachedListenerSets: 2\n", "s.yaml");
    Gateway g = (Gateway) gl.objects().get(0);
    assertThat(KubernetesYaml.dump(List.of(g))).doesNotContain("10.0.0.1").doesNotContain("attachedListenerSets");
    LoadedObjects cl = KubernetesYaml.parse(CLASS + "  supportedFeatures: [{name: HTTPRoute}]\n", "s.yaml");
    GatewayClass c = (GatewayClass) cl.objects().get(0);
    assertThat(KubernetesYaml.dump(List.of(c))).doesNotContain("supportedFeatures");
    // ...and the load says so: nothing else is in these statuses, so the whole status is the path ignored
    assertThat(gl.warnings()).extracting(w -> w.violation().field() + " " + w.violation().rule())
        .containsExactly("status " + LoadedObjects.NOT_MODELLED);
    assertThat(cl.warnings()).extracting(w -> w.violation().field()).containsExactly("status");
  }

  @Test
  void parse_sameParentRefOfTwoControllers_bothKept() {
    String yaml = ROUTE + """
          parents:
          - {controllerName: example.com/a, parentRef: {name: g}}
          - {controllerName: example.com/b, parentRef: {name: g}}
        """;
    HTTPRoute r = KubernetesYaml.parse(yaml, "r.yaml").ofType(HTTPRoute.class).get(0);
    assertThat(r.status().parents()).extracting(RouteParentStatus::controllerName)
        .containsExactly("example.com/a", "example.com/b");
  }
}
