package io.fleetkit.networking.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.networking.Ingress;
import io.fleetkit.api.networking.IngressBackend;
import io.fleetkit.api.networking.IngressClass;
import io.fleetkit.api.networking.IngressSpec;
import io.fleetkit.networking.lb.BalancingPolicy;
import io.fleetkit.networking.lb.ServiceBalancer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * ingress-controller-conformance {@code features/load_balancing.feature}: an Ingress with only a default backend
 * scaled to 10 replicas; 100 requests all succeed and are served by 10 different pods.
 */
final class RoutingLoadBalancingTest {
  @Test
  void loadBalancing_100Requests_tenDistinctPods() {
    IngressClass cls = new IngressClass(ObjectMeta.of("conformance"), "fleetkit.io/router");
    Ingress ing = Ingress.of(ObjectMeta.of("conformance", "load-balancing"), new IngressSpec("conformance",
        IngressBackend.of("echo-service", 8080), List.of(), List.of()));
    Service svc = Service.of(ObjectMeta.of("conformance", "echo-service"), ServiceSpec.builder()
        .selector("app", "echo").port(ServicePort.of("http", 8080, 3000)).build());
    List<Endpoint> eps = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      eps.add(Endpoint.of("10.244.0." + (10 + i)));
    }
    EndpointSlice slice = new EndpointSlice(ObjectMeta.builder().namespace("conformance").name("echo-service-x")
        .label(EndpointSlice.LABEL_SERVICE_NAME, "echo-service").build(), AddressType.IPv4, eps,
        List.of(EndpointPort.of("http", 3000)));
    Router router = new Router(List.of(cls), List.of(ing), List.of());
    ServiceBalancer lb = new ServiceBalancer(svc, svc.spec().ports().get(0), "node-1", "",
        BalancingPolicy.roundRobin());
    Set<String> pods = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      RouteResult r = router.route(HttpRequest.get("load-balancing", "/"));
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.service()).isEqualTo("conformance/echo-service");
      pods.add(lb.pick(List.of(slice), false, "client", Instant.EPOCH).orElseThrow().address());
    }
    assertThat(pods).hasSize(10);
  }
}
