package io.fleetkit.networking.ipam;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.IPFamilyPolicy;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Over every combination of policy, requested families, headlessness, selector and cluster stack: the allocator
 * either refuses the Service and holds nothing, or gives it a policy, one or two distinct families (one when
 * SingleStack; two when not SingleStack on a dual-stack cluster or for a headless Service without selector), and,
 * unless headless, one address per family in that order.
 */
final class ServiceAddressAllocatorPropertiesTest {
  @Provide
  Arbitrary<List<IPFamily>> families() {
    return Arbitraries.of(List.of(), List.of(IPFamily.IPv4), List.of(IPFamily.IPv6),
        List.of(IPFamily.IPv4, IPFamily.IPv6), List.of(IPFamily.IPv6, IPFamily.IPv4));
  }

  @Provide
  Arbitrary<Optional<IPFamilyPolicy>> policy() {
    return Arbitraries.of(IPFamilyPolicy.class).optional(0.7);
  }

  @Property(tries = 400)
  void allocate_familiesPolicyAndAddressesAgree(@ForAll("policy") Optional<IPFamilyPolicy> policy,
      @ForAll("families") List<IPFamily> families, @ForAll boolean headless, @ForAll boolean selector,
      @ForAll boolean dualCluster) {
    ServiceIpRange v4 = ServiceIpRange.of("10.96.0.0/24", new Random(1));
    ServiceIpRange v6 = ServiceIpRange.of("fd00::/120", new Random(2));
    ServiceAddressAllocator allocator = new ServiceAddressAllocator(v4, dualCluster ? v6 : null,
        PortRange.defaultRange(new Random(3)));
    ServiceSpec.Builder b = ServiceSpec.builder().port(ServicePort.of(80)).ipFamilies(families)
        .ipFamilyPolicy(policy.orElse(null));
    if (headless) {
      b.headless();
    }
    if (selector) {
      b.selector("app", "web");
    }
    Service asked = Service.of(ObjectMeta.of("ns", "svc"), b.build());
    Service got;
    try {
      got = allocator.allocate(asked);
    } catch (ValidationException e) {
      assertThat(v4.used() + v6.used()).isZero();
      assertThat(e.violations()).isNotEmpty().allSatisfy(v -> assertThat(v.object()).isEqualTo("Service ns/svc"));
      return;
    }
    ServiceSpec s = got.spec();
    assertThat(s.ipFamilyPolicy()).isNotNull();
    assertThat(s.ipFamilies()).isNotEmpty().hasSizeLessThanOrEqualTo(2);
    assertThat(new HashSet<>(s.ipFamilies())).hasSameSizeAs(s.ipFamilies());
    assertThat(s.ipFamilies()).startsWith(families.isEmpty() ? new IPFamily[] {IPFamily.IPv4}
        : new IPFamily[] {families.get(0)});
    if (s.ipFamilyPolicy() == IPFamilyPolicy.SingleStack) {
      assertThat(s.ipFamilies()).hasSize(1);
    } else if (dualCluster || (headless && !selector)) {
      assertThat(s.ipFamilies()).hasSize(2);
    }
    if (headless) {
      assertThat(s.clusterIPs()).containsExactly(ServiceSpec.CLUSTER_IP_NONE);
      assertThat(v4.used() + v6.used()).isZero();
    } else {
      assertThat(s.clusterIPs()).hasSameSizeAs(s.ipFamilies());
      for (int i = 0; i < s.clusterIPs().size(); i++) {
        assertThat(IPFamily.of(s.clusterIPs().get(i))).isEqualTo(s.ipFamilies().get(i));
      }
      assertThat(s.clusterIP()).isEqualTo(s.clusterIPs().get(0));
      assertThat(v4.used() + v6.used()).isEqualTo(s.clusterIPs().size());
    }
  }
}
