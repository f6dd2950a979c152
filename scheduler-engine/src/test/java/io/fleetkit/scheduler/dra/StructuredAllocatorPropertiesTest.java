package io.fleetkit.scheduler.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.CounterSet;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceAttribute;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceConstraint;
import io.fleetkit.api.resource.dra.DeviceCounterConsumption;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.DeviceSelector;
import io.fleetkit.api.resource.dra.DeviceSubRequest;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceToleration;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Invariants of {@link StructuredAllocator} on small random inputs: every allocation is valid (each claim gets its
 * count, no device twice, none already allocated, constraints kept), and the search is complete: it finds an
 * allocation exactly when a brute-force enumeration does; prioritized lists use the first alternatives that fit; and
 * partitionable devices never consume more than their counter set holds, tainted ones only when tolerated.
 */
final class StructuredAllocatorPropertiesTest {
  private static final String DRIVER = "gpu.example.com";
  private static final DeviceClass CLASS = DeviceClass.of("gpu", DeviceSelector.cel("device.driver == \"" + DRIVER + "\""));
  private static final Node NODE = Node.builder().name("node-1").build();

  @Property(tries = 300)
  void allocation_validAndComplete(
      @ForAll @Size(min = 0, max = 6) List<@IntRange(min = 0, max = 2) Integer> numaOfDevice,
      @ForAll @Size(min = 0, max = 6) List<Boolean> alreadyAllocated,
      @ForAll @Size(min = 1, max = 3) List<@IntRange(min = 1, max = 3) Integer> countOfClaim,
      @ForAll @Size(min = 3, max = 3) List<Boolean> constrained) {
    List<Device> devices = new ArrayList<>();
    Set<DeviceId> allocated = new HashSet<>();
    for (int i = 0; i < numaOfDevice.size(); i++) {
      devices.add(Device.builder("device-" + i).attribute("numa", DeviceAttribute.ofInt(numaOfDevice.get(i))).build());
      if (i < alreadyAllocated.size() && alreadyAllocated.get(i)) {
        allocated.add(new DeviceId(DRIVER, "pool", "device-" + i));
      }
    }
    ResourceSlice slice = ResourceSlice.of("slice", ResourceSliceSpec.builder(DRIVER, ResourcePool.of("pool"))
        .nodeName("node-1").devices(devices).build());
    List<ResourceClaim> claims = new ArrayList<>();
    for (int c = 0; c < countOfClaim.size(); c++) {
      List<DeviceConstraint> cs = constrained.get(c)
          ? List.of(DeviceConstraint.matchAttribute(DRIVER + "/numa")) : List.of();
      claims.add(ResourceClaim.of(ObjectMeta.of("ns", "claim-" + c),
          ResourceClaimSpec.of(List.of(DeviceRequest.of("req", "gpu", countOfClaim.get(c))), cs)));
    }

    AllocationOutcome outcome = StructuredAllocator.of(List.of(CLASS), List.of(slice), allocated)
        .allocate(NODE, claims);

    Map<String, Integer> numa = new HashMap<>();
    for (int i = 0; i < numaOfDevice.size(); i++) {
      numa.put("device-" + i, numaOfDevice.get(i));
    }
    boolean exists = bruteForce(0, claims, countOfClaim, constrained, numa, allocated, new HashSet<>());
    if (!(outcome instanceof AllocationOutcome.Allocated a)) {
      assertThat(outcome).isInstanceOf(AllocationOutcome.Unsatisfiable.class);
      assertThat(exists).as("brute force finds an allocation the allocator missed").isFalse();
      return;
    }
    assertThat(exists).isTrue();
    Set<String> used = new HashSet<>();
    for (int c = 0; c < claims.size(); c++) {
      AllocationResult r = a.results().get(c);
      assertThat(r.devices()).hasSize(countOfClaim.get(c));
      Set<Integer> numas = new HashSet<>();
      for (DeviceRequestAllocationResult d : r.devices()) {
        assertThat(used.add(d.device())).as("device used twice: " + d.device()).isTrue();
        assertThat(allocated).doesNotContain(new DeviceId(d.driver(), d.pool(), d.device()));
        numas.add(numa.get(d.device()));
      }
      if (constrained.get(c)) {
        assertThat(numas).hasSize(1);
      }
      assertThat(r.nodeSelector()).isEqualTo(StructuredAllocator.localNodeSelector("node-1"));
    }
  }

