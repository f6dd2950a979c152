package io.fleetkit.networking.ipam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The legacy IP and CIDR fields read as upstream's consumers read them ({@code ParseIPSloppy}, {@code
 * ParseCIDRSloppy}): a Service's requested cluster IP and a node's pod CIDRs with leading zeros, an IPv4-mapped
 * address as IPv4.
 */
final class LegacyIpParseTest {

  @Test
  void parseSloppy_leadingZerosAndV4Mapped_readAsUpstream() {
    assertThat(IpAddress.parseSloppy("010.000.000.001")).isEqualTo(IpAddress.parse("10.0.0.1"));
    assertThat(IpAddress.parseSloppy("::ffff:10.0.0.1")).isEqualTo(IpAddress.parse("10.0.0.1"));
    assertThat(IpAddress.tryParseSloppy("10.0.0.256")).isNull();
    assertThat(IpAddress.tryParse("010.0.0.1")).as("the strict reading is unchanged").isNull();

    assertThat(IpPrefix.parseSloppy("10.244.001.0/024")).isEqualTo(IpPrefix.parse("10.244.1.0/24"));
    assertThat(IpPrefix.parseSloppy("::ffff:10.244.1.0/120")).isEqualTo(IpPrefix.parse("10.244.1.0/24"));
    assertThat(IpPrefix.parseSloppy("fd00::1/64")).isEqualTo(IpPrefix.parse("fd00::/64"));
    assertThat(IpPrefix.parseSloppy("fd00::1/64").family()).isEqualTo(IPFamily.IPv6);
    assertThatThrownBy(() -> IpPrefix.parseSloppy("10.0.0.0/33")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"10.0.0.0/33\" is not a valid CIDR");
    assertThatThrownBy(() -> IpPrefix.parseSloppy("::ffff:10.0.0.0/64"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shorter than /96");
  }

  /** A requested cluster IP with leading zeros is allocated as the address it reads as, written canonically. */
  @Test
  void allocate_clusterIpWithLeadingZeros_allocatedCanonically() {
    ServiceAddressAllocator allocator = new ServiceAddressAllocator(ServiceIpRange.of("10.96.0.0/16",
        new Random(1)), null, PortRange.defaultRange(new Random(3)));
    Service s = allocator.allocate(Service.of(ObjectMeta.of("shop", "web"), ServiceSpec.builder()
        .selector("app", "web").port(ServicePort.of(80)).clusterIP("010.096.000.010").build()));

    assertThat(s.spec().clusterIPs()).containsExactly("10.96.0.10");
    assertThat(s.spec().clusterIP()).isEqualTo("10.96.0.10");
    assertThat(s.spec().ipFamilies()).containsExactly(IPFamily.IPv4);
  }
}
