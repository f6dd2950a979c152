package io.fleetkit.scheduler.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.core.PodResourceClaimStatus;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PostFilterResult;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceAttribute;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.DeviceSelector;
import io.fleetkit.api.resource.dra.DeviceSubRequest;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceToleration;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourceClaimStatus;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.scheduler.dra.StructuredAllocator;
import io.fleetkit.scheduler.plugins.helper.ArgsOnlyHandle;
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes {@code pkg/scheduler/framework/plugins/dynamicresources/dynamicresources_test.go},
 * {@code TestPlugin}, the {@code resource.k8s.io/v1beta1} version of the file with the DRAAdminAccess and
 * DRAPrioritizedList cases (30 cases; the index names no commit for it). Each case runs the plugin's extension points
 * in upstream's order (PreEnqueue, PreFilter, Filter per node, Reserve on the first node that passed, then
 * Unreserve or PreBind; PostFilter when PreFilter did not succeed or no node passed Filter) against an in-memory
 * store, and checks upstream's statuses (code and message, as upstream's {@code verify} compares them), the claims
 * in flight after Reserve and the stored claims after PreBind, Unreserve and PostFilter; upstream's
 * {@code postFilterResult} (nil in every case) is checked as a result without a nominated node or victims. Upstream's assume cache has no counterpart (PreBind writes the store, which the next cycle reads), so
 * its {@code assumedClaim} column is checked as the stored claim. Left out (see docs/conformance.md): the cases that
 * turn a feature gate off (request-admin-access-without-DRAAdminAccess-featuregate, DRA-disabled,
 * claim-with-prioritized-list-feature-disabled: FleetKit has no feature gates); upstream's PreScore column (no
 * such extension point here). Upstream's {@code RequestWithPrioritizedList(className)} builds request
 * req-1 with one alternative, subreq-1, for one device of the class.
 */
final class DynamicResourcesPluginTest {
  private static final String NODE = "worker";
  private static final String NODE2 = "worker-2";
  private static final String NODE3 = "worker-3";
  private static final String DRIVER = "some-driver";
  private static final String POD = "my-pod";
  private static final String POD_UID = "1234";
  private static final String RESOURCE = "my-resource";
  private static final String CLAIM = POD + "-" + RESOURCE;
  private static final String CLASS = "my-resource-class";
  private static final String NS = "default";
  private static final String ATTR = "healthy";
  private static final String FINALIZER = DynamicResourcesPlugin.FINALIZER;

  private static final DeviceClass DEVICE_CLASS = DeviceClass.of(CLASS);
  private static final DeviceSelector BROKEN = DeviceSelector.cel("device.attributes[\"" + DRIVER + "\"]." + ATTR);

  private static Node node(String name) {
    return Node.builder().name(name).label("kubernetes.io/hostname", name).build();
  }

  private static ResourceSlice slice(String node, Map<String, DeviceAttribute> attrs) {
    return ResourceSlice.of(node + "-" + DRIVER, ResourceSliceSpec.builder(DRIVER, ResourcePool.of(node))
        .nodeName(node).devices(List.of(new Device("instance-1", attrs, Map.of()))).build());
  }

  private static final ResourceSlice WORKER_SLICE = slice(NODE, Map.of());
  private static final ResourceSlice WORKER2_SLICE = slice(NODE2, Map.of(ATTR, DeviceAttribute.ofBool(true)));
  private static final ResourceSlice WORKER3_SLICE = slice(NODE3, Map.of(ATTR, DeviceAttribute.ofBool(true)));

  private static Pod.Builder pod() {
    return Pod.builder().namespace(NS).name(POD).uid(POD_UID).container("c", "pause", ResourceList.EMPTY);
  }

  private static final Pod POD_WITH_CLAIM_NAME = pod().resourceClaim(PodResourceClaim.ofClaim(RESOURCE, CLAIM)).build();
  private static final Pod POD_WITH_CLAIM_TEMPLATE =
      pod().resourceClaim(PodResourceClaim.ofTemplate(RESOURCE, CLAIM)).build();
  private static final Pod POD_WITH_CLAIM_TEMPLATE_IN_STATUS = POD_WITH_CLAIM_TEMPLATE.withStatus(
      PodStatus.PENDING.withResourceClaimStatuses(List.of(new PodResourceClaimStatus(RESOURCE, CLAIM))));

