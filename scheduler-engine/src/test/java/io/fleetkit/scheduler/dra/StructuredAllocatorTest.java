package io.fleetkit.scheduler.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.CounterSet;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceAllocationMode;
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
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceTaintSelector;
import io.fleetkit.api.resource.dra.DeviceToleration;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes
 * {@code staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go}
 * (commit 008b3652), TestAllocator's table: the cases from "empty" through "prioritized-list-with-backtracking" that
 * use only what FleetKit models (see docs/conformance.md for the skipped ones). The device-taint cases (tainted-*)
 * and the partitionable-devices-* cases are from the same 213-case table as published in
 * kubernetes/dynamic-resource-allocation at b1bb6d16 (kubernetes commit cb60b14b), against allocator_stable.go and
 * pools_stable.go there. Each case checks upstream's outcome: the
 * allocation per claim (devices in any order, as upstream's {@code ConsistOf}, and the node selector, requirements in
 * any order), no allocation, or an error containing upstream's text.
 */
final class StructuredAllocatorTest {
  private static final String REGION1 = "region-1";
  private static final String REGION2 = "region-2";
  private static final String NODE1 = "node-1";
  private static final String NODE2 = "node-2";
  private static final String CLASS_A = "class-a";
  private static final String CLASS_B = "class-b";
  private static final String DRIVER_A = "driver-a";
  private static final String DRIVER_B = "driver-b";
  private static final String POOL1 = "pool-1";
  private static final String POOL2 = "pool-2";
  private static final String POOL3 = "pool-3";
  private static final String POOL4 = "pool-4";
  private static final String REQ0 = "req-0";
  private static final String REQ1 = "req-1";
  private static final String CLAIM0 = "claim-0";
  private static final String CLAIM1 = "claim-1";
  private static final String SLICE1 = "slice-1";
  private static final String SLICE2 = "slice-2";
  private static final String DEVICE1 = "device-1";
  private static final String DEVICE2 = "device-2";
  private static final String DEVICE3 = "device-3";
  private static final String ALL_NODES = "nodeSelectionAll";
  private static final String INT_ATTRIBUTE = DRIVER_A + "/numa";
  private static final String VERSION_ATTRIBUTE = DRIVER_A + "/driverVersion";
  private static final String STRING_ATTRIBUTE = DRIVER_A + "/stringAttribute";
  private static final String BOOL_ATTRIBUTE = DRIVER_A + "/boolAttribute";

  // ---- upstream's generators ----------------------------------------------------------------------------------

  private static Node node(String name, String region) {
    return Node.builder().name(name).label("region", region).label("planet", "earth").build();
  }

  private static DeviceClass deviceClass(String name, String driver) {
    return DeviceClass.of(name, DeviceSelector.cel("device.driver == \"" + driver + "\""));
  }

  private static ResourceClaim claim(String name, List<DeviceConstraint> constraints, DeviceRequest... requests) {
    return ResourceClaim.of(ObjectMeta.of(name), ResourceClaimSpec.of(List.of(requests), constraints));
  }

  private static ResourceClaim claimWithRequest(String name, String req, String cls, DeviceConstraint... cs) {
    return claim(name, List.of(cs), request(req, cls, 1));
  }

  private static DeviceRequest request(String name, String cls, long count, DeviceSelector... selectors) {
    return new DeviceRequest(name, ExactDeviceRequest.count(cls, count).withSelectors(selectors));
  }

  private static DeviceRequest allRequest(String name, String cls) {
    return new DeviceRequest(name, ExactDeviceRequest.all(cls));
  }

  private static Device device(String name, Map<String, Quantity> capacity, Map<String, DeviceAttribute> attrs) {
    return new Device(name, attrs, capacity);
  }

  private static Device device(String name) {
    return Device.of(name);
  }

  /** {@code slice(...)}: a node name, {@link #ALL_NODES}, or a node selector. */
  private static ResourceSlice slice(String name, Object nodeSelection, ResourcePool pool, String driver,
      Device... devices) {
    ResourceSliceSpec.Builder b = ResourceSliceSpec.builder(driver, pool).devices(List.of(devices));
    nodeSelection(b, nodeSelection);
    return ResourceSlice.of(name, b.build());
  }

  /** A node selector, {@link #ALL_NODES}, "nodeSelectionPerDevice", or a node name. */
  private static void nodeSelection(ResourceSliceSpec.Builder b, Object nodeSelection) {
    if (nodeSelection instanceof NodeSelector ns) {
      b.nodeSelector(ns);
    } else if (ALL_NODES.equals(nodeSelection)) {
      b.allNodes();
    } else if ("nodeSelectionPerDevice".equals(nodeSelection)) {
      b.perDeviceNodeSelection();
    } else {
      b.nodeName((String) nodeSelection);
    }
  }

  private static ResourceSlice slice(String name, Object nodeSelection, String pool, String driver,
      Device... devices) {
    return slice(name, nodeSelection, ResourcePool.of(pool), driver, devices);
  }

  private static ResourceSlice sliceWithOneDevice(String name, Object nodeSelection, String pool, String driver) {
    return slice(name, nodeSelection, pool, driver, device(DEVICE1));
  }

  private static DeviceRequestAllocationResult result(String request, String driver, String pool, String device) {
    return new DeviceRequestAllocationResult(request, driver, pool, device);
  }

  private static NodeSelector nodeLabelSelector(String key, String... values) {
    return new NodeSelector(List.of(new NodeSelectorTerm(
        List.of(new NodeSelectorRequirement(key, NodeSelectorOperator.In, List.of(values))), List.of())));
  }

  private static NodeSelector localNodeSelector(String nodeName) {
    return new NodeSelector(List.of(new NodeSelectorTerm(List.of(),
        List.of(new NodeSelectorRequirement("metadata.name", NodeSelectorOperator.In, List.of(nodeName))))));
  }

  private record Expected(@Nullable NodeSelector selector, List<DeviceRequestAllocationResult> devices) {}

  private static Expected allocation(@Nullable NodeSelector selector, DeviceRequestAllocationResult... devices) {
    return new Expected(selector, List.of(devices));
  }

  private static DeviceSelector cel(String expression) {
    return DeviceSelector.cel(expression);
  }

  // ---- running a case -----------------------------------------------------------------------------------------

  private static final class Case {
    List<ResourceClaim> claims = List.of();
    List<DeviceId> allocated = List.of();
    List<DeviceClass> classes = List.of();
    List<ResourceSlice> slices = List.of();
    List<DeviceTaintRule> rules = List.of();
    Node node = StructuredAllocatorTest.node(NODE1, REGION1);

    Case rules(DeviceTaintRule... rs) {
      rules = List.of(rs);
      return this;
    }

    Case claims(ResourceClaim... cs) {
      claims = List.of(cs);
      return this;
    }

    Case allocated(DeviceId... ids) {
      allocated = List.of(ids);
      return this;
    }

    Case classes(DeviceClass... cs) {
      classes = List.of(cs);
      return this;
    }

    Case slices(ResourceSlice... ss) {
      slices = List.of(ss);
      return this;
    }

    Case node(Node n) {
      node = n;
      return this;
    }

    AllocationOutcome run() {
      return StructuredAllocator.of(classes, slices, rules, Set.copyOf(allocated)).allocate(node, claims);
    }

    void expectResults(Expected... expected) {
      AllocationOutcome outcome = run();
      assertThat(outcome).isInstanceOf(AllocationOutcome.Allocated.class);
      List<AllocationResult> results = ((AllocationOutcome.Allocated) outcome).results();
      assertThat(results).hasSize(expected.length);
      for (int i = 0; i < expected.length; i++) {
        assertThat(results.get(i).devices()).as("claim #" + i)
            .containsExactlyInAnyOrderElementsOf(expected[i].devices());
        assertThat(normalize(results.get(i).nodeSelector())).as("node selector of claim #" + i)
            .isEqualTo(normalize(expected[i].selector()));
      }
    }

    void expectNoAllocation() {
      assertThat(run()).isInstanceOf(AllocationOutcome.Unsatisfiable.class);
    }

    void expectError(String substring) {
      AllocationOutcome outcome = run();
      assertThat(outcome).isInstanceOf(AllocationOutcome.Failed.class);
      assertThat(((AllocationOutcome.Failed) outcome).error()).contains(substring);
    }
  }

  /** A node selector with its terms' requirements and values in a canonical order. */
  private static @Nullable List<List<String>> normalize(@Nullable NodeSelector s) {
    if (s == null) {
      return null;
    }
    List<List<String>> terms = new ArrayList<>();
    for (NodeSelectorTerm t : s.nodeSelectorTerms()) {
      TreeSet<String> reqs = new TreeSet<>();
      t.matchExpressions().forEach(r -> reqs.add("expr:" + r.key() + r.operator() + new TreeSet<>(r.values())));
      t.matchFields().forEach(r -> reqs.add("field:" + r.key() + r.operator() + new TreeSet<>(r.values())));
      terms.add(new ArrayList<>(reqs));
    }
    return terms;
  }

  private static Case tc() {
    return new Case();
  }

  // ---- the cases ----------------------------------------------------------------------------------------------

  @Test
  void empty() {
    tc().expectResults();
  }

