package io.fleetkit.scheduler.plugins.nodeports;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Invariants of {@link HostPortInfo}: a clash is symmetric, and removing what was added empties the set. */
final class HostPortInfoPropertiesTest {
  record Port(String ip, String protocol, int port) {}

  @Provide
  Arbitrary<Port> ports() {
    return Combinators.combine(Arbitraries.of("", "0.0.0.0", "10.0.0.1", "10.0.0.2"),
        Arbitraries.of("", "TCP", "UDP", "SCTP"), Arbitraries.integers().between(-1, 3)).as(Port::new);
  }

  private static HostPortInfo of(Port p) {
    HostPortInfo h = new HostPortInfo();
    h.add(p.ip(), p.protocol(), p.port());
    return h;
  }

  @Property(tries = 500)
  void aClashIsSymmetric(@ForAll("ports") Port a, @ForAll("ports") Port b) {
    assertThat(of(a).conflicts(b.ip(), b.protocol(), b.port()))
        .isEqualTo(of(b).conflicts(a.ip(), a.protocol(), a.port()));
  }

  @Property(tries = 300)
  void addedThenRemoved_isEmpty_andAPositivePortClashesWithItself(@ForAll("portLists") List<Port> ports) {
    HostPortInfo h = new HostPortInfo();
    for (Port p : ports) {
      h.add(p.ip(), p.protocol(), p.port());
      assertThat(h.conflicts(p.ip(), p.protocol(), p.port())).isEqualTo(p.port() > 0);
    }
    for (Port p : ports) {
      h.remove(p.ip(), p.protocol(), p.port());
    }
    assertThat(h.size()).isZero();
  }

  @Provide
  Arbitrary<List<Port>> portLists() {
    return ports().list().ofMaxSize(12);
  }
}
