package io.fleetkit.networking.routing;

import static io.fleetkit.networking.routing.GatewayFixtures.CLASS;
import static io.fleetkit.networking.routing.GatewayFixtures.INFRA;
import static io.fleetkit.networking.routing.GatewayFixtures.gateway;
import static io.fleetkit.networking.routing.GatewayFixtures.http;
import static io.fleetkit.networking.routing.GatewayFixtures.parent;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointConditions;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.discovery.EndpointTargetRef;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPPathMatch;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.gateway.ReferenceGrant;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.networking.endpointslice.EndpointSliceController;
import io.fleetkit.networking.gateway.Conditions;
import io.fleetkit.networking.gateway.GatewayAttachment;
import io.fleetkit.networking.gateway.GatewayObjects;
import io.fleetkit.networking.gateway.RouteParent;
import io.fleetkit.networking.lb.BalancingPolicy;
import io.fleetkit.networking.lb.ProxyEndpoint;
import io.fleetkit.networking.lb.ServiceBalancer;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kubernetes-sigs/gateway-api {@code conformance/tests/httproute-service-types.go} / {@code .yaml} (commit
 * 4564255a): one HTTPRoute reaches infra-backend-v1's pods through a selectorless Service with manual EndpointSlices,
 * a headless Service with a selector (its slices made by {@link EndpointSliceController}) and a headless selectorless
 * Service with manual EndpointSlices. As upstream's {@code setupEndpointSlices}, the manual slices (one per address
 * family, port {@code first-port} 3000) get one ready endpoint per pod IP of that family with the pod as target.
 * Where upstream asks the echo server which pod answered, the request is routed by {@link GatewayRouter} to the
 * Service and its endpoint is picked by {@link ServiceBalancer} from the stored slices: every endpoint it can pick is
 * an infra-backend-v1 pod, on the target port. The pods of {@code conformance/base/manifests.yaml}'s infra-backend-v1
 * Deployment are two dual-stack pods here, and an infra-backend-v2 pod that must never be reached.
 */
final class GatewayServiceTypesConformanceTest {
  private static final String APP_LABEL = "app";
  private static final List<String> V1_IPS = List.of("10.244.0.10", "fd00:10:244::10", "10.244.1.10",
      "fd00:10:244:1::10");

  private static Pod pod(String name, String app, String node, String... ips) {
    PodSpec spec = PodSpec.builder().container(new Container("echo", "echo-basic",
        ResourceRequirements.ofRequests(ResourceList.EMPTY), List.of(), List.of(), null)).nodeName(node).build();
    PodStatus st = PodStatus.of(PodPhase.Running).withCondition(PodCondition.of(PodCondition.READY,
        ConditionStatus.True, "", "", null)).withPodIPs(List.of(ips));
    return new Pod(ObjectMeta.builder().namespace(INFRA).name(name).label(APP_LABEL, app).build(), spec, st);
  }

  private static Service service(String name, boolean headless, boolean selector) {
    ServiceSpec.Builder b = ServiceSpec.builder().port(ServicePort.of("first-port", 8080, 3000));
    if (headless) {
      b.headless();
    }
    if (selector) {
      b.selector(APP_LABEL, "infra-backend-v1");
    }
    return Service.of(ObjectMeta.of(INFRA, name), b.build());
  }

  private static boolean isIpv6(String ip) {
    try {
      return InetAddress.getByName(ip) instanceof Inet6Address;
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(ip, e);
    }
  }

  /** The manual slice {@code <service>-<ip4|ip6>} filled as upstream's {@code setupEndpointSlices} does. */
  private static EndpointSlice manualSlice(String service, AddressType family, List<Pod> pods) {
    List<Endpoint> endpoints = new ArrayList<>();
    for (Pod p : pods) {
      for (String ip : p.status().podIPs()) {
        if (isIpv6(ip) == (family == AddressType.IPv6)) {
          endpoints.add(new Endpoint(List.of(ip), EndpointConditions.of(true, true, false), "",
              new EndpointTargetRef("Pod", INFRA, p.metadata().name(), p.metadata().uid()), p.spec().nodeName(),
              "", null));
        }
      }
    }
    String suffix = family == AddressType.IPv6 ? "ip6" : "ip4";
    return new EndpointSlice(ObjectMeta.builder().namespace(INFRA).name(service + "-" + suffix)
        .label(EndpointSlice.LABEL_SERVICE_NAME, service).build(), family, endpoints,
        List.of(EndpointPort.of("first-port", 3000)));
  }

