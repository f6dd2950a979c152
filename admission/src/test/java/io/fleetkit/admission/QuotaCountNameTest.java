package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link QuotaEvaluator#countName}: the {@code count/<resource>} name of each kind, as the API server names it. */
final class QuotaCountNameTest {

  /** Only its kind and apiVersion matter to the count name. */
  private record Kind(String kind, String apiVersion) implements ApiObject<Kind> {
    @Override
    public boolean namespaced() {
      return true;
    }

    @Override
    public ObjectMeta metadata() {
      return ObjectMeta.of("ns", "x");
    }

    @Override
    public Kind withMetadata(ObjectMeta metadata) {
      return this;
    }

    @Override
    public Object spec() {
      return "";
    }

    @Override
    public Object status() {
      return "";
    }

    @Override
    public Kind withStatusOf(Kind other) {
      return this;
    }
  }

  @ParameterizedTest
  @CsvSource({
      "Pod, v1, count/pods",
      "Endpoints, v1, count/endpoints",
      "Service, v1, count/services",
      "Ingress, networking.k8s.io/v1, count/ingresses.networking.k8s.io",
      "PodDisruptionBudget, policy/v1, count/poddisruptionbudgets.policy",
      "Gateway, gateway.networking.k8s.io/v1, count/gateways.gateway.networking.k8s.io",
      "Policy, example.com/v1, count/policies.example.com",
      "EndpointSlice, discovery.k8s.io/v1, count/endpointslices.discovery.k8s.io"})
  void countName_followsTheApiServersResourceNames(String kind, String apiVersion, String expected) {
    assertThat(QuotaEvaluator.countName(new Kind(kind, apiVersion))).isEqualTo(expected);
  }

  /** A ReplicationController is charged under its count name and its legacy one ({@code replicationcontrollers}). */
  @org.junit.jupiter.api.Test
  void usage_replicationController_countAndLegacyName() {
    io.fleetkit.api.core.ReplicationController rc = io.fleetkit.api.core.ReplicationController.builder()
        .namespace("ns").name("web").template(java.util.Map.of("app", "web"), io.fleetkit.api.core.PodSpec
            .builder().container("c", "img", io.fleetkit.api.resource.ResourceList.EMPTY).build()).build();
    io.fleetkit.api.resource.ResourceList u = QuotaEvaluator.usage(rc, java.time.Instant.EPOCH);
    assertThat(u.has("count/replicationcontrollers")).isTrue();
    assertThat(u.has("replicationcontrollers")).isTrue();
  }
}
