package io.fleetkit.networking.lb;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.SessionAffinity;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointConditions;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Example;

/** Balancing policies: shares follow weights, never a not-ready endpoint while a ready one exists. */
final class BalancingPropertiesTest {
  record Ep(boolean ready, int weight) {}

  @Provide
  Arbitrary<List<Ep>> endpoints() {
    Arbitrary<Ep> ep = Combinators.combine(Arbitraries.of(true, true, true, false), Arbitraries.integers().between(0, 50))
        .as(Ep::new);
    return ep.list().ofMinSize(1).ofMaxSize(12);
  }

  private static EndpointSlice slice(List<Ep> eps) {
    List<Endpoint> out = new ArrayList<>();
    for (int i = 0; i < eps.size(); i++) {
      boolean r = eps.get(i).ready();
      out.add(Endpoint.of("10.0.0." + (i + 1)).withConditions(EndpointConditions.of(r, r, false)).withNodeName("n"));
    }
    return new EndpointSlice(ObjectMeta.builder().namespace("ns").name("s-1")
        .label(EndpointSlice.LABEL_SERVICE_NAME, "s").build(), AddressType.IPv4, out,
        List.of(EndpointPort.of("http", 8080)));
  }

  private static Service service(SessionAffinity affinity) {
    return Service.of(ObjectMeta.of("ns", "s"), ServiceSpec.builder().selector("a", "b")
        .port(ServicePort.of("http", 80, 8080)).sessionAffinity(affinity).sessionAffinityTimeoutSeconds(60).build());
  }

  @Property(tries = 100)
  void weighted_sharesWithinBoundsOfWeights_andNeverNotReady(@ForAll("endpoints") List<Ep> eps) {
    Map<String, Integer> weights = new HashMap<>();
    for (int i = 0; i < eps.size(); i++) {
      weights.put("10.0.0." + (i + 1), eps.get(i).weight());
    }
    Service svc = service(SessionAffinity.None);
    ServiceBalancer b = new ServiceBalancer(svc, svc.spec().ports().get(0), "n", "",
        BalancingPolicy.weighted(weights, 1));
    List<EndpointSlice> slices = List.of(slice(eps));
    boolean anyReady = eps.stream().anyMatch(Ep::ready);
    long readyWeight = 0;
    for (Ep e : eps) {
      readyWeight += e.ready() ? e.weight() : 0;
    }
    int picks = 1000;
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < picks; i++) {
      var got = b.pick(slices, false, "c" + i, Instant.EPOCH);
      if (!anyReady) {
        assertThat(got).isEmpty();
        return;
      }
      assertThat(got).isPresent();
      counts.merge(got.get().address(), 1, Integer::sum);
    }
    for (int i = 0; i < eps.size(); i++) {
      String addr = "10.0.0." + (i + 1);
      int n = counts.getOrDefault(addr, 0);
      Ep e = eps.get(i);
      if (!e.ready()) {
        assertThat(n).as("not-ready endpoint %s picked", addr).isZero();
      } else if (readyWeight > 0) {
        double expected = picks * (double) e.weight() / readyWeight;
        // smooth weighted round robin is exact up to one pick per cycle of the total weight
        assertThat((double) n).as("share of %s", addr).isBetween(expected - e.weight() - 1, expected + e.weight() + 1);
      }
    }
  }

  @Property(tries = 100)
  void everyPolicy_picksOnlyReadyEndpoints(@ForAll("endpoints") List<Ep> eps) {
    Service svc = service(SessionAffinity.None);
    List<EndpointSlice> slices = List.of(slice(eps));
    for (BalancingPolicy p : List.of(BalancingPolicy.roundRobin(), BalancingPolicy.random(7),
        BalancingPolicy.leastRequest(7))) {
      ServiceBalancer b = new ServiceBalancer(svc, svc.spec().ports().get(0), "n", "", p);
      for (int i = 0; i < 200; i++) {
        var got = b.pick(slices, false, "c", Instant.EPOCH);
        got.ifPresent(ep -> {
          int idx = Integer.parseInt(ep.address().substring("10.0.0.".length())) - 1;
          assertThat(eps.get(idx).ready()).isTrue();
          p.finished(ep);
        });
        assertThat(got.isPresent()).isEqualTo(eps.stream().anyMatch(Ep::ready));
      }
    }
  }

  @Example
  void roundRobin_cyclesThroughEveryReadyEndpoint() {
    List<Ep> eps = List.of(new Ep(true, 1), new Ep(false, 1), new Ep(true, 1), new Ep(true, 1));
    Service svc = service(SessionAffinity.None);
    ServiceBalancer b = new ServiceBalancer(svc, svc.spec().ports().get(0), "n", "", BalancingPolicy.roundRobin());
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      seen.add(b.pick(List.of(slice(eps)), false, "c", Instant.EPOCH).orElseThrow().address());
    }
    assertThat(seen).containsExactly("10.0.0.1", "10.0.0.3", "10.0.0.4", "10.0.0.1", "10.0.0.3", "10.0.0.4");
  }

  @Example
  void leastRequest_prefersTheIdleEndpoint() {
    BalancingPolicy p = BalancingPolicy.leastRequest(3);
    List<ProxyEndpoint> two = ProxyEndpoint.fromSlices(List.of(slice(List.of(new Ep(true, 1), new Ep(true, 1)))),
        "http", "n");
    ProxyEndpoint busy = p.pick(two);
    int idleChosen = 0;
    for (int i = 0; i < 50; i++) {
      ProxyEndpoint e = p.pick(two);
      if (!e.equals(busy)) {
        idleChosen++;
        p.finished(e);
      } else {
        p.finished(e);
      }
    }
    assertThat(idleChosen).isGreaterThan(25); // the busy one is only taken when both draws hit it
  }

  @Example
  void clientIpAffinity_keepsEndpointUntilTimeoutOrUnusable() {
    List<Ep> eps = List.of(new Ep(true, 1), new Ep(true, 1), new Ep(true, 1));
    Service svc = service(SessionAffinity.ClientIP);
    ServiceBalancer b = new ServiceBalancer(svc, svc.spec().ports().get(0), "n", "", BalancingPolicy.roundRobin());
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    String first = b.pick(List.of(slice(eps)), false, "1.1.1.1", t0).orElseThrow().address();
    for (int i = 1; i <= 5; i++) {
      assertThat(b.pick(List.of(slice(eps)), false, "1.1.1.1", t0.plusSeconds(30L * i)).orElseThrow().address())
          .isEqualTo(first);
    }
    // idle longer than the timeout (60 s): a fresh choice
    String later = b.pick(List.of(slice(eps)), false, "1.1.1.1", t0.plus(Duration.ofSeconds(30 * 5 + 61)))
        .orElseThrow().address();
    assertThat(later).isNotEqualTo(first);
    // the sticky endpoint turns unready: moved elsewhere at once
    int idx = Integer.parseInt(later.substring("10.0.0.".length())) - 1;
    List<Ep> changed = new ArrayList<>(eps);
    changed.set(idx, new Ep(false, 1));
    assertThat(b.pick(List.of(slice(changed)), false, "1.1.1.1", t0.plusSeconds(30 * 5 + 62)).orElseThrow()
        .address()).isNotEqualTo(later);
  }
}