  private static HTTPRouteRule exact(String path, String backend) {
    return new HTTPRouteRule(List.of(new HTTPRouteMatch(new HTTPPathMatch(PathMatchType.Exact, path), List.of(),
        List.of(), "")), List.of(new HTTPBackendRef(backend, "", 8080, 1)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"manual-endpointslices", "headless-manual-endpointslices", "headless"})
  void serviceType_routedToInfraBackendV1Pods(String path) {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        EndpointSliceController controller = EndpointSliceController.builder(store).stepping().build()) {
      controller.start().join();
      store.create(Namespace.of(INFRA, Map.of("gateway-conformance", "infra")));
      // the endpointslice controller skips pods whose node it does not know, as upstream's
      store.create(new Node(ObjectMeta.of("node-a"), NodeSpec.EMPTY, NodeStatus.EMPTY));
      store.create(new Node(ObjectMeta.of("node-b"), NodeSpec.EMPTY, NodeStatus.EMPTY));
      List<Pod> v1 = List.of(pod("infra-backend-v1-0", "infra-backend-v1", "node-a", V1_IPS.get(0), V1_IPS.get(1)),
          pod("infra-backend-v1-1", "infra-backend-v1", "node-b", V1_IPS.get(2), V1_IPS.get(3)));
      List<Pod> stored = new ArrayList<>();
      for (Pod p : v1) {
        stored.add(store.create(p));
      }
      store.create(pod("infra-backend-v2-0", "infra-backend-v2", "node-a", "10.244.0.20"));
      store.create(service("manual-endpointslices", false, false));
      store.create(service("headless", true, true));
      store.create(service("headless-manual-endpointslices", true, false));
      for (String s : List.of("manual-endpointslices", "headless-manual-endpointslices")) {
        store.create(manualSlice(s, AddressType.IPv4, stored));
        store.create(manualSlice(s, AddressType.IPv6, stored));
      }
      controller.runUntilIdle();

      HTTPRoute route = new HTTPRoute(ObjectMeta.of(INFRA, "service-types"), new HTTPRouteSpec(
          List.of(parent("same-namespace")), List.of(), List.of(exact("/manual-endpointslices",
              "manual-endpointslices"), exact("/headless", "headless"),
              exact("/headless-manual-endpointslices", "headless-manual-endpointslices"))));
      GatewayAttachment a = GatewayAttachment.compute(new GatewayObjects(
          List.of(new GatewayClass(ObjectMeta.of(CLASS), "fleetkit.io/gateway")),
          List.of(gateway("same-namespace", http("http", 80, "", FromNamespaces.Same))), List.of(route),
          store.list(Service.class, INFRA).items(), store.list(Namespace.class).items(), List.<ReferenceGrant>of(),
          List.<Secret>of()));
      // GatewayAndHTTPRoutesMustBeAccepted, HTTPRouteMustHaveResolvedRefsConditionsTrue
      List<RouteParent> parents = a.route(INFRA + "/service-types");
      assertThat(parents).hasSize(1);
      assertThat(parents.get(0).accepted()).as(parents.toString()).isTrue();
      assertThat(parents.get(0).status().condition(Conditions.RESOLVED_REFS).isTrue()).as(parents.toString()).isTrue();

      RouteResult r = new GatewayRouter(a).route(INFRA + "/same-namespace", 80, HttpRequest.get("", "/" + path));
      assertThat(r.status()).as(r.message()).isEqualTo(200);
      assertThat(r.service()).isEqualTo(INFRA + "/" + path);
      assertThat(r.port()).isEqualTo(8080);

      Service svc = store.require(Service.class, INFRA, path);
      List<EndpointSlice> slices = store.list(EndpointSlice.class, INFRA,
          LabelSelector.of(Map.of(EndpointSlice.LABEL_SERVICE_NAME, path))).items();
      ServiceBalancer lb = new ServiceBalancer(svc, svc.spec().ports().get(0), "node-a", "",
          BalancingPolicy.roundRobin());
      List<ProxyEndpoint> candidates = lb.candidates(slices, false);
      // every endpoint a request can reach is an infra-backend-v1 pod (upstream's Backend), on the target port
      assertThat(candidates).isNotEmpty().allSatisfy(e -> {
        assertThat(V1_IPS).contains(e.address());
        assertThat(e.port()).isEqualTo(3000);
      });
      Map<String, Integer> picked = new HashMap<>();
      for (int i = 0; i < 8; i++) {
        picked.merge(lb.pick(slices, false, "client", java.time.Instant.EPOCH).orElseThrow().address(), 1,
            Integer::sum);
      }
      Set<String> pods = picked.keySet().stream().map(ip -> V1_IPS.indexOf(ip) < 2 ? "infra-backend-v1-0"
          : "infra-backend-v1-1").collect(Collectors.toSet());
      assertThat(pods).as("both pods take requests: %s", picked).containsExactlyInAnyOrder("infra-backend-v1-0",
          "infra-backend-v1-1");
    }
  }
}
