package io.fleetkit.networking.loadbalancer;

import static io.fleetkit.networking.loadbalancer.LoadBalancerFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.LoadBalancerIngress;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceType;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

final class AddressPoolLoadBalancersTest {
  private static Service lb(String name) {
    return service(name, ServiceType.LoadBalancer);
  }

  private static String ip(AddressPoolLoadBalancers p, Service s) {
    return p.get(s).orElseThrow().ingress().get(0).ip();
  }

  @Test
  void ensure_lowestFreeAddress_keptUntilDeleted() {
    AddressPoolLoadBalancers p = new AddressPoolLoadBalancers("203.0.113.0/29");
    Service a = lb("a");
    Service b = lb("b");
    assertThat(p.ensure(a, List.of()).ingress()).containsExactly(LoadBalancerIngress.ofIp("203.0.113.1"));
    assertThat(p.ensure(b, List.of(node(name("n1")))).ingress()).containsExactly(LoadBalancerIngress.ofIp(
        "203.0.113.2"));
    assertThat(ip(p, a)).as("ensured again").isEqualTo(p.ensure(a, List.of()).ingress().get(0).ip());
    p.ensureDeleted(a);
    assertThat(p.get(a)).isEmpty();
    assertThat(p.ensure(lb("c"), List.of()).ingress().get(0).ip()).as("the freed address first")
        .isEqualTo("203.0.113.1");
    assertThat(p.hosts(b)).contains(List.of("n1"));
    assertThat(p.inUse()).isEqualTo(2);
  }

  @Test
  void ensure_requestedAddress_takenOrRefused() {
    AddressPoolLoadBalancers p = new AddressPoolLoadBalancers("203.0.113.0/29");
    Service asks = spec(s -> s.loadBalancerIP("203.0.113.5")).apply(lb("a"));
    assertThat(p.ensure(asks, List.of()).ingress().get(0).ip()).isEqualTo("203.0.113.5");
    Service same = spec(s -> s.loadBalancerIP("203.0.113.5")).apply(lb("b"));
    assertThatThrownBy(() -> p.ensure(same, List.of())).isInstanceOf(LoadBalancerException.class)
        .hasMessage("Service default/b: spec.loadBalancerIP \"203.0.113.5\" is in use by another load balancer");
    Service outside = spec(s -> s.loadBalancerIP("198.51.100.7")).apply(lb("c"));
    assertThatThrownBy(() -> p.ensure(outside, List.of())).isInstanceOf(LoadBalancerException.class)
        .hasMessage("Service default/c: spec.loadBalancerIP \"198.51.100.7\" is not an address of the load balancer"
            + " address pool 203.0.113.0/29");
    // the broadcast address of an IPv4 pool is not given
    Service broadcast = spec(s -> s.loadBalancerIP("203.0.113.7")).apply(lb("d"));
    assertThatThrownBy(() -> p.ensure(broadcast, List.of())).isInstanceOf(LoadBalancerException.class);
    // asking for another address moves the load balancer and frees the old one
    Service moved = spec(s -> s.loadBalancerIP("203.0.113.6")).apply(lb("a"));
    assertThat(p.ensure(moved, List.of()).ingress().get(0).ip()).isEqualTo("203.0.113.6");
    assertThat(p.ensure(lb("e"), List.of()).ingress().get(0).ip()).isEqualTo("203.0.113.1");
    assertThat(p.inUse()).isEqualTo(2);
  }

  @Test
  void ensure_poolExhausted_errorNamesThePool() {
    AddressPoolLoadBalancers p = new AddressPoolLoadBalancers("203.0.113.0/30");
    p.ensure(lb("a"), List.of());
    p.ensure(lb("b"), List.of());
    assertThatThrownBy(() -> p.ensure(lb("c"), List.of())).isInstanceOf(LoadBalancerException.class)
        .hasMessage("no address left in the load balancer address pool 203.0.113.0/30 (2 addresses in use) for"
            + " Service default/c");
  }

  @Test
  void update_missingBalancer_errors() {
    AddressPoolLoadBalancers p = new AddressPoolLoadBalancers("2001:db8::/120");
    Service a = lb("a");
    assertThatThrownBy(() -> p.update(a, List.<Node>of())).isInstanceOf(LoadBalancerException.class)
        .hasMessageContaining("does not exist");
    assertThat(p.ensure(a, List.of()).ingress().get(0).ip()).isEqualTo("2001:db8::1");
  }

  @Test
  void constructor_badPool_namesIt() {
    assertThatThrownBy(() -> new AddressPoolLoadBalancers("203.0.113.0/33"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("load balancer address pool: ");
    assertThatThrownBy(() -> new AddressPoolLoadBalancers("203.0.113.1/32"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("load balancer address pool 203.0.113.1/32 holds"
            + " no usable address");
  }

  /** Any sequence of ensures and deletes gives each live load balancer its own address of the pool. */
  @Property(tries = 200)
  void addresses_distinctAndInThePool(@ForAll @Size(max = 40) List<@IntRange(min = 0, max = 9) Integer> ops) {
    AddressPoolLoadBalancers p = new AddressPoolLoadBalancers("198.51.100.0/28");
    Set<String> live = new HashSet<>();
    for (int op : ops) {
      Service s = lb("s" + (op % 5));
      if (op < 5) {
        p.ensure(s, List.of());
        live.add(s.metadata().name());
      } else {
        p.ensureDeleted(s);
        live.remove(s.metadata().name());
      }
    }
    Set<String> ips = new HashSet<>();
    for (String n : live) {
      String ip = ip(p, lb(n));
      assertThat(ip).startsWith("198.51.100.");
      assertThat(ips.add(ip)).as("distinct %s", ip).isTrue();
    }
    assertThat(p.inUse()).isEqualTo(live.size());
  }
}
