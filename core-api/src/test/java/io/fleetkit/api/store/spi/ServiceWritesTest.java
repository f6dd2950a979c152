package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.IPFamilyPolicy;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceTargetPort;
import io.fleetkit.api.core.ServiceTrafficPolicy;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * An update that puts back the manifest a Service was made from keeps what the cluster allocated, as Kubernetes'
 * Service registry's {@code patchAllocatedValues} ({@code pkg/registry/core/service/storage/storage.go}) and the
 * policy inference of {@code initIPFamilyFields} on update.
 */
final class ServiceWritesTest {
  private static ServicePort port(String name, int port, @Nullable Integer nodePort) {
    return new ServicePort(name, ServiceProtocol.TCP, port, ServiceTargetPort.of(8080), nodePort, "");
  }

  private static Service service(ServiceSpec.Builder spec) {
    return Service.of(ObjectMeta.builder().namespace("shop").name("web").build(), spec.build());
  }

  /** The manifest: a LoadBalancer with local traffic, nothing allocated. */
  private static ServiceSpec.Builder manifest() {
    return ServiceSpec.builder().selector("app", "web").type(ServiceType.LoadBalancer)
        .externalTrafficPolicy(ServiceTrafficPolicy.Local)
        .ports(List.of(port("http", 80, null), port("https", 443, null)));
  }

  /** The same Service as the cluster allocated it. */
  private static ServiceSpec.Builder allocated() {
    return manifest().clusterIP("10.96.0.7").clusterIPs(List.of("10.96.0.7")).ipFamilies(List.of(IPFamily.IPv4))
        .ipFamilyPolicy(IPFamilyPolicy.SingleStack).healthCheckNodePort(32001)
        .ports(List.of(port("http", 80, 30080), port("https", 443, 30443)));
  }

  @Test
  void theManifestPutBack_keepsEveryAllocatedValue() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      store.create(service(allocated()));
      Service back = store.update(service(manifest()));
      assertThat(back.spec()).isEqualTo(allocated().build());
    }
  }

  @Test
  void aNodePortTheUpdateGivesAnotherPort_isNotPatchedIn_andAChangedTypeKeepsOnlyWhatItStillNeeds() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      store.create(service(allocated()));
      // https now asks for http's old node port: http does not get it back, upstream's "used" set
      Service moved = store.update(service(manifest().ports(List.of(port("http", 80, null),
          port("https", 443, 30080)))));
      assertThat(moved.spec().ports()).containsExactly(port("http", 80, null), port("https", 443, 30080));
      assertThat(moved.spec().clusterIP()).isEqualTo("10.96.0.7");
      // to ClusterIP: the cluster IP is kept; node ports and the health-check port are not needed and not patched
      Service cluster = store.update(service(ServiceSpec.builder().selector("app", "web").type(ServiceType.ClusterIP)
          .ports(List.of(port("http", 80, null)))));
      assertThat(cluster.spec().clusterIPs()).containsExactly("10.96.0.7");
      assertThat(cluster.spec().ipFamilies()).containsExactly(IPFamily.IPv4);
      assertThat(cluster.spec().ipFamilyPolicy()).isEqualTo(IPFamilyPolicy.SingleStack);
      assertThat(cluster.spec().ports()).containsExactly(port("http", 80, null));
      assertThat(cluster.spec().healthCheckNodePort()).isNull();
    }
  }

  @Test
  void headless_itsFamilyKept() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      ServiceSpec.Builder manifest = ServiceSpec.builder().selector("app", "db").headless()
          .ports(List.of(port("sql", 5432, null)));
      Service made = store.create(service(manifest().clusterIP("None").clusterIPs(List.of("None"))
          .ipFamilies(List.of(IPFamily.IPv4)).ipFamilyPolicy(IPFamilyPolicy.SingleStack)
          .type(ServiceType.ClusterIP).externalTrafficPolicy(ServiceTrafficPolicy.Cluster).selector("app", "db")
          .ports(List.of(port("sql", 5432, null)))));
      Service back = store.update(service(manifest));
      assertThat(back.spec().ipFamilies()).containsExactly(IPFamily.IPv4);
      assertThat(back.spec().clusterIPs()).containsExactly("None");
      assertThat(back.metadata().resourceVersion()).isEqualTo(made.metadata().resourceVersion()); // nothing changed
    }
  }

  @Test
  void toExternalName_nothingPatched() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      store.create(service(ServiceSpec.builder().selector("app", "web").clusterIP("10.96.0.7")
          .clusterIPs(List.of("10.96.0.7")).ipFamilies(List.of(IPFamily.IPv4))
          .ipFamilyPolicy(IPFamilyPolicy.SingleStack).ports(List.of(port("http", 80, null)))));
      Service external = store.update(service(ServiceSpec.builder().type(ServiceType.ExternalName)
          .externalName("web.example.com").ports(List.of(port("http", 80, null)))));
      assertThat(external.spec().clusterIP()).isEmpty();
      assertThat(external.spec().clusterIPs()).isEmpty();
      assertThat(external.spec().ipFamilyPolicy()).isNull();
    }
  }
}