  /** Whether claims {@code c..} can be given disjoint free devices of the right count (and one numa if asked). */
  private static boolean bruteForce(int c, List<ResourceClaim> claims, List<Integer> counts, List<Boolean> constrained,
      Map<String, Integer> numa, Set<DeviceId> allocated, Set<String> used) {
    if (c == claims.size()) {
      return true;
    }
    List<String> free = new ArrayList<>();
    for (String d : numa.keySet()) {
      if (!used.contains(d) && !allocated.contains(new DeviceId(DRIVER, "pool", d))) {
        free.add(d);
      }
    }
    return choose(free, 0, counts.get(c), new ArrayList<>(), pick -> {
      if (constrained.get(c) && pick.stream().map(numa::get).distinct().count() > 1) {
        return false;
      }
      used.addAll(pick);
      boolean ok = bruteForce(c + 1, claims, counts, constrained, numa, allocated, used);
      pick.forEach(used::remove);
      return ok;
    });
  }

  private static boolean choose(List<String> free, int from, int k, List<String> pick,
      java.util.function.Predicate<List<String>> done) {
    if (pick.size() == k) {
      return done.test(pick);
    }
    for (int i = from; i < free.size(); i++) {
      pick.add(free.get(i));
      if (choose(free, i + 1, k, pick, done)) {
        return true;
      }
      pick.remove(pick.size() - 1);
    }
    return false;
  }

  /**
   * Prioritized lists over interchangeable devices: each claim asks for one of its alternatives' counts. The
   * allocator tries claims in order and each claim's alternatives in order, so it must use the lexicographically
   * first vector of alternatives whose counts fit the free devices, and each claim's results must all name that one
   * alternative ({@code req/alt-i}) with its count.
   */
  @Property(tries = 300)
  void prioritizedLists_useTheFirstAlternativesThatFit(
      @ForAll @IntRange(min = 0, max = 6) int devices,
      @ForAll @IntRange(min = 0, max = 3) int taken,
      @ForAll @Size(min = 1, max = 3) List<@Size(min = 1, max = 3) List<@IntRange(min = 1, max = 4) Integer>> claims) {
    List<Device> ds = new ArrayList<>();
    Set<DeviceId> allocated = new HashSet<>();
    for (int i = 0; i < devices; i++) {
      ds.add(Device.of("device-" + i));
      if (i < taken) {
        allocated.add(new DeviceId(DRIVER, "pool", "device-" + i));
      }
    }
    ResourceSlice slice = ResourceSlice.of("slice", ResourceSliceSpec.builder(DRIVER, ResourcePool.of("pool"))
        .nodeName("node-1").devices(ds).build());
    List<ResourceClaim> rcs = new ArrayList<>();
    for (int c = 0; c < claims.size(); c++) {
      List<DeviceSubRequest> alternatives = new ArrayList<>();
      for (int a = 0; a < claims.get(c).size(); a++) {
        alternatives.add(DeviceSubRequest.count("alt-" + a, "gpu", claims.get(c).get(a)));
      }
      rcs.add(ResourceClaim.of(ObjectMeta.of("ns", "claim-" + c), ResourceClaimSpec.of(
          DeviceRequest.firstAvailable("req", alternatives.toArray(DeviceSubRequest[]::new)))));
    }

    AllocationOutcome outcome = StructuredAllocator.of(List.of(CLASS), List.of(slice), allocated).allocate(NODE, rcs);

    int free = devices - Math.min(taken, devices);
    int[] expected = firstFit(claims, 0, free, new int[claims.size()]);
    if (expected == null) {
      assertThat(outcome).isInstanceOf(AllocationOutcome.Unsatisfiable.class);
      return;
    }
    assertThat(outcome).isInstanceOf(AllocationOutcome.Allocated.class);
    List<AllocationResult> results = ((AllocationOutcome.Allocated) outcome).results();
    Set<String> used = new HashSet<>();
    for (int c = 0; c < claims.size(); c++) {
      List<DeviceRequestAllocationResult> rs = results.get(c).devices();
      assertThat(rs).hasSize(claims.get(c).get(expected[c]));
      String name = "req/alt-" + expected[c];
      assertThat(rs).allSatisfy(r -> assertThat(r.request()).isEqualTo(name));
      rs.forEach(r -> assertThat(used.add(r.device())).as("device used twice: " + r.device()).isTrue());
    }
  }

  /** The lexicographically first choice of alternatives, from claim {@code c} on, whose counts fit {@code free}. */
  private static int @org.jspecify.annotations.Nullable [] firstFit(List<List<Integer>> claims, int c, int free,
      int[] chosen) {
    if (c == claims.size()) {
      return chosen.clone();
    }
    for (int a = 0; a < claims.get(c).size(); a++) {
      int count = claims.get(c).get(a);
      if (count <= free) {
        chosen[c] = a;
        int[] rest = firstFit(claims, c + 1, free - count, chosen);
        if (rest != null) {
          return rest;
        }
      }
    }
    return null;
  }

