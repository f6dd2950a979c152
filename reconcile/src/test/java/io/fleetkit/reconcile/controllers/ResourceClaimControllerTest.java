package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.core.PodResourceClaimStatus;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.DeviceAllocationMode;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceSubRequest;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourceClaimStatus;
import io.fleetkit.api.resource.dra.ResourceClaimTemplate;
import io.fleetkit.api.resource.dra.ResourceClaimTemplateSpec;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes {@code pkg/controller/resourceclaim/controller_test.go} (commit 003e8629),
 * {@code TestSyncHandler}: each case's pods, claims and templates are put in a store, the case's key is synced
 * ({@code pod:} keys with {@link ResourceClaimController#syncPod}, {@code claim:} keys with
 * {@link ResourceClaimController#syncClaim}) and the stored claims and pod statuses are compared with upstream's
 * expectations. Upstream's fake client names a generated claim {@code <generateName>-1}; here the suffix is 5 random
 * characters, so a generated claim is checked by its name pattern, annotation, owner and spec, and the status by
 * naming it. Upstream's fake client keeps a deleted object whose finalizers are all removed; the store lets it go, so
 * the two deleted-claim cases keep a second finalizer to observe the result. Left out: find-created-claim-in-cache
 * (there is no informer cache: claims are read from the store, the path of find-existing-claim-by-label). The
 * expected-metrics column is checked as the newer table (commit b51d68bb) has it: the create counter's four series
 * after each case.
 */
final class ResourceClaimControllerTest {
  private static final String POD = "test-pod";
  private static final String NS = "my-namespace";
  private static final String POD_UID = "uidpod1";
  private static final String OTHER_NS = "not-my-namespace";
  private static final String ENTRY = "acme-resource";
  private static final String TEMPLATE = "my-template";
  private static final String CLASS = "my-resource-class";
  private static final String NODE = "worker";
  private static final String CLAIM = POD + "-" + ENTRY;
  private static final String GENERATED_PATTERN = "test-pod-acme-resource-[bcdfghjklmnpqrstvwxz2456789]{5}";

  private final ObjectStore store = ObjectStore.builder().directDelivery().build();
  private final TestMetrics metrics = new TestMetrics();
  private final ResourceClaimController controller = ResourceClaimController.of(store, new Random(7), metrics);

  private static Pod.Builder pod(String name, String uid) {
    return Pod.builder().namespace(NS).name(name).uid(uid).container("c", "img", ResourceList.EMPTY);
  }

  private static final Pod TEST_POD = pod(POD, POD_UID).build();
  private static final Pod TEST_POD_WITH_RESOURCE = pod(POD, POD_UID)
      .resourceClaim(PodResourceClaim.ofTemplate(ENTRY, TEMPLATE)).build();
  private static final Pod OTHER_TEST_POD = pod(POD + "-ii", POD_UID + "-II").build();

  private static ResourceClaimSpec spec() {
    return ResourceClaimSpec.of(new DeviceRequest("req-0", ExactDeviceRequest.count(CLASS, 1)));
  }

  private static OwnerReference owner(Pod pod) {
    return new OwnerReference("v1", "Pod", pod.metadata().name(), pod.metadata().uid(), true, true);
  }

  private static ResourceClaim claim(String name, String ns, @Nullable OwnerReference owner, String... finalizers) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(ns).name(name).finalizers(List.of(finalizers));
    if (owner != null) {
      m.ownerReference(owner);
    }
    return ResourceClaim.of(m.build(), spec());
  }

  private static ResourceClaim generated(String name, Pod owner) {
    return ResourceClaim.of(ObjectMeta.builder().namespace(NS).name(name)
        .annotation(ResourceClaimController.POD_CLAIM_NAME_ANNOTATION, ENTRY)
        .ownerReference(owner(owner)).build(), spec());
  }

  private static final AllocationResult ALLOCATION = new AllocationResult(List.of(), null);

  private static ResourceClaim allocate(ResourceClaim c) {
    return c.withStatus(c.status().withAllocation(ALLOCATION));
  }

  private static ResourceClaim reserve(ResourceClaim c, Pod pod) {
    List<ResourceClaimConsumerReference> r = new ArrayList<>(c.status().reservedFor());
    r.add(ResourceClaimConsumerReference.pod(pod.metadata().name(), pod.metadata().uid()));
    return c.withStatus(c.status().withReservedFor(r));
  }

  /** Upstream's testClaim: {@code test-pod-acme-resource}, controlled by {@code pod}. */
  private static ResourceClaim testClaim(Pod pod) {
    return claim(CLAIM, NS, owner(pod));
  }

  /** Upstream's testClaimReserved: testClaim allocated and reserved for {@code pod}. */
  private static ResourceClaim testClaimReserved(Pod pod) {
    return reserve(allocate(testClaim(pod)), pod);
  }

  private static final ResourceClaim CONFLICTING_CLAIM = claim(CLAIM, NS, null);
  private static final ResourceClaim OTHER_NAMESPACE_CLAIM = claim(CLAIM, OTHER_NS, null);
  private static final ResourceClaimTemplate TEMPLATE_OBJ = new ResourceClaimTemplate(
      ObjectMeta.builder().namespace(NS).name(TEMPLATE).build(), ResourceClaimTemplateSpec.of(spec()));

  /** {@code claim} with upstream's structured-parameters marker, the scheduler's finalizer. */
  private static ResourceClaim structured(ResourceClaim c) {
    List<String> f = new ArrayList<>(c.metadata().finalizers());
    f.add(ResourceClaimController.FINALIZER);
    return c.withMetadata(c.metadata().toBuilder().finalizers(f).build());
  }

  // ---- store set-up and read-back ---------------------------------------------------------------------------------

  private <T extends ApiObject<T>> T put(T object) {
    T created = store.create(object);
    if (object.status() != null && !java.util.Objects.equals(object.status(), created.status())) {
      created = store.updateStatus(created.withStatusOf(object));
    }
    return created;
  }

  private Pod withStatuses(Pod pod, String claimName) {
    return pod.withStatus(pod.status().withResourceClaimStatuses(List.of(new PodResourceClaimStatus(ENTRY,
        claimName))));
  }

  private List<ResourceClaim> claims() {
    return store.list(ResourceClaim.class).items();
  }

  private ResourceClaim stored(String ns, String name) {
    return store.require(ResourceClaim.class, ns, name);
  }

  private List<PodResourceClaimStatus> statuses(String pod) {
    return store.require(Pod.class, NS, pod).status().resourceClaimStatuses();
  }

  /** The one generated claim in {@link #NS}: its name, annotation, owner and spec as upstream's generatedTestClaim. */
  private ResourceClaim assertOneGeneratedClaim() {
    Pod pod = store.require(Pod.class, NS, POD);
    List<ResourceClaim> generated = claims().stream().filter(c -> c.metadata().namespace().equals(NS)
        && c.metadata().name().matches(GENERATED_PATTERN)).toList();
    assertThat(generated).hasSize(1);
    ResourceClaim c = generated.get(0);
    assertThat(c.metadata().annotations()).containsEntry(ResourceClaimController.POD_CLAIM_NAME_ANNOTATION, ENTRY);
    assertThat(c.metadata().ownerReferences()).containsExactly(owner(pod));
    assertThat(c.spec()).isEqualTo(spec());
    assertThat(c.status()).isEqualTo(ResourceClaimStatus.INITIAL);
    return c;
  }

  private static void assertSameClaim(ResourceClaim actual, ResourceClaim expected) {
    assertThat(actual.status()).isEqualTo(expected.status());
    assertThat(actual.metadata().ownerReferences()).isEqualTo(expected.metadata().ownerReferences());
    assertThat(actual.metadata().finalizers()).isEqualTo(expected.metadata().finalizers());
    assertThat(actual.metadata().annotations()).isEqualTo(expected.metadata().annotations());
  }

  // ---- TestSyncHandler --------------------------------------------------------------------------------------------

  @Test
  void create_claimFromTemplate_recordedInPodStatus() {
    put(TEST_POD_WITH_RESOURCE);
    put(TEMPLATE_OBJ);
    assertThat(controller.syncPod(NS, POD)).isEmpty();
    ResourceClaim c = assertOneGeneratedClaim();
    assertThat(claims()).hasSize(1);
    assertThat(statuses(POD)).containsExactly(new PodResourceClaimStatus(ENTRY, c.metadata().name()));
    expectMetrics(1, 0, 0, 0);
  }

  @Test
  void nop_claimNamedInStatusExists_nothingCreated() {
    Pod p = put(withStatuses(TEST_POD_WITH_RESOURCE, "test-pod-acme-resource-1"));
    put(generated("test-pod-acme-resource-1", p));
    put(TEMPLATE_OBJ);
    assertThat(controller.syncPod(NS, POD)).isEmpty();
    assertThat(claims()).extracting(c -> c.metadata().name()).containsExactly("test-pod-acme-resource-1");
    assertThat(statuses(POD)).containsExactly(new PodResourceClaimStatus(ENTRY, "test-pod-acme-resource-1"));
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void recreate_claimNamedInStatusGone_createdAgain() {
    put(withStatuses(TEST_POD_WITH_RESOURCE, "test-pod-acme-resource-1"));
    put(TEMPLATE_OBJ);
    assertThat(controller.syncPod(NS, POD)).isEmpty();
    ResourceClaim c = assertOneGeneratedClaim();
    assertThat(statuses(POD)).containsExactly(new PodResourceClaimStatus(ENTRY, c.metadata().name()));
    expectMetrics(1, 0, 0, 0);
  }

  @Test
  void missingTemplate_error() {
    put(TEST_POD_WITH_RESOURCE);
    assertThat(controller.syncPod(NS, POD)).hasValueSatisfying(e -> assertThat(e)
        .isEqualTo("pod my-namespace/test-pod, resource claim acme-resource: resource claim template "
            + "\"my-template\": not found"));
    assertThat(claims()).isEmpty();
    expectMetrics(0, 0, 0, 0);
  }

  /**
   * Upstream's {@code syncPod} records {@code FailedResourceClaimCreation} on the pod for each sync whose claim could not
   * be made (its tests run without a recorder, so this case is FleetKit's own); a recorder that throws changes nothing.
   */
  @Test
  void missingTemplate_recordsFailedResourceClaimCreationEachSync() {
    put(TEST_POD_WITH_RESOURCE);
    java.util.List<String> events = new java.util.ArrayList<>();
    ResourceClaimController recording = ResourceClaimController.of(store, new Random(7), metrics,
        (regarding, related, type, reason, action, note) -> events.add(regarding.kind() + " " + regarding.name() + " "
            + type + " " + reason + " " + action + ": " + note));
    assertThat(recording.syncPod(NS, POD)).isPresent();
    assertThat(recording.syncPod(NS, POD)).isPresent();
    assertThat(events).containsExactly(
        "Pod test-pod Warning FailedResourceClaimCreation Create: PodResourceClaim acme-resource: resource claim "
            + "template \"my-template\": not found",
        "Pod test-pod Warning FailedResourceClaimCreation Create: PodResourceClaim acme-resource: resource claim "
            + "template \"my-template\": not found");

    ResourceClaimController throwing = ResourceClaimController.of(store, new Random(7), metrics,
        (regarding, related, type, reason, action, note) -> {
          throw new IllegalStateException("sink down");
        });
    assertThat(throwing.syncPod(NS, POD)).hasValueSatisfying(e -> assertThat(e).endsWith("not found"));
    assertThat(claims()).isEmpty();
  }

  @Test
  void findExistingClaimByLabel_recordedWithoutCreating() {
    Pod p = put(TEST_POD_WITH_RESOURCE);
    put(generated("test-pod-acme-resource-1", p));
    assertThat(controller.syncPod(NS, POD)).isEmpty();
    assertThat(claims()).extracting(c -> c.metadata().name()).containsExactly("test-pod-acme-resource-1");
    assertThat(statuses(POD)).containsExactly(new PodResourceClaimStatus(ENTRY, "test-pod-acme-resource-1"));
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void noSuchPod_nothing() {
    assertThat(controller.syncPod(NS, POD)).isEmpty();
    assertThat(claims()).isEmpty();
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void podDeleted_nothingCreated() {
    put(TEST_POD_WITH_RESOURCE.withMetadata(TEST_POD_WITH_RESOURCE.metadata().toBuilder()
        .finalizer("example.com/keep").build()));
    put(TEMPLATE_OBJ);
    store.delete(Pod.class, NS, POD);
    assertThat(controller.syncPod(NS, POD)).isEmpty();
    assertThat(claims()).isEmpty();
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void noVolumes_podWithoutClaims_nothing() {
    put(TEST_POD);
    assertThat(controller.syncPod(NS, POD)).isEmpty();
    assertThat(claims()).isEmpty();
    assertThat(statuses(POD)).isEmpty();
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void createWithOtherClaim_otherNamespaceUntouched() {
    put(TEST_POD_WITH_RESOURCE);
    put(TEMPLATE_OBJ);
    put(OTHER_NAMESPACE_CLAIM);
    assertThat(controller.syncPod(NS, POD)).isEmpty();
    ResourceClaim c = assertOneGeneratedClaim();
    assertThat(claims()).hasSize(2);
    assertSameClaim(stored(OTHER_NS, CLAIM), OTHER_NAMESPACE_CLAIM);
    assertThat(statuses(POD)).containsExactly(new PodResourceClaimStatus(ENTRY, c.metadata().name()));
    expectMetrics(1, 0, 0, 0);
  }

  @Test
  void wrongClaimOwner_error_claimUntouched() {
    put(TEST_POD_WITH_RESOURCE);
    put(CONFLICTING_CLAIM);
    assertThat(controller.syncPod(NS, POD)).isPresent();
    assertThat(claims()).hasSize(1);
    assertSameClaim(stored(NS, CLAIM), CONFLICTING_CLAIM);
    assertThat(statuses(POD)).isEmpty();
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void createConflict_error() {
    ObjectStore failing = new ForwardingObjectStore(store) {
      @Override
      public <T extends ApiObject<T>> T create(T object) {
        if (object instanceof ResourceClaim) {
          throw new ConflictException("fake conflict");
        }
        return super.create(object);
      }
    };
    put(TEST_POD_WITH_RESOURCE);
    put(TEMPLATE_OBJ);
    Optional<String> err = ResourceClaimController.of(failing, new Random(7), metrics).syncPod(NS, POD);
    assertThat(err).hasValueSatisfying(e -> assertThat(e).contains("fake conflict"));
    assertThat(claims()).isEmpty();
    assertThat(statuses(POD)).isEmpty();
    expectMetrics(0, 0, 1, 0);
  }

  @Test
  void stayReservedSeen_podLives_claimUnchanged() {
    Pod p = put(TEST_POD_WITH_RESOURCE);
    put(testClaimReserved(p));
    assertThat(controller.syncClaim(NS, CLAIM)).isEmpty();
    assertSameClaim(stored(NS, CLAIM), testClaimReserved(p));
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void stayReservedNotSeen_podCreatedJustBefore_claimUnchanged() {
    // upstream creates the pod after its informers stopped; the store is always current, so this is the case above
    Pod p = put(TEST_POD_WITH_RESOURCE);
    put(testClaimReserved(p));
    assertThat(controller.syncClaim(NS, CLAIM)).isEmpty();
    assertSameClaim(stored(NS, CLAIM), testClaimReserved(p));
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void clearReservedStructured_podGone_deallocatedAndFinalizerRemoved_claimLeftToTheCollector() {
    put(structured(testClaimReserved(TEST_POD_WITH_RESOURCE))); // the pod is not in the store
    assertThat(controller.syncClaim(NS, CLAIM)).isEmpty();
    ResourceClaim c = stored(NS, CLAIM);
    assertThat(c.status()).isEqualTo(ResourceClaimStatus.INITIAL);
    assertThat(c.metadata().finalizers()).isEmpty();
    assertThat(c.metadata().ownerReferences()).containsExactly(owner(TEST_POD_WITH_RESOURCE));
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void dontClearReservedStructured_onePodLeft_onlyTheOtherRemoved() {
    Pod p = put(TEST_POD_WITH_RESOURCE);
    put(reserve(structured(testClaimReserved(p)), OTHER_TEST_POD));
    assertThat(controller.syncClaim(NS, CLAIM)).isEmpty();
    assertSameClaim(stored(NS, CLAIM), structured(testClaimReserved(p)));
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void clearReservedStructuredDeleted_deallocatedAndFinalizerRemoved() {
    put(structured(claim(CLAIM, NS, owner(TEST_POD_WITH_RESOURCE), "example.com/keep"))
        .withStatus(testClaimReserved(TEST_POD_WITH_RESOURCE).status()));
    store.delete(ResourceClaim.class, NS, CLAIM);
    assertThat(controller.syncClaim(NS, CLAIM)).isEmpty();
    ResourceClaim c = stored(NS, CLAIM);
    assertThat(c.metadata().deletionTimestamp()).isNotNull();
    assertThat(c.metadata().finalizers()).containsExactly("example.com/keep");
    assertThat(c.status()).isEqualTo(ResourceClaimStatus.INITIAL);
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void structuredDeleted_allocatedUnreserved_deallocatedAndFinalizerRemoved() {
    put(structured(claim(CLAIM, NS, owner(TEST_POD_WITH_RESOURCE), "example.com/keep"))
        .withStatus(allocate(testClaim(TEST_POD_WITH_RESOURCE)).status()));
    store.delete(ResourceClaim.class, NS, CLAIM);
    assertThat(controller.syncClaim(NS, CLAIM)).isEmpty();
    ResourceClaim c = stored(NS, CLAIM);
    assertThat(c.metadata().finalizers()).containsExactly("example.com/keep");
    assertThat(c.status().allocation()).isNull();
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void clearReservedWhenDone_podSucceeded_reservationRemoved_allocationKept() {
    Pod done = put(TEST_POD_WITH_RESOURCE);
    store.updateStatus(done.withStatus(done.status().withPhase(PodPhase.Succeeded)));
    ResourceClaim noOwner = claim(CLAIM, NS, null).withStatus(testClaimReserved(done).status());
    put(noOwner);
    assertThat(controller.syncClaim(NS, CLAIM)).isEmpty();
    ResourceClaim c = stored(NS, CLAIM);
    assertThat(c.status()).isEqualTo(new ResourceClaimStatus(ALLOCATION, List.of()));
    assertThat(c.metadata().ownerReferences()).isEmpty();
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void removeReserved_podOfTheOtherReservationGone_removed() {
    Pod p = put(TEST_POD); // the same name and uid as the pod with the resource, without it
    put(reserve(testClaimReserved(p), OTHER_TEST_POD));
    assertThat(controller.syncClaim(NS, CLAIM)).isEmpty();
    assertSameClaim(stored(NS, CLAIM), testClaimReserved(p));
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void deleteClaimWhenDone_ownerPodSucceeded_claimDeleted() {
    Pod done = put(TEST_POD_WITH_RESOURCE);
    store.updateStatus(done.withStatus(done.status().withPhase(PodPhase.Succeeded)));
    put(testClaimReserved(done));
    assertThat(controller.syncClaim(NS, CLAIM)).isEmpty();
    assertThat(claims()).isEmpty();
    expectMetrics(0, 0, 0, 0);
  }

  @Test
  void addReserved_podOnANodeWithoutTheScheduler_reservedForIt() {
    Pod p = put(withStatuses(TEST_POD_WITH_RESOURCE.toBuilder().nodeName(NODE).build(),
        "test-pod-acme-resource-1"));
    put(allocate(generated("test-pod-acme-resource-1", p)));
    put(TEMPLATE_OBJ);
    assertThat(controller.syncPod(NS, POD)).isEmpty();
    assertThat(stored(NS, "test-pod-acme-resource-1").status())
        .isEqualTo(reserve(allocate(generated("x", p)), p).status());
    assertThat(statuses(POD)).containsExactly(new PodResourceClaimStatus(ENTRY, "test-pod-acme-resource-1"));
    expectMetrics(0, 0, 0, 0);
  }

  /** Upstream's case from the newer table (commit b51d68bb), "create with admin and feature gate on". */
  @Test
  void createWithAdminAccess_claimFromTemplate_countedWithAdminAccess() {
    put(TEST_POD_WITH_RESOURCE);
    put(new ResourceClaimTemplate(ObjectMeta.builder().namespace(NS).name(TEMPLATE).build(),
        ResourceClaimTemplateSpec.of(adminSpec())));
    assertThat(controller.syncPod(NS, POD)).isEmpty();
    List<ResourceClaim> made = claims();
    assertThat(made).singleElement().satisfies(c -> {
      assertThat(c.metadata().name()).matches(GENERATED_PATTERN);
      assertThat(c.spec()).isEqualTo(adminSpec());
    });
    assertThat(statuses(POD)).containsExactly(new PodResourceClaimStatus(ENTRY, made.get(0).metadata().name()));
    expectMetrics(0, 1, 0, 0);
  }

  /** Upstream's expectMetrics: the create counter's four series. */
  private void expectMetrics(int created, int createdWithAdmin, int failures, int failuresWithAdmin) {
    String name = ResourceClaimMetrics.CREATES_TOTAL;
    assertThat(metrics.get(name, "success", "false")).as("created").isEqualTo(created);
    assertThat(metrics.get(name, "success", "true")).as("created with admin access").isEqualTo(createdWithAdmin);
    assertThat(metrics.get(name, "failure", "false")).as("failed").isEqualTo(failures);
    assertThat(metrics.get(name, "failure", "true")).as("failed with admin access").isEqualTo(failuresWithAdmin);
  }

  private static ResourceClaimSpec adminSpec() {
    return ResourceClaimSpec.of(new DeviceRequest("req-0", new ExactDeviceRequest(CLASS, List.of(),
        DeviceAllocationMode.EXACT_COUNT, 1, true)));
  }

  // ---- TestResourceClaimEventHandler: the claims gauge --------------------------------------------------------------

  /**
   * Ported from upstream's {@code TestResourceClaimEventHandler} (controller_test.go, commit b51d68bb): each step
   * writes a claim and the gauge {@code dynamic_resource_allocation_resource_claims} must show upstream's counts
   * (label-only changes move nothing). Upstream also checks which keys its work queue holds after each step; here
   * {@code follow_syncsOnlyWhatChanged_andTheOwnerOfADeletedClaim} covers what is marked.
   */
  @Test
  void claimsGauge_followsCreateAllocateDeallocateDelete() throws Exception {
    Map<String, Double> expected = new HashMap<>();
    try (AutoCloseable following = controller.follow()) {
      assertGauge(expected);
      ResourceClaim plain = testClaim(TEST_POD_WITH_RESOURCE);
      store.create(plain); // create claim
      change(expected, "false", "false", "", 1);
      assertGauge(expected);
      ResourceClaim stored = stored(NS, CLAIM); // modify claim (labels only)
      store.update(stored.withMetadata(stored.metadata().toBuilder().label("foo", "bar").build()));
      assertGauge(expected);
      stored = stored(NS, CLAIM); // allocate claim
      store.updateStatus(stored.withStatus(stored.status().withAllocation(ALLOCATION)));
      change(expected, "false", "false", "", -1);
      change(expected, "true", "false", "", 1);
      assertGauge(expected);
      stored = stored(NS, CLAIM); // modify claim
      store.update(stored.withMetadata(stored.metadata().toBuilder().label("foo", "bar2").build()));
      assertGauge(expected);
      store.create(allocate(claim(CLAIM + "2", NS, owner(TEST_POD_WITH_RESOURCE)))); // create allocated claim
      change(expected, "true", "false", "", 1);
      assertGauge(expected);
      stored = stored(NS, CLAIM); // deallocate claim
      store.updateStatus(stored.withStatus(ResourceClaimStatus.INITIAL));
      change(expected, "false", "false", "", 1);
      change(expected, "true", "false", "", -1);
      assertGauge(expected);
      store.delete(ResourceClaim.class, NS, CLAIM); // delete deallocated claim
      change(expected, "false", "false", "", -1);
      assertGauge(expected);
      store.delete(ResourceClaim.class, NS, CLAIM + "2"); // delete allocated claim
      change(expected, "true", "false", "", -1);
      assertGauge(expected);

      ResourceClaim admin = ResourceClaim.of(ObjectMeta.builder().namespace(NS).name("test-pod-acme-resource-1")
          .annotation(ResourceClaimController.POD_CLAIM_NAME_ANNOTATION, ENTRY)
          .ownerReference(owner(TEST_POD_WITH_RESOURCE)).build(), adminSpec());
      store.create(admin); // create claim with admin access
      change(expected, "false", "true", "resource_claim_template", 1);
      assertGauge(expected);
      stored = stored(NS, "test-pod-acme-resource-1"); // modify claim
      store.update(stored.withMetadata(stored.metadata().toBuilder().label("foo", "bar").build()));
      assertGauge(expected);
      stored = stored(NS, "test-pod-acme-resource-1"); // allocate claim with admin access
      store.updateStatus(stored.withStatus(stored.status().withAllocation(ALLOCATION)));
      change(expected, "false", "true", "resource_claim_template", -1);
      change(expected, "true", "true", "resource_claim_template", 1);
      assertGauge(expected);
      stored = stored(NS, "test-pod-acme-resource-1"); // modify claim
      store.update(stored.withMetadata(stored.metadata().toBuilder().label("foo", "bar2").build()));
      assertGauge(expected);
      store.create(allocate(ResourceClaim.of(admin.metadata().toBuilder().name("test-pod-acme-resource-12").build(),
          adminSpec()))); // create allocated claim with admin access
      change(expected, "true", "true", "resource_claim_template", 1);
      assertGauge(expected);
      stored = stored(NS, "test-pod-acme-resource-1"); // deallocate claim with admin access
      store.updateStatus(stored.withStatus(ResourceClaimStatus.INITIAL));
      change(expected, "false", "true", "resource_claim_template", 1);
      change(expected, "true", "true", "resource_claim_template", -1);
      assertGauge(expected);
      store.delete(ResourceClaim.class, NS, "test-pod-acme-resource-1"); // delete deallocated claim with admin access
      change(expected, "false", "true", "resource_claim_template", -1);
      assertGauge(expected);
      store.delete(ResourceClaim.class, NS, "test-pod-acme-resource-12"); // delete allocated claim with admin access
      change(expected, "true", "true", "resource_claim_template", -1);
      assertGauge(expected);

      ResourceClaim extended = ResourceClaim.of(ObjectMeta.builder().namespace(NS).name("test-pod-extended-resources")
          .annotation(ResourceClaimMetrics.EXTENDED_RESOURCE_CLAIM_ANNOTATION, "true")
          .ownerReference(owner(TEST_POD_WITH_RESOURCE)).build(), spec());
      store.create(extended); // create extended resource claim
      change(expected, "false", "false", "extended_resource", 1);
      assertGauge(expected);
      stored = stored(NS, "test-pod-extended-resources"); // allocate extended resource claim
      store.updateStatus(stored.withStatus(stored.status().withAllocation(ALLOCATION)));
      change(expected, "false", "false", "extended_resource", -1);
      change(expected, "true", "false", "extended_resource", 1);
      assertGauge(expected);
      stored = stored(NS, "test-pod-extended-resources"); // deallocate extended resource claim
      store.updateStatus(stored.withStatus(ResourceClaimStatus.INITIAL));
      change(expected, "false", "false", "extended_resource", 1);
      change(expected, "true", "false", "extended_resource", -1);
      assertGauge(expected);
      store.delete(ResourceClaim.class, NS, "test-pod-extended-resources"); // delete extended resource claim
      change(expected, "false", "false", "extended_resource", -1);
      assertGauge(expected);
    }
  }

  @Test
  void claimsGauge_countsTheClaimsAlreadyStoredWhenFollowingStarts_andNothingWithoutARegistry() throws Exception {
    put(allocate(testClaim(TEST_POD_WITH_RESOURCE)));
    put(claim(CLAIM + "2", NS, null));
    try (AutoCloseable following = controller.follow()) {
      assertThat(metrics.get(ResourceClaimMetrics.RESOURCE_CLAIMS, "true", "false", "")).isEqualTo(1);
      assertThat(metrics.get(ResourceClaimMetrics.RESOURCE_CLAIMS, "false", "false", "")).isEqualTo(1);
    }
    TestMetrics disabled = new TestMetrics(false);
    try (AutoCloseable following = ResourceClaimController.of(store, new Random(7), disabled).follow()) {
      store.delete(ResourceClaim.class, NS, CLAIM);
      assertThat(disabled.values).isEmpty();
    }
  }

  private static void change(Map<String, Double> expected, String allocated, String admin, String source,
      double delta) {
    expected.merge(TestMetrics.key(ResourceClaimMetrics.RESOURCE_CLAIMS, allocated, admin, source), delta,
        Double::sum);
  }

  /** Every series of the gauge as expected; a series at 0 may be absent (upstream emits only those with claims). */
  private void assertGauge(Map<String, Double> expected) {
    Map<String, Double> actual = new HashMap<>();
    metrics.values.forEach((k, v) -> {
      if (k.startsWith(ResourceClaimMetrics.RESOURCE_CLAIMS + "{") && v != 0) {
        actual.put(k, v);
      }
    });
    Map<String, Double> nonZero = new HashMap<>(expected);
    nonZero.values().removeIf(v -> v == 0);
    assertThat(actual).isEqualTo(nonZero);
  }

  // ---- TestGetAdminAccessMetricLabel ------------------------------------------------------------------------------

  /**
   * Ported from upstream's {@code TestGetAdminAccessMetricLabel} (controller_test.go, commit b51d68bb), 6 of 7 cases:
   * "nil claim" has no counterpart (a claim spec is never null here).
   */
  @Test
  void adminAccessLabel_upstreamCases() {
    ExactDeviceRequest off = new ExactDeviceRequest(CLASS, List.of(), DeviceAllocationMode.EXACT_COUNT, 1, false);
    ExactDeviceRequest on = new ExactDeviceRequest(CLASS, List.of(), DeviceAllocationMode.EXACT_COUNT, 1, true);
    assertThat(ResourceClaimMetrics.adminAccess(ResourceClaimSpec.of())).as("no requests").isFalse();
    assertThat(ResourceClaimMetrics.adminAccess(ResourceClaimSpec.of(new DeviceRequest("a", off))))
        .as("admin access false").isFalse();
    assertThat(ResourceClaimMetrics.adminAccess(ResourceClaimSpec.of(new DeviceRequest("a", on))))
        .as("admin access true").isTrue();
    assertThat(ResourceClaimMetrics.adminAccess(ResourceClaimSpec.of(DeviceRequest.firstAvailable("a",
        DeviceSubRequest.count("s", CLASS, 1))))).as("prioritized list").isFalse();
    assertThat(ResourceClaimMetrics.adminAccess(ResourceClaimSpec.of(new DeviceRequest("a", off),
        new DeviceRequest("b", on)))).as("multiple requests, one with admin access true").isTrue();
    assertThat(ResourceClaimMetrics.adminAccess(ResourceClaimSpec.of(new DeviceRequest("a", off),
        new DeviceRequest("b", ExactDeviceRequest.count(CLASS, 1)))))
        .as("multiple requests, all admin access false or nil").isFalse();
  }

  // ---- FleetKit's own cases --------------------------------------------------------------------------------------

  @Test
  void generatedName_longNames_cutInProportion() {
    String pod = "p".repeat(60);
    String entry = "e".repeat(20);
    String name = controller.generatedName(pod, entry);
    assertThat(name).hasSize(57 * 60 / 82 + 1 + 20 * 57 / 82 + 5);
    assertThat(name).startsWith("p".repeat(57 * 60 / 82) + "-" + "e".repeat(20 * 57 / 82));
    assertThat(controller.generatedName("a", "b")).matches("a-b-[bcdfghjklmnpqrstvwxz2456789]{5}");
  }

  @Test
  void syncAll_createsThenCleansUp() {
    put(TEST_POD_WITH_RESOURCE);
    put(TEMPLATE_OBJ);
    assertThat(controller.syncAll()).isEmpty();
    String name = assertOneGeneratedClaim().metadata().name();
    assertThat(controller.syncAll()).isEmpty(); // idempotent
    assertThat(claims()).hasSize(1);
    Pod now = store.require(Pod.class, NS, POD);
    store.updateStatus(now.withStatus(now.status().withPhase(PodPhase.Failed)));
    assertThat(controller.syncAll()).isEmpty();
    assertThat(store.get(ResourceClaim.class, NS, name)).isEmpty();
    assertThat(controller.syncAll()).isEmpty();
    assertThat(claims()).as("a terminated pod gets no new claim").isEmpty();
  }

  @Test
  void follow_syncsOnlyWhatChanged_andTheOwnerOfADeletedClaim() throws Exception {
    put(TEMPLATE_OBJ);
    put(TEST_POD_WITH_RESOURCE);
    try (AutoCloseable following = controller.follow()) {
      assertThat(controller.syncChanged()).isEmpty(); // the pod marked at the start gets its claim
      String first = assertOneGeneratedClaim().metadata().name();
      String version = store.require(Pod.class, NS, POD).metadata().resourceVersion();
      assertThat(controller.syncChanged()).isEmpty(); // its own writes mark it again: nothing to change
      assertThat(controller.syncChanged()).isEmpty();
      assertThat(store.require(Pod.class, NS, POD).metadata().resourceVersion()).isEqualTo(version);

      store.delete(ResourceClaim.class, NS, first); // a deleted claim marks its pod, which gets a new one
      assertThat(controller.syncChanged()).isEmpty();
      String second = assertOneGeneratedClaim().metadata().name();
      assertThat(second).isNotEqualTo(first);
      assertThat(statuses(POD)).containsExactly(new PodResourceClaimStatus(ENTRY, second));

      Pod now = store.require(Pod.class, NS, POD); // a pod that is done marks its claims, which go
      store.updateStatus(now.withStatus(now.status().withPhase(PodPhase.Succeeded)));
      assertThat(controller.syncChanged()).isEmpty();
      assertThat(claims()).isEmpty();
    }
    put(OTHER_TEST_POD.toBuilder().resourceClaim(PodResourceClaim.ofTemplate(ENTRY, TEMPLATE)).build());
    assertThat(controller.syncChanged()).as("closed: no longer following").isEmpty();
    assertThat(claims()).isEmpty();
  }

  @Test
  void follow_failedSyncStaysMarked_andSucceedsOnceTheTemplateExists() throws Exception {
    put(TEST_POD_WITH_RESOURCE);
    try (AutoCloseable following = controller.follow()) {
      assertThat(controller.syncChanged()).singleElement().asString()
          .isEqualTo("pod my-namespace/test-pod, resource claim acme-resource: resource claim template "
              + "\"my-template\": not found");
      assertThat(controller.syncChanged()).as("tried again").hasSize(1);
      put(TEMPLATE_OBJ);
      assertThat(controller.syncChanged()).isEmpty();
      assertOneGeneratedClaim();
    }
  }
}
