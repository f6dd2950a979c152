package io.fleetkit.scheduler.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.core.PodResourceClaimStatus;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourceClaimStatus;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.scheduler.dra.StructuredAllocator;
import io.fleetkit.scheduler.plugins.helper.ArgsOnlyHandle;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes {@code pkg/scheduler/framework/plugins/dynamicresources/dynamicresources_test.go}, the
 * {@code resource.k8s.io/v1beta1} version with the DRAAdminAccess and DRAPrioritizedList cases (the one
 * {@link DynamicResourcesPluginTest} ports; the index names no commit for it): {@code Test_isSchedulableAfterClaimChange}
 * (9 cases) and {@code Test_isSchedulableAfterPodChange} (5 cases). As upstream, the case's claims are stored first;
 * a claim given as the new object is created in the store (no old object) or updated there, and the hint is asked
 * with the stored claim (its uid and resourceVersion), the old object as the case gives it. Upstream's errors
 * ({@code wantErr}) are an {@link IllegalArgumentException} (the engine re-queues on a hint that throws, as upstream
 * does on an error). FleetKit's own cases below check how {@link DynamicResourcesPlugin#isSchedulableAfter} routes
 * the events.
 */
final class DynamicResourcesQueueingHintsTest {
  private static final String NODE = "worker";
  private static final String DRIVER = "some-driver";
  private static final String POD = "my-pod";
  private static final String POD_UID = "1234";
  private static final String RESOURCE = "my-resource";
  private static final String RESOURCE2 = RESOURCE + "-2";
  private static final String CLAIM = POD + "-" + RESOURCE;
  private static final String CLASS = "my-resource-class";
  private static final String NS = "default";

  private static Pod.Builder pod() {
    return Pod.builder().namespace(NS).name(POD).uid(POD_UID).container("c", "pause", ResourceList.EMPTY);
  }

  private static final Pod POD_WITH_CLAIM_NAME = pod().resourceClaim(PodResourceClaim.ofClaim(RESOURCE, CLAIM)).build();
  private static final Pod POD_WITH_CLAIM_TEMPLATE =
      pod().resourceClaim(PodResourceClaim.ofTemplate(RESOURCE, CLAIM)).build();
  private static final Pod POD_WITH_CLAIM_TEMPLATE_IN_STATUS = POD_WITH_CLAIM_TEMPLATE.withStatus(
      PodStatus.PENDING.withResourceClaimStatuses(List.of(new PodResourceClaimStatus(RESOURCE, CLAIM))));
  private static final Pod POD_WITH_TWO_CLAIM_TEMPLATES = pod()
      .resourceClaim(PodResourceClaim.ofTemplate(RESOURCE, CLAIM))
      .resourceClaim(PodResourceClaim.ofTemplate(RESOURCE2, CLAIM)).build();

  private static final OwnerReference POD_OWNER = new OwnerReference("v1", "Pod", POD, POD_UID, true, true);

