package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ServiceTest {
  private static final ObjectMeta META = ObjectMeta.of("default", "web");

  private static List<Violation> violations(Runnable r) {
    return catchThrowableOfType(ValidationException.class, r::run).violations();
  }

  /** Digits of other scripts are no number: "\u0668\u0660" was port 80 (Integer.parseInt reads every script). */
  @Test
  void targetPort_digitsOfOtherScripts_aNameNotANumber() {
    assertThat(ServiceTargetPort.parse("8080")).isEqualTo(ServiceTargetPort.of(8080));
    ServiceTargetPort p = ServiceTargetPort.parse("\u0668\u0660");
    assertThat(p.isNamed()).isTrue();
    assertThat(p).isEqualTo(ServiceTargetPort.named("\u0668\u0660"));
  }

  @Test
  void builder_defaults_clusterIpWithoutAffinity() {
    Service s = Service.of(META, ServiceSpec.builder().selector("app", "web").port(ServicePort.of(80)).build());

    assertThat(s.spec().type()).isEqualTo(ServiceType.ClusterIP);
    assertThat(s.spec().sessionAffinity()).isEqualTo(SessionAffinity.None);
    assertThat(s.spec().ports().get(0).targetPort()).isEqualTo(ServiceTargetPort.of(80));
    assertThat(s.spec().ports().get(0).protocol()).isEqualTo(ServiceProtocol.TCP);
    assertThat(s.status()).isEqualTo(ServiceStatus.EMPTY);
    assertThat(s.apiVersion()).isEqualTo("v1");
    assertThat(s.namespaced()).isTrue();
  }

  @Test
  void constructor_badPortsAndNames_reportsEveryViolationAtOnce() {
    ServiceSpec spec = ServiceSpec.builder()
        .port(ServicePort.of("http", 0, 8080))
        .port(ServicePort.of("http", 70000, "web--port"))
        .port(ServicePort.of(443))
        .build();

    List<Violation> v = violations(() -> Service.of(ObjectMeta.of("default", "1web"), spec));

    assertThat(v).extracting(Violation::field).containsExactly(
        "metadata.name",
        "spec.ports[0].port",
        "spec.ports[1].name",
        "spec.ports[1].port",
        "spec.ports[1].targetPort",
        "spec.ports[2].name");
    assertThat(v.get(1).rule()).isEqualTo("must be between 1 and 65535, inclusive");
    assertThat(v.get(2).rule()).isEqualTo("Duplicate value");
    assertThat(v.get(4).rule()).isEqualTo("must not contain consecutive hyphens");
    assertThat(v.get(5).rule()).isEqualTo("Required value");
    assertThat(v.get(0).rule()).startsWith("a DNS-1035 label must consist of");
    assertThat(v).allMatch(x -> x.object().equals("Service default/1web"));
  }

  @Test
  void constructor_singleUnnamedPort_isValid() {
    assertThat(Service.of(META, ServiceSpec.builder().port(ServicePort.of(80)).build()).spec().ports()).hasSize(1);
  }

  @Test
  void constructor_nodePortOnClusterIp_rejected() {
    ServiceSpec spec = ServiceSpec.builder().port(ServicePort.of(80).withNodePort(30080)).build();

    assertThat(violations(() -> Service.of(META, spec))).singleElement()
        .satisfies(x -> assertThat(x.toString())
            .isEqualTo("Service default/web: spec.ports[0].nodePort \"30080\" may not be used when `type` is "
                + "'ClusterIP'"));
  }

  @Test
  void constructor_nodePortOnNodePortService_accepted() {
    ServiceSpec spec = ServiceSpec.builder().type(ServiceType.NodePort)
        .port(ServicePort.of(80).withNodePort(30080)).build();

    assertThat(Service.of(META, spec).spec().ports().get(0).nodePort()).isEqualTo(30080);
  }

  @Test
  void constructor_noPorts_requiredUnlessHeadless() {
    assertThat(violations(() -> Service.of(META, ServiceSpec.builder().build())))
        .extracting(Violation::field).containsExactly("spec.ports");
    assertThat(Service.of(META, ServiceSpec.builder().headless().build()).spec().headless()).isTrue();
  }

  @Test
  void constructor_samePortTwiceWithSameProtocol_rejected() {
    ServiceSpec spec = ServiceSpec.builder().port(ServicePort.of("a", 80, 80)).port(ServicePort.of("b", 80, 81))
        .port(ServicePort.of("c", 80, 82).withProtocol(ServiceProtocol.UDP)).build();

    assertThat(violations(() -> Service.of(META, spec))).extracting(Violation::field).containsExactly("spec.ports[1]");
  }

  @Test
  void constructor_clusterIp_mustBeEmptyNoneOrIp() {
    assertThat(Service.of(META, ServiceSpec.builder().port(ServicePort.of(80)).clusterIP("10.0.0.1").build()))
        .isNotNull();
    assertThat(Service.of(META, ServiceSpec.builder().port(ServicePort.of(80)).clusterIP("fd00::1").build()))
        .isNotNull();
    assertThat(violations(() -> Service.of(META,
        ServiceSpec.builder().port(ServicePort.of(80)).clusterIP("10.0.0.300").build())))
        .extracting(Violation::field).containsExactly("spec.clusterIP");
    assertThat(violations(() -> Service.of(META,
        ServiceSpec.builder().type(ServiceType.LoadBalancer).port(ServicePort.of(80)).headless().build())))
        .extracting(Violation::field).containsExactly("spec.clusterIP");
  }

  @Test
  void targetPort_parse_numberOrName() {
    assertThat(ServiceTargetPort.parse("8080")).isEqualTo(ServiceTargetPort.of(8080));
    assertThat(ServiceTargetPort.parse("http")).isEqualTo(ServiceTargetPort.named("http"));
    assertThat(ServiceTargetPort.named("http").toString()).isEqualTo("http");
    assertThatThrownBy(() -> new ServiceTargetPort(80, "http")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not both");
  }

  @Test
  void withStatusOf_takesOnlyTheOtherStatus() {
    Service mine = Service.of(META, ServiceSpec.builder().port(ServicePort.of(80)).build());
    Service other = Service.of(ObjectMeta.of("default", "web").withResourceVersion("7"),
        ServiceSpec.builder().type(ServiceType.LoadBalancer).port(ServicePort.of(443)).build())
        .withStatus(new ServiceStatus(new LoadBalancerStatus(List.of(LoadBalancerIngress.ofIp("1.2.3.4")))));

    Service merged = mine.withStatusOf(other);

    assertThat(merged.status()).isEqualTo(other.status());
    assertThat(merged.spec()).isEqualTo(mine.spec());
    assertThat(merged.metadata()).isEqualTo(mine.metadata());
  }
}
