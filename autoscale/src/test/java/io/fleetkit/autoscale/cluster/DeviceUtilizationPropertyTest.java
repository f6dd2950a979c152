package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link DeviceUtilization} of pools of atomic devices: a pool's utilization is the share of its devices allocated
 * without admin access (each device once, however many claims name it), so it lies in [0, 1]; the highest is the
 * largest of the pools'; an admin-access allocation changes nothing; one more device allocated never lowers it.
 */
final class DeviceUtilizationPropertyTest {
  private static final String DRIVER = "gpu.example.com";

  @Property(tries = 300)
  void atomicPools_shareOfDevicesAllocatedWithoutAdminAccess(@ForAll @IntRange(min = 1, max = 3) int pools,
      @ForAll @IntRange(min = 1, max = 12) int devices, @ForAll @IntRange(min = 1, max = 4) int perSlice,
      @ForAll @IntRange(min = 0, max = 20) int allocations, @ForAll long seed) {
    Random rnd = new Random(seed);
    int slicePer = Math.min(perSlice, devices);
    int total = devices - devices % slicePer; // upstream's fixture: whole slices
    List<ResourceSlice> slices = new ArrayList<>();
    for (int p = 0; p < pools; p++) {
      slices.addAll(DeviceUtilizationTest.slices(DRIVER, "pool" + p, 0, total, slicePer));
    }
    List<ResourceClaim> claims = new ArrayList<>();
    List<Set<Integer>> used = new ArrayList<>();
    for (int p = 0; p < pools; p++) {
      used.add(new HashSet<>());
    }
    for (int i = 0; i < allocations; i++) {
      int pool = rnd.nextInt(pools);
      int device = rnd.nextInt(total);
      boolean admin = rnd.nextInt(4) == 0;
      if (!admin) {
        used.get(pool).add(device);
      }
      claims.add(DeviceUtilizationTest.claim("c" + i, List.of(new DeviceRequestAllocationResult("r", DRIVER,
          "pool" + pool, DeviceUtilizationTest.deviceName(DRIVER, "pool" + pool, device), admin))));
    }
    DeviceUtilization u = DeviceUtilization.of(slices, claims);
    assertThat(u.known()).isTrue();
    double highest = 0;
    for (int p = 0; p < pools; p++) {
      double want = (double) used.get(p).size() / total;
      assertThat(u.byPool().get(DRIVER).get("pool" + p)).isEqualTo(want).isBetween(0.0, 1.0);
      highest = Math.max(highest, want);
    }
    assertThat(u.highest()).isEqualTo(highest);

    // an admin-access allocation of any device changes nothing
    List<ResourceClaim> withAdmin = new ArrayList<>(claims);
    int pool = rnd.nextInt(pools);
    withAdmin.add(DeviceUtilizationTest.claim("admin", List.of(new DeviceRequestAllocationResult("r", DRIVER,
        "pool" + pool, DeviceUtilizationTest.deviceName(DRIVER, "pool" + pool, rnd.nextInt(total)), true))));
    assertThat(DeviceUtilization.of(slices, withAdmin)).isEqualTo(u);

    // one more device allocated never lowers any pool's utilization
    List<ResourceClaim> more = new ArrayList<>(claims);
    more.add(DeviceUtilizationTest.claim("more", List.of(new DeviceRequestAllocationResult("r", DRIVER,
        "pool" + pool, DeviceUtilizationTest.deviceName(DRIVER, "pool" + pool, rnd.nextInt(total))))));
    DeviceUtilization after = DeviceUtilization.of(slices, more);
    for (int p = 0; p < pools; p++) {
      assertThat(after.byPool().get(DRIVER).get("pool" + p))
          .isGreaterThanOrEqualTo(u.byPool().get(DRIVER).get("pool" + p));
    }
    assertThat(after.highest()).isGreaterThanOrEqualTo(u.highest());
  }
}