  private static ResourceClaim claim(String name, @Nullable OwnerReference owner) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(NS).name(name);
    if (owner != null) {
      m.ownerReference(owner);
    }
    return ResourceClaim.of(m.build(), ResourceClaimSpec.of(
        new DeviceRequest("req-1", ExactDeviceRequest.count(CLASS, 1))));
  }

  private static final AllocationResult ALLOCATION = new AllocationResult(
      List.of(new DeviceRequestAllocationResult("req-1", DRIVER, NODE, "instance-1")),
      StructuredAllocator.localNodeSelector(NODE));
  private static final ResourceClaim PENDING_CLAIM = claim(CLAIM, POD_OWNER);
  private static final ResourceClaim ALLOCATED_CLAIM =
      PENDING_CLAIM.withStatus(new ResourceClaimStatus(ALLOCATION, List.of()));
  private static final ResourceClaim OTHER_ALLOCATED_CLAIM =
      claim("not-my-claim", null).withStatus(new ResourceClaimStatus(ALLOCATION, List.of()));

  /** A plugin over a store holding {@code claims}. */
  private static final class Setup {
    final ObjectStore store = ObjectStore.inMemory();
    final DynamicResourcesPlugin plugin;

    Setup(List<ResourceClaim> claims) {
      claims.forEach(store::create);
      plugin = (DynamicResourcesPlugin) DynamicResourcesPlugin.factory(store).create(ArgsOnlyHandle.none());
    }

    /**
     * Upstream's loop: a claim new object is created (no old object) or updated in the store, and the stored claim
     * is what the hint sees; other new objects are passed as they are.
     */
    @Nullable Object stored(@Nullable Object oldObject, @Nullable Object newObject) {
      if (!(newObject instanceof ResourceClaim c)) {
        return newObject;
      }
      if (oldObject == null) {
        return store.create(c);
      }
      ResourceClaim cached = store.require(ResourceClaim.class, c.metadata().namespace(), c.metadata().name());
      ResourceClaim update = c.withMetadata(c.metadata().toBuilder().uid(cached.metadata().uid())
          .resourceVersion(cached.metadata().resourceVersion()).build());
      ResourceClaim updated = store.update(update);
      if (!updated.status().equals(update.status())) {
        updated = store.updateStatus(update.withMetadata(update.metadata().toBuilder()
            .resourceVersion(updated.metadata().resourceVersion()).build()));
      }
      return updated;
    }

    boolean claimHint(Pod pod, @Nullable Object oldObject, @Nullable Object newObject) {
      return plugin.isSchedulableAfterClaimChange(pod, oldObject, stored(oldObject, newObject));
    }
  }

  // ---- Test_isSchedulableAfterClaimChange ------------------------------------------------------------------------

  @Test
  void claimChange_skipDeletes() {
    Setup s = new Setup(List.of());
    assertThat(s.claimHint(POD_WITH_CLAIM_TEMPLATE, ALLOCATED_CLAIM, null)).isFalse();
    // and through the plugin's hint for the engine's event
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_TEMPLATE, ClusterEvent.DYNAMIC_RESOURCES,
        ALLOCATED_CLAIM, null)).isFalse();
  }

  @Test
  void claimChange_backoffWrongNewObject() {
    Setup s = new Setup(List.of());
    assertThatThrownBy(() -> s.claimHint(POD_WITH_CLAIM_TEMPLATE, null, "not-a-claim"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ResourceClaim")
        .hasMessageContaining("String");
  }

  @Test
  void claimChange_skipWrongClaim() {
    Setup s = new Setup(List.of());
    ResourceClaim wrong = ResourceClaim.of(ALLOCATED_CLAIM.metadata().toBuilder().ownerReferences(List.of(
        new OwnerReference("v1", "Pod", POD, POD_UID + "123", true, true))).build(), ALLOCATED_CLAIM.spec())
        .withStatus(ALLOCATED_CLAIM.status());
    assertThat(s.claimHint(POD_WITH_CLAIM_TEMPLATE, null, wrong)).isFalse();
  }

  @Test
  void claimChange_skipUnrelatedClaim() {
    Setup s = new Setup(List.of(ALLOCATED_CLAIM));
    ResourceClaim unrelated = ResourceClaim.of(ALLOCATED_CLAIM.metadata().toBuilder().name(CLAIM + "-foo").build(),
        ALLOCATED_CLAIM.spec()).withStatus(ALLOCATED_CLAIM.status()); // the store gives it another uid
    assertThat(s.claimHint(POD_WITH_CLAIM_TEMPLATE, null, unrelated)).isFalse();
  }

  @Test
  void claimChange_queueOnAdd() {
    Setup s = new Setup(List.of());
    assertThat(s.claimHint(POD_WITH_CLAIM_NAME, null, PENDING_CLAIM)).isTrue();
  }

  @Test
  void claimChange_backoffWrongOldObject() {
    Setup s = new Setup(List.of(PENDING_CLAIM));
    assertThatThrownBy(() -> s.claimHint(POD_WITH_CLAIM_NAME, "not-a-claim", PENDING_CLAIM))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("old object");
  }

  @Test
  void claimChange_skipAddingFinalizer() {
    Setup s = new Setup(List.of(PENDING_CLAIM));
    ResourceClaim withFinalizer = PENDING_CLAIM.withMetadata(PENDING_CLAIM.metadata().toBuilder()
        .finalizer("example.com/foo").build());
    assertThat(s.claimHint(POD_WITH_CLAIM_NAME, PENDING_CLAIM, withFinalizer)).isFalse();
  }

  @Test
  void claimChange_queueOnStatusChange() {
    Setup s = new Setup(List.of(PENDING_CLAIM));
    ResourceClaim allocated = PENDING_CLAIM.withStatus(new ResourceClaimStatus(new AllocationResult(List.of(),
        null), List.of()));
    assertThat(s.claimHint(POD_WITH_CLAIM_NAME, PENDING_CLAIM, allocated)).isTrue();
  }

  @Test
  void claimChange_claimDeallocate() {
    Setup s = new Setup(List.of(PENDING_CLAIM, OTHER_ALLOCATED_CLAIM));
    ResourceClaim deallocated = OTHER_ALLOCATED_CLAIM.withStatus(ResourceClaimStatus.INITIAL);
    assertThat(s.claimHint(POD_WITH_CLAIM_NAME, OTHER_ALLOCATED_CLAIM, deallocated)).isTrue();
  }

  // ---- Test_isSchedulableAfterPodChange --------------------------------------------------------------------------

  @Test
  void podChange_backoffWrongNewObject() {
    Setup s = new Setup(List.of());
    assertThatThrownBy(() -> s.plugin.isSchedulableAfterPodChange(POD_WITH_CLAIM_TEMPLATE, "not-a-claim"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Pod");
  }

  @Test
  void podChange_complete() {
    Setup s = new Setup(List.of(PENDING_CLAIM));
    assertThat(s.plugin.isSchedulableAfterPodChange(POD_WITH_CLAIM_TEMPLATE, POD_WITH_CLAIM_TEMPLATE_IN_STATUS))
        .isTrue();
  }

  @Test
  void podChange_wrongPod() {
    Setup s = new Setup(List.of(PENDING_CLAIM));
    Pod other = pod().name(POD + "2").uid(POD_UID + "2") // the uid is the relevant difference
        .resourceClaim(PodResourceClaim.ofTemplate(RESOURCE, CLAIM)).build();
    assertThat(s.plugin.isSchedulableAfterPodChange(other, POD_WITH_CLAIM_TEMPLATE_IN_STATUS)).isFalse();
  }

  @Test
  void podChange_missingClaim() {
    Setup s = new Setup(List.of());
    assertThat(s.plugin.isSchedulableAfterPodChange(POD_WITH_CLAIM_TEMPLATE, POD_WITH_CLAIM_TEMPLATE_IN_STATUS))
        .isFalse();
  }

  @Test
  void podChange_incomplete() {
    Setup s = new Setup(List.of(PENDING_CLAIM));
    Pod oneOfTwo = POD_WITH_TWO_CLAIM_TEMPLATES.withStatus(PodStatus.PENDING.withResourceClaimStatuses(
        List.of(new PodResourceClaimStatus(RESOURCE, CLAIM)))); // only one of two claims created
    assertThat(s.plugin.isSchedulableAfterPodChange(POD_WITH_TWO_CLAIM_TEMPLATES, oneOfTwo)).isFalse();
  }

  // ---- FleetKit's own: events and routing ------------------------------------------------------------------------

  private static final ResourceSlice SLICE = ResourceSlice.of(NODE + "-" + DRIVER, ResourceSliceSpec.builder(DRIVER,
      ResourcePool.of(NODE)).nodeName(NODE).devices(List.of(Device.of("instance-1"))).build());

  @Test
  void eventsToRegister_dynamicResourcesAndNodes_notOther() {
    Setup s = new Setup(List.of());
    assertThat(s.plugin.eventsToRegister()).containsExactlyInAnyOrder(ClusterEvent.DYNAMIC_RESOURCES,
        ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE, ClusterEvent.TARGET_POD_UPDATE_GENERATED_RESOURCE_CLAIM);
  }

  @Test
  void podsOwnGeneratedClaims_areAnsweredByThePodHint() {
    Setup s = new Setup(List.of(PENDING_CLAIM));
    ClusterEvent e = ClusterEvent.TARGET_POD_UPDATE_GENERATED_RESOURCE_CLAIM;
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_TEMPLATE, e, POD_WITH_CLAIM_TEMPLATE,
        POD_WITH_CLAIM_TEMPLATE_IN_STATUS)).isTrue();
    Setup none = new Setup(List.of());
    assertThat(none.plugin.isSchedulableAfter(POD_WITH_CLAIM_TEMPLATE, e, POD_WITH_CLAIM_TEMPLATE,
        POD_WITH_CLAIM_TEMPLATE_IN_STATUS)).as("the generated claim does not exist yet").isFalse();
  }

  @Test
  void slicesAndClasses_addedOrUpdatedQueue_deletedSkip() {
    Setup s = new Setup(List.of(PENDING_CLAIM));
    DeviceClass dc = DeviceClass.of(CLASS);
    ClusterEvent e = ClusterEvent.DYNAMIC_RESOURCES;
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, e, null, SLICE)).as("slice added").isTrue();
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, e, SLICE, SLICE)).as("slice updated").isTrue();
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, e, SLICE, null)).as("slice deleted").isFalse();
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, e, null, dc)).as("class added").isTrue();
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, e, dc, dc)).as("class updated").isTrue();
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, e, dc, null)).as("class deleted").isFalse();
  }

  @Test
  void claimEvents_routedToTheClaimHint() {
    Setup s = new Setup(List.of(PENDING_CLAIM));
    ResourceClaim stored = s.store.require(ResourceClaim.class, NS, CLAIM);
    ClusterEvent e = ClusterEvent.DYNAMIC_RESOURCES;
    ResourceClaim finalizerOnly = stored.withMetadata(stored.metadata().toBuilder().finalizer("example.com/x")
        .build());
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, e, stored, finalizerOnly)).isFalse();
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, e, null, stored)).isTrue();
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, e, stored, null)).as("claim deleted").isFalse();
  }

  @Test
  void otherEventsAndUnknownObjects_queue() {
    Setup s = new Setup(List.of());
    Node n = Node.builder().name(NODE).build();
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, ClusterEvent.NODE_ADD, null, n)).isTrue();
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, ClusterEvent.NODE_UPDATE, n, n)).isTrue();
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, ClusterEvent.DYNAMIC_RESOURCES, null, null))
        .isTrue();
    assertThat(s.plugin.isSchedulableAfter(POD_WITH_CLAIM_NAME, ClusterEvent.DYNAMIC_RESOURCES, null, "x"))
        .isTrue();
  }
}
