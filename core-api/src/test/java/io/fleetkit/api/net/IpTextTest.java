package io.fleetkit.api.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** {@link IpText} against the JDK's literal parser (which never resolves names for these inputs). */
final class IpTextTest {
  @Provide
  Arbitrary<String> ipv6() {
    return Arbitraries.integers().between(0, 0xffff).list().ofSize(8).flatMap(groups -> Arbitraries.integers()
        .between(0, 8).map(start -> format(groups, start)));
  }

  /** Eight groups in hex, those from {@code start} zeroed and compressed to {@code ::} when any follow. */
  private static String format(List<Integer> groups, int start) {
    StringBuilder head = new StringBuilder();
    for (int i = 0; i < start; i++) {
      head.append(i == 0 ? "" : ":").append(Integer.toHexString(groups.get(i)));
    }
    if (start >= 8) {
      return head.toString();
    }
    int end = Math.min(8, start + 1 + groups.get(0) % 3);
    StringBuilder tail = new StringBuilder();
    for (int i = end; i < 8; i++) {
      tail.append(i == end ? "" : ":").append(Integer.toHexString(groups.get(i)));
    }
    return head + "::" + tail;
  }

  @Property(tries = 500)
  void ipv6_everyWellFormedAddressIsAnIp_andTheJdkAgrees(@ForAll("ipv6") String ip) throws UnknownHostException {
    assertThat(IpText.isIpv6(ip)).as(ip).isTrue();
    assertThat(InetAddress.getByName(ip)).isInstanceOf(Inet6Address.class);
    assertThat(IpText.isCidr(ip + "/64")).isTrue();
    assertThat(IpText.isCidr(ip + "/129")).isFalse();
  }

  @Property(tries = 300)
  void ipv4_octetsUpTo255_andPrefixesUpTo32(@ForAll @IntRange(min = 0, max = 255) int a,
      @ForAll @IntRange(min = 0, max = 255) int b, @ForAll @IntRange(min = 0, max = 40) int prefix) {
    String ip = a + "." + b + ".0.1";
    assertThat(IpText.isIp(ip)).isTrue();
    assertThat(IpText.isCidr(ip + "/" + prefix)).isEqualTo(prefix <= 32);
  }

  @Example
  void format_printsTheCanonicalText_rfc5952() {
    assertThat(IpText.canonical("10.0.0.1")).isEqualTo("10.0.0.1");
    assertThat(IpText.canonical("2001:DB8:0:0:0:0:0:1")).isEqualTo("2001:db8::1");
    assertThat(IpText.canonical("2001:db8:0:0:1:0:0:1")).isEqualTo("2001:db8::1:0:0:1"); // the first of equal runs
    assertThat(IpText.canonical("2001:db8:0:1:1:1:1:1")).isEqualTo("2001:db8:0:1:1:1:1:1"); // one zero group stays
    assertThat(IpText.canonical("::")).isEqualTo("::");
    assertThat(IpText.canonical("not-an-ip")).isNull();
  }

  @Property
  void format_roundTrips_throughParse(@ForAll @net.jqwik.api.constraints.Size(16) byte[] sixteen) {
    assertThat(IpText.parse(IpText.format(sixteen))).containsExactly(sixteen);
  }

  @Example
  void malformed_areNotAddresses() {
    for (String s : List.of("", "garbage-ip", "None", "1.2.3", "1.2.3.256", "01.2.3.4", "1::2::3", ":::", "1:2:3:4:5:6:7",
        "1:2:3:4:5:6:7:8:9", "12345::", "g::1", "1.2.3.4/", "foo.bar")) {
      assertThat(IpText.isIp(s)).as(s).isFalse();
    }
    assertThat(IpText.isIp("::")).isTrue();
    assertThat(IpText.isIp("::ffff:10.0.0.1")).isTrue();
    assertThat(IpText.isCidr("10.0.0.0/8")).isTrue();
    assertThat(IpText.isCidr("10.0.0.0/x")).isFalse();
    assertThat(IpText.isCidr("10.0.0.0")).isFalse();
  }

  /** Go's {@code net.IP} predicates that upstream's {@code ValidateNonSpecialIP} uses, case by case. */
  @Example
  void specialRanges_asValidateNonSpecialIP() {
    assertThat(IpText.specialRanges("0.0.0.0")).containsExactly("may not be unspecified (0.0.0.0)");
    assertThat(IpText.specialRanges("::")).containsExactly("may not be unspecified (::)");
    String loopback = "may not be in the loopback range (127.0.0.0/8, ::1/128)";
    assertThat(IpText.specialRanges("127.0.0.1")).containsExactly(loopback);
    assertThat(IpText.specialRanges("127.255.0.9")).containsExactly(loopback);
    assertThat(IpText.specialRanges("::1")).containsExactly(loopback);
    assertThat(IpText.specialRanges("::ffff:127.0.0.1")).containsExactly(loopback); // Go's To4 view
    String linkLocal = "may not be in the link-local range (169.254.0.0/16, fe80::/10)";
    assertThat(IpText.specialRanges("169.254.169.254")).containsExactly(linkLocal);
    assertThat(IpText.specialRanges("fe80::1")).containsExactly(linkLocal);
    assertThat(IpText.specialRanges("febf::1")).containsExactly(linkLocal);
    String multicast = "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)";
    assertThat(IpText.specialRanges("224.0.0.251")).containsExactly(multicast);
    assertThat(IpText.specialRanges("ff02::fb")).containsExactly(multicast);
    assertThat(IpText.specialRanges("ff12::1")).containsExactly(multicast); // Go: ip[1]&0x0f == 0x02
    for (String ordinary : List.of("1.2.3.4", "10.0.0.1", "224.0.1.1", "169.253.0.1", "2001:db8::1", "fec0::1",
        "ff05::1", "::ffff:1.2.3.4", "::2")) {
      assertThat(IpText.specialRanges(ordinary)).as(ordinary).isEmpty();
    }
  }

