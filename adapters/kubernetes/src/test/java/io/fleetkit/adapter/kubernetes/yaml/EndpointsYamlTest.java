package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.core.Endpoints;
import io.fleetkit.api.core.ServiceProtocol;
import java.util.List;
import org.junit.jupiter.api.Test;

/** v1 Endpoints read from YAML and written back: every field, v1 defaulting, bad input named. */
final class EndpointsYamlTest {
  @Test
  void parse_networkingFixture_readsEveryField() {
    Endpoints e = (Endpoints) RoundTripTest.load("roundtrip/networking.yaml").stream()
        .filter(o -> o instanceof Endpoints).findFirst().orElseThrow();

    assertThat(e.metadata().key()).isEqualTo("shop/legacy-db");
    assertThat(e.metadata().labels()).containsEntry("team", "data");
    Endpoints.Subset s = e.subsets().get(0);
    Endpoints.Address a = s.addresses().get(0);
    assertThat(a.ip()).isEqualTo("192.0.2.10");
    assertThat(a.hostname()).isEqualTo("db-0");
    assertThat(a.nodeName()).isEqualTo("node-1");
    assertThat(a.targetRef().name()).isEqualTo("db-0");
    assertThat(a.targetRef().uid()).isEqualTo("u-9");
    assertThat(s.notReadyAddresses()).extracting(Endpoints.Address::ip).containsExactly("2001:db8::10");
    assertThat(s.ports()).containsExactly(new Endpoints.Port("sql", 5432, ServiceProtocol.TCP, ""),
        new Endpoints.Port("metrics", 9187, ServiceProtocol.UDP, "http"));
  }

  @Test
  void parse_portWithoutProtocol_isTcp() {
    Endpoints e = (Endpoints) KubernetesYaml.parse("""
        apiVersion: v1
        kind: Endpoints
        metadata: {name: db, namespace: default}
        subsets: [{addresses: [{ip: 10.0.0.1}], ports: [{port: 5432}]}]
        """, "e.yaml").objects().get(0);

    assertThat(e.subsets().get(0).ports().get(0).protocol()).isEqualTo(ServiceProtocol.TCP);
    assertThat(KubernetesYaml.dump(List.of(e))).doesNotContain("protocol");
  }

  /** validation_test.go TestValidateEndpointsCreate "Invalid protocol", through the manifest reader. */
  @Test
  void parse_unknownProtocol_refusedNamingTheField() {
    ManifestException ex = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: v1
        kind: Endpoints
        metadata: {name: mysvc, namespace: namespace}
        subsets: [{addresses: [{ip: 10.10.1.1}], ports: [{name: a, port: 93, protocol: Protocol}]}]
        """, "e.yaml"));

    assertThat(ex.getMessage()).contains("subsets[0].ports[0].protocol").contains("must be one of TCP, UDP, SCTP")
        .contains("Protocol");
  }

  @Test
  void parse_invalidAddress_refusedNamingObjectFieldAndRule() {
    ManifestException ex = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: v1
        kind: Endpoints
        metadata: {name: mysvc, namespace: namespace}
        subsets: [{addresses: [{ip: 127.0.0.1}], ports: [{port: 93}]}]
        """, "e.yaml"));

    assertThat(ex.getMessage()).contains("Endpoints namespace/mysvc").contains("subsets[0].addresses[0].ip")
        .contains("may not be in the loopback range");
  }

  /**
   * An address with leading zeros loads, as the API server accepts the legacy field, with its warning
   * ({@code endpointsWarnings}: {@code GetWarningsForIP}) at the address's field and line; an IPv4-mapped address
   * likewise. The object keeps the address as written.
   */
  @Test
  void parse_nonStandardAddresses_loadWithTheApiServersWarnings() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: v1
        kind: Endpoints
        metadata: {name: db, namespace: default}
        subsets:
        - addresses:
          - ip: 10.0.0.1
          - ip: 010.000.000.002
          notReadyAddresses:
          - ip: "::ffff:10.0.0.3"
          ports: [{port: 5432}]
        """, "e.yaml");

    Endpoints e = (Endpoints) loaded.objects().get(0);
    assertThat(e.subsets().get(0).addresses()).extracting(Endpoints.Address::ip)
        .containsExactly("10.0.0.1", "010.000.000.002");
    assertThat(loaded.warnings()).extracting(w -> w.violation().object(), w -> w.violation().field(),
        w -> w.violation().rule(), ManifestProblem::line).containsExactly(
            org.assertj.core.groups.Tuple.tuple("Endpoints default/db", "subsets[0].addresses[1].ip",
                "non-standard IP address \"010.000.000.002\" will be considered invalid in a future Kubernetes "
                    + "release: use \"10.0.0.2\"", 7),
            org.assertj.core.groups.Tuple.tuple("Endpoints default/db", "subsets[0].notReadyAddresses[0].ip",
                "non-standard IP address \"::ffff:10.0.0.3\" will be considered invalid in a future Kubernetes "
                    + "release: use \"10.0.0.3\"", 9));
  }

  /** The endpoints controller's own objects are not checked for non-standard addresses, as upstream skips them. */
  @Test
  void parse_controllerManagedEndpoints_haveNoAddressWarnings() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: v1
        kind: Endpoints
        metadata:
          name: db
          namespace: default
          labels: {endpoints.kubernetes.io/managed-by: endpoint-controller}
        subsets: [{addresses: [{ip: 010.0.0.2}], ports: [{port: 5432}]}]
        """, "e.yaml");

    assertThat(loaded.objects()).hasSize(1);
    assertThat(loaded.warnings()).isEmpty();
  }
}
