package io.fleetkit.networking.ipam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.networking.ipam.internal.BandedBitmap;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ported from kubernetes/kubernetes {@code pkg/registry/core/service/ipallocator/bitmap_test.go} (TestAllocate,
 * TestAllocateTiny, TestAllocateReserved, TestAllocateSmall, TestForEach, Test_calculateRangeOffset),
 * {@code portallocator/allocator_test.go} (TestAllocate, TestAllocateReserved, TestForEach,
 * Test_calculateRangeOffset) and {@code pkg/controller/nodeipam/ipam/cidrset/cidr_set_test.go}
 * (TestCIDRSetFullyAllocated, TestIndexToCIDRBlock, TestCIDRSet_RandomishAllocation, TestCIDRSet_AllocationOccupied,
 * TestDoubleOccupyRelease, TestGetBitforCIDR, TestOccupy, TestCIDRSetv6).
 */
final class AllocatorsTest {
  private static AllocationException.Reason reasonOf(Runnable r) {
    try {
      r.run();
    } catch (AllocationException e) {
      return e.reason();
    }
    return null;
  }

  // TestAllocate
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "192.168.1.0/24|254|192.168.1.5|192.168.0.1;192.168.1.0;192.168.1.255;192.168.2.2|192.168.1.1",
      "10.0.0.0/15|131070|10.0.0.5|10.0.0.0;10.15.255.255;10.255.255.2|10.0.0.1",
      "2001:db8:1::/48|65535|2001:db8:1::5|2001:db8::1;2001:db8:1::;2001:db8:1::1:0;2001:db8:2::2|2001:db8:1::1"})
  void serviceIpRange_allocateAll_thenReleaseReallocate(String cidr, int free, String released, String outOfRange,
      String alreadyAllocated) {
    ServiceIpRange r = new ServiceIpRange(IpPrefix.parse(cidr), new Random(7));
    assertThat(r.free()).isEqualTo(free);
    assertThat(r.cidr().toString()).isEqualTo(cidr);
    assertThat(r.family()).isEqualTo(cidr.contains(":") ? IPFamily.IPv6 : IPFamily.IPv4);
    assertThat(r.used()).isZero();
    Set<IpAddress> found = new HashSet<>();
    while (r.free() > 0) {
      IpAddress ip = r.allocateNext();
      assertThat(r.cidr().contains(ip)).isTrue();
      assertThat(found.add(ip)).as("allocated twice: %s", ip).isTrue();
    }
    assertThat(reasonOf(r::allocateNext)).isEqualTo(AllocationException.Reason.FULL);
    IpAddress rel = IpAddress.parse(released);
    r.release(rel);
    assertThat(r.free()).isEqualTo(1);
    assertThat(r.used()).isEqualTo(free - 1);
    assertThat(r.allocateNext()).isEqualTo(rel);
    r.release(rel);
    for (String s : outOfRange.split(";")) {
      assertThat(reasonOf(() -> r.allocate(IpAddress.parse(s)))).as(s)
          .isEqualTo(AllocationException.Reason.NOT_IN_RANGE);
    }
    assertThat(reasonOf(() -> r.allocate(IpAddress.parse(alreadyAllocated))))
        .isEqualTo(AllocationException.Reason.ALREADY_ALLOCATED);
    assertThat(r.free()).isEqualTo(1);
    r.allocate(rel);
    assertThat(r.free()).isZero();
    assertThat(r.used()).isEqualTo(free);
  }

  // TestAllocateTiny
  @Test
  void serviceIpRange_slash32_isFullAtOnce() {
    ServiceIpRange r = new ServiceIpRange(IpPrefix.parse("192.168.1.0/32"), new Random(1));
    assertThat(r.free()).isZero();
    assertThat(reasonOf(r::allocateNext)).isEqualTo(AllocationException.Reason.FULL);
  }

  // TestAllocateReserved: dynamic allocation fills the upper band before touching the static band
  @Test
  void serviceIpRange_dynamicFillsUpperBandFirst() {
    ServiceIpRange r = new ServiceIpRange(IpPrefix.parse("192.168.1.0/25"), new Random(3));
    int offset = r.staticBandSize();
    assertThat(offset).isEqualTo(16);
    int dynamic = 126 - offset;
    for (int i = 0; i < dynamic; i++) {
      r.allocateNext();
    }
    for (int i = offset; i < 126; i++) {
      assertThat(r.has(IpAddress.parse("192.168.1." + (i + 1)))).isTrue();
    }
    assertThat(r.free()).isEqualTo(offset);
    for (int i = 0; i < offset; i++) {
      r.allocate(IpAddress.parse("192.168.1." + (i + 1)));
    }
    assertThat(r.free()).isZero();
    r.release(IpAddress.parse("192.168.1.10"));
    assertThat(r.allocateNext()).isEqualTo(IpAddress.parse("192.168.1.10"));
    assertThat(r.free()).isZero();
  }

  // TestAllocateSmall
  @Test
  void serviceIpRange_slash30_twoAddressesThenFullForever() {
    ServiceIpRange r = new ServiceIpRange(IpPrefix.parse("192.168.1.240/30"), new Random(5));
    assertThat(r.free()).isEqualTo(2);
    Set<IpAddress> found = new HashSet<>(List.of(r.allocateNext(), r.allocateNext()));
    assertThat(found).hasSize(2);
    for (IpAddress ip : found) {
      assertThat(r.has(ip)).isTrue();
      assertThat(reasonOf(() -> r.allocate(ip))).isEqualTo(AllocationException.Reason.ALREADY_ALLOCATED);
    }
    for (int i = 0; i < 100; i++) {
      assertThat(reasonOf(r::allocateNext)).isEqualTo(AllocationException.Reason.FULL);
    }
    assertThat(r.free()).isZero();
  }

  // TestForEach
  @ParameterizedTest
  @CsvSource({"''", "192.168.1.1", "192.168.1.1;192.168.1.254", "192.168.1.1;192.168.1.128;192.168.1.254"})
  void serviceIpRange_allocated_listsExactlyTheTakenAddresses(String ips) {
    ServiceIpRange r = new ServiceIpRange(IpPrefix.parse("192.168.1.0/24"), new Random(1));
    Set<IpAddress> want = new HashSet<>();
    for (String s : ips.isEmpty() ? new String[0] : ips.split(";")) {
      r.allocate(IpAddress.parse(s));
      want.add(IpAddress.parse(s));
    }
    assertThat(r.allocated()).containsExactlyInAnyOrderElementsOf(want);
  }

  @Test
  void serviceIpRange_firstAddress_isKubernetesServiceIp() {
    assertThat(ServiceIpRange.of("10.96.0.0/12", new Random(1)).first().toString()).isEqualTo("10.96.0.1");
    assertThatThrownBy(() -> ServiceIpRange.of("10.0.0.0/8", new Random(1)))
        .hasMessageContaining("at most 20 host bits");
    assertThatThrownBy(() -> ServiceIpRange.of("10.0.0.0/30", new Random(1))).hasMessageContaining("at least 8");
    assertThatThrownBy(() -> ServiceIpRange.of("10.0.0/24", new Random(1))).hasMessageContaining("not a valid CIDR");
  }

  // ipallocator Test_calculateRangeOffset: the range size is netutils.RangeSize (2^host bits, MaxInt64 when larger)
  @ParameterizedTest
  @CsvSource({"192.168.1.1/32, 0", "fd00::1/128, 0", "192.168.1.1/30, 0", "fd00::1/126, 0", "192.168.1.1/28, 0",
      "192.168.1.1/27, 16", "fd00::1/124, 0", "fd00::1/122, 16", "192.168.1.1/22, 64", "fd00::1/118, 64",
      "192.168.1.1/8, 256", "fd00::1/12, 256"})
  void serviceIpOffset_table(String cidr, int want) {
    int hostBits = IpPrefix.parse(cidr).hostBits();
    long size = hostBits >= 63 ? Long.MAX_VALUE : 1L << hostBits;
    assertThat(BandedBitmap.serviceIpOffset(size)).isEqualTo(want);
  }

  // portallocator Test_calculateRangeOffset
  @ParameterizedTest
  @CsvSource({"2768, 86", "10, 0", "16, 0", "128, 16", "2048, 64", "4096, 128", "8192, 128"})
  void nodePortOffset_table(int size, int want) {
    assertThat(BandedBitmap.nodePortOffset(size)).isEqualTo(want);
  }

  // portallocator TestAllocate: range 10000-10200
  @Test
  void portRange_allocateAll_thenReleaseReallocate() {
    PortRange r = new PortRange(10000, 201, new Random(11));
    assertThat(r.free()).isEqualTo(201);
    assertThat(r.used()).isZero();
    Set<Integer> found = new HashSet<>();
    while (r.free() > 0) {
      int p = r.allocateNext();
      assertThat(p).isBetween(10000, 10200);
      assertThat(found.add(p)).as("allocated twice: %s", p).isTrue();
    }
    assertThat(reasonOf(r::allocateNext)).isEqualTo(AllocationException.Reason.FULL);
    r.release(10005);
    assertThat(r.free()).isEqualTo(1);
    assertThat(r.used()).isEqualTo(200);
    assertThat(r.allocateNext()).isEqualTo(10005);
    r.release(10005);
    assertThat(reasonOf(() -> r.allocate(1))).isEqualTo(AllocationException.Reason.NOT_IN_RANGE);
    assertThat(reasonOf(() -> r.allocate(10001))).isEqualTo(AllocationException.Reason.ALREADY_ALLOCATED);
    assertThat(reasonOf(() -> r.allocate(20000))).isEqualTo(AllocationException.Reason.NOT_IN_RANGE);
    assertThat(reasonOf(() -> r.allocate(10201))).isEqualTo(AllocationException.Reason.NOT_IN_RANGE);
    assertThat(r.free()).isEqualTo(1);
    assertThat(r.used()).isEqualTo(200);
    r.allocate(10005);
    assertThat(r.free()).isZero();
    assertThat(r.used()).isEqualTo(201);
  }

  // portallocator TestAllocateReserved: range 30000-30128, the dynamic band fills before the static one
  @Test
  void portRange_dynamicFillsUpperBandFirst() {
    PortRange r = new PortRange(30000, 129, new Random(13));
    int offset = r.staticBandSize();
    assertThat(offset).isEqualTo(16);
    for (int i = 0; i < 129 - offset; i++) {
      r.allocateNext();
    }
    for (int i = offset; i < 129; i++) {
      assertThat(r.has(30000 + i)).as("port %s", 30000 + i).isTrue();
    }
    assertThat(r.free()).isEqualTo(offset);
    for (int i = 0; i < offset; i++) {
      r.allocate(30000 + i);
    }
    assertThat(r.free()).isZero();
    r.release(30053);
    r.allocateNext();
    assertThat(r.free()).isZero();
  }

  // portallocator TestForEach: range 10000-10200; the ports reported allocated are exactly the case's
  @ParameterizedTest
  @CsvSource({"''", "10000", "10000;10200", "10000;10099;10200"})
  void portRange_has_reportsExactlyTheTakenPorts(String ports) {
    PortRange r = new PortRange(10000, 201, new Random(1));
    Set<Integer> want = new HashSet<>();
    for (String s : ports.isEmpty() ? new String[0] : ports.split(";")) {
      r.allocate(Integer.parseInt(s));
      assertThat(r.has(Integer.parseInt(s))).isTrue();
      want.add(Integer.parseInt(s));
    }
    Set<Integer> got = new HashSet<>();
    for (int p = 10000; p <= 10200; p++) {
      if (r.has(p)) {
        got.add(p);
      }
    }
    assertThat(got).isEqualTo(want);
  }

  @Test
  void portRange_default_allocatesEveryPortOnceWithClearErrors() {
    PortRange r = PortRange.defaultRange(new Random(9));
    assertThat(r.staticBandSize()).isEqualTo(86);
    r.allocate(30080);
    assertThatThrownBy(() -> r.allocate(30080)).hasMessage("provided port is already allocated");
    assertThatThrownBy(() -> r.allocate(29999))
        .hasMessage("provided port is not in the valid range. The range of valid ports is 30000-32767");
    Set<Integer> seen = new HashSet<>();
    seen.add(30080);
    while (r.free() > 0) {
      int p = r.allocateNext();
      assertThat(p).isBetween(30000, 32767);
      assertThat(seen.add(p)).isTrue();
    }
    assertThat(seen).hasSize(2768);
    assertThatThrownBy(r::allocateNext).hasMessage("range is full");
  }

  // TestCIDRSetFullyAllocated
  @ParameterizedTest
  @CsvSource({"127.123.234.0/30, 30, 127.123.234.0/30", "beef:1234::/30, 30, beef:1234::/30"})
  void cidrSet_fullyAllocated_releaseThenSameBlock(String cluster, int mask, String expected) {
    CidrSet a = new CidrSet(IpPrefix.parse(cluster), mask);
    IpPrefix p = a.allocateNext();
    assertThat(p.toString()).isEqualTo(expected);
    assertThat(reasonOf(a::allocateNext)).isEqualTo(AllocationException.Reason.FULL);
    a.release(p);
    assertThat(a.allocateNext().toString()).isEqualTo(expected);
    assertThat(reasonOf(a::allocateNext)).isEqualTo(AllocationException.Reason.FULL);
  }

  // TestIndexToCIDRBlock
  @ParameterizedTest
  @CsvSource({
      "127.123.3.0/16, 24, 0, 127.123.0.0/24",
      "127.123.0.0/16, 24, 15, 127.123.15.0/24",
      "192.168.5.219/28, 32, 5, 192.168.5.213/32",
      "2001:0db8:1234:3::/48, 64, 0, 2001:db8:1234::/64",
      "2001:0db8:1234::/48, 64, 15, 2001:db8:1234:f::/64",
      "2001:0db8:85a3::8a2e:0370:7334/50, 63, 6425, 2001:db8:85a3:3232::/63",
      "2001:0db8::/32, 48, 0, 2001:db8::/48",
      "2001:0db8::/32, 48, 15, 2001:db8:f::/48",
      "2001:0db8:85a3::8a2e:0370:7334/32, 48, 6425, 2001:db8:1919::/48",
      "2001:0db8:1234:ff00::/56, 72, 0, 2001:db8:1234:ff00::/72",
      "2001:0db8:1234:ff00::/56, 72, 15, 2001:db8:1234:ff00:f00::/72",
      "2001:0db8:1234:ff00::0370:7334/56, 72, 6425, 2001:db8:1234:ff19:1900::/72",
      "2001:0db8:1234:0:1234::/80, 96, 0, 2001:db8:1234:0:1234::/96",
      "2001:0db8:1234:0:1234::/80, 96, 15, 2001:db8:1234:0:1234:f::/96",
      "2001:0db8:1234:ff00::0370:7334/80, 96, 6425, 2001:db8:1234:ff00:0:1919::/96"})
  void cidrSet_block_indexToCidr(String cluster, int mask, int index, String want) {
    assertThat(new CidrSet(IpPrefix.parse(cluster), mask).block(index).toString()).isEqualTo(want);
  }

  // TestCIDRSet_RandomishAllocation: allocate all 256, release all, allocate again: the same blocks in the same order
  @ParameterizedTest
  @CsvSource({"127.123.234.0/16", "beef:1234::/16"})
  void cidrSet_releaseAllThenReallocate_sameBlocksSameOrder(String cluster) {
    CidrSet a = new CidrSet(IpPrefix.parse(cluster), 24);
    List<IpPrefix> cidrs = new java.util.ArrayList<>();
    for (int i = 0; i < 256; i++) {
      cidrs.add(a.allocateNext());
    }
    assertThat(reasonOf(a::allocateNext)).isEqualTo(AllocationException.Reason.FULL);
    cidrs.forEach(a::release);
    List<IpPrefix> again = new java.util.ArrayList<>();
    for (int i = 0; i < 256; i++) {
      again.add(a.allocateNext());
    }
    assertThat(reasonOf(a::allocateNext)).isEqualTo(AllocationException.Reason.FULL);
    assertThat(again).isEqualTo(cidrs);
  }

  // TestCIDRSet_AllocationOccupied
  @ParameterizedTest
  @CsvSource({"127.123.234.0/16", "beef:1234::/16"})
  void cidrSet_sequentialAllocation_occupyAndRelease(String cluster) {
    CidrSet a = new CidrSet(IpPrefix.parse(cluster), 24);
    List<IpPrefix> cidrs = new java.util.ArrayList<>();
    for (int i = 0; i < 256; i++) {
      cidrs.add(a.allocateNext());
    }
    assertThat(reasonOf(a::allocateNext)).isEqualTo(AllocationException.Reason.FULL);
    cidrs.forEach(a::release);
    for (int i = 128; i < 256; i++) {
      a.occupy(cidrs.get(i));
    }
    a.occupy(cidrs.get(128));
    List<IpPrefix> again = new java.util.ArrayList<>();
    for (int i = 0; i < 128; i++) {
      again.add(a.allocateNext());
    }
    assertThat(reasonOf(a::allocateNext)).isEqualTo(AllocationException.Reason.FULL);
    assertThat(again).containsExactlyInAnyOrderElementsOf(cidrs.subList(0, 128));
  }

  // TestDoubleOccupyRelease
  @Test
  void cidrSet_doubleOccupyRelease_counts() {
    CidrSet a = new CidrSet(IpPrefix.parse("10.42.0.0/16"), 24);
    String[][] ops = {{"10.42.5.0/24", "occupy", "1"}, {"10.42.9.0/24", "occupy", "2"},
        {"10.42.8.0/22", "occupy", "5"}, {"10.42.9.0/24", "occupy", "5"}, {"10.42.9.0/24", "release", "4"},
        {"10.42.9.0/24", "release", "4"}, {"10.42.4.0/22", "release", "3"}};
    for (String[] op : ops) {
      if (op[1].equals("occupy")) {
        a.occupy(IpPrefix.parse(op[0]));
      } else {
        a.release(IpPrefix.parse(op[0]));
      }
      assertThat(a.allocatedCount()).as("%s %s", op[1], op[0]).isEqualTo(Integer.parseInt(op[2]));
    }
    for (int i = 0; i < 256 - 3; i++) {
      a.allocateNext();
    }
    assertThat(reasonOf(a::allocateNext)).isEqualTo(AllocationException.Reason.FULL);
  }

  // TestGetBitforCIDR
  @ParameterizedTest
  @CsvSource({"127.0.0.0/8, 16, 127.0.0.0/16, 0", "be00::/8, 16, be00::/16, 0", "127.0.0.0/8, 16, 127.123.0.0/16, 123",
      "be00::/8, 16, beef::/16, 239", "127.0.0.0/8, 16, 127.168.0.0/16, 168", "be00::/8, 16, be68::/16, 104",
      "127.0.0.0/8, 16, 127.224.0.0/16, 224", "be00::/8, 16, be24::/16, 36", "192.168.0.0/16, 24, 192.168.12.0/24, 12",
      "beef::/16, 24, beef:1200::/24, 18", "192.168.0.0/16, 24, 192.168.151.0/24, 151",
      "beef::/16, 24, beef:9700::/24, 151", "192.168.0.0/16, 24, 127.168.224.0/24, -1",
      "beef::/16, 24, 2001:db00::/24, -1"})
  void cidrSet_indexOf(String cluster, int mask, String sub, int want) {
    CidrSet a = new CidrSet(IpPrefix.parse(cluster), mask);
    if (want < 0) {
      assertThat(reasonOf(() -> a.indexOf(IpPrefix.parse(sub)))).isEqualTo(AllocationException.Reason.NOT_IN_RANGE);
    } else {
      assertThat(a.indexOf(IpPrefix.parse(sub))).isEqualTo(want);
    }
  }

  // TestOccupy: after occupying the subnet exactly the blocks begin..end are used
  @ParameterizedTest
  @CsvSource({
      "127.0.0.0/8, 16, 127.0.0.0/8, 0, 255", "2001:beef:1200::/40, 48, 2001:beef:1200::/40, 0, 255",
      "127.0.0.0/8, 16, 127.0.0.0/2, 0, 255", "2001:beef:1200::/40, 48, 2001:beef:1234::/34, 0, 255",
      "127.0.0.0/8, 16, 127.0.0.0/16, 0, 0", "2001:beef:1200::/40, 48, 2001:beef:1200::/48, 0, 0",
      "127.0.0.0/8, 32, 127.0.0.0/16, 0, 65535", "2001:beef:1200::/48, 64, 2001:beef:1200::/48, 0, 65535",
      "127.0.0.0/7, 16, 127.0.0.0/15, 256, 257", "2001:beef:7f00::/39, 48, 2001:beef:7f00::/47, 256, 257",
      "127.0.0.0/7, 15, 127.0.0.0/15, 128, 128", "2001:beef:7f00::/39, 47, 2001:beef:7f00::/47, 128, 128",
      "127.0.0.0/7, 18, 127.0.0.0/15, 1024, 1031", "2001:beef:7f00::/39, 50, 2001:beef:7f00::/47, 1024, 1031"})
  void cidrSet_occupy_marksExactlyTheCoveredBlocks(String cluster, int mask, String sub, int begin, int end) {
    CidrSet a = new CidrSet(IpPrefix.parse(cluster), mask);
    a.occupy(IpPrefix.parse(sub));
    // every block of begin..end used and no more counted: no block outside is used
    assertThat(a.allocatedCount()).isEqualTo(end - begin + 1);
    for (int i = begin; i <= end; i++) {
      assertThat(a.isAllocated(a.block(i))).as("block %s", i).isTrue();
    }
  }

  // TestCIDRSetv6: the first two blocks allocated, or the set refused
  @ParameterizedTest
  @CsvSource({"127.0.0.0/8, 32, 127.0.0.0/32, 127.0.0.1/32",
      "2001:beef:1234:369b::/60, 64, 2001:beef:1234:3690::/64, 2001:beef:1234:3691::/64"})
  void cidrSet_firstTwoAllocations(String cluster, int mask, String first, String second) {
    CidrSet a = new CidrSet(IpPrefix.parse(cluster), mask);
    assertThat(a.allocateNext().toString()).isEqualTo(first);
    assertThat(a.allocateNext().toString()).isEqualTo(second);
  }

  // TestCIDRSetv6 "Max cluster subnet size with IPv6": /49 in a /32 is refused
  @Test
  void cidrSet_ipv6MaskTooMuchLonger_isRefused() {
    assertThatThrownBy(() -> new CidrSet(IpPrefix.parse("beef:1234::/32"), 49)).hasMessageContaining("too big");
    assertThatThrownBy(() -> new CidrSet(IpPrefix.parse("2001:db8::/32"), 64)).hasMessageContaining("too big");
    assertThat(new CidrSet(IpPrefix.parse("10.0.0.0/16"), 24).capacity()).isEqualTo(256);
  }

  @Test
  void ipAddress_parseAndPrint_canonical() {
    assertThat(IpAddress.parse("1234::5678:0000:0000:9abc:def0").toString()).isEqualTo("1234::5678:0:0:9abc:def0");
    assertThat(IpAddress.parse("::ffff:1.2.3.4").toString()).isEqualTo("::ffff:102:304");
    assertThat(IpAddress.parse("2001:db8:0:0:1:0:0:1").toString()).isEqualTo("2001:db8::1:0:0:1");
    assertThat(IpAddress.tryParse("01.2.3.4")).isNull();
    assertThat(IpAddress.tryParse("1.2.3")).isNull();
    assertThat(IpAddress.tryParse("1::2::3")).isNull();
    assertThat(IpAddress.tryParse("example.com")).isNull();
  }
}