  @Example
  void specialRanges_ofANonAddress_refused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> IpText.specialRanges("myhost.mydomain"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be a valid IP address");
  }

  /** Address-like text: pieces of addresses joined by the separators, so that many are valid and many nearly so. */
  @Provide
  Arbitrary<String> addressLike() {
    Arbitrary<String> piece = Arbitraries.oneOf(Arbitraries.integers().between(0, 300).map(String::valueOf),
        Arbitraries.integers().between(0, 0x1ffff).map(Integer::toHexString),
        Arbitraries.of("", "0", "00", "01", "ffff", "FFFF", "g", "1.2.3.4", "255.255.255.255", "1.2.3", "::"));
    Arbitrary<String> sep = Arbitraries.of(":", ":", "::", ".", "/");
    return Arbitraries.integers().between(1, 10).flatMap(n -> Combinators.combine(piece.list().ofSize(n),
        sep.list().ofSize(n)).as((ps, ss) -> {
          StringBuilder b = new StringBuilder();
          for (int i = 0; i < ps.size(); i++) {
            b.append(ps.get(i));
            if (i < ps.size() - 1) {
              b.append(ss.get(i));
            }
          }
          return b.toString();
        }));
  }

  /**
   * The parser against an independent oracle: Kubernetes' grammar written as regular expressions (this class's
   * former implementation), and, for what it accepts, the JDK's literal parser for the bytes.
   */
  @Property(tries = 3000)
  void parse_agreesWithTheRegexGrammarAndTheJdk(@ForAll("addressLike") String s) throws UnknownHostException {
    boolean oracle = RegexOracle.isIpv4(s) || RegexOracle.isIpv6(s);
    net.jqwik.api.statistics.Statistics.collect(oracle ? "address" : "not an address");
    net.jqwik.api.statistics.Statistics.coverage(c -> {
      c.check("address").percentage(p -> p >= 2); // about 4 % of 3000: over a hundred addresses
      c.check("not an address").percentage(p -> p >= 5);
    });
    assertThat(IpText.isIp(s)).as(s).isEqualTo(oracle);
    if (oracle) {
      byte[] jdk = InetAddress.getByName(s).getAddress();
      byte[] ours = IpText.parse(s);
      assertThat(ours).isNotNull();
      if (jdk.length == 4 && ours.length == 16) { // the JDK maps ::ffff:a.b.c.d to IPv4
        assertThat(java.util.Arrays.copyOfRange(ours, 12, 16)).as(s).isEqualTo(jdk);
      } else {
        assertThat(ours).as(s).isEqualTo(jdk);
      }
    }
  }

  /** The regular-expression form of the grammar, kept as an oracle for the parser. */
  private static final class RegexOracle {
    private static final java.util.regex.Pattern IPV4 = java.util.regex.Pattern.compile(
        "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
    private static final java.util.regex.Pattern HEX_GROUP = java.util.regex.Pattern.compile("[0-9a-fA-F]{1,4}");

    static boolean isIpv4(String s) {
      return IPV4.matcher(s).matches();
    }

    static boolean isIpv6(String s) {
      if (s.indexOf(':') < 0) {
        return false;
      }
      int compressed = s.indexOf("::");
      if (compressed >= 0 && s.indexOf("::", compressed + 1) >= 0) {
        return false;
      }
      int groups = 0;
      String[] parts = compressed >= 0
          ? new String[] {s.substring(0, compressed), s.substring(compressed + 2)} : new String[] {s};
      for (int p = 0; p < parts.length; p++) {
        if (parts[p].isEmpty()) {
          continue;
        }
        String[] fields = parts[p].split(":", -1);
        for (int i = 0; i < fields.length; i++) {
          boolean last = p == parts.length - 1 && i == fields.length - 1;
          if (last && fields[i].indexOf('.') >= 0) {
            if (!isIpv4(fields[i])) {
              return false;
            }
            groups += 2;
          } else if (HEX_GROUP.matcher(fields[i]).matches()) {
            groups++;
          } else {
            return false;
          }
        }
      }
      return compressed >= 0 ? groups <= 7 : groups == 8;
    }
  }
}