  /**
   * Partitionable devices: devices of one pool consume memory from one counter set, some already allocated. Whatever
   * the allocator hands out never makes the pool's devices consume more than the set holds, and it finds an
   * allocation exactly when one exists (the cheapest free devices fit), untolerated tainted devices aside.
   */
  @Property(tries = 300)
  void partitionableDevices_countersNeverExceeded_andSearchComplete(
      @ForAll @Size(min = 0, max = 6) List<@IntRange(min = 1, max = 6) Integer> gibOfDevice,
      @ForAll @Size(min = 0, max = 6) List<Boolean> alreadyAllocated,
      @ForAll @Size(min = 0, max = 6) List<Boolean> tainted,
      @ForAll @IntRange(min = 0, max = 16) int capacityGib,
      @ForAll @Size(min = 1, max = 3) List<@IntRange(min = 1, max = 2) Integer> countOfClaim,
      @ForAll boolean tolerate) {
    List<Device> devices = new ArrayList<>();
    Set<DeviceId> allocated = new HashSet<>();
    Map<String, Integer> gib = new HashMap<>();
    int allocatedGib = 0;
    List<Integer> usable = new ArrayList<>();
    for (int i = 0; i < gibOfDevice.size(); i++) {
      String name = "device-" + i;
      Device d = Device.of(name).withConsumesCounters(new DeviceCounterConsumption("gpu",
          Map.of("memory", Quantity.parse(gibOfDevice.get(i) + "Gi"))));
      boolean isTainted = i < tainted.size() && tainted.get(i);
      if (isTainted) {
        d = d.withTaints(DeviceTaint.of("example.com/broken", "", DeviceTaintEffect.NO_SCHEDULE));
      }
      devices.add(d);
      gib.put(name, gibOfDevice.get(i));
      if (i < alreadyAllocated.size() && alreadyAllocated.get(i)) {
        allocated.add(new DeviceId(DRIVER, "pool", name));
        allocatedGib += gibOfDevice.get(i);
      } else if (!isTainted || tolerate) {
        usable.add(gibOfDevice.get(i));
      }
    }
    ResourceSlice partitions = ResourceSlice.of("partitions", ResourceSliceSpec.builder(DRIVER,
        new ResourcePool("pool", 1, 2)).nodeName("node-1").devices(devices).build());
    ResourceSlice counters = ResourceSlice.of("counters", ResourceSliceSpec.builder(DRIVER,
        new ResourcePool("pool", 1, 2)).nodeName("node-1")
        .counterSet(new CounterSet("gpu", Map.of("memory", Quantity.parse(capacityGib + "Gi")))).build());
    List<ResourceClaim> claims = new ArrayList<>();
    int wanted = 0;
    for (int c = 0; c < countOfClaim.size(); c++) {
      ExactDeviceRequest r = ExactDeviceRequest.count("gpu", countOfClaim.get(c));
      if (tolerate) {
        r = r.withTolerations(DeviceToleration.exists("example.com/broken", null));
      }
      claims.add(ResourceClaim.of(ObjectMeta.of("ns", "claim-" + c), ResourceClaimSpec.of(new DeviceRequest("req",
          r))));
      wanted += countOfClaim.get(c);
    }

    AllocationOutcome outcome = StructuredAllocator.of(List.of(CLASS), List.of(partitions, counters), allocated)
        .allocate(NODE, claims);

    usable.sort(Integer::compare);
    boolean exists = usable.size() >= wanted
        && allocatedGib + usable.subList(0, wanted).stream().mapToInt(Integer::intValue).sum() <= capacityGib;
    if (!(outcome instanceof AllocationOutcome.Allocated a)) {
      assertThat(outcome).isInstanceOf(AllocationOutcome.Unsatisfiable.class);
      assertThat(exists).as("an allocation within the counters exists").isFalse();
      return;
    }
    assertThat(exists).isTrue();
    int used = allocatedGib;
    Set<String> names = new HashSet<>();
    for (AllocationResult r : a.results()) {
      for (DeviceRequestAllocationResult d : r.devices()) {
        assertThat(names.add(d.device())).as("device used twice: " + d.device()).isTrue();
        used += gib.get(d.device());
      }
    }
    assertThat(names).hasSize(wanted);
    assertThat(used).as("memory consumed from the counter set").isLessThanOrEqualTo(capacityGib);
  }
}