  @Test
  void simple() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void otherNode() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B), sliceWithOneDevice(SLICE2, NODE2, POOL2, DRIVER_A))
        .node(node(NODE2, REGION2))
        .expectResults(allocation(localNodeSelector(NODE2), result(REQ0, DRIVER_A, POOL2, DEVICE1)));
  }

  private static DeviceSelector memoryAtLeast(String q) {
    return cel("device.capacity[\"" + DRIVER_A + "\"].memory.compareTo(quantity(\"" + q + "\")) >= 0");
  }

  @Test
  void smallAndLarge() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1, memoryAtLeast("1Gi")),
            request(REQ1, CLASS_A, 1, memoryAtLeast("2Gi"))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
            device(DEVICE1, Map.of("memory", Quantity.parse("1Gi")), Map.of()),
            device(DEVICE2, Map.of("memory", Quantity.parse("2Gi")), Map.of())))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ1, DRIVER_A, POOL1, DEVICE2)));
  }

  @Test
  void smallAndLargeBacktrackRequests() {
    // The "large" device listed first is taken for the "small" request; that choice must be undone.
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1, memoryAtLeast("1Gi")),
            request(REQ1, CLASS_A, 1, memoryAtLeast("2Gi"))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
            device(DEVICE2, Map.of("memory", Quantity.parse("2Gi")), Map.of()),
            device(DEVICE1, Map.of("memory", Quantity.parse("1Gi")), Map.of())))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ1, DRIVER_A, POOL1, DEVICE2)));
  }

  @Test
  void smallAndLargeBacktrackClaims() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1, memoryAtLeast("1Gi"))),
            claim(CLAIM1, List.of(), request(REQ1, CLASS_A, 1, memoryAtLeast("2Gi"))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
            device(DEVICE2, Map.of("memory", Quantity.parse("2Gi")), Map.of()),
            device(DEVICE1, Map.of("memory", Quantity.parse("1Gi")), Map.of())))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)),
            allocation(localNodeSelector(NODE1), result(REQ1, DRIVER_A, POOL1, DEVICE2)));
  }

  @Test
  void devicesSplitAcrossDifferentSlices() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 2))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A), sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_A))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ0, DRIVER_A, POOL2, DEVICE1)));
  }

  @Test
  void obsoleteSlice() {
    // The second slice's newer generation makes the first obsolete; the pool (2 slices) is then incomplete.
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice("slice-1-obsolete", NODE1, new ResourcePool(POOL1, 1, 2), DRIVER_A, device(DEVICE1)),
            slice("slice-1-obsolete", NODE1, new ResourcePool(POOL1, 2, 2), DRIVER_A, device(DEVICE2)))
        .expectNoAllocation();
  }

  @Test
  void duplicateSlice() {
    ResourceSlice a = slice(SLICE1, NODE1, new ResourcePool(POOL1, 1, 2), DRIVER_A, device(DEVICE1));
    ResourceSlice b = slice(SLICE1 + "-2", NODE1, new ResourcePool(POOL1, 1, 2), DRIVER_A, device(DEVICE1));
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A)).slices(a, b)
        .expectError("invalid resource pools were encountered");
  }

  @Test
  void noSlices() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .expectNoAllocation();
  }

  @Test
  void notEnoughSuitableDevices() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A), claimWithRequest(CLAIM0, REQ1, CLASS_A))
        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectNoAllocation();
  }

  @Test
  void noClasses() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectError("could not retrieve device class class-a");
  }

  @Test
  void unknownClass() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, "unknown-class")).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectError("could not retrieve device class unknown-class");
  }

  @Test
  void noClaimsToAllocate() {
    tc().classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectResults();
  }

  @Test
  void allDevicesSingle() {
    tc().claims(claim(CLAIM0, List.of(), allRequest(REQ0, CLASS_A))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void allDevicesMany() {
    tc().claims(claim(CLAIM0, List.of(), allRequest(REQ0, CLASS_A))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A), sliceWithOneDevice(SLICE1, NODE1, POOL2, DRIVER_A))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ0, DRIVER_A, POOL2, DEVICE1)));
  }

  @Test
  void allDevicesOfTheIncompletePool() {
    // Upstream also sets count 1 on this All request, which validation refuses (in Kubernetes and here).
    tc().claims(claim(CLAIM0, List.of(), allRequest(REQ0, CLASS_A))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, new ResourcePool(POOL1, 1, 2), DRIVER_A, device(DEVICE1)))
        .expectError("claim claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is "
            + "currently being updated");
  }

  private Case allPlusAnother(boolean reversed, boolean manyA) {
    ResourceClaim all = claim(CLAIM0, List.of(), allRequest(REQ0, CLASS_A));
    ResourceClaim one = claim(CLAIM1, List.of(), request(REQ0, CLASS_B, 1));
    ResourceSlice a = manyA ? slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2))
        : sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A);
    return tc().claims(reversed ? new ResourceClaim[] {one, all} : new ResourceClaim[] {all, one})
        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(a, sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B));
  }

  @Test
  void allDevicesPlusAnother() {
    allPlusAnother(false, false).expectResults(
        allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)),
        allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_B, POOL1, DEVICE1)));
  }

  @Test
  void allDevicesPlusAnotherReversed() {
    allPlusAnother(true, false).expectResults(
        allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_B, POOL1, DEVICE1)),
        allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void allDevicesManyPlusAnother() {
    allPlusAnother(false, true).expectResults(
        allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ0, DRIVER_A, POOL1, DEVICE2)),
        allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_B, POOL1, DEVICE1)));
  }

  @Test
  void allDevicesManyPlusAnotherReversed() {
    allPlusAnother(true, true).expectResults(
        allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_B, POOL1, DEVICE1)),
        allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ0, DRIVER_A, POOL1, DEVICE2)));
  }

  @Test
  void allDevicesNoSolution() {
    tc().claims(claim(CLAIM1, List.of(), request(REQ0, CLASS_A, 1)), claim(CLAIM0, List.of(), allRequest(REQ0, CLASS_A)))
        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectNoAllocation();
  }

  @Test
  void allDevicesNoSolutionReversed() {
    tc().claims(claim(CLAIM0, List.of(), allRequest(REQ0, CLASS_A)), claim(CLAIM1, List.of(), request(REQ0, CLASS_A, 1)))
        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectNoAllocation();
  }

  @Test
  void allDevicesSliceWithoutDevices() {
    tc().claims(claim(CLAIM0, List.of(), allRequest(REQ0, CLASS_A))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A)).expectNoAllocation();
  }

  @Test
  void allDevicesNoSlices() {
    tc().claims(claim(CLAIM0, List.of(), allRequest(REQ0, CLASS_A))).classes(deviceClass(CLASS_A, DRIVER_A))
        .expectNoAllocation();
  }

  @Test
  void allDevicesSomeAllocated() {
    tc().claims(claim(CLAIM0, List.of(), allRequest(REQ0, CLASS_A)))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE1)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2)))
        .expectNoAllocation();
  }

  @Test
  void networkAttachedDevice() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(sliceWithOneDevice(SLICE1, nodeLabelSelector("region", REGION1), POOL1, DRIVER_A))
        .expectResults(allocation(nodeLabelSelector("region", REGION1), result(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void unsuccessfulAllocationNetworkAttachedDevice() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(sliceWithOneDevice(SLICE1, nodeLabelSelector("region", REGION1), POOL1, DRIVER_A))
        .node(node(NODE2, REGION2))
        .expectNoAllocation();
  }

  @Test
  void manyNetworkAttachedDevices() {
    NodeSelector union = new NodeSelector(List.of(new NodeSelectorTerm(
        List.of(new NodeSelectorRequirement("region", NodeSelectorOperator.In, List.of(REGION1)),
            new NodeSelectorRequirement("planet", NodeSelectorOperator.In, List.of("earth"))),
        List.of(new NodeSelectorRequirement("metadata.name", NodeSelectorOperator.In, List.of(NODE1))))));
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 4))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(sliceWithOneDevice(SLICE1, nodeLabelSelector("region", REGION1), POOL1, DRIVER_A),
            sliceWithOneDevice(SLICE1, ALL_NODES, POOL2, DRIVER_A),
            sliceWithOneDevice(SLICE1, nodeLabelSelector("planet", "earth"), POOL3, DRIVER_A),
            sliceWithOneDevice(SLICE1, localNodeSelector(NODE1), POOL4, DRIVER_A))
        .expectResults(allocation(union, result(REQ0, DRIVER_A, POOL1, DEVICE1), result(REQ0, DRIVER_A, POOL2, DEVICE1),
            result(REQ0, DRIVER_A, POOL3, DEVICE1), result(REQ0, DRIVER_A, POOL4, DEVICE1)));
  }

  @Test
  void localAndNetworkAttachedDevices() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 2))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(sliceWithOneDevice(SLICE1, nodeLabelSelector("region", REGION1), POOL1, DRIVER_A),
            sliceWithOneDevice(SLICE1, NODE1, POOL2, DRIVER_A))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ0, DRIVER_A, POOL2, DEVICE1)));
  }

  @Test
  void severalDifferentDrivers() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A), claimWithRequest(CLAIM0, REQ0, CLASS_B))
        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2)),
            sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_B))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)),
            allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_B, POOL1, DEVICE1)));
  }

  @Test
  void alreadyAllocatedDevices() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE1), new DeviceId(DRIVER_A, POOL1, DEVICE2))
        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectNoAllocation();
  }

  private static Map<String, DeviceAttribute> attrs(Object... kv) {
    Map<String, DeviceAttribute> m = new java.util.HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (DeviceAttribute) kv[i + 1]);
    }
    return m;
  }

  @Test
  void withConstraint() {
    Map<String, DeviceAttribute> a = attrs("driverVersion", DeviceAttribute.ofVersion("1.0.0"),
        "numa", DeviceAttribute.ofInt(1), "stringAttribute", DeviceAttribute.ofString("stringAttributeValue"),
        "boolAttribute", DeviceAttribute.ofBool(true));
    tc().claims(claim(CLAIM0, List.of(DeviceConstraint.matchAttribute(INT_ATTRIBUTE),
                DeviceConstraint.matchAttribute(VERSION_ATTRIBUTE), DeviceConstraint.matchAttribute(STRING_ATTRIBUTE),
                DeviceConstraint.matchAttribute(BOOL_ATTRIBUTE)),
            request(REQ0, CLASS_A, 1), request(REQ1, CLASS_A, 1)))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1, Map.of(), a), device(DEVICE2, Map.of(), a)))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ1, DRIVER_A, POOL1, DEVICE2)));
  }

  @Test
  void withConstraintNonExistentAttribute() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A,
            DeviceConstraint.matchAttribute(DRIVER_A + "/NonExistentAttribute")))
        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectNoAllocation();
  }

  private Case notMatching(String attribute, String name, DeviceAttribute v1, DeviceAttribute v2,
      DeviceRequest request) {
    return tc().claims(claim(CLAIM0, List.of(DeviceConstraint.matchAttribute(attribute)), request))
        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1, Map.of(), attrs(name, v1)),
            device(DEVICE2, Map.of(), attrs(name, v2))));
  }

  @Test
  void withConstraintNotMatchingIntAttribute() {
    notMatching(INT_ATTRIBUTE, "numa", DeviceAttribute.ofInt(1), DeviceAttribute.ofInt(2), request(REQ0, CLASS_A, 2))
        .expectNoAllocation();
  }

  @Test
  void withConstraintNotMatchingIntAttributeAllDevices() {
    notMatching(INT_ATTRIBUTE, "numa", DeviceAttribute.ofInt(1), DeviceAttribute.ofInt(2), allRequest(REQ0, CLASS_A))
        .expectError("claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim "
            + "constraint would not be satisfied");
  }

  @Test
  void withConstraintNotMatchingStringAttribute() {
    notMatching(STRING_ATTRIBUTE, "stringAttribute", DeviceAttribute.ofString("stringAttributeValue"),
        DeviceAttribute.ofString("stringAttributeValue2"), request(REQ0, CLASS_A, 2)).expectNoAllocation();
  }

  @Test
  void withConstraintNotMatchingBoolAttribute() {
    notMatching(BOOL_ATTRIBUTE, "boolAttribute", DeviceAttribute.ofBool(true), DeviceAttribute.ofBool(false),
        request(REQ0, CLASS_A, 2)).expectNoAllocation();
  }

  @Test
  void withConstraintNotMatchingVersionAttribute() {
    notMatching(VERSION_ATTRIBUTE, "driverVersion", DeviceAttribute.ofVersion("1.0.0"),
        DeviceAttribute.ofVersion("2.0.0"), request(REQ0, CLASS_A, 2)).expectNoAllocation();
  }

  @Test
  void withConstraintForRequest() {
    tc().claims(claim(CLAIM0, List.of(new DeviceConstraint(List.of(REQ0), VERSION_ATTRIBUTE)),
            request(REQ0, CLASS_A, 1), request(REQ1, CLASS_A, 1)))
        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
            device(DEVICE1, Map.of(), attrs("driverVersion", DeviceAttribute.ofVersion("1.0.0"))),
            device(DEVICE2, Map.of(), attrs("driverVersion", DeviceAttribute.ofVersion("2.0.0")))))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ1, DRIVER_A, POOL1, DEVICE2)));
  }

  @Test
  void withConstraintForRequestRetry() {
    tc().claims(claim(CLAIM0, List.of(new DeviceConstraint(List.of(REQ0), VERSION_ATTRIBUTE),
                DeviceConstraint.matchAttribute(STRING_ATTRIBUTE)),
            request(REQ0, CLASS_A, 1), request(REQ1, CLASS_A, 1)))
        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
            // device-1 does not satisfy the second constraint with any other device: backtrack.
            device(DEVICE1, Map.of(), attrs("driverVersion", DeviceAttribute.ofVersion("1.0.0"),
                "stringAttribute", DeviceAttribute.ofString("a"))),
            device(DEVICE2, Map.of(), attrs("driverVersion", DeviceAttribute.ofVersion("2.0.0"),
                "stringAttribute", DeviceAttribute.ofString("b"))),
            device(DEVICE3, Map.of(), attrs("driverVersion", DeviceAttribute.ofVersion("3.0.0"),
                "stringAttribute", DeviceAttribute.ofString("b")))))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE2),
            result(REQ1, DRIVER_A, POOL1, DEVICE3)));
  }

  /** invalid-CEL-one-device, invalid-CEL-all-devices: refused when the claim is built, with CEL's message. */
  @Test
  void invalidCel_claimSelector_refusedWhenBuilt() {
    for (DeviceAllocationMode mode : DeviceAllocationMode.values()) {
      ExactDeviceRequest r = new ExactDeviceRequest(CLASS_A, List.of(cel("noSuchVar")), mode,
          mode == DeviceAllocationMode.ALL ? 0 : 1);
      assertThatThrownBy(() -> claim(CLAIM0, List.of(), new DeviceRequest(REQ0, r)))
          .isInstanceOf(ValidationException.class).hasMessageContaining("undeclared reference");
    }
  }

  /** invalid-CEL-one-device-class: refused when the class is built. */
  @Test
  void invalidCel_classSelector_refusedWhenBuilt() {
    assertThatThrownBy(() -> DeviceClass.of(CLASS_A, cel("noSuchVar")))
        .isInstanceOf(ValidationException.class).hasMessageContaining("undeclared reference");
  }

  @Test
  void tooManyDevicesSingleRequest() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 500))).classes(deviceClass(CLASS_A, DRIVER_A))
        .expectError("exceeds the claim limit");
  }

  @Test
  void manyDevicesOkay() {
    // 32 devices is the limit, not above it: no error, just no devices to allocate.
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, AllocationResult.MAX_RESULTS)))
        .classes(deviceClass(CLASS_A, DRIVER_A)).expectNoAllocation();
  }

  @Test
  void tooManyDevicesTotal() {
    Device[] devices = new Device[AllocationResult.MAX_RESULTS + 1];
    for (int i = 0; i < devices.length; i++) {
      devices[i] = device("device-" + i);
    }
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, AllocationResult.MAX_RESULTS),
            request(REQ1, CLASS_A, 1)))
        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, devices))
        .expectError("exceeds the claim limit");
  }

  @Test
  void allDevicesInvalidCel() {
    // Upstream's case of this name has the same input as too-many-devices-single-request.
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 500))).classes(deviceClass(CLASS_A, DRIVER_A))
        .expectError("exceeds the claim limit");
  }

  // ---- admin access ---------------------------------------------------------------------------------------------

  private static DeviceRequestAllocationResult adminResult(String request, String driver, String pool,
      String device) {
    return new DeviceRequestAllocationResult(request, driver, pool, device, true);
  }

  private static DeviceRequest admin(DeviceRequest r) {
    return new DeviceRequest(r.name(), r.exactly().withAdminAccess(true));
  }

  @Test
  void allDevicesSomeAllocatedAdminAccess() {
    tc().claims(claim(CLAIM0, List.of(), admin(allRequest(REQ0, CLASS_A))))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE1)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2)))
        .expectResults(allocation(localNodeSelector(NODE1), adminResult(REQ0, DRIVER_A, POOL1, DEVICE1),
            adminResult(REQ0, DRIVER_A, POOL1, DEVICE2)));
  }

  @Test
  void allDevicesSomeAllocatingAdminAccess() {
    // The All request cannot be fulfilled: the first request of the same claim takes a device.
    tc().claims(claim(CLAIM0, List.of(), admin(request(REQ0, CLASS_A, 1)), admin(allRequest(REQ1, CLASS_A))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2)))
        .expectNoAllocation();
  }

  @Test
  void countDevicesSomeAllocatedAdminAccess() {
    tc().claims(claim(CLAIM0, List.of(), admin(request(REQ0, CLASS_A, 2))))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE1)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2)))
        .expectResults(allocation(localNodeSelector(NODE1), adminResult(REQ0, DRIVER_A, POOL1, DEVICE1),
            adminResult(REQ0, DRIVER_A, POOL1, DEVICE2)));
  }

  @Test
  void separateClaimsShareDeviceAdminAccess() {
    tc().claims(claim(CLAIM0, List.of(), admin(request(REQ0, CLASS_A, 1))),
            claim(CLAIM1, List.of(), admin(request(REQ0, CLASS_A, 1))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2)))
        .expectResults(allocation(localNodeSelector(NODE1), adminResult(REQ0, DRIVER_A, POOL1, DEVICE1)),
            allocation(localNodeSelector(NODE1), adminResult(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void adminAccessClaimsDeviceAllocatingForNonAdminAccess() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A), claim(CLAIM1, List.of(), admin(request(REQ0, CLASS_A, 1))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2)))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)),
            allocation(localNodeSelector(NODE1), adminResult(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void adminAccessEnabled() {
    tc().claims(claim(CLAIM0, List.of(), admin(request(REQ0, CLASS_A, 1))))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE1), new DeviceId(DRIVER_A, POOL1, DEVICE2))
        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectResults(allocation(localNodeSelector(NODE1), adminResult(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  // ---- prioritized lists (firstAvailable) -----------------------------------------------------------------------
  // Upstream's sub-request names subReq-0 and subReq-1 are not DNS labels, which FleetKit's claim validation (as the
  // API server's) requires: they are lower-cased here.

  private static final String SUB0 = "subreq-0";
  private static final String SUB1 = "subreq-1";
  private static final String REQ0_SUB0 = REQ0 + "/" + SUB0;
  private static final String REQ0_SUB1 = REQ0 + "/" + SUB1;
  private static final String REQ1_SUB0 = REQ1 + "/" + SUB0;
  private static final String REQ1_SUB1 = REQ1 + "/" + SUB1;

  private static DeviceSubRequest sub(String name, String cls, long count, DeviceSelector... selectors) {
    return DeviceSubRequest.count(name, cls, count).withSelectors(selectors);
  }

  private static DeviceRequest prioritized(String name, DeviceSubRequest... alternatives) {
    return DeviceRequest.firstAvailable(name, alternatives);
  }

  private static Device memoryDevice(String name, String memory, Map<String, DeviceAttribute> attrs) {
    return device(name, Map.of("memory", Quantity.parse(memory)), attrs);
  }

  private static ResourceClaim allThenClassB() {
    return claim(CLAIM0, List.of(), prioritized(REQ0, DeviceSubRequest.all(SUB0, CLASS_A), sub(SUB1, CLASS_B, 1)));
  }

  @Test
  void allDevicesSliceWithoutDevicesPrioritizedList() {
    tc().claims(allThenClassB()).classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A), sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_B))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_B, POOL2, DEVICE1)));
  }

  @Test
  void allDevicesNoSlicesPrioritizedList() {
    tc().claims(allThenClassB()).classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_B))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_B, POOL2, DEVICE1)));
  }

  @Test
  void allDevicesSomeAllocatedPrioritizedList() {
    tc().claims(allThenClassB()).allocated(new DeviceId(DRIVER_A, POOL1, DEVICE1))
        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2)),
            sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_B))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_B, POOL2, DEVICE1)));
  }

  @Test
  void prioritizedListFirstUnavailable() {
    tc().claims(claim(CLAIM0, List.of(), prioritized(REQ0, sub(SUB0, CLASS_B, 1), sub(SUB1, CLASS_A, 1))))
        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void prioritizedListNonAvailable() {
    tc().claims(claim(CLAIM0, List.of(), prioritized(REQ0, sub(SUB0, CLASS_B, 2), sub(SUB1, CLASS_A, 2))))
        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A), sliceWithOneDevice(SLICE2, NODE1, POOL2, DRIVER_B))
        .expectNoAllocation();
  }

  @Test
  void prioritizedListSubrequestsWithExpressions() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1, memoryAtLeast("1Gi")),
            prioritized(REQ1, sub(SUB0, CLASS_A, 1, memoryAtLeast("4Gi")), sub(SUB1, CLASS_A, 2, memoryAtLeast("2Gi")))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, memoryDevice(DEVICE1, "2Gi", Map.of()),
            memoryDevice(DEVICE2, "2Gi", Map.of()), memoryDevice(DEVICE3, "1Gi", Map.of())))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE3),
            result(REQ1_SUB1, DRIVER_A, POOL1, DEVICE1), result(REQ1_SUB1, DRIVER_A, POOL1, DEVICE2)));
  }

  private Case constrainedPrioritized(String constrained, ResourceSlice... slices) {
    return tc().claims(claim(CLAIM0, List.of(new DeviceConstraint(List.of(REQ0, constrained), VERSION_ATTRIBUTE)),
            request(REQ0, CLASS_A, 1, memoryAtLeast("8Gi")),
            prioritized(REQ1, sub(SUB0, CLASS_A, 1, memoryAtLeast("2Gi")), sub(SUB1, CLASS_A, 1, memoryAtLeast("1Gi")))))
        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(slices);
  }

  private static Map<String, DeviceAttribute> version(String v) {
    return attrs("driverVersion", DeviceAttribute.ofVersion(v));
  }

  @Test
  void prioritizedListSubrequestsWithConstraintsRefParentRequest() {
    // The constraint names the request: it holds for whichever alternative is used, so subreq-0 (device-2, another
    // version) is passed over for subreq-1.
    constrainedPrioritized(REQ1,
            slice(SLICE1, NODE1, POOL1, DRIVER_A, memoryDevice(DEVICE1, "8Gi", version("1.0.0"))),
            slice(SLICE2, NODE1, POOL2, DRIVER_A, memoryDevice(DEVICE2, "2Gi", version("2.0.0")),
                memoryDevice(DEVICE3, "1Gi", version("1.0.0"))))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ1_SUB1, DRIVER_A, POOL2, DEVICE3)));
  }

  @Test
  void prioritizedListSubrequestsWithConstraintsRefSubRequest() {
    // The constraint names subreq-0 only: subreq-1 may take device-2 despite its other version.
    constrainedPrioritized(REQ1_SUB0,
            slice(SLICE1, NODE1, POOL1, DRIVER_A, memoryDevice(DEVICE1, "8Gi", version("1.0.0"))),
            slice(SLICE2, NODE1, POOL2, DRIVER_A, memoryDevice(DEVICE2, "2Gi", version("2.0.0"))))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ1_SUB1, DRIVER_A, POOL2, DEVICE2)));
  }

  @Test
  void prioritizedListSubrequestsWithAllocationModeAll() {
    tc().claims(claim(CLAIM0, List.of(), prioritized(REQ0, DeviceSubRequest.all(SUB0, CLASS_A), sub(SUB1, CLASS_A, 1))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2)))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE1))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_A, POOL1, DEVICE2)));
  }

  @Test
  void prioritizedListAllocationModeAllMultipleRequests() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1),
            prioritized(REQ1, DeviceSubRequest.all(SUB0, CLASS_A), sub(SUB1, CLASS_A, 1))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2)))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ1_SUB1, DRIVER_A, POOL1, DEVICE2)));
  }

  private static ResourceSlice[] eightAndFourGi() {
    return new ResourceSlice[] {slice(SLICE1, NODE1, POOL1, DRIVER_A, memoryDevice(DEVICE1, "8Gi", Map.of())),
        slice(SLICE2, NODE1, POOL2, DRIVER_A, memoryDevice(DEVICE2, "4Gi", Map.of()))};
  }

  @Test
  void prioritizedListMultiRequest() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ1, CLASS_A, 1, memoryAtLeast("8Gi")),
            prioritized(REQ0, sub(SUB0, CLASS_A, 1, memoryAtLeast("8Gi")), sub(SUB1, CLASS_A, 1, memoryAtLeast("4Gi")))))
        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(eightAndFourGi())
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ1, DRIVER_A, POOL1, DEVICE1),
            result(REQ0_SUB1, DRIVER_A, POOL2, DEVICE2)));
  }

  @Test
  void prioritizedListWithBacktracking() {
    // subreq-0 takes the only 8Gi device, which req-1 needs: the search backtracks into subreq-1.
    tc().claims(claim(CLAIM0, List.of(),
            prioritized(REQ0, sub(SUB0, CLASS_A, 1, memoryAtLeast("8Gi")), sub(SUB1, CLASS_A, 1, memoryAtLeast("4Gi"))),
            request(REQ1, CLASS_A, 1, memoryAtLeast("8Gi"))))
        .classes(deviceClass(CLASS_A, DRIVER_A)).slices(eightAndFourGi())
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_A, POOL2, DEVICE2),
            result(REQ1, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void prioritizedListTooManyInFirstSubrequest() {
    // The claim limit counts the smallest alternative; the 500-device alternative is then passed over.
    tc().claims(claim(CLAIM0, List.of(), prioritized(REQ0, sub(SUB0, CLASS_B, 500), sub(SUB1, CLASS_A, 1))))
        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_A, POOL1, DEVICE1)));
  }

  // ---- the rest of the table: prioritized lists with All, the claim limit, multi-node pools, combinations ---------

  private static final String REQ2 = "req-2";
  private static final String DEVICE4 = "device-4";

  private static Device[] devices(int count) {
    Device[] ds = new Device[count];
    for (int i = 0; i < count; i++) {
      ds[i] = device("device-" + i);
    }
    return ds;
  }

  private static List<DeviceRequestAllocationResult> results(String request, String driver, String pool, int count,
      int start) {
    List<DeviceRequestAllocationResult> rs = new ArrayList<>();
    for (int i = start; i < start + count; i++) {
      rs.add(result(request, driver, pool, "device-" + i));
    }
    return rs;
  }

  @Test
  void prioritizedListAllocationModeAll() {
    tc().claims(claim(CLAIM0, List.of(), prioritized(REQ0, DeviceSubRequest.all(SUB0, CLASS_A), sub(SUB1, CLASS_A, 1))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2)))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE2))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_A, POOL1, DEVICE1)));
  }

  private static DeviceSubRequest allGeneration(String name, String generation) {
    return DeviceSubRequest.all(name, CLASS_A)
        .withSelectors(cel("device.attributes[\"" + DRIVER_A + "\"].generation == \"" + generation + "\""));
  }

  private static ResourceClaim v6ElseV5() {
    return claim(CLAIM0, List.of(), prioritized(REQ0, allGeneration(SUB0, "v6"), allGeneration(SUB1, "v5")));
  }

  private static Device generation(String name, String generation) {
    return device(name, Map.of(), attrs("generation", DeviceAttribute.ofString(generation)));
  }

  @Test
  void prioritizedListAllocationModeAllWithSelectors() {
    // An All alternative needs at least one device: with no v6 device, the v5 alternative is used.
    tc().claims(v6ElseV5()).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, generation(DEVICE1, "v5")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void prioritizedListAllocationModeAllWithSelectorsMultiplePools() {
    tc().claims(v6ElseV5()).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, generation(DEVICE1, "v5")),
            slice(SLICE2, NODE1, POOL2, DRIVER_A, generation(DEVICE1, "v5")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_A, POOL1, DEVICE1),
            result(REQ0_SUB1, DRIVER_A, POOL2, DEVICE1)));
  }

  @Test
  void prioritizedListAllocationModeAllWithSelectorsMultiplePoolsAcrossNodes() {
    tc().claims(v6ElseV5()).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, generation(DEVICE1, "v5")),
            slice(SLICE2, NODE2, POOL2, DRIVER_A, generation(DEVICE1, "v5"), generation(DEVICE2, "v6")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void prioritizedListAllocationModeAllWithSelectorsDeviceclassSubset() {
    DeviceClass selected = DeviceClass.of(CLASS_A,
        cel("device.driver == \"" + DRIVER_A + "\" && device.attributes[\"" + DRIVER_A + "\"].selected"));
    tc().claims(v6ElseV5()).classes(selected)
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
            device(DEVICE1, Map.of(), attrs("generation", DeviceAttribute.ofString("v6"),
                "selected", DeviceAttribute.ofBool(false))),
            device(DEVICE2, Map.of(), attrs("generation", DeviceAttribute.ofString("v5"),
                "selected", DeviceAttribute.ofBool(false))),
            device(DEVICE3, Map.of(), attrs("generation", DeviceAttribute.ofString("v5"),
                "selected", DeviceAttribute.ofBool(true)))))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_A, POOL1, DEVICE3)));
  }

  @Test
  void maxNumberDevices() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, AllocationResult.MAX_RESULTS)))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, devices(AllocationResult.MAX_RESULTS)))
        .expectResults(new Expected(localNodeSelector(NODE1),
            results(REQ0, DRIVER_A, POOL1, AllocationResult.MAX_RESULTS, 0)));
  }

  @Test
  void prioritizedListMaxAllocationLimitRequest() {
    // 32 + 32 or 32 + 16 devices exceed the claim limit: only the second alternatives of both requests fit.
    int max = AllocationResult.MAX_RESULTS;
    tc().claims(claim(CLAIM0, List.of(), prioritized(REQ0, sub(SUB0, CLASS_A, max), sub(SUB1, CLASS_A, max / 2)),
            prioritized(REQ1, sub(SUB0, CLASS_A, max), sub(SUB1, CLASS_A, max / 2))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, devices(max * 2)))
        .expectResults(new Expected(localNodeSelector(NODE1), concat(results(REQ0_SUB1, DRIVER_A, POOL1, max / 2, 0),
            results(REQ1_SUB1, DRIVER_A, POOL1, max / 2, max / 2))));
  }

  private static List<DeviceRequestAllocationResult> concat(List<DeviceRequestAllocationResult> a,
      List<DeviceRequestAllocationResult> b) {
    List<DeviceRequestAllocationResult> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  @Test
  void prioritizedListMaxAllocationAllocationModeAll() {
    // All 31 devices of class-a plus req-1's 2 would exceed the limit: the ExactCount alternative is used.
    tc().claims(claim(CLAIM0, List.of(),
            prioritized(REQ0, DeviceSubRequest.all(SUB0, CLASS_A), sub(SUB1, CLASS_A, 2)), request(REQ1, CLASS_B, 2)))
        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, devices(AllocationResult.MAX_RESULTS - 1)),
            slice(SLICE2, NODE1, POOL2, DRIVER_B, devices(2)))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_A, POOL1, "device-0"),
            result(REQ0_SUB1, DRIVER_A, POOL1, "device-1"), result(REQ1, DRIVER_B, POOL2, "device-0"),
            result(REQ1, DRIVER_B, POOL2, "device-1")));
  }

  private static ResourceSlice slice(String name, String node, long generation, long count, Device... devices) {
    return slice(name, node, new ResourcePool(POOL1, generation, count), DRIVER_A, devices);
  }

  @Test
  void allocationModeAllWithMultiHostResourcePool() {
    // The pool's second slice is on node-2: the pool is complete, and All means the devices node-1 can reach.
    tc().claims(claim(CLAIM0, List.of(), allRequest(REQ0, CLASS_A))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, 1, 2, device(DEVICE1)), slice(SLICE2, NODE2, 1, 2, device(DEVICE2)))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void multiHostResourcePoolWithStaleSliceForCurrentNode() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, 1, 2, device(DEVICE1)), slice(SLICE2, NODE2, 2, 2, device(DEVICE2)))
        .expectNoAllocation();
  }

  @Test
  void multiHostResourcePoolCompleteUpdateFromNode1ToNode2() {
    // Upstream would rather not allocate here; its allocator (as this one) uses the complete old generation.
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, 1, 2, device(DEVICE1)), slice(SLICE1, NODE1, 1, 2, device(DEVICE2)),
            slice(SLICE2, NODE2, 2, 2, device(DEVICE1)), slice(SLICE2, NODE2, 2, 2, device(DEVICE2)))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void multiHostResourcePoolCompleteUpdateFromNode2ToNode1() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE2, 1, 2, device(DEVICE1)), slice(SLICE1, NODE2, 1, 2, device(DEVICE2)),
            slice(SLICE2, NODE1, 2, 2, device(DEVICE1)), slice(SLICE2, NODE1, 2, 2, device(DEVICE2)))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void multiHostResourcePoolIncompleteUpdateFromNode1ToNode2() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, 1, 2, device(DEVICE1)), slice(SLICE1, NODE1, 1, 2, device(DEVICE2)),
            slice(SLICE2, NODE2, 2, 2, device(DEVICE1)))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void multiHostResourcePoolIncompleteUpdateFromNode2ToNode1() {
    // The new generation on node-1 is incomplete: nothing is allocated.
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE2, 1, 2, device(DEVICE1)), slice(SLICE1, NODE2, 1, 2, device(DEVICE2)),
            slice(SLICE2, NODE1, 2, 2, device(DEVICE1)))
        .expectNoAllocation();
  }

  @Test
  void differentResourceslicesInPoolCanTargetDifferentNodes() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE2, 1, 2, device(DEVICE1)), slice(SLICE2, NODE1, 1, 2, device(DEVICE2)))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE2)));
  }

  private Case invalidPool1AndPool2() {
    return tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, 1, 2, device(DEVICE1)), slice(SLICE2, NODE1, 1, 2, device(DEVICE1)),
            slice("slice-3", NODE1, new ResourcePool(POOL2, 1, 1), DRIVER_A, device(DEVICE2)));
  }

  @Test
  void invalidPoolIsOkIfDevicesCanBeAllocatedFromOther() {
    invalidPool1AndPool2()
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL2, DEVICE2)));
  }

  @Test
  void invalidPoolIsErrorIfNoOtherDeviceCanBeAllocated() {
    invalidPool1AndPool2().allocated(new DeviceId(DRIVER_A, POOL2, DEVICE2))
        .expectError("invalid resource pools were encountered");
  }

  @Test
  void noAllocationFromIncompletePools() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, 1, 2, device(DEVICE1)))
        .expectNoAllocation();
  }

  // check-combinations-*: upstream also counts allocateOne calls; FleetKit keeps no such statistics, the outcomes are
  // checked.

  private Case fiveOfFour(ResourceSlice... slices) {
    return tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 5))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slices);
  }

  @Test
  void checkCombinationsWithinSingleRequestSinglePoolSingleSlice() {
    fiveOfFour(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2), device(DEVICE3),
        device(DEVICE4))).expectNoAllocation();
  }

  @Test
  void checkCombinationsWithinSingleRequestSinglePoolMultipleSlices() {
    fiveOfFour(slice(SLICE1, NODE1, 1, 2, device(DEVICE1), device(DEVICE2)),
        slice(SLICE2, NODE1, 1, 2, device(DEVICE3), device(DEVICE4))).expectNoAllocation();
  }

  @Test
  void checkCombinationsWithinSingleRequestMultiplePoolsMultipleSlices() {
    fiveOfFour(slice(SLICE1, NODE1, 1, 2, device(DEVICE1)), slice(SLICE2, NODE1, 1, 2, device(DEVICE2)),
        slice("slice-3", NODE1, POOL2, DRIVER_A, device(DEVICE3), device(DEVICE4))).expectNoAllocation();
  }

  @Test
  void checkCombinationsWithinSingleRequestManyPools() {
    fiveOfFour(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1)),
        slice(SLICE2, NODE1, POOL2, DRIVER_A, device(DEVICE2)), slice("slice-3", NODE1, POOL3, DRIVER_A,
            device(DEVICE3)), slice("slice-4", NODE1, POOL4, DRIVER_A, device(DEVICE4))).expectNoAllocation();
  }

  private static Device typed(String name, String type) {
    return device(name, Map.of(), attrs("type", DeviceAttribute.ofString(type)));
  }

  private static DeviceSelector type(String type) {
    return cel("device.attributes[\"" + DRIVER_A + "\"].type == \"" + type + "\"");
  }

  @Test
  void checkCombinationsWithBacktracking() {
    // {device-1, device-2} for req-1 is tried first, but req-2 needs device-1.
    tc().claims(claim(CLAIM0, List.of(), request(REQ1, CLASS_A, 2), request(REQ2, CLASS_A, 1, type("X"))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, typed(DEVICE1, "X"), typed(DEVICE2, "Y"), typed(DEVICE3, "Y")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ1, DRIVER_A, POOL1, DEVICE2),
            result(REQ1, DRIVER_A, POOL1, DEVICE3), result(REQ2, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void checkCombinationsWithPrioritizedList() {
    tc().claims(claim(CLAIM0, List.of(),
            prioritized(REQ1, sub(SUB0, CLASS_A, 3, type("Y")), sub(SUB1, CLASS_A, 2)),
            prioritized(REQ2, sub(SUB0, CLASS_A, 2), sub(SUB1, CLASS_A, 1, type("X")))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, typed(DEVICE1, "X"), typed(DEVICE2, "Y"), typed(DEVICE3, "Y")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ1_SUB1, DRIVER_A, POOL1, DEVICE2),
            result(REQ1_SUB1, DRIVER_A, POOL1, DEVICE3), result(REQ2 + "/" + SUB1, DRIVER_A, POOL1, DEVICE1)));
  }

  // ---- device taints ------------------------------------------------------------------------------------------
  // The "-disabled" variants (tainted-disabled, tainted-prioritized-list-disabled, tainted-admin-access-disabled,
  // tainted-all-devices-single-disabled) turn the DRADeviceTaints feature gate off: FleetKit has no feature gates.

  private static final String TAINT_KEY = "taint-key";
  private static final DeviceTaint TAINT_NONE = DeviceTaint.of(TAINT_KEY, "taint-value", DeviceTaintEffect.NONE);
  private static final DeviceTaint TAINT_NO_SCHEDULE = DeviceTaint.of(TAINT_KEY, "taint-value",
      DeviceTaintEffect.NO_SCHEDULE);
  private static final DeviceTaint TAINT_NO_EXECUTE = DeviceTaint.of(TAINT_KEY, "taint-value-2",
      DeviceTaintEffect.NO_EXECUTE);
  private static final DeviceToleration TOLERATION_NO_SCHEDULE = DeviceToleration.exists(TAINT_KEY,
      DeviceTaintEffect.NO_SCHEDULE);
  private static final DeviceToleration TOLERATION_NO_EXECUTE = DeviceToleration.equal(TAINT_KEY, "taint-value-2",
      DeviceTaintEffect.NO_EXECUTE);

  /** {@code withTolerations}: the tolerations added to every request of the claim. */
  private static ResourceClaim withTolerations(ResourceClaim c, DeviceToleration... ts) {
    List<DeviceRequest> requests = new ArrayList<>();
    for (DeviceRequest r : c.spec().devices().requests()) {
      requests.add(new DeviceRequest(r.name(), r.exactly().withTolerations(ts)));
    }
    return claim(c.metadata().name(), c.spec().devices().constraints(), requests.toArray(DeviceRequest[]::new));
  }

  private static DeviceRequestAllocationResult result(String request, String driver, String pool, String device,
      boolean adminAccess, DeviceToleration... tolerations) {
    return new DeviceRequestAllocationResult(request, driver, pool, device, adminAccess, List.of(tolerations));
  }

  private static ResourceSlice taintedSlice(Device... devices) {
    return slice(SLICE1, NODE1, POOL1, DRIVER_A, devices);
  }

  @Test
  void taintedTwoDevices() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1).withTaints(TAINT_NO_SCHEDULE),
            device(DEVICE2).withTaints(TAINT_NO_EXECUTE)))
        .expectNoAllocation();
  }

  @Test
  void taintedOneDeviceTwoTaints() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1).withTaints(TAINT_NO_SCHEDULE, TAINT_NO_EXECUTE)))
        .expectNoAllocation();
  }

  @Test
  void taintedTwoDevicesTolerated() {
    tc().claims(withTolerations(claimWithRequest(CLAIM0, REQ0, CLASS_A), TOLERATION_NO_EXECUTE))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1).withTaints(TAINT_NO_SCHEDULE),
            device(DEVICE2).withTaints(TAINT_NO_EXECUTE)))
        // Only the second device's taints are tolerated; the result copies the request's tolerations.
        .expectResults(allocation(localNodeSelector(NODE1),
            result(REQ0, DRIVER_A, POOL1, DEVICE2, false, TOLERATION_NO_EXECUTE)));
  }

  @Test
  void taintedTwoDevicesPrioritizedListTolerated() {
    tc().claims(claim(CLAIM0, List.of(), prioritized(REQ0, sub(SUB0, CLASS_A, 1),
            sub(SUB1, CLASS_A, 1).withTolerations(TOLERATION_NO_EXECUTE))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1).withTaints(TAINT_NO_SCHEDULE),
            device(DEVICE2).withTaints(TAINT_NO_EXECUTE)))
        .expectResults(allocation(localNodeSelector(NODE1),
            result(REQ0_SUB1, DRIVER_A, POOL1, DEVICE2, false, TOLERATION_NO_EXECUTE)));
  }

  // FleetKit's own: a DeviceTaintRule's taint counts as the device's (upstream's slice tracker adds it to the slice).

  @Test
  void taintRule_noExecuteOnFirstDevice_secondDeviceChosen() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1), device(DEVICE2)))
        .rules(DeviceTaintRule.of("broken", DeviceTaintSelector.device(DRIVER_A, POOL1, DEVICE1), TAINT_NO_EXECUTE))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE2)));
  }

  @Test
  void taintRule_allDevicesOfTheDriver_noAllocationUnlessTolerated() {
    DeviceTaintRule rule = DeviceTaintRule.of("drain", DeviceTaintSelector.driver(DRIVER_A), TAINT_NO_EXECUTE);
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1), device(DEVICE2))).rules(rule)
        .expectNoAllocation();
    tc().claims(withTolerations(claimWithRequest(CLAIM0, REQ0, CLASS_A), TOLERATION_NO_EXECUTE))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1), device(DEVICE2))).rules(rule)
        .expectResults(allocation(localNodeSelector(NODE1),
            result(REQ0, DRIVER_A, POOL1, DEVICE1, false, TOLERATION_NO_EXECUTE)));
  }

  @Test
  void taintRule_otherDriverOrNoneEffect_ignored() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1)))
        .rules(DeviceTaintRule.of("other", DeviceTaintSelector.driver("other.example.com"), TAINT_NO_EXECUTE),
            DeviceTaintRule.of("none", DeviceTaintSelector.ALL, TAINT_NONE))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void taintedNoEffect() {
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1).withTaints(TAINT_NONE)))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void taintedOneDeviceTwoTaintsBothTolerated() {
    tc().claims(withTolerations(claimWithRequest(CLAIM0, REQ0, CLASS_A), TOLERATION_NO_SCHEDULE,
            TOLERATION_NO_EXECUTE))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1).withTaints(TAINT_NO_SCHEDULE, TAINT_NO_EXECUTE)))
        .expectResults(allocation(localNodeSelector(NODE1),
            result(REQ0, DRIVER_A, POOL1, DEVICE1, false, TOLERATION_NO_SCHEDULE, TOLERATION_NO_EXECUTE)));
  }

  @Test
  void taintedPrioritizedList() {
    tc().claims(claim(CLAIM0, List.of(), prioritized(REQ0, sub(SUB0, CLASS_B, 1), sub(SUB1, CLASS_A, 1))))
        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(taintedSlice(device(DEVICE1).withTaints(TAINT_NO_SCHEDULE)))
        .expectNoAllocation();
  }

  @Test
  void taintedAdminAccess() {
    // Admin access may use allocated devices, but not untolerated tainted ones.
    tc().claims(claim(CLAIM0, List.of(), admin(request(REQ0, CLASS_A, 1))))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE1), new DeviceId(DRIVER_A, POOL1, DEVICE2))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1).withTaints(TAINT_NO_SCHEDULE)))
        .expectNoAllocation();
  }

  @Test
  void taintedAllDevicesSingle() {
    tc().claims(claim(CLAIM0, List.of(), allRequest(REQ0, CLASS_A))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1).withTaints(TAINT_NO_SCHEDULE)))
        .expectNoAllocation();
  }

  // ---- partitionable devices (shared counters, per-device node selection) ------------------------------------
  // The "-disabled" variants (partitionable-devices-disabled-device-consumes-counters, -disabled-other-device-do-not-
  // consume-counters, -disabled-per-device-node-selection) turn the DRAPartitionableDevices gate off: FleetKit has no
  // feature gates. Upstream's counter sets and consumptions without counters (nil maps) are refused by validation
  // ("counters: Required value"), so the cases whose point is elsewhere get one counter there (noted per case).

  private static final String POOL_PER_DEVICE = "nodeSelectionPerDevice";
  private static final String COUNTER_SET1 = "counter-set-1";
  private static final String COUNTER_SET2 = "counter-set-2";
  private static final String SLICE3 = "slice-3";
  private static final String SLICE4 = "slice-4";

  private static ResourcePool resourcePool(String name, long count) {
    return new ResourcePool(name, 1, count);
  }

  /** Counters from alternating names and quantities: {@code counters("memory", "4Gi", "cpus", "6")}. */
  private static Map<String, Quantity> counters(String... nameAndQuantity) {
    Map<String, Quantity> out = new java.util.LinkedHashMap<>();
    for (int i = 0; i < nameAndQuantity.length; i += 2) {
      out.put(nameAndQuantity[i], Quantity.parse(nameAndQuantity[i + 1]));
    }
    return out;
  }

  private static CounterSet counterSet(String name, String... counters) {
    return new CounterSet(name, counters(counters));
  }

  private static DeviceCounterConsumption consumption(String set, String... counters) {
    return new DeviceCounterConsumption(set, counters(counters));
  }

  /** {@code device(name, fromCounters, nil).withDeviceCounterConsumption(..)}: the capacity is the consumption. */
  private static Device fromCounters(String name, DeviceCounterConsumption... consumption) {
    Map<String, Quantity> capacity = new java.util.LinkedHashMap<>();
    for (DeviceCounterConsumption c : consumption) {
      capacity.putAll(c.counters());
    }
    return new Device(name, Map.of(), capacity).withConsumesCounters(consumption);
  }

  private static Device consuming(String name, DeviceCounterConsumption... consumption) {
    return device(name).withConsumesCounters(consumption);
  }

  /** {@code withNodeSelection}: a node name, {@link #ALL_NODES}, or a node selector. */
  private static Device withNodeSelection(Device d, Object selection) {
    return new Device(d.name(), d.attributes(), d.capacity(), d.taints(), d.consumesCounters(),
        selection instanceof String n && !ALL_NODES.equals(n) ? n : null,
        selection instanceof NodeSelector ns ? ns : null, ALL_NODES.equals(selection));
  }

  private static ResourceSlice sliceWithCounterSets(String name, Object nodeSelection, ResourcePool pool,
      String driver, CounterSet... sets) {
    ResourceSliceSpec.Builder b = ResourceSliceSpec.builder(driver, pool);
    for (CounterSet cs : sets) {
      b.counterSet(cs);
    }
    nodeSelection(b, nodeSelection);
    return ResourceSlice.of(name, b.build());
  }

  private static ResourceSlice perDeviceSlice(String name, ResourcePool pool, String driver, Device... devices) {
    return ResourceSlice.of(name, ResourceSliceSpec.builder(driver, pool).perDeviceNodeSelection()
        .devices(List.of(devices)).build());
  }

  @Test
  void partitionableDevicesSingleDevice() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                consuming(DEVICE1, consumption(COUNTER_SET1, "memory", "4Gi"))),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "8Gi")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  private static ResourceSlice threeMemoryPartitions(String name, ResourcePool pool) {
    return slice(name, NODE1, pool, DRIVER_A,
        fromCounters(DEVICE1, consumption(COUNTER_SET1, "memory", "4Gi")),
        fromCounters(DEVICE2, consumption(COUNTER_SET1, "memory", "6Gi")),
        fromCounters(DEVICE3, consumption(COUNTER_SET1, "memory", "4Gi")));
  }

  private static ResourceClaim oneThenSixOrFourGi() {
    return claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1), prioritized(REQ1,
        sub(SUB0, CLASS_A, 1, memoryAtLeast("6Gi")), sub(SUB1, CLASS_A, 1, memoryAtLeast("4Gi"))));
  }

  @Test
  void partitionableDevicesPrioritizedList() {
    tc().claims(oneThenSixOrFourGi()).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(threeMemoryPartitions(SLICE1, resourcePool(POOL1, 2)),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "8Gi")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ1_SUB1, DRIVER_A, POOL1, DEVICE3)));
  }

  @Test
  void partitionableDevicesMultipleDevices() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1), request(REQ1, CLASS_A, 1)))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(threeMemoryPartitions(SLICE1, resourcePool(POOL1, 2)),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "8Gi")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ1, DRIVER_A, POOL1, DEVICE3)));
  }

  @Test
  void partitionableDevicesMultipleCapacityPools() {
    tc().claims(oneThenSixOrFourGi()).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                fromCounters(DEVICE1, consumption(COUNTER_SET1, "memory", "4Gi"), consumption(COUNTER_SET2, "cpus",
                    "4")),
                fromCounters(DEVICE2, consumption(COUNTER_SET1, "memory", "6Gi"), consumption(COUNTER_SET2, "cpus",
                    "6")),
                fromCounters(DEVICE3, consumption(COUNTER_SET1, "memory", "4Gi"), consumption(COUNTER_SET2, "cpus",
                    "4"))),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "18Gi"), counterSet(COUNTER_SET2, "cpus", "8")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ1_SUB1, DRIVER_A, POOL1, DEVICE3)));
  }

  @Test
  void partitionableDevicesMultipleCounters() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1), request(REQ1, CLASS_A, 1)))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                fromCounters(DEVICE1, consumption(COUNTER_SET1, "memory", "4Gi", "cpus", "6"),
                    consumption(COUNTER_SET2, "cpus", "4", "memory", "2Gi")),
                fromCounters(DEVICE2, consumption(COUNTER_SET1, "memory", "6Gi", "cpus", "4"),
                    consumption(COUNTER_SET2, "cpus", "6", "memory", "6Gi")),
                fromCounters(DEVICE3, consumption(COUNTER_SET1, "memory", "4Gi", "cpus", "4"),
                    consumption(COUNTER_SET2, "cpus", "4", "memory", "4Gi"))),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "cpus", "8", "memory", "18Gi"),
                counterSet(COUNTER_SET2, "cpus", "12", "memory", "18Gi")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE2),
            result(REQ1, DRIVER_A, POOL1, DEVICE3)));
  }

  @Test
  void partitionableDevicesMultiplePools() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1), request(REQ1, CLASS_A, 1)))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                fromCounters(DEVICE1, consumption(COUNTER_SET1, "cpus", "6", "memory", "4Gi")),
                fromCounters(DEVICE2, consumption(COUNTER_SET1, "cpus", "4", "memory", "6Gi")),
                fromCounters(DEVICE3, consumption(COUNTER_SET1, "cpus", "4", "memory", "4Gi"))),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "cpus", "8", "memory", "18Gi")),
            slice(SLICE3, NODE1, resourcePool(POOL2, 2), DRIVER_A,
                fromCounters(DEVICE1, consumption(COUNTER_SET1, "cpus", "6", "memory", "4Gi")),
                fromCounters(DEVICE2, consumption(COUNTER_SET1, "cpus", "1", "memory", "7Gi")),
                fromCounters(DEVICE3, consumption(COUNTER_SET1, "cpus", "1", "memory", "7Gi"))),
            sliceWithCounterSets(SLICE4, NODE1, resourcePool(POOL2, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "cpus", "8", "memory", "18Gi")))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE2), new DeviceId(DRIVER_A, POOL1, DEVICE3),
            new DeviceId(DRIVER_A, POOL2, DEVICE1))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL2, DEVICE2),
            result(REQ1, DRIVER_A, POOL2, DEVICE3)));
  }

  @Test
  void partitionableDevicesUnusedCountersInCounterSet() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 2))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                consuming(DEVICE1, consumption(COUNTER_SET1, "memory", "5Gi")),
                consuming(DEVICE2, consumption(COUNTER_SET1, "memory", "4Gi")),
                consuming(DEVICE3, consumption(COUNTER_SET1, "memory", "4Gi"))),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "8Gi", "unused", "1Gi")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE2),
            result(REQ0, DRIVER_A, POOL1, DEVICE3)));
  }

  @Test
  void partitionableDevicesNoCapacityAvailable() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
                fromCounters(DEVICE1, consumption(COUNTER_SET1, "memory", "4Gi")),
                fromCounters(DEVICE2, consumption(COUNTER_SET1, "memory", "16Gi"))),
            sliceWithCounterSets(SLICE2, NODE1, ResourcePool.of(POOL1), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "18Gi")))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE2))
        .expectNoAllocation();
  }

  @Test
  void partitionableDevicesOverallocatedCapacityPool() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A,
                fromCounters(DEVICE1, consumption(COUNTER_SET1, "memory", "4Gi")),
                fromCounters(DEVICE2, consumption(COUNTER_SET1, "memory", "20Gi"))),
            sliceWithCounterSets(SLICE2, NODE1, ResourcePool.of(POOL1), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "18Gi")))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE2))
        .expectNoAllocation();
  }

  @Test
  void partitionableDevicesPerDeviceNodeSelectionNodename() {
    tc().claims(claim(CLAIM0, List.of(), prioritized(REQ0, sub(SUB0, CLASS_A, 1, memoryAtLeast("6Gi")),
            sub(SUB1, CLASS_A, 1, memoryAtLeast("4Gi")))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(perDeviceSlice(SLICE1, resourcePool(POOL1, 2), DRIVER_A,
                withNodeSelection(fromCounters(DEVICE1, consumption(COUNTER_SET1, "memory", "4Gi")), NODE1),
                withNodeSelection(fromCounters(DEVICE2, consumption(COUNTER_SET1, "memory", "6Gi")), NODE2)),
            sliceWithCounterSets(SLICE2, POOL_PER_DEVICE, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "18Gi")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void partitionableDevicesPerDeviceNodeSelectionNodeSelector() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(perDeviceSlice(SLICE1, resourcePool(POOL1, 2), DRIVER_A,
                withNodeSelection(fromCounters(DEVICE1, consumption(COUNTER_SET1, "memory", "4Gi")),
                    nodeLabelSelector("region", REGION1))),
            sliceWithCounterSets(SLICE2, POOL_PER_DEVICE, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "18Gi")))
        .expectResults(allocation(nodeLabelSelector("region", REGION1), result(REQ0, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void partitionableDevicesPerDeviceNodeSelectionNodeSelectorMultipleDevices() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 3), request(REQ1, CLASS_B, 3)))
        .classes(deviceClass(CLASS_A, DRIVER_A), deviceClass(CLASS_B, DRIVER_B))
        .slices(perDeviceSlice(SLICE1, resourcePool(POOL1, 2), DRIVER_A,
                withNodeSelection(fromCounters(DEVICE1, consumption(COUNTER_SET1, "memory", "4Gi")),
                    nodeLabelSelector("region", REGION1)),
                withNodeSelection(fromCounters(DEVICE2, consumption(COUNTER_SET1, "memory", "4Gi")), NODE1),
                withNodeSelection(fromCounters(DEVICE3, consumption(COUNTER_SET1, "memory", "4Gi")), ALL_NODES)),
            sliceWithCounterSets(SLICE2, POOL_PER_DEVICE, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "18Gi")),
            slice(SLICE3, NODE1, resourcePool(POOL2, 2), DRIVER_B,
                fromCounters(DEVICE1, consumption(COUNTER_SET2, "memory", "4Gi")),
                fromCounters(DEVICE2, consumption(COUNTER_SET2, "memory", "4Gi")),
                fromCounters(DEVICE3, consumption(COUNTER_SET2, "memory", "4Gi"))),
            sliceWithCounterSets(SLICE4, NODE1, resourcePool(POOL2, 2), DRIVER_B,
                counterSet(COUNTER_SET2, "memory", "12Gi")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ0, DRIVER_A, POOL1, DEVICE2), result(REQ0, DRIVER_A, POOL1, DEVICE3),
            result(REQ1, DRIVER_B, POOL2, DEVICE1), result(REQ1, DRIVER_B, POOL2, DEVICE2),
            result(REQ1, DRIVER_B, POOL2, DEVICE3)));
  }

  @Test
  void partitionableDevicesWithAttributeSelector() {
    Map<String, DeviceAttribute> special = Map.of("special", DeviceAttribute.ofBool(true));
    Map<String, DeviceAttribute> plain = Map.of("special", DeviceAttribute.ofBool(false));
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 2),
            request(REQ1, CLASS_A, 1, cel("device.attributes[\"" + DRIVER_A + "\"].special"))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                device(DEVICE1, Map.of(), special).withConsumesCounters(consumption(COUNTER_SET1, "cpu1", "1"),
                    consumption(COUNTER_SET2, "mem", "10Gi")),
                device(DEVICE2, Map.of(), plain).withConsumesCounters(consumption(COUNTER_SET1, "cpu2", "1"),
                    consumption(COUNTER_SET2, "mem", "10Gi")),
                device(DEVICE3, Map.of(), plain).withConsumesCounters(consumption(COUNTER_SET1, "cpu3", "1"),
                    consumption(COUNTER_SET2, "mem", "10Gi"))),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "cpu1", "1", "cpu2", "1", "cpu3", "1"),
                counterSet(COUNTER_SET2, "mem", "30Gi")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE2),
            result(REQ0, DRIVER_A, POOL1, DEVICE3), result(REQ1, DRIVER_A, POOL1, DEVICE1)));
  }

  @Test
  void partitionableDevicesSameCounterSetNameInDifferentResourceSlices() {
    // upstream's counter sets have no counters; one is added here (validation requires counters)
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, resourcePool(POOL1, 4), DRIVER_A, device(DEVICE1)),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 4), DRIVER_A, counterSet(COUNTER_SET1, "c", "1")),
            slice(SLICE3, NODE1, resourcePool(POOL1, 4), DRIVER_A, device(DEVICE2)),
            sliceWithCounterSets(SLICE4, NODE1, resourcePool(POOL1, 4), DRIVER_A, counterSet(COUNTER_SET1, "c", "1")))
        .expectError("invalid resource pools were encountered");
  }

  @Test
  void partitionableDevicesDeviceCounterConsumptionReferencesUnknownCounterSet() {
    // upstream's consumption and counter set have no counters; one is added to each (validation requires counters)
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                consuming(DEVICE1, consumption(COUNTER_SET2, "c", "1"))),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 2), DRIVER_A, counterSet(COUNTER_SET1, "c", "1")))
        .expectError("invalid resource pools were encountered");
  }

  @Test
  void partitionableDevicesDeviceCounterConsumptionReferencesUnknownCounterInCounterSet() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                consuming(DEVICE1, consumption(COUNTER_SET1, "memory", "8Gi"))),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "other-memory", "8Gi")))
        .expectError("invalid resource pools were encountered: pool driver-a/pool-1: counter memory not found in "
            + "counter set counter-set-1");
  }

  @Test
  void partitionableDevicesDeviceCounterConsumptionReferencesCounterSetInOtherPool() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, consuming(DEVICE1, consumption(COUNTER_SET1, "memory", "8Gi"))),
            sliceWithCounterSets(SLICE2, NODE1, ResourcePool.of(POOL2), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "8Gi")))
        .expectError("invalid resource pools were encountered");
  }

  @Test
  void partitionableDevicesDevicesOnDifferentNodesConsumeSameCounterSet() {
    tc().claims(claim(CLAIM0, List.of(), prioritized(REQ0, sub(SUB0, CLASS_A, 1, memoryAtLeast("6Gi")),
            sub(SUB1, CLASS_A, 1, memoryAtLeast("2Gi")))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(sliceWithCounterSets(SLICE1, NODE1, resourcePool(POOL1, 3), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "8Gi")),
            slice(SLICE2, NODE1, resourcePool(POOL1, 3), DRIVER_A,
                fromCounters(DEVICE1, consumption(COUNTER_SET1, "memory", "6Gi")),
                fromCounters(DEVICE2, consumption(COUNTER_SET1, "memory", "2Gi"))),
            slice(SLICE3, NODE2, resourcePool(POOL1, 3), DRIVER_A,
                consuming(DEVICE3, consumption(COUNTER_SET1, "memory", "6Gi"))))
        // device-3 on node-2 is allocated and uses 6Gi of the set: device-1 (6Gi) no longer fits, device-2 does
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE3))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0_SUB1, DRIVER_A, POOL1, DEVICE2)));
  }

  @Test
  void partitionableDevicesValidationErrorOnNonTargetingSlice() {
    tc().claims(claim(CLAIM0, List.of(), request(REQ0, CLASS_A, 1))).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(sliceWithCounterSets(SLICE1, NODE1, resourcePool(POOL1, 3), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "8Gi")),
            slice(SLICE2, NODE1, resourcePool(POOL1, 3), DRIVER_A,
                fromCounters(DEVICE1, consumption(COUNTER_SET1, "memory", "6Gi"))),
            slice(SLICE3, NODE2, resourcePool(POOL1, 3), DRIVER_A,
                consuming(DEVICE3, consumption(COUNTER_SET2, "memory", "6Gi"))))
        .expectError("invalid resource pools were encountered: pool driver-a/pool-1: counter set counter-set-2 not "
            + "found");
  }

  @Test
  void partitionableDevices_countersFreedOnBacktracking_reusedByTheNextChoice() {
    // FleetKit's own: a device that fits the counters but breaks a constraint gives its consumption back
    tc().claims(claim(CLAIM0, List.of(DeviceConstraint.matchAttribute(INT_ATTRIBUTE)), request(REQ0, CLASS_A, 2)))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(slice(SLICE1, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                device(DEVICE1, Map.of(), Map.of("numa", DeviceAttribute.ofInt(0)))
                    .withConsumesCounters(consumption(COUNTER_SET1, "memory", "4Gi")),
                device(DEVICE2, Map.of(), Map.of("numa", DeviceAttribute.ofInt(1)))
                    .withConsumesCounters(consumption(COUNTER_SET1, "memory", "4Gi")),
                device(DEVICE3, Map.of(), Map.of("numa", DeviceAttribute.ofInt(0)))
                    .withConsumesCounters(consumption(COUNTER_SET1, "memory", "4Gi"))),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "8Gi")))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1),
            result(REQ0, DRIVER_A, POOL1, DEVICE3)));
  }

  // ---- FleetKit's own cases -----------------------------------------------------------------------------------

  @Test
  void unsatisfiable_reasonNamesClaimRequestAndCounts() {
    AllocationOutcome o = tc().claims(ResourceClaim.of(ObjectMeta.of("ns", CLAIM0),
            ResourceClaimSpec.of(request(REQ0, CLASS_A, 2))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE1))
        .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, device(DEVICE1), device(DEVICE2))).run();
    assertThat(o).isEqualTo(new AllocationOutcome.Unsatisfiable("cannot allocate all claims: claim ns/claim-0, "
        + "request req-0: 2 device(s) of class class-a wanted, 2 on this node match the selectors, 1 of them "
        + "already allocated"));
  }

  @Test
  void unsatisfiable_reasonCountsUntoleratedTaints() {
    AllocationOutcome o = tc().claims(ResourceClaim.of(ObjectMeta.of("ns", CLAIM0),
            ResourceClaimSpec.of(request(REQ0, CLASS_A, 1))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1).withTaints(TAINT_NO_SCHEDULE), device(DEVICE2).withTaints(TAINT_NONE)
            .withTaints(TAINT_NO_EXECUTE))).run();
    assertThat(o).isEqualTo(new AllocationOutcome.Unsatisfiable("cannot allocate all claims: claim ns/claim-0, "
        + "request req-0: 1 device(s) of class class-a wanted, 2 on this node match the selectors, 0 of them "
        + "already allocated, 2 tainted (a NoSchedule or NoExecute taint the request does not tolerate)"));
  }

  @Test
  void unsatisfiable_reasonCountsDevicesShortOfCounters() {
    AllocationOutcome o = tc().claims(ResourceClaim.of(ObjectMeta.of("ns", CLAIM0),
            ResourceClaimSpec.of(request(REQ0, CLASS_A, 1))))
        .classes(deviceClass(CLASS_A, DRIVER_A))
        .allocated(new DeviceId(DRIVER_A, POOL1, DEVICE1))
        .slices(slice(SLICE1, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                consuming(DEVICE1, consumption(COUNTER_SET1, "memory", "6Gi")),
                consuming(DEVICE2, consumption(COUNTER_SET1, "memory", "4Gi"))),
            sliceWithCounterSets(SLICE2, NODE1, resourcePool(POOL1, 2), DRIVER_A,
                counterSet(COUNTER_SET1, "memory", "8Gi"))).run();
    assertThat(o).isEqualTo(new AllocationOutcome.Unsatisfiable("cannot allocate all claims: claim ns/claim-0, "
        + "request req-0: 1 device(s) of class class-a wanted, 2 on this node match the selectors, 1 of them "
        + "already allocated, 1 consuming more of their pool's shared counters than the allocated devices leave"));
  }

  @Test
  void tolerationOfEveryTaint_allocatesATaintedDevice_resultCarriesIt() {
    DeviceToleration all = DeviceToleration.exists("", null);
    tc().claims(withTolerations(claimWithRequest(CLAIM0, REQ0, CLASS_A), all)).classes(deviceClass(CLASS_A, DRIVER_A))
        .slices(taintedSlice(device(DEVICE1).withTaints(TAINT_NO_SCHEDULE, TAINT_NO_EXECUTE)))
        .expectResults(allocation(localNodeSelector(NODE1), result(REQ0, DRIVER_A, POOL1, DEVICE1, false, all)));
  }

  @Test
  void selectorRuntimeError_failsNamingClassSelectorAndDevice() {
    DeviceClass strict = DeviceClass.of(CLASS_A, cel("device.attributes[\"driver-a\"].model == \"a100\""));
    tc().claims(claimWithRequest(CLAIM0, REQ0, CLASS_A)).classes(strict)
        .slices(sliceWithOneDevice(SLICE1, NODE1, POOL1, DRIVER_A))
        .expectError("class class-a: selector #0 on device driver-a/pool-1/device-1: CEL runtime error: "
            + "no such key: model");
  }

  @Test
  void allocate_neverReusesDevices_acrossClaimsAndAllocatedSet() {
    // A small exhaustive check: with n free devices and k single-device claims, allocation succeeds iff k <= n,
    // and never hands out a device twice or one already allocated.
    for (int devices = 0; devices <= 4; devices++) {
      for (int taken = 0; taken <= devices; taken++) {
        for (int claims = 1; claims <= 4; claims++) {
          Device[] ds = new Device[devices];
          for (int i = 0; i < devices; i++) {
            ds[i] = device("device-" + i);
          }
          DeviceId[] allocated = new DeviceId[taken];
          for (int i = 0; i < taken; i++) {
            allocated[i] = new DeviceId(DRIVER_A, POOL1, "device-" + i);
          }
          ResourceClaim[] cs = new ResourceClaim[claims];
          for (int i = 0; i < claims; i++) {
            cs[i] = claimWithRequest("claim-" + i, REQ0, CLASS_A);
          }
          AllocationOutcome o = tc().claims(cs).allocated(allocated).classes(deviceClass(CLASS_A, DRIVER_A))
              .slices(slice(SLICE1, NODE1, POOL1, DRIVER_A, ds)).run();
          if (claims > devices - taken) {
            assertThat(o).isInstanceOf(AllocationOutcome.Unsatisfiable.class);
            continue;
          }
          List<DeviceId> used = ((AllocationOutcome.Allocated) o).results().stream()
              .flatMap(r -> r.devices().stream()).map(d -> new DeviceId(d.driver(), d.pool(), d.device())).toList();
          assertThat(used).doesNotHaveDuplicates().hasSize(claims);
          assertThat(used).noneMatch(Set.of(allocated)::contains);
        }
      }
    }
  }
}
