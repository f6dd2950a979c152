package io.fleetkit.scheduler.plugins.nodeports;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cases ported from kubernetes' HostPortInfo table tests, TestHostPortInfo_AddRemove 4/4 and TestHostPortInfo_Check
 * 9/9 ({@code pkg/scheduler/framework/types_test.go}; the same tables stood in {@code pkg/scheduler/util} before).
 */
final class HostPortInfoTest {
  private record P(String protocol, String ip, int port) {}

  private static HostPortInfo with(List<P> added) {
    HostPortInfo h = new HostPortInfo();
    for (P p : added) {
      h.add(p.ip(), p.protocol(), p.port());
    }
    return h;
  }

  private static final List<P> ALL_EIGHT = List.of(new P("TCP", "127.0.0.1", 79), new P("UDP", "127.0.0.1", 80),
      new P("TCP", "127.0.0.1", 81), new P("TCP", "127.0.0.1", 82), new P("TCP", "0.0.0.0", 79),
      new P("UDP", "0.0.0.0", 80), new P("TCP", "0.0.0.0", 81), new P("TCP", "0.0.0.0", 82));

  @Test
  void addRemove_normalAddCase() {
    List<P> added = new java.util.ArrayList<>(ALL_EIGHT);
    added.add(new P("TCP", "0.0.0.0", 0));
    added.add(new P("TCP", "0.0.0.0", -1));
    assertThat(with(added).size()).isEqualTo(8);
  }

  @Test
  void addRemove_emptyIpAndProtocolAddShouldWork() {
    HostPortInfo h = with(List.of(new P("", "127.0.0.1", 79), new P("UDP", "127.0.0.1", 80),
        new P("", "127.0.0.1", 81), new P("", "127.0.0.1", 82), new P("", "", 79), new P("UDP", "", 80),
        new P("", "", 81), new P("", "", 82), new P("", "", 0), new P("", "", -1)));
    assertThat(h.size()).isEqualTo(8);
  }

  @Test
  void addRemove_normalRemoveCase() {
    HostPortInfo h = with(ALL_EIGHT);
    for (P p : ALL_EIGHT) {
      h.remove(p.ip(), p.protocol(), p.port());
    }
    assertThat(h.size()).isZero();
  }

  @Test
  void addRemove_emptyIpAndProtocolRemoveShouldWork() {
    HostPortInfo h = with(ALL_EIGHT);
    for (P p : List.of(new P("", "127.0.0.1", 79), new P("", "127.0.0.1", 81), new P("", "127.0.0.1", 82),
        new P("UDP", "127.0.0.1", 80), new P("", "", 79), new P("", "", 81), new P("", "", 82),
        new P("UDP", "", 80))) {
      h.remove(p.ip(), p.protocol(), p.port());
    }
    assertThat(h.size()).isZero();
  }

  private static boolean check(List<P> added, P check) {
    return with(added).conflicts(check.ip(), check.protocol(), check.port());
  }

  @Test
  void check_upstreamCases() {
    List<P> one80 = List.of(new P("TCP", "127.0.0.1", 80));
    // "empty check should check 0.0.0.0 and TCP"
    assertThat(check(one80, new P("", "", 81))).isFalse();
    // "empty check should check 0.0.0.0 and TCP (conflicted)"
    assertThat(check(one80, new P("", "", 80))).isTrue();
    // "empty port check should pass"
    assertThat(check(one80, new P("", "", 0))).isFalse();
    // "0.0.0.0 should check all registered IPs"
    assertThat(check(one80, new P("TCP", "0.0.0.0", 80))).isTrue();
    // "0.0.0.0 with different protocol should be allowed"
    assertThat(check(List.of(new P("UDP", "127.0.0.1", 80)), new P("TCP", "0.0.0.0", 80))).isFalse();
    // "0.0.0.0 with different port should be allowed"
    assertThat(check(List.of(new P("TCP", "127.0.0.1", 79), new P("TCP", "127.0.0.1", 81),
        new P("TCP", "127.0.0.1", 82)), new P("TCP", "0.0.0.0", 80))).isFalse();
    // "normal ip should check all registered 0.0.0.0"
    assertThat(check(List.of(new P("TCP", "0.0.0.0", 80)), new P("TCP", "127.0.0.1", 80))).isTrue();
    // "normal ip with different port/protocol should be allowed (0.0.0.0)"
    assertThat(check(List.of(new P("TCP", "0.0.0.0", 79), new P("UDP", "0.0.0.0", 80), new P("TCP", "0.0.0.0", 81),
        new P("TCP", "0.0.0.0", 82)), new P("TCP", "127.0.0.1", 80))).isFalse();
    // "normal ip with different port/protocol should be allowed"
    assertThat(check(List.of(new P("TCP", "127.0.0.1", 79), new P("UDP", "127.0.0.1", 80),
        new P("TCP", "127.0.0.1", 81), new P("TCP", "127.0.0.1", 82)), new P("TCP", "127.0.0.1", 80))).isFalse();
  }
}
