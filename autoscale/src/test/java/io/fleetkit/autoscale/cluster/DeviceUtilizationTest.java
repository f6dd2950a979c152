package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.CounterSet;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceCounterConsumption;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourceClaimStatus;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's {@code cluster-autoscaler/simulator/dynamicresources/utils/utilization_test.go} (kubernetes/autoscaler,
 * the version with partitionable devices, blob of commit 19e953547bfd), its four tables as data:
 * {@code TestDynamicResourceUtilization} (12 cases), {@code TestCalculateAtomicDevicesPoolUtilization} (4),
 * {@code TestCalculatePartitionableDevicesPoolUtilization} (8) and {@code TestGetUniquePartitionableDevicesCount} (9).
 *
 * <p>Fixture differences, same inputs in substance: device names are DNS labels ({@code driver-foo-com-pool1-dev-0}
 * for upstream's {@code driver.foo.com-pool1-dev-0}), as FleetKit's ResourceSlice checks them; the node's claims are
 * passed as upstream's {@code NodeInfo.ResourceClaims()} gives them (each claim once). In "Multiple Pods with
 * AdminAccess ResourceClaims don't count for utilization" upstream's two pod sets share pod and claim uids, and its
 * NodeInfo keeps the second (non-admin) set's claims; here the admin-access set has its own claim names and both sets
 * are passed, which gives upstream's answer through the admin-access rule rather than through the uid collision.
 * Upstream's "no DRA resources" node has a pod without claims, which here is no claim at all.
 */
final class DeviceUtilizationTest {
  private static final String FOO = "driver.foo.com";
  private static final String BAR = "driver.bar.com";
  private static final String NODE = "node";

  /** A case of {@code TestDynamicResourceUtilization}; {@code wantByPool == null}: an error is wanted. */
  record Case(String name, List<ResourceSlice> slices, List<ResourceClaim> claims,
      @Nullable Map<String, Map<String, Double>> wantByPool, String wantHighestName, double wantHighest) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> dynamicResourceUtilization() {
    return Stream.of(
        new Case("no DRA resources", List.of(), List.of(), Map.of(), "", 0),
        new Case("single slice, single pool, 6/10 devices used", slices(FOO, "pool1", 0, 10, 1),
            claims(FOO, "pool1", "", 6, 1, false), Map.of(FOO, Map.of("pool1", 0.6)), FOO + "/pool1", 0.6),
        new Case("multiple slices, multiple pools, multiple drivers",
            concat(slices(FOO, "pool1", 0, 10, 2), slices(FOO, "pool2", 0, 20, 5), slices(BAR, "pool1", 0, 8, 2)),
            concat(claims(FOO, "pool1", "", 6, 2, false), claims(FOO, "pool2", "", 18, 3, false),
                claims(BAR, "pool1", "", 2, 1, false)),
            Map.of(FOO, Map.of("pool1", 0.6, "pool2", 0.9), BAR, Map.of("pool1", 0.25)), FOO + "/pool2", 0.9),
        new Case("old pool generations are ignored",
            concat(slices(FOO, "pool1", 0, 10, 2), slices(FOO, "pool1", 1, 20, 2), slices(FOO, "pool1", 2, 30, 2)),
            claims(FOO, "pool1", "", 6, 2, false), Map.of(FOO, Map.of("pool1", 0.2)), FOO + "/pool1", 0.2),
        new Case("incomplete newest pool generation is an error",
            concat(slices(FOO, "pool1", 0, 10, 2), slices(FOO, "pool1", 1, 20, 2),
                slices(FOO, "pool1", 2, 30, 2).subList(0, 14)),
            claims(FOO, "pool1", "", 6, 2, false), null, "", Double.NaN),
        new Case("incomplete older pool generations are not an error",
            concat(slices(FOO, "pool1", 0, 10, 2).subList(0, 3), slices(FOO, "pool1", 1, 20, 2).subList(0, 7),
                slices(FOO, "pool1", 2, 30, 2)),
            claims(FOO, "pool1", "", 6, 2, false), Map.of(FOO, Map.of("pool1", 0.2)), FOO + "/pool1", 0.2),
        new Case("partitionable devices, 2/4 partitions used", partitionable(FOO, "pool1", "gpu-0", 1, 4, 2),
            List.of(customClaim("pod", FOO, "pool1", "gpu-0-partition-0", "gpu-0-partition-1")),
            Map.of(FOO, Map.of("pool1", 0.5)), FOO + "/pool1", 0.5),
        new Case("multi-GPU partitionable devices, 2/8 partitions used",
            concat(partitionable(FOO, "pool1", "gpu-0", 1, 4, 4), partitionable(FOO, "pool1", "gpu-1", 1, 4, 4)),
            List.of(customClaim("pod", FOO, "pool1", "gpu-0-partition-0", "gpu-0-partition-1")),
            Map.of(FOO, Map.of("pool1", 0.25)), FOO + "/pool1", 0.25),
        // 1/4 * 1/4 + 1 * 1/4 + 1 * 1/4 + 0 * 1/4 = 0.5625
        new Case("multi-GPU mixed partitionable & atomic devices",
            concat(partitionable(FOO, "pool1", "gpu-0", 1, 4, 6), partitionable(FOO, "pool1", "gpu-1", 1, 4, 6),
                slices(FOO, "pool1", 1, 2, 1)),
            concat(List.of(customClaim("pod1", FOO, "pool1", "gpu-0-partition-0"),
                customClaim("pod2", FOO, "pool1", "gpu-1-partition-0", "gpu-1-partition-1", "gpu-1-partition-2",
                    "gpu-1-partition-3")), claims(FOO, "pool1", "", 1, 1, false)),
            Map.of(FOO, Map.of("pool1", 0.5625)), FOO + "/pool1", 0.5625),
        new Case("Single Pod with AdminAccess ResourceClaim doesn't count for utilization",
            slices(FOO, "pool1", 0, 10, 1), claims(FOO, "pool1", "", 6, 1, true), Map.of(FOO, Map.of("pool1", 0.0)),
            FOO + "/pool1", 0),
        new Case("Multiple Pods with AdminAccess ResourceClaims don't count for utilization",
            slices(FOO, "pool1", 0, 10, 1),
            concat(claims(FOO, "pool1", "admin-", 6, 1, true), claims(FOO, "pool1", "", 6, 1, false)),
            Map.of(FOO, Map.of("pool1", 0.6)), FOO + "/pool1", 0.6),
        new Case("Pod with mixed AdminAccess requests counts only non-admin", slices(FOO, "pool1", 0, 10, 1),
            mixedAdminAccess(FOO, "pool1", 6, true, true, false, false, false, false),
            Map.of(FOO, Map.of("pool1", 0.4)), FOO + "/pool1", 0.4))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void dynamicResourceUtilization(Case c) {
    DeviceUtilization u = DeviceUtilization.of(c.slices(), c.claims());
    if (c.wantByPool() == null) {
      assertThat(u.known()).as("known").isFalse();
      assertThat(u.error()).as("error").isNotBlank();
      assertThat(u.byPool()).as("byPool").isEmpty();
      assertThat(u.highest()).as("highest").isNaN();
      assertThat(u.highestPool()).as("highestPool").isEmpty();
      return;
    }
    assertThat(u.error()).as("error").isNull();
    assertThat(u.byPool()).as("byPool").isEqualTo(c.wantByPool());
    assertThat(u.highestPool()).as("highestPool").isEqualTo(c.wantHighestName());
    assertThat(u.highest()).as("highest").isEqualTo(c.wantHighest());
  }

  // upstream TestCalculateAtomicDevicesPoolUtilization: no devices, no allocated devices, all devices allocated,
  // partial allocation
  @Test
  void calculateAtomicDevicesPoolUtilization() {
    assertThat(DeviceUtilization.atomicUtilization(0, 0)).as("no devices").isZero();
    assertThat(DeviceUtilization.atomicUtilization(0, 2)).as("no allocated devices").isZero();
    assertThat(DeviceUtilization.atomicUtilization(2, 2)).as("all devices allocated").isEqualTo(1);
    assertThat(DeviceUtilization.atomicUtilization(1, 3)).as("partial allocation").isEqualTo(1.0 / 3.0);
  }

  static Stream<Arguments> calculatePartitionableDevicesPoolUtilization() {
    Device dev0 = consuming("dev-0", "counter-set-0", "memory", "10Gi");
    Device part0 = consuming("dev-0-partition-0", "counter-set-0", "memory", "5Gi");
    Device part1 = consuming("dev-0-partition-1", "counter-set-0", "memory", "5Gi");
    CounterSet set0 = counters("counter-set-0", "memory", "10Gi");
    Device dev0Two = consuming("dev-0", "counter-set-0", "memory", "10Gi", "cores", "8");
    Device part0Two = consuming("dev-0-partition-0", "counter-set-0", "memory", "5Gi", "cores", "6");
    Device part1Two = consuming("dev-0-partition-1", "counter-set-0", "memory", "5Gi", "cores", "2");
    List<Device> complexTotal = List.of(consuming("dev-0", "counter-set-0", "memory", "100Gi", "cores", "32"),
        consuming("dev-0-partition-0", "counter-set-0", "memory", "25Gi", "cores", "8"),
        consuming("dev-0-partition-1", "counter-set-0", "memory", "25Gi", "cores", "16"),
        consuming("dev-0-partition-2", "counter-set-0", "memory", "50Gi", "cores", "8"),
        consuming("dev-1", "counter-set-1", "memory", "100Gi", "cores", "32"),
        consuming("dev-1-partition-0", "counter-set-1", "memory", "50Gi", "cores", "16"),
        consuming("dev-1-partition-1", "counter-set-1", "memory", "50Gi", "cores", "16"),
        consuming("dev-2", "counter-set-2", "memory", "100Gi", "cores", "32"),
        consuming("dev-3", "counter-set-3", "memory", "100Gi", "cores", "32"));
    List<Device> complexAllocated = List.of(complexTotal.get(1), complexTotal.get(3), complexTotal.get(5),
        complexTotal.get(6), complexTotal.get(7));
    List<CounterSet> complexSets = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      complexSets.add(counters("counter-set-" + i, "memory", "100Gi", "cores", "32"));
    }
    return Stream.of(
        Arguments.of("no devices", List.of(), List.of(), List.of(), 0.0),
        Arguments.of("no allocated devices", List.of(), List.of(Device.of("dev-0").withConsumesCounters(
            new DeviceCounterConsumption("counter-set-0", Map.of()))), List.of(set0), 0.0),
        Arguments.of("partial allocation", List.of(part0), List.of(dev0, part0, part1), List.of(set0), 0.5),
        Arguments.of("full allocation of one device, all partitions used", List.of(part0, part1),
            List.of(dev0, part0, part1), List.of(set0), 1.0),
        Arguments.of("full allocation of one device, 1 device used", List.of(dev0), List.of(dev0, part0, part1),
            List.of(set0), 1.0),
        Arguments.of("full allocation of one device, multiple counters used", List.of(dev0Two),
            List.of(dev0Two, part0Two, part1Two), List.of(counters("counter-set-0", "memory", "10Gi", "cores", "16")),
            1.0),
        Arguments.of("partial allocation of one device, multiple counters used", List.of(part0Two),
            List.of(dev0Two, part0Two, part1Two), List.of(counters("counter-set-0", "memory", "10Gi", "cores", "8")),
            0.75),
        Arguments.of("complex allocation of multiple devices, multiple counters used", complexAllocated,
            complexTotal, complexSets, 0.6875));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void calculatePartitionableDevicesPoolUtilization(String name, List<Device> allocated, List<Device> total,
      List<CounterSet> sets, double want) {
    assertThat(DeviceUtilization.partitionableUtilization(allocated, total, sets)).isEqualTo(want);
  }

  static Stream<Arguments> getUniquePartitionableDevicesCount() {
    return Stream.of(
        Arguments.of("no devices", List.of(), 0),
        Arguments.of("single atomic device (no counters)", List.of(Device.of("gpu-0")), 0),
        Arguments.of("multiple atomic devices (no counters)",
            List.of(Device.of("gpu-0"), Device.of("gpu-1"), Device.of("cpu-0")), 0),
        Arguments.of("single partitionable device", List.of(onSet("gpu-0-whole", "gpu-0-counters")), 1),
        Arguments.of("single GPU partitioned into 4 devices", List.of(onSet("gpu-0-whole", "gpu-0-counters"),
            onSet("gpu-0-half-1", "gpu-0-counters"), onSet("gpu-0-half-2", "gpu-0-counters"),
            onSet("gpu-0-quarter-1", "gpu-0-counters")), 1),
        Arguments.of("two GPUs each partitioned into 2 devices", List.of(onSet("gpu-0-whole", "gpu-0-counters"),
            onSet("gpu-0-half", "gpu-0-counters"), onSet("gpu-1-whole", "gpu-1-counters"),
            onSet("gpu-1-half", "gpu-1-counters")), 2),
        Arguments.of("mixed atomic and partitionable devices", List.of(Device.of("cpu-0"),
            onSet("gpu-0-whole", "gpu-0-counters"), onSet("gpu-0-half", "gpu-0-counters")), 1),
        Arguments.of("complex multi-GPU scenario", List.of(onSet("gpu-0-whole", "gpu-0-counters"),
            onSet("gpu-0-half-1", "gpu-0-counters"), onSet("gpu-0-quarter-1", "gpu-0-counters"),
            onSet("gpu-1-whole", "gpu-1-counters"), onSet("gpu-1-half-1", "gpu-1-counters"),
            onSet("gpu-2-whole", "gpu-2-counters")), 3),
        // upstream: an empty ConsumesCounters list, "treated as atomic, not partitionable"
        Arguments.of("device with no counter consumption entries", List.of(Device.of("device-1")), 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void getUniquePartitionableDevicesCount(String name, List<Device> devices, int want) {
    assertThat(DeviceUtilization.uniquePartitionableDevices(devices)).isEqualTo(want);
  }

  @Test
  void unallocatedClaim_isAnError_namingTheClaim() {
    ResourceClaim pending = claim("pending", List.of());
    ResourceClaim unallocated = pending.withStatus(ResourceClaimStatus.INITIAL);
    DeviceUtilization u = DeviceUtilization.of(slices(FOO, "pool1", 0, 2, 1), List.of(unallocated));
    assertThat(u.known()).isFalse();
    assertThat(u.error()).isEqualTo("claim default/pending not allocated");
  }

  @Test
  void highestPool_ofEquallyUsedPools_isTheFirstByDriverThenPool() {
    DeviceUtilization u = DeviceUtilization.of(concat(slices(FOO, "b", 0, 2, 1), slices(FOO, "a", 0, 2, 1),
        slices(BAR, "z", 0, 2, 1)), concat(claims(FOO, "a", "", 1, 1, false), claims(FOO, "b", "", 1, 1, false),
        claims(BAR, "z", "", 1, 1, false)));
    assertThat(u.highest()).isEqualTo(0.5);
    assertThat(u.highestPool()).isEqualTo(BAR + "/z");
  }

  // ---- upstream's fixtures ----

  /** Upstream's {@code testResourceSlices}: {@code deviceCount} devices, {@code perSlice} a slice, local to NODE. */
  static List<ResourceSlice> slices(String driver, String pool, long generation, int deviceCount, int perSlice) {
    int sliceCount = deviceCount / perSlice;
    List<ResourceSlice> out = new ArrayList<>();
    int device = 0;
    for (int s = 0; s < sliceCount; s++) {
      ResourceSliceSpec.Builder b = ResourceSliceSpec.builder(driver, new ResourcePool(pool, generation, sliceCount))
          .nodeName(NODE);
      for (int i = 0; i < perSlice; i++) {
        b.device(Device.of(deviceName(driver, pool, device++)));
      }
      out.add(ResourceSlice.of(driver + "-" + pool + "-slice-" + s, b.build()));
    }
    return out;
  }

  static String deviceName(String driver, String pool, int index) {
    return driver.replace('.', '-') + "-" + pool + "-dev-" + index;
  }

  /**
   * Upstream's {@code testResourceSlicesWithPartionableDevices}: a slice with {@code partitions} partitions of
   * {@code device} (10Gi of memory each) and the whole device, and a slice with the device's counter set.
   */
  static List<ResourceSlice> partitionable(String driver, String pool, String device, long generation, int partitions,
      int sliceCount) {
    String set = device + "-counter-set";
    ResourcePool p = new ResourcePool(pool, generation, sliceCount);
    ResourceSliceSpec.Builder b = ResourceSliceSpec.builder(driver, p).nodeName(NODE);
    for (int i = 0; i < partitions; i++) {
      b.device(Device.builder(device + "-partition-" + i).capacity("memory", Quantity.parse("10Gi"))
          .consumesCounters(new DeviceCounterConsumption(set, Map.of("memory", Quantity.parse("10Gi")))).build());
    }
    String whole = (10 * partitions) + "Gi";
    b.device(Device.builder(device).capacity("memory", Quantity.parse(whole))
        .consumesCounters(new DeviceCounterConsumption(set, Map.of("memory", Quantity.parse(whole)))).build());
    String sliceName = driver + "-" + pool + "-slice";
    return List.of(ResourceSlice.of(sliceName, b.build()), ResourceSlice.of(sliceName + "-counters",
        ResourceSliceSpec.builder(driver, p).nodeName(NODE).counterSet(counters(set, "memory", whole)).build()));
  }

  /**
   * The claims of upstream's {@code testPodsWithClaims}: {@code deviceCount / perPod} pods, each with {@code perPod}
   * claims of one device of the pool, in device order; {@code prefix} starts the claim names.
   */
  static List<ResourceClaim> claims(String driver, String pool, String prefix, int deviceCount, int perPod,
      boolean adminAccess) {
    List<ResourceClaim> out = new ArrayList<>();
    int device = 0;
    for (int pod = 0; pod < deviceCount / perPod; pod++) {
      for (int i = 0; i < perPod; i++) {
        out.add(claim(prefix + driver + "-" + pool + "-pod-" + pod + "-claim-" + i, List.of(
            new DeviceRequestAllocationResult("request-" + i, driver, pool, deviceName(driver, pool, device++),
                adminAccess))));
      }
    }
    return out;
  }

  /** The claims of upstream's {@code testPodsWithMixedAdminAccessClaims}: one pod, claim i with admin access [i]. */
  static List<ResourceClaim> mixedAdminAccess(String driver, String pool, int deviceCount, boolean... adminAccess) {
    List<ResourceClaim> base = claims(driver, pool, "", deviceCount, adminAccess.length, true);
    List<ResourceClaim> out = new ArrayList<>();
    for (int i = 0; i < base.size(); i++) {
      DeviceRequestAllocationResult r = base.get(i).status().allocation().devices().get(0);
      out.add(claim(base.get(i).metadata().name(), List.of(new DeviceRequestAllocationResult(r.request(), r.driver(),
          r.pool(), r.device(), adminAccess[i % adminAccess.length]))));
    }
    return out;
  }

  /** The claim of upstream's {@code testPodsWithCustomClaims}: one claim allocated {@code devices}. */
  static ResourceClaim customClaim(String pod, String driver, String pool, String... devices) {
    List<DeviceRequestAllocationResult> results = new ArrayList<>();
    for (int i = 0; i < devices.length; i++) {
      results.add(new DeviceRequestAllocationResult("request-" + i, driver, pool, devices[i]));
    }
    return claim(pod + "-" + driver + "-" + pool + "-pod-claim", results);
  }

  /** A claim with one request per result, allocated {@code results}. */
  static ResourceClaim claim(String name, List<DeviceRequestAllocationResult> results) {
    List<DeviceRequest> requests = new ArrayList<>();
    for (DeviceRequestAllocationResult r : results) {
      requests.add(new DeviceRequest(r.request(), ExactDeviceRequest.count("class", 1)));
    }
    if (requests.isEmpty()) {
      requests.add(new DeviceRequest("request-0", ExactDeviceRequest.count("class", 1)));
    }
    ResourceClaim c = ResourceClaim.of(ObjectMeta.builder().namespace("default").name(name).build(),
        ResourceClaimSpec.of(requests.toArray(DeviceRequest[]::new)));
    return c.withStatus(new ResourceClaimStatus(new AllocationResult(results, null), List.of()));
  }

  private static Device consuming(String name, String set, String... counters) {
    return Device.of(name).withConsumesCounters(new DeviceCounterConsumption(set, amounts(counters)));
  }

  private static Device onSet(String name, String set) {
    return Device.of(name).withConsumesCounters(new DeviceCounterConsumption(set, Map.of()));
  }

  private static CounterSet counters(String name, String... counters) {
    return new CounterSet(name, amounts(counters));
  }

  private static Map<String, Quantity> amounts(String... nameValue) {
    Map<String, Quantity> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      m.put(nameValue[i], Quantity.parse(nameValue[i + 1]));
    }
    return m;
  }

  @SafeVarargs
  private static <T> List<T> concat(List<T>... lists) {
    List<T> out = new ArrayList<>();
    for (List<T> l : lists) {
      out.addAll(l);
    }
    return out;
  }
}
