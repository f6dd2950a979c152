package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.PodSpecChecks;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.spi.UpdateChecks;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.hostNetwork}: the host-network rows of {@code TestValidatePodSpec} in kubernetes
 * {@code pkg/apis/core/validation/validation_test.go} (commit 000f26050b9be6fb3d79fae95e06b47fc96128cd), 4 of 4
 * ("populate HostNetwork", "populate HostAliases with HostNetwork", "with hostNetwork hostPort unspecified", "with
 * hostNetwork hostPort not equal to containerPort"; upstream runs them with {@code ResourceIsPod}, so do these, and
 * asserts only that an error exists: its field and value are asserted here), the rule of
 * {@code validatePodHostNetworkDeps} for templates, and {@code SetDefaults_Pod}'s {@code defaultHostNetworkPorts}
 * ({@code pkg/apis/core/v1/defaults.go}).
 */
final class PodHostNetworkTest {

  private static Container ctr(ContainerPort... ports) {
    return new Container("ctr", "img", ResourceRequirements.NONE, List.of(ports), List.of(), null);
  }

  private static List<Violation> specViolations(PodSpec spec, boolean resourceIsPod) {
    Violations v = Violations.forObject("Pod", ObjectMeta.of("ns", "p"));
    PodSpecChecks.check(spec, "spec", resourceIsPod, v);
    try {
      v.throwIfAny();
      return List.of();
    } catch (ValidationException e) {
      return e.violations();
    }
  }

  @Test
  void populateHostNetwork_andHostAliasesWithHostNetwork_areValid() {
    PodSpec hostNet = PodSpec.builder().container(ctr(new ContainerPort("", 8080, "TCP", 8080))).hostNetwork(true)
        .build();
    assertThat(specViolations(hostNet, true)).as("populate HostNetwork").isEmpty();
    PodSpec aliases = PodSpec.builder().container(ctr()).hostNetwork(true)
        .hostAlias(HostAlias.of("12.34.56.78", "host1.foo", "host2.bar")).build();
    assertThat(specViolations(aliases, true)).as("populate HostAliases with HostNetwork").isEmpty();
  }

  @Test
  void hostPortUnspecified_isRefusedInAPodSpec_andAllowedInATemplate() {
    PodSpec spec = PodSpec.builder().container(ctr(new ContainerPort("", 2600, "TCP", 0))).hostNetwork(true).build();
    assertThat(specViolations(spec, true)).as("with hostNetwork hostPort unspecified")
        .extracting(Violation::field, Violation::value)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.containers[0].ports[0].hostPort", "0"));
    assertThat(specViolations(spec, false)).as("a template leaves it to the pods' defaulting").isEmpty();
  }

  @Test
  void hostPortNotEqualToContainerPort_isRefusedInPodsAndTemplates() {
    PodSpec spec = PodSpec.builder().container(ctr(new ContainerPort("", 2600, "TCP", 8080))).hostNetwork(true)
        .build();
    for (boolean isPod : new boolean[] {true, false}) {
      assertThat(specViolations(spec, isPod)).as("with hostNetwork hostPort not equal to containerPort")
          .singleElement().satisfies(v -> {
            assertThat(v.field()).isEqualTo("spec.containers[0].ports[0].hostPort");
            assertThat(v.value()).isEqualTo("8080");
            assertThat(v.rule()).isEqualTo("must match `containerPort` when `hostNetwork` is true");
          });
    }
    assertThatThrownBy(() -> Pod.builder().namespace("ns").name("p").container(ctr(new ContainerPort("", 2600,
        "TCP", 8080))).hostNetwork(true).build()).isInstanceOf(ValidationException.class)
        .hasMessageContaining("Pod ns/p").hasMessageContaining("spec.containers[0].ports[0].hostPort");
  }

  @Test
  void aPod_getsItsHostPortsFromItsContainerPorts_asSetDefaultsPod() {
    Container sidecar = new Container("side", "img", ResourceRequirements.NONE,
        List.of(new ContainerPort("metrics", 9100, "TCP", 0)), List.of(), ContainerRestartPolicy.Always);
    Pod pod = Pod.builder().namespace("ns").name("p")
        .container(ctr(new ContainerPort("http", 80, "TCP", 0), new ContainerPort("dns", 53, "UDP", 53)))
        .initContainer(sidecar).hostNetwork(true).build();
    assertThat(pod.spec().containers().get(0).ports()).extracting(ContainerPort::hostPort).containsExactly(80, 53);
    assertThat(pod.spec().initContainers().get(0).ports()).extracting(ContainerPort::hostPort).containsExactly(9100);
    assertThat(pod.spec().containers().get(0).ports().get(0).name()).isEqualTo("http");
    PodSpec defaulted = pod.spec();
    assertThat(defaulted.withHostNetworkPortsDefaulted()).as("nothing left to default").isSameAs(defaulted);
  }

  @Test
  void withoutHostNetwork_portsAreLeftAlone_andTemplatesAreNotDefaulted() {
    Pod pod = Pod.builder().namespace("ns").name("p").container(ctr(new ContainerPort("", 80, "TCP", 0))).build();
    assertThat(pod.spec().containers().get(0).ports().get(0).hostPort()).isZero();
    PodSpec template = PodSpec.builder().container(ctr(new ContainerPort("", 80, "TCP", 0))).hostNetwork(true)
        .build();
    assertThat(template.containers().get(0).ports().get(0).hostPort()).as("a PodSpec is not a pod").isZero();
  }

  @Test
  void hostNetwork_isKeptByTheBuilderAndWithers_andIsImmutableOnUpdate() {
    Pod pod = Pod.builder().namespace("ns").name("p").container(ctr()).hostNetwork(true).build();
    assertThat(pod.spec().toBuilder().build()).isEqualTo(pod.spec());
    assertThat(pod.spec().withNodeName("n1").hostNetwork()).isTrue();
    assertThat(pod.spec().withPriority(3).withServiceAccountName("a").hostNetwork()).isTrue();
    Pod changed = new Pod(pod.metadata(), pod.spec().toBuilder().hostNetwork(false).build(), pod.status());
    assertThatThrownBy(() -> UpdateChecks.update(pod, changed, false)).isInstanceOf(ValidationException.class)
        .hasMessageContaining("hostNetwork");
  }
}
