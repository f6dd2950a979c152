package io.fleetkit.networking.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Hostname intersection: the intersection serves exactly the hosts both sides serve (a property over names built
 * from a small alphabet, so that overlaps are frequent), and the cases the Gateway API spec spells out.
 */
final class HostnamesTest {
  @Provide
  Arbitrary<String> host() {
    return Arbitraries.of("a", "b", "c").list().ofMinSize(1).ofMaxSize(4).map(l -> String.join(".", l));
  }

  @Provide
  Arbitrary<String> pattern() {
    return Arbitraries.oneOf(host(), host().map(h -> "*." + h));
  }

  @Property(tries = 2000)
  void intersection_servesExactlyTheHostsBothServe(@ForAll("pattern") String listener, @ForAll("pattern") String route,
      @ForAll("host") String host) {
    String i = Hostnames.intersect(listener, route);
    boolean both = Hostnames.matches(listener, host) && Hostnames.matches(route, host);
    if (i == null) {
      assertThat(both).as("%s ∩ %s is empty but %s matches both", listener, route, host).isFalse();
    } else {
      assertThat(Hostnames.matches(i, host)).as("%s ∩ %s = %s for %s", listener, route, i, host).isEqualTo(both);
    }
  }

  @Property(tries = 500)
  void emptyListener_keepsRouteHostnames(@ForAll("pattern") String route) {
    assertThat(Hostnames.effective("", List.of(route))).containsExactly(route);
    assertThat(Hostnames.effective(route, List.of())).containsExactly(route);
  }

  @Example
  void specCases() {
    assertThat(Hostnames.intersect("*.example.com", "foo.example.com")).isEqualTo("foo.example.com");
    assertThat(Hostnames.intersect("very.specific.com", "*.specific.com")).isEqualTo("very.specific.com");
    assertThat(Hostnames.intersect("*.example.com", "*.foo.example.com")).isEqualTo("*.foo.example.com");
    assertThat(Hostnames.intersect("*.wildcard.io", "wildcard.io")).isNull();
    assertThat(Hostnames.intersect("foo.com", "bar.com")).isNull();
    assertThat(Hostnames.matches("*.bar.com", "multiple.prefixes.bar.com")).isTrue();
    assertThat(Hostnames.matches("*.bar.com", "bar.com")).isFalse();
    assertThat(Hostnames.listenerScore("abc.foo.example.com", "abc.foo.example.com"))
        .isGreaterThan(Hostnames.listenerScore("*.foo.example.com", "abc.foo.example.com"));
    assertThat(Hostnames.listenerScore("*.foo.example.com", "abc.foo.example.com"))
        .isGreaterThan(Hostnames.listenerScore("*.example.com", "abc.foo.example.com"));
    assertThat(Hostnames.listenerScore("*.example.com", "abc.foo.example.com"))
        .isGreaterThan(Hostnames.listenerScore("", "abc.foo.example.com"));
    assertThat(Hostnames.listenerScore("*.example.com", "other.org")).isNegative();
  }
}