  private static ResourceClaim claim(String name, String className, @Nullable OwnerReference owner,
      DeviceSelector... selectors) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(NS).name(name);
    if (owner != null) {
      m.ownerReference(owner);
    }
    return ResourceClaim.of(m.build(), ResourceClaimSpec.of(
        new DeviceRequest("req-1", ExactDeviceRequest.count(className, 1).withSelectors(selectors))));
  }

  private static final OwnerReference POD_OWNER = new OwnerReference("v1", "Pod", POD, POD_UID, true, true);
  /** {@code claim}: no owner. */
  private static final ResourceClaim CLAIM_NO_OWNER = claim(CLAIM, CLASS, null);
  private static final ResourceClaim PENDING_CLAIM = claim(CLAIM, CLASS, POD_OWNER);

  private static final AllocationResult ALLOCATION = new AllocationResult(
      List.of(new DeviceRequestAllocationResult("req-1", DRIVER, NODE, "instance-1")),
      StructuredAllocator.localNodeSelector(NODE));
  private static final ResourceClaimConsumerReference RESERVED_FOR_POD =
      ResourceClaimConsumerReference.pod(POD, POD_UID);

  private static ResourceClaim allocated(ResourceClaim c, AllocationResult a) {
    return c.withStatus(new ResourceClaimStatus(a, List.of()));
  }

  private static ResourceClaim inUse(ResourceClaim c, AllocationResult a) {
    return c.withStatus(new ResourceClaimStatus(a, List.of(RESERVED_FOR_POD)));
  }

  private static final ResourceClaim ALLOCATED_CLAIM = allocated(PENDING_CLAIM, ALLOCATION);
  private static final ResourceClaim OTHER_CLAIM = claim("not-my-claim", CLASS, null);
  private static final ResourceClaim OTHER_ALLOCATED_CLAIM = allocated(OTHER_CLAIM, ALLOCATION);

  private static NodeSelector labelSelector(String key, String value) {
    return new NodeSelector(List.of(new NodeSelectorTerm(
        List.of(new NodeSelectorRequirement(key, NodeSelectorOperator.In, List.of(value))), List.of())));
  }

  private static final ResourceClaim ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY = allocated(PENDING_CLAIM,
      new AllocationResult(List.of(), labelSelector("no-such-label", "no-such-value")));
  private static final ResourceClaim ALLOCATED_CLAIM_WITH_GOOD_TOPOLOGY = allocated(PENDING_CLAIM,
      new AllocationResult(List.of(), labelSelector("kubernetes.io/hostname", NODE)));

  /** {@code claimWithPrioritzedList}: request req-1 with one alternative, subreq-1 (one device of the class). */
  private static ResourceClaim prioritizedClaim(String className, @Nullable OwnerReference owner) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(NS).name(CLAIM);
    if (owner != null) {
      m.ownerReference(owner);
    }
    return ResourceClaim.of(m.build(), ResourceClaimSpec.of(DeviceRequest.firstAvailable("req-1",
        DeviceSubRequest.count("subreq-1", className, 1))));
  }

  private static final ResourceClaim PENDING_CLAIM_WITH_PRIORITIZED_LIST = prioritizedClaim(CLASS, POD_OWNER);
  private static final AllocationResult ALLOCATION_WITH_PRIORITIZED_LIST = new AllocationResult(
      List.of(new DeviceRequestAllocationResult("req-1/subreq-1", DRIVER, NODE, "instance-1")),
      StructuredAllocator.localNodeSelector(NODE));

  /** {@code adminAccess}: admin access on every request, and on every allocation result. */
  private static ResourceClaim adminAccess(ResourceClaim c) {
    List<DeviceRequest> requests = new ArrayList<>();
    for (DeviceRequest r : c.spec().devices().requests()) {
      requests.add(new DeviceRequest(r.name(), r.exactly().withAdminAccess(true)));
    }
    ResourceClaim out = ResourceClaim.of(c.metadata(), ResourceClaimSpec.of(requests,
        c.spec().devices().constraints()));
    AllocationResult a = c.status().allocation();
    if (a == null) {
      return out.withStatus(c.status());
    }
    List<DeviceRequestAllocationResult> results = new ArrayList<>();
    for (DeviceRequestAllocationResult r : a.devices()) {
      results.add(new DeviceRequestAllocationResult(r.request(), r.driver(), r.pool(), r.device(), true,
          r.tolerations()));
    }
    return out.withStatus(c.status().withAllocation(new AllocationResult(results, a.nodeSelector())));
  }

  private static ResourceClaim breakCelInClaim(ResourceClaim c) {
    return claim(c.metadata().name(), CLASS, c.metadata().controllerRef(), BROKEN);
  }

  // ---- running a case -----------------------------------------------------------------------------------------

  /** What one case saw at each step; null where the step did not run. */
  private static final class Run {
    final ObjectStore store = ObjectStore.inMemory();
    final DynamicResourcesPlugin plugin;
    final SimpleCycleState state = new SimpleCycleState();
    @Nullable Status preEnqueue;
    @Nullable PreFilterResult preFilter;
    final Map<String, Status> filter = new LinkedHashMap<>();
    @Nullable String selected;
    @Nullable Status reserve;
    Map<String, DynamicResourcesPlugin.InFlight> inFlightAfterReserve = Map.of();
    @Nullable Status preBind;
    @Nullable List<ResourceClaim> afterPreBind;
    @Nullable List<ResourceClaim> afterUnreserve;
    @Nullable PostFilterResult postFilter;
    @Nullable List<ResourceClaim> beforePostFilter;
    @Nullable List<ResourceClaim> afterPostFilter;

    Run(List<ResourceClaim> claims, List<DeviceClass> classes, List<ResourceSlice> slices) {
      claims.forEach(store::create);
      classes.forEach(store::create);
      slices.forEach(store::create);
      plugin = (DynamicResourcesPlugin) DynamicResourcesPlugin.factory(store).create(ArgsOnlyHandle.none());
    }

    List<ResourceClaim> stored() {
      return store.list(ResourceClaim.class).items();
    }
  }

  private enum After { NOTHING, UNRESERVE_BEFORE_PRE_BIND, UNRESERVE_AFTER_BIND_FAILURE }

  private static Run run(Pod pod, List<Node> nodes, List<ResourceClaim> claims, List<DeviceClass> classes,
      List<ResourceSlice> slices, After after, @Nullable UnaryOperator<ResourceClaim> beforePreBind) {
    Run r = new Run(claims, classes, slices);
    PodInfo info = PodInfos.of(pod);
    r.preEnqueue = r.plugin.preEnqueue(pod);
    if (!r.preEnqueue.isSuccess()) {
      return r;
    }
    r.preFilter = r.plugin.preFilter(r.state, info, null);
    if (!r.preFilter.status().isSuccess()) {
      return postFilter(r, info); // Skip or a rejection: Filter does not run, no node is left
    }
    List<String> potential = new ArrayList<>();
    for (Node n : nodes) {
      Status s = r.plugin.filter(r.state, info, NodeInfos.of(n, List.of()));
      r.filter.put(n.name(), s);
      if (s.isSuccess()) {
        potential.add(n.name());
      }
      if (s.code() == Status.Code.ERROR) {
        return r; // an error aborts scheduling
      }
    }
    if (potential.isEmpty()) {
      return postFilter(r, info);
    }
    r.selected = potential.get(0);
    r.reserve = r.plugin.reserve(r.state, info, r.selected);
    r.inFlightAfterReserve = r.plugin.inFlight();
    if (!r.reserve.isSuccess()) {
      r.plugin.unreserve(r.state, info, r.selected);
      r.afterUnreserve = r.stored();
      return r;
    }
    if (after == After.UNRESERVE_BEFORE_PRE_BIND) {
      r.plugin.unreserve(r.state, info, r.selected);
      r.afterUnreserve = r.stored();
      return r;
    }
    if (beforePreBind != null) {
      for (ResourceClaim c : r.stored()) {
        r.store.update(beforePreBind.apply(c));
      }
    }
    r.preBind = r.plugin.preBind(r.state, info, r.selected);
    r.afterPreBind = r.stored();
    if (after == After.UNRESERVE_AFTER_BIND_FAILURE) {
      r.plugin.unreserve(r.state, info, r.selected);
      r.afterUnreserve = r.stored();
    }
    return r;
  }

  /** Upstream's last step when no node is left: PostFilter, with the stored claims before and after. */
  private static Run postFilter(Run r, PodInfo info) {
    r.beforePostFilter = r.stored();
    r.postFilter = r.plugin.postFilter(r.state, info, null, new NodeToStatus(Map.copyOf(r.filter),
        Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE));
    r.afterPostFilter = r.stored();
    return r;
  }

  /** PostFilter answered {@code message}, UNSCHEDULABLE, nominating nothing (upstream's nil result). */
  private static void assertPostFilter(Run r, String message) {
    assertThat(r.postFilter).as("PostFilter ran").isNotNull();
    assertStatus(r.postFilter.status(), Status.Code.UNSCHEDULABLE, message);
    assertThat(r.postFilter.nominatedNodeName()).isNull();
    assertThat(r.postFilter.victims()).isEmpty();
  }

  /** PostFilter answered {@code message} and wrote no claim. */
  private static void assertPostFilterChangedNothing(Run r, String message) {
    assertPostFilter(r, message);
    assertThat(r.afterPostFilter).isEqualTo(r.beforePostFilter);
  }

  private static Run run(Pod pod, List<ResourceClaim> claims, List<DeviceClass> classes, List<ResourceSlice> slices) {
    return run(pod, List.of(node(NODE)), claims, classes, slices, After.NOTHING, null);
  }

  /** The stored claim named {@code name}. */
  private static ResourceClaim stored(List<ResourceClaim> claims, String name) {
    return claims.stream().filter(c -> c.metadata().name().equals(name)).findFirst().orElseThrow();
  }

  private static void assertStatus(@Nullable Status actual, Status.Code code, String message) {
    assertThat(actual).isNotNull();
    assertThat(actual.code()).as("code of " + actual).isEqualTo(code);
    assertThat(actual.message()).isEqualTo(message);
  }

  /** The case ran every step without a rejection and PreBind left {@code name} with {@code status}. */
  private static void assertBoundWith(Run r, String name, ResourceClaimStatus status) {
    assertThat(r.preEnqueue).isEqualTo(Status.success());
    assertThat(r.preFilter).isNotNull();
    assertThat(r.preFilter.status().isSuccess()).isTrue();
    assertThat(r.filter.values()).allMatch(Status::isSuccess);
    assertThat(r.reserve).isEqualTo(Status.success());
    assertThat(r.preBind).isEqualTo(Status.success());
    assertThat(stored(r.afterPreBind, name).status()).isEqualTo(status);
  }

  // ---- the cases -------------------------------------------------------------------------------------------------

  @Test
  void empty_preFilterSkips() {
    Run r = run(Pod.builder().namespace(NS).name("foo").container("c", "pause", ResourceList.EMPTY).build(),
        List.of(), List.of(), List.of());
    assertThat(r.preEnqueue).isEqualTo(Status.success());
    assertThat(r.preFilter.status().code()).isEqualTo(Status.Code.SKIP);
    assertThat(r.filter).isEmpty();
    assertPostFilterChangedNothing(r, ""); // upstream: NewStatus(Unschedulable), no message
  }

  @Test
  void claimReference_preBindReservesTheAllocatedClaim_otherClaimUntouched() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(ALLOCATED_CLAIM, OTHER_CLAIM), List.of(), List.of());
    assertBoundWith(r, CLAIM, inUse(PENDING_CLAIM, ALLOCATION).status());
    assertThat(r.inFlightAfterReserve).isEmpty(); // nothing to allocate
    assertThat(stored(r.afterPreBind, "not-my-claim").status()).isEqualTo(ResourceClaimStatus.INITIAL);
  }

  @Test
  void claimTemplate_claimNamedInStatus_reserved() {
    Run r = run(POD_WITH_CLAIM_TEMPLATE_IN_STATUS, List.of(ALLOCATED_CLAIM, OTHER_CLAIM), List.of(), List.of());
    assertBoundWith(r, CLAIM, inUse(PENDING_CLAIM, ALLOCATION).status());
  }

  @Test
  void missingClaim_statusNotSet_preEnqueueWaits() {
    Run r = run(POD_WITH_CLAIM_TEMPLATE, List.of(ALLOCATED_CLAIM, OTHER_CLAIM), List.of(), List.of());
    assertStatus(r.preEnqueue, Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "pod \"default/my-pod\": ResourceClaim not created yet");
    assertThat(r.preFilter).isNull();
  }

  @Test
  void deletedClaim_preEnqueueWaits() {
    Run r = new Run(List.of(), List.of(), List.of());
    ResourceClaim withFinalizer = ALLOCATED_CLAIM.withMetadata(ALLOCATED_CLAIM.metadata().toBuilder()
        .finalizer("example.com/keep").build());
    r.store.create(withFinalizer);
    r.store.delete(ResourceClaim.class, NS, CLAIM); // marked for deletion, kept by the finalizer
    assertStatus(r.plugin.preEnqueue(POD_WITH_CLAIM_TEMPLATE_IN_STATUS), Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "resourceclaim \"my-pod-my-resource\" is being deleted");
  }

  @Test
  void wrongClaim_notOwnedByThePod_preEnqueueWaits() {
    ResourceClaim wrong = claim(CLAIM, CLASS, new OwnerReference("v1", "Pod", POD, POD_UID + "123", true, true));
    Run r = run(POD_WITH_CLAIM_TEMPLATE_IN_STATUS, List.of(allocated(wrong, ALLOCATION)), List.of(), List.of());
    assertStatus(r.preEnqueue, Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "ResourceClaim default/my-pod-my-resource was not created for pod default/my-pod (pod is not owner)");
  }

  @Test
  void noResources_filterCannotAllocate() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM), List.of(DEVICE_CLASS), List.of());
    assertStatus(r.filter.get(NODE), Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "cannot allocate all claims");
    assertThat(r.reserve).isNull();
    assertPostFilterChangedNothing(r, "still not schedulable");
  }

  @Test
  void withResources_allocatedInFlightAfterReserve_writtenByPreBindWithTheFinalizer() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM), List.of(DEVICE_CLASS), List.of(WORKER_SLICE));
    assertThat(r.inFlightAfterReserve).containsOnlyKeys("default/" + CLAIM);
    assertThat(r.inFlightAfterReserve.get("default/" + CLAIM).allocation()).isEqualTo(ALLOCATION);
    assertBoundWith(r, CLAIM, inUse(PENDING_CLAIM, ALLOCATION).status());
    assertThat(stored(r.afterPreBind, CLAIM).metadata().finalizers()).containsExactly(FINALIZER);
    assertThat(r.plugin.inFlight()).isEmpty(); // the store has it now (upstream's assumed claim)
  }

  @Test
  void withResourcesFinalizerGetsRemoved_beforePreBind_addedAgain() {
    ResourceClaim withFinalizer = PENDING_CLAIM.withMetadata(PENDING_CLAIM.metadata().toBuilder()
        .finalizer(FINALIZER).build());
    Run r = run(POD_WITH_CLAIM_NAME, List.of(node(NODE)), List.of(withFinalizer), List.of(DEVICE_CLASS),
        List.of(WORKER_SLICE), After.NOTHING, c -> c.withMetadata(c.metadata().toBuilder().finalizers(List.of())
            .build()));
    assertThat(r.inFlightAfterReserve).containsOnlyKeys("default/" + CLAIM);
    assertBoundWith(r, CLAIM, inUse(PENDING_CLAIM, ALLOCATION).status());
    assertThat(stored(r.afterPreBind, CLAIM).metadata().finalizers()).containsExactly(FINALIZER);
  }

  @Test
  void withResourcesHasFinalizer_finalizerKept() {
    ResourceClaim withFinalizer = PENDING_CLAIM.withMetadata(PENDING_CLAIM.metadata().toBuilder()
        .finalizer(FINALIZER).build());
    Run r = run(POD_WITH_CLAIM_NAME, List.of(withFinalizer), List.of(DEVICE_CLASS), List.of(WORKER_SLICE));
    assertThat(r.inFlightAfterReserve).containsOnlyKeys("default/" + CLAIM);
    assertBoundWith(r, CLAIM, inUse(PENDING_CLAIM, ALLOCATION).status());
    assertThat(stored(r.afterPreBind, CLAIM).metadata().finalizers()).containsExactly(FINALIZER);
  }

  @Test
  void withResourcesFinalizerGetsAdded_beforePreBind_keptAndAllocated() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(node(NODE)), List.of(PENDING_CLAIM), List.of(DEVICE_CLASS),
        List.of(WORKER_SLICE), After.NOTHING, c -> c.withMetadata(c.metadata().toBuilder()
            .finalizer(FINALIZER).build()));
    assertBoundWith(r, CLAIM, inUse(PENDING_CLAIM, ALLOCATION).status());
    assertThat(stored(r.afterPreBind, CLAIM).metadata().finalizers()).containsExactly(FINALIZER);
  }

  @Test
  void skipBind_unreserveBeforePreBind_dropsTheInFlightClaim_storeUnchanged() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(node(NODE)), List.of(PENDING_CLAIM), List.of(DEVICE_CLASS),
        List.of(WORKER_SLICE), After.UNRESERVE_BEFORE_PRE_BIND, null);
    assertThat(r.inFlightAfterReserve).containsOnlyKeys("default/" + CLAIM);
    assertThat(r.plugin.inFlight()).isEmpty();
    assertThat(stored(r.afterUnreserve, CLAIM).status()).isEqualTo(ResourceClaimStatus.INITIAL);
  }

  @Test
  void exhaustedResources_deviceAllocatedToAnotherClaim_cannotAllocate() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM, OTHER_ALLOCATED_CLAIM), List.of(DEVICE_CLASS),
        List.of(WORKER_SLICE));
    assertStatus(r.filter.get(NODE), Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "cannot allocate all claims");
    assertPostFilterChangedNothing(r, "still not schedulable"); // the other pod's claim is not this pod's to free
  }

  /**
   * Upstream's message is {@code claim default/my-pod-my-resource: selector #0: CEL runtime error: no such key:
   * healthy}; FleetKit's allocator also names the device the selector failed on (see StructuredAllocator).
   */
  private static void assertCelRuntimeError(@Nullable Status s, String owner) {
    assertThat(s).isNotNull();
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).startsWith(owner + ": selector #0").endsWith("CEL runtime error: no such key: " + ATTR);
  }

  @Test
  void claimParametersCelRuntimeError_filterError() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(breakCelInClaim(PENDING_CLAIM)), List.of(DEVICE_CLASS),
        List.of(WORKER_SLICE));
    assertCelRuntimeError(r.filter.get(NODE), "claim default/my-pod-my-resource");
    assertThat(r.reserve).isNull();
  }

  @Test
  void classParametersCelRuntimeError_filterError() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM), List.of(DeviceClass.of(CLASS, BROKEN)),
        List.of(WORKER_SLICE));
    assertCelRuntimeError(r.filter.get(NODE), "class my-resource-class");
  }

  @Test
  void celRuntimeErrorForOneOfTwoNodes_errorAbortsScheduling() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(node(NODE), node(NODE2)), List.of(breakCelInClaim(PENDING_CLAIM)),
        List.of(DEVICE_CLASS), List.of(WORKER_SLICE, WORKER2_SLICE), After.NOTHING, null);
    assertCelRuntimeError(r.filter.get(NODE), "claim default/my-pod-my-resource");
    assertThat(r.filter).containsOnlyKeys(NODE);
    assertThat(r.reserve).isNull();
  }

  @Test
  void celRuntimeErrorForOneOfThreeNodes_errorOnTheFirstNode_podNotReserved() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(node(NODE), node(NODE2), node(NODE3)),
        List.of(breakCelInClaim(PENDING_CLAIM)), List.of(DEVICE_CLASS),
        List.of(WORKER_SLICE, WORKER2_SLICE, WORKER3_SLICE), After.NOTHING, null);
    assertCelRuntimeError(r.filter.get(NODE), "claim default/my-pod-my-resource");
    assertThat(r.reserve).isNull();
  }

  @Test
  void missingClass_preFilterUnresolvable() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM), List.of(), List.of());
    assertStatus(r.preFilter.status(), Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "request req-1: device class my-resource-class does not exist");
    assertThat(r.filter).isEmpty();
    assertPostFilterChangedNothing(r, "no new claims to deallocate");
  }

  @Test
  void wrongTopology_filterNotAvailable_postFilterDeallocates() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY), List.of(), List.of());
    assertStatus(r.filter.get(NODE), Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "resourceclaim not available on the node");
    // upstream: the claim deallocated at once (Allocation(nil)), nothing else changed
    assertPostFilter(r, "deallocation of ResourceClaim completed");
    ResourceClaim before = stored(r.beforePostFilter, CLAIM);
    ResourceClaim after = stored(r.afterPostFilter, CLAIM);
    assertThat(after.status()).isEqualTo(ResourceClaimStatus.INITIAL);
    assertThat(after.metadata().finalizers()).isEqualTo(before.metadata().finalizers());
    assertThat(after.spec()).isEqualTo(before.spec());
    assertThat(r.afterPostFilter).hasSameSizeAs(r.beforePostFilter);
  }

  @Test
  void goodTopology_reserved() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(ALLOCATED_CLAIM_WITH_GOOD_TOPOLOGY), List.of(), List.of());
    assertBoundWith(r, CLAIM, new ResourceClaimStatus(ALLOCATED_CLAIM_WITH_GOOD_TOPOLOGY.status().allocation(),
        List.of(RESERVED_FOR_POD)));
  }

  @Test
  void bindFailure_unreserveRemovesTheReservation_keepsTheAllocation() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(node(NODE)), List.of(ALLOCATED_CLAIM_WITH_GOOD_TOPOLOGY), List.of(),
        List.of(), After.UNRESERVE_AFTER_BIND_FAILURE, null);
    assertBoundWith(r, CLAIM, new ResourceClaimStatus(ALLOCATED_CLAIM_WITH_GOOD_TOPOLOGY.status().allocation(),
        List.of(RESERVED_FOR_POD)));
    assertThat(stored(r.afterUnreserve, CLAIM).status()).isEqualTo(
        new ResourceClaimStatus(ALLOCATED_CLAIM_WITH_GOOD_TOPOLOGY.status().allocation(), List.of()));
  }

  @Test
  void reservedOkay_alreadyReservedForThePod_nothingChanges() {
    ResourceClaim inUse = inUse(PENDING_CLAIM, ALLOCATION);
    Run r = run(POD_WITH_CLAIM_NAME, List.of(inUse), List.of(), List.of());
    assertBoundWith(r, CLAIM, inUse.status());
  }

  @Test
  void claimWithRequestWithUnknownDeviceClass_preFilterRejects() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(claim(CLAIM, "does-not-exist", null)), List.of(), List.of());
    assertThat(r.preFilter.status().isRejected()).isTrue();
    assertThat(r.preFilter.status().message()).isEqualTo("request req-1: device class does-not-exist does not exist");
    assertPostFilterChangedNothing(r, "no new claims to deallocate");
  }

  @Test
  void requestAdminAccess_deviceAllocatedToAnotherClaim_allocatedWithAdminAccess() {
    // upstream's request-admin-access-with-DRAAdminAccess-featuregate (FleetKit has no gate: admin access is on)
    ResourceClaim pending = adminAccess(PENDING_CLAIM);
    Run r = run(POD_WITH_CLAIM_NAME, List.of(pending, OTHER_ALLOCATED_CLAIM), List.of(DEVICE_CLASS),
        List.of(WORKER_SLICE));
    assertThat(r.inFlightAfterReserve).containsOnlyKeys("default/" + CLAIM);
    assertThat(r.inFlightAfterReserve.get("default/" + CLAIM).allocation())
        .isEqualTo(adminAccess(ALLOCATED_CLAIM).status().allocation());
    assertBoundWith(r, CLAIM, adminAccess(inUse(PENDING_CLAIM, ALLOCATION)).status());
    assertThat(stored(r.afterPreBind, CLAIM).metadata().finalizers()).containsExactly(FINALIZER);
  }

  @Test
  void structuredIgnoreAllocatedAdminAccess_deviceOfAnAdminClaim_stillFree() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM, adminAccess(OTHER_ALLOCATED_CLAIM)),
        List.of(DEVICE_CLASS), List.of(WORKER_SLICE));
    assertThat(r.inFlightAfterReserve.get("default/" + CLAIM).allocation()).isEqualTo(ALLOCATION);
    assertBoundWith(r, CLAIM, inUse(PENDING_CLAIM, ALLOCATION).status());
  }

  @Test
  void claimWithPrioritizedListUnknownDeviceClass_preFilterNamesTheAlternative() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(prioritizedClaim("does-not-exist", null)), List.of(), List.of());
    assertThat(r.preFilter.status().isRejected()).isTrue();
    assertThat(r.preFilter.status().message())
        .isEqualTo("request req-1/subreq-1: device class does-not-exist does not exist");
    assertThat(r.filter).isEmpty();
    assertPostFilterChangedNothing(r, "no new claims to deallocate");
  }

  @Test
  void claimWithPrioritizedList_allocatedToTheAlternative() {
    Run r = run(POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM_WITH_PRIORITIZED_LIST), List.of(DEVICE_CLASS),
        List.of(WORKER_SLICE));
    assertThat(r.inFlightAfterReserve).containsOnlyKeys("default/" + CLAIM);
    assertThat(r.inFlightAfterReserve.get("default/" + CLAIM).allocation())
        .isEqualTo(ALLOCATION_WITH_PRIORITIZED_LIST);
    assertBoundWith(r, CLAIM, inUse(PENDING_CLAIM_WITH_PRIORITIZED_LIST, ALLOCATION_WITH_PRIORITIZED_LIST).status());
    assertThat(stored(r.afterPreBind, CLAIM).metadata().finalizers()).containsExactly(FINALIZER);
  }

  // ---- FleetKit's own cases --------------------------------------------------------------------------------------

  @Test
  void twoAdminClaimsOneDevice_secondCycleSharesTheDeviceInFlight() {
    ResourceClaim second = adminAccess(claim("second", CLASS, null));
    Run r = new Run(List.of(adminAccess(PENDING_CLAIM), second), List.of(DEVICE_CLASS), List.of(WORKER_SLICE));
    PodInfo first = PodInfos.of(POD_WITH_CLAIM_NAME);
    SimpleCycleState s1 = new SimpleCycleState();
    r.plugin.preFilter(s1, first, null);
    assertThat(r.plugin.filter(s1, first, NodeInfos.of(node(NODE), List.of()))).isEqualTo(Status.success());
    assertThat(r.plugin.reserve(s1, first, NODE)).isEqualTo(Status.success());

    Pod other = Pod.builder().namespace(NS).name("other").uid("5678").container("c", "pause", ResourceList.EMPTY)
        .resourceClaim(PodResourceClaim.ofClaim(RESOURCE, "second")).build();
    PodInfo otherInfo = PodInfos.of(other);
    SimpleCycleState s2 = new SimpleCycleState();
    r.plugin.preFilter(s2, otherInfo, null);
    assertThat(r.plugin.filter(s2, otherInfo, NodeInfos.of(node(NODE), List.of()))).isEqualTo(Status.success());
    assertThat(r.plugin.reserve(s2, otherInfo, NODE)).isEqualTo(Status.success());
    assertThat(r.plugin.inFlight()).containsOnlyKeys("default/" + CLAIM, "default/second");
  }

  @Test
  void taintedDevice_notTolerated_cannotAllocate_toleratedAllocated() {
    // as newer upstream's tainted-device-enabled: a NoSchedule taint keeps the device from an intolerant claim
    ResourceSlice tainted = ResourceSlice.of(NODE + "-" + DRIVER, ResourceSliceSpec.builder(DRIVER,
        ResourcePool.of(NODE)).nodeName(NODE).devices(List.of(Device.of("instance-1").withTaints(
            DeviceTaint.of("example.com/taint", "", DeviceTaintEffect.NO_SCHEDULE)))).build());
    Run r = run(POD_WITH_CLAIM_NAME, List.of(PENDING_CLAIM), List.of(DEVICE_CLASS), List.of(tainted));
    assertStatus(r.filter.get(NODE), Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "cannot allocate all claims");

    DeviceToleration toleration = DeviceToleration.exists("example.com/taint", null);
    ResourceClaim tolerant = ResourceClaim.of(PENDING_CLAIM.metadata(), ResourceClaimSpec.of(new DeviceRequest(
        "req-1", ExactDeviceRequest.count(CLASS, 1).withTolerations(toleration))));
    Run ok = run(POD_WITH_CLAIM_NAME, List.of(tolerant), List.of(DEVICE_CLASS), List.of(tainted));
    assertThat(ok.preBind).isEqualTo(Status.success());
    assertThat(stored(ok.afterPreBind, CLAIM).status().allocation().devices()).containsExactly(
        new DeviceRequestAllocationResult("req-1", DRIVER, NODE, "instance-1", false, List.of(toleration)));
  }

  @Test
  void reservedOkay_preBindWritesNothing() {
    ResourceClaim inUse = inUse(PENDING_CLAIM, ALLOCATION);
    Run r = new Run(List.of(inUse), List.of(), List.of());
    String before = r.stored().get(0).metadata().resourceVersion();
    SimpleCycleState state = new SimpleCycleState();
    PodInfo info = PodInfos.of(POD_WITH_CLAIM_NAME);
    r.plugin.preFilter(state, info, null);
    assertThat(r.plugin.reserve(state, info, NODE)).isEqualTo(Status.success());
    assertThat(r.plugin.preBind(state, info, NODE)).isEqualTo(Status.success());
    assertThat(r.stored().get(0).metadata().resourceVersion()).isEqualTo(before);
  }

  @Test
  void postFilter_claimOutOfReachReservedForAnotherPod_notDeallocated() {
    ResourceClaim shared = ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY.withStatus(
        ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY.status().withReservedFor(List.of(
            ResourceClaimConsumerReference.pod("other", "5678"))));
    Run r = run(POD_WITH_CLAIM_NAME, List.of(shared), List.of(), List.of());
    assertStatus(r.filter.get(NODE), Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "resourceclaim not available on the node");
    assertPostFilterChangedNothing(r, "still not schedulable");
  }

  @Test
  void postFilter_claimOutOfReachReservedForThisPodOnly_deallocatedAndUnreserved() {
    ResourceClaim mine = ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY.withStatus(
        ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY.status().withReservedFor(List.of(RESERVED_FOR_POD)));
    Run r = run(POD_WITH_CLAIM_NAME, List.of(mine), List.of(), List.of());
    assertPostFilter(r, "deallocation of ResourceClaim completed");
    assertThat(stored(r.afterPostFilter, CLAIM).status()).isEqualTo(ResourceClaimStatus.INITIAL);
  }

  @Test
  void postFilter_claimChangedSincePreFilter_errorAndNothingWritten() {
    Run r = new Run(List.of(ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY), List.of(), List.of());
    PodInfo info = PodInfos.of(POD_WITH_CLAIM_NAME);
    assertThat(r.plugin.preFilter(r.state, info, null).status().isSuccess()).isTrue();
    assertThat(r.plugin.filter(r.state, info, NodeInfos.of(node(NODE), List.of())).isSuccess()).isFalse();
    ResourceClaim changed = r.store.updateStatus(stored(r.stored(), CLAIM).withStatus(
        stored(r.stored(), CLAIM).status().withReservedFor(List.of(ResourceClaimConsumerReference.pod("late",
            "999")))));
    PostFilterResult result = r.plugin.postFilter(r.state, info, null, new NodeToStatus(Map.of(),
        Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE));
    assertThat(result.status().code()).isEqualTo(Status.Code.ERROR);
    assertThat(result.status().message()).startsWith("deallocating resourceclaim default/my-pod-my-resource for pod "
        + "default/my-pod: ");
    assertThat(stored(r.stored(), CLAIM)).isEqualTo(changed);
  }

  @Test
  void filter_allocatorRefusalWinsOverAnAllocatedClaimOutOfReach_postFilterFreesNothing() {
    // upstream's Filter asks the allocator before reporting an allocated claim out of reach
    ResourceClaim second = claim("second", CLASS, POD_OWNER);
    Pod pod = pod().resourceClaim(PodResourceClaim.ofClaim(RESOURCE, CLAIM))
        .resourceClaim(PodResourceClaim.ofClaim(RESOURCE + "-2", "second")).build();
    Run r = run(pod, List.of(ALLOCATED_CLAIM_WITH_WRONG_TOPOLOGY, second), List.of(DEVICE_CLASS), List.of());
    assertStatus(r.filter.get(NODE), Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "cannot allocate all claims");
    assertPostFilterChangedNothing(r, "still not schedulable");
  }

  @Test
  void claimMissing_preEnqueueNamesIt() {
    Run r = new Run(List.of(), List.of(), List.of());
    assertStatus(r.plugin.preEnqueue(POD_WITH_CLAIM_NAME), Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "resourceclaim \"my-pod-my-resource\" not found");
  }

  @Test
  void templateEntryWithoutClaim_notNeeded_skipped() {
    Pod pod = POD_WITH_CLAIM_TEMPLATE.withStatus(
        PodStatus.PENDING.withResourceClaimStatuses(List.of(new PodResourceClaimStatus(RESOURCE, ""))));
    Run r = run(pod, List.of(), List.of(), List.of());
    assertThat(r.preEnqueue).isEqualTo(Status.success());
    assertThat(r.preFilter.status().code()).isEqualTo(Status.Code.SKIP);
  }

  @Test
  void twoPodsOneDevice_secondCycleSeesTheFirstInFlight_cannotAllocate() {
    ResourceClaim second = claim("second", CLASS, null);
    Run r = new Run(List.of(PENDING_CLAIM, second), List.of(DEVICE_CLASS), List.of(WORKER_SLICE));
    PodInfo first = PodInfos.of(POD_WITH_CLAIM_NAME);
    SimpleCycleState s1 = new SimpleCycleState();
    r.plugin.preFilter(s1, first, null);
    assertThat(r.plugin.filter(s1, first, NodeInfos.of(node(NODE), List.of()))).isEqualTo(Status.success());
    assertThat(r.plugin.reserve(s1, first, NODE)).isEqualTo(Status.success());

    Pod other = Pod.builder().namespace(NS).name("other").uid("5678").container("c", "pause", ResourceList.EMPTY)
        .resourceClaim(PodResourceClaim.ofClaim(RESOURCE, "second")).build();
    PodInfo otherInfo = PodInfos.of(other);
    SimpleCycleState s2 = new SimpleCycleState();
    assertThat(r.plugin.preFilter(s2, otherInfo, null).status().isSuccess()).isTrue();
    assertStatus(r.plugin.filter(s2, otherInfo, NodeInfos.of(node(NODE), List.of())),
        Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "cannot allocate all claims");

    r.plugin.unreserve(s1, first, NODE); // the first pod's binding failed: the device is free again
    SimpleCycleState s3 = new SimpleCycleState();
    r.plugin.preFilter(s3, otherInfo, null);
    assertThat(r.plugin.filter(s3, otherInfo, NodeInfos.of(node(NODE), List.of()))).isEqualTo(Status.success());
  }

  @Test
  void reserve_deviceTakenByAConcurrentCycle_unschedulable() {
    ResourceClaim second = claim("second", CLASS, null);
    Run r = new Run(List.of(PENDING_CLAIM, second), List.of(DEVICE_CLASS), List.of(WORKER_SLICE));
    PodInfo first = PodInfos.of(POD_WITH_CLAIM_NAME);
    Pod other = Pod.builder().namespace(NS).name("other").uid("5678").container("c", "pause", ResourceList.EMPTY)
        .resourceClaim(PodResourceClaim.ofClaim(RESOURCE, "second")).build();
    PodInfo otherInfo = PodInfos.of(other);
    SimpleCycleState s1 = new SimpleCycleState();
    SimpleCycleState s2 = new SimpleCycleState();
    r.plugin.preFilter(s1, first, null); // both cycles filtered before either reserved
    r.plugin.preFilter(s2, otherInfo, null);
    assertThat(r.plugin.filter(s1, first, NodeInfos.of(node(NODE), List.of()))).isEqualTo(Status.success());
    assertThat(r.plugin.filter(s2, otherInfo, NodeInfos.of(node(NODE), List.of()))).isEqualTo(Status.success());
    assertThat(r.plugin.reserve(s1, first, NODE)).isEqualTo(Status.success());
    Status s = r.plugin.reserve(s2, otherInfo, NODE);
    assertStatus(s, Status.Code.UNSCHEDULABLE, "device some-driver/worker/instance-1 is being allocated to another "
        + "pod");
    assertThat(r.plugin.inFlight()).containsOnlyKeys("default/" + CLAIM);
  }

  @Test
  void preBind_withoutStore_errorSaysWhy() {
    ResourceClaim inUse = inUse(PENDING_CLAIM, ALLOCATION);
    DynamicResourcesPlugin p = (DynamicResourcesPlugin) DynamicResourcesPlugin.FACTORY.create(new ListingHandle(
        List.of(inUse)));
    SimpleCycleState state = new SimpleCycleState();
    PodInfo info = PodInfos.of(POD_WITH_CLAIM_NAME);
    assertThat(p.preEnqueue(POD_WITH_CLAIM_NAME)).isEqualTo(Status.success());
    assertThat(p.preFilter(state, info, null).status().isSuccess()).isTrue();
    Status s = p.preBind(state, info, NODE);
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).contains("no object store").contains("SchedulerBuilder.store");
  }

  /** A handle listing the given objects, binding nowhere. */
  private static final class ListingHandle implements FrameworkHandle {
    private final List<Object> objects;

    ListingHandle(List<?> objects) {
      this.objects = List.copyOf(objects);
    }

    @Override
    public <T> List<T> list(Class<T> kind) {
      return objects.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    @Override
    public java.time.Clock clock() {
      throw new UnsupportedOperationException("clock");
    }

    @Override
    public io.fleetkit.api.framework.Snapshot snapshot() {
      throw new UnsupportedOperationException("snapshot");
    }

    @Override
    public io.fleetkit.api.framework.WaitingPods waitingPods() {
      throw new UnsupportedOperationException("waitingPods");
    }

    @Override
    public Status runFilterPlugins(io.fleetkit.api.framework.CycleState state, PodInfo pod,
        io.fleetkit.api.framework.NodeInfo node) {
      throw new UnsupportedOperationException("runFilterPlugins");
    }

    @Override
    public Status runPreFilterExtensionAddPod(io.fleetkit.api.framework.CycleState state, PodInfo podToSchedule,
        PodInfo other, io.fleetkit.api.framework.NodeInfo node) {
      throw new UnsupportedOperationException("runPreFilterExtensionAddPod");
    }

    @Override
    public Status runPreFilterExtensionRemovePod(io.fleetkit.api.framework.CycleState state, PodInfo podToSchedule,
        PodInfo other, io.fleetkit.api.framework.NodeInfo node) {
      throw new UnsupportedOperationException("runPreFilterExtensionRemovePod");
    }

    @Override
    public Map<String, Object> pluginArgs(String pluginName) {
      return Map.of();
    }
  }
}
