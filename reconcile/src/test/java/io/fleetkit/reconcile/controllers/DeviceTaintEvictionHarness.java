package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.core.PodResourceClaimStatus;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceTaintRuleSpec;
import io.fleetkit.api.resource.dra.DeviceTaintRuleStatus;
import io.fleetkit.api.resource.dra.DeviceTaintSelector;
import io.fleetkit.api.resource.dra.DeviceToleration;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.internal.DeviceTaintEvictions;
import io.fleetkit.reconcile.controllers.internal.DeviceTaintEvictions.Eviction;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The objects of kubernetes' {@code pkg/controller/devicetainteviction/device_taint_eviction_test.go} (slices,
 * rules, claims and pods with the same names, uids, devices, taints and tolerations) and a store, clock and
 * controller to run a case on: {@link #put} objects (with the uid the case gives), {@link #refresh} (the event
 * handlers' part), then {@link #step} (the workers' part) and advance the clock.
 */
final class DeviceTaintEvictionHarness implements AutoCloseable {
  static final String NODE = "worker";
  static final String NODE2 = "worker-2";
  static final String DRIVER = "some-driver";
  static final String POD = "my-pod";
  static final String POD_UID = "1234";
  static final String CLASS = "my-resource-class";
  static final String RESOURCE = "my-resource";
  static final String CLAIM = POD + "-" + RESOURCE;
  static final String NS = "default";
  /** Upstream's taintTime, the start of the synctest bubble: the clock starts here. */
  static final Instant T0 = Instant.parse("2000-01-01T00:00:00Z");
  static final String TAINT_KEY = "example.com/taint";
  static final String TAINT_VALUE = "something";
  static final Duration STATUS_PERIOD = Duration.ofSeconds(10);
  /** Upstream's tolerationDuration. */
  static final Duration TOLERATION = Duration.ofHours(1);

  static final DeviceTaint TAINT = new DeviceTaint(TAINT_KEY, TAINT_VALUE, DeviceTaintEffect.NO_EXECUTE, T0);
  static final DeviceTaint TAINT_OTHER = new DeviceTaint(TAINT_KEY, TAINT_VALUE + "-other",
      DeviceTaintEffect.NO_EXECUTE, T0);
  static final DeviceTaint TAINT1 = new DeviceTaint(TAINT_KEY, "", DeviceTaintEffect.NO_EXECUTE, T0);
  static final DeviceTaint TAINT2 = new DeviceTaint(TAINT_KEY + "-other", "", DeviceTaintEffect.NO_EXECUTE, T0);

  final ManualClock clock = new ManualClock(T0);
  private final Deque<String> uids = new ArrayDeque<>();
  private final AtomicLong generated = new AtomicLong();
  final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock())
      .uidGenerator(() -> uids.isEmpty() ? "gen-" + generated.incrementAndGet() : uids.pop()).build();
  final List<String> events = new ArrayList<>();
  private final EventRecorder recorder = (regarding, related, type, reason, action, note) ->
      events.add(reason + " " + regarding.namespace() + "/" + regarding.name() + " " + regarding.uid() + ": " + note);
  final TestMetrics metrics = new TestMetrics();
  final DeviceTaintEvictionController controller = DeviceTaintEvictionController.create(store, clock, recorder,
      metrics);

  DeviceTaintEvictionHarness() {
    controller.start();
  }

  @Override
  public void close() {
    controller.close();
    store.close();
  }

  // ---- slices ---------------------------------------------------------------------------------------------------

  private static ResourceSlice slice(String name, String node, long generation, Device... devices) {
    return ResourceSlice.of(name, ResourceSliceSpec.builder(DRIVER, new ResourcePool(node, generation, 1))
        .nodeName(node).devices(List.of(devices)).build());
  }

  private static Device device(String name, DeviceTaint... taints) {
    Device.Builder b = Device.builder(name);
    for (DeviceTaint t : taints) {
      b.taint(t);
    }
    return b.build();
  }

  static final String SLICE = NODE + "-" + DRIVER;

  static ResourceSlice simpleSlice() {
    return slice(SLICE, NODE, 1, device("instance"));
  }

  /** Upstream's {@code slice}: three devices, the third with a None and a NoExecute taint. */
  static ResourceSlice slice() {
    return slice(SLICE, NODE, 1, device("instance"),
        device("instance-no-schedule", DeviceTaint.of(TAINT_KEY, "", DeviceTaintEffect.NO_SCHEDULE)),
        device("instance-no-execute", new DeviceTaint(TAINT_KEY, "", DeviceTaintEffect.NONE, T0),
            new DeviceTaint(TAINT_KEY, "", DeviceTaintEffect.NO_EXECUTE, T0)));
  }

  /** {@link #slice()} with the first device's taints replaced. */
  static ResourceSlice sliceWithFirstTaints(DeviceTaint... taints) {
    ResourceSlice s = slice();
    List<Device> ds = new ArrayList<>(s.spec().devices());
    Device d = ds.get(0);
    ds.set(0, new Device(d.name(), d.attributes(), d.capacity(), List.of(taints), d.consumesCounters(),
        d.nodeName(), d.nodeSelector(), d.allNodes()));
    return withDevices(s, ds);
  }

  private static ResourceSlice withDevices(ResourceSlice s, List<Device> ds) {
    return ResourceSlice.of(s.metadata().name(), ResourceSliceSpec.builder(DRIVER, s.spec().pool())
        .nodeName(s.spec().nodeName()).devices(ds).build());
  }

  static ResourceSlice sliceTainted() {
    return sliceWithFirstTaints(TAINT);
  }

  /** Every taint of {@link #sliceTainted()} with {@code effect}. */
  static ResourceSlice sliceTaintedWithEffect(DeviceTaintEffect effect) {
    List<Device> ds = new ArrayList<>();
    for (Device d : sliceTainted().spec().devices()) {
      List<DeviceTaint> ts = new ArrayList<>();
      for (DeviceTaint t : d.taints()) {
        ts.add(new DeviceTaint(t.key(), t.value(), effect, t.timeAdded()));
      }
      ds.add(new Device(d.name(), d.attributes(), d.capacity(), ts, d.consumesCounters(), d.nodeName(),
          d.nodeSelector(), d.allNodes()));
    }
    return withDevices(sliceTainted(), ds);
  }

  static ResourceSlice sliceTaintedExtended() {
    List<Device> ds = new ArrayList<>(sliceTainted().spec().devices());
    Device first = ds.get(0);
    ds.add(new Device(first.name() + "-other", first.attributes(), first.capacity(), first.taints(),
        first.consumesCounters(), null, null, false));
    return withDevices(sliceTainted(), ds);
  }

  static ResourceSlice sliceOtherDevices() {
    List<Device> ds = new ArrayList<>();
    for (Device d : slice().spec().devices()) {
      ds.add(new Device(d.name() + "-other", d.attributes(), d.capacity(), d.taints(), d.consumesCounters(),
          null, null, false));
    }
    return withDevices(slice(), ds);
  }

  static ResourceSlice sliceReplaced() {
    ResourceSlice s = slice();
    return ResourceSlice.of(SLICE + "-updated", ResourceSliceSpec.builder(DRIVER, new ResourcePool(NODE, 2, 1))
        .nodeName(NODE).devices(s.spec().devices()).build());
  }

  static ResourceSlice slice2() {
    return ResourceSlice.of(SLICE + "-2", ResourceSliceSpec.builder(DRIVER, new ResourcePool(NODE2, 2, 1))
        .nodeName(NODE2).devices(slice().spec().devices()).build());
  }

  // ---- rules ----------------------------------------------------------------------------------------------------

  static DeviceTaintRule rule(String name, DeviceTaintSelector selector, DeviceTaint taint) {
    return new DeviceTaintRule(ObjectMeta.of(name), new DeviceTaintRuleSpec(selector, taint),
        DeviceTaintRuleStatus.EMPTY);
  }

  static final String RULE_EVICT_UID = "1234";

  static DeviceTaintRule ruleEvict() {
    return rule("evict", DeviceTaintSelector.driver(DRIVER), TAINT);
  }

  static DeviceTaintRule ruleEvictInstance1() {
    return rule("evict-instance", new DeviceTaintSelector(DRIVER, null, "instance"), TAINT);
  }

  static final Instant TAINT_TIME_LATER = T0.plusSeconds(40);

  static DeviceTaintRule ruleEvictInstance2Later() {
    return rule("evict-instance-no-execute", new DeviceTaintSelector(DRIVER, null, "instance-no-execute"),
        new DeviceTaint(TAINT_KEY, TAINT_VALUE, DeviceTaintEffect.NO_EXECUTE, TAINT_TIME_LATER));
  }

  static DeviceTaintRule ruleNone() {
    return rule("evict", DeviceTaintSelector.driver(DRIVER),
        new DeviceTaint(TAINT_KEY, TAINT_VALUE, DeviceTaintEffect.NONE, T0));
  }

  static DeviceTaintRule ruleEvictOther() {
    return rule("evict-other", new DeviceTaintSelector(null, null, "instance"), TAINT);
  }

  // ---- claims ---------------------------------------------------------------------------------------------------

  static List<DeviceRequestAllocationResult> allocation(DeviceToleration... tolerations) {
    return List.of(new DeviceRequestAllocationResult("req-1", DRIVER, NODE, "instance", false,
        List.of(tolerations)));
  }

  static List<DeviceRequestAllocationResult> allocationOtherDevices() {
    return List.of(new DeviceRequestAllocationResult("req-1", DRIVER, NODE, "instance-no-schedule"),
        new DeviceRequestAllocationResult("req-1", DRIVER, NODE, "instance-no-execute"));
  }

  /** A claim, controlled by pod {@code ownerName}/{@code ownerUid}, allocated and reserved for {@code reservedFor}. */
  static ResourceClaim claim(String ns, String name, @Nullable String ownerName, @Nullable String ownerUid,
      @Nullable List<DeviceRequestAllocationResult> allocated, ResourceClaimConsumerReference... reservedFor) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(ns).name(name);
    if (ownerName != null && ownerUid != null) {
      m.ownerReference(new OwnerReference("v1", "Pod", ownerName, ownerUid, true, true));
    }
    ResourceClaim c = ResourceClaim.of(m.build(),
        ResourceClaimSpec.of(new DeviceRequest("req-1", ExactDeviceRequest.count(CLASS, 1))));
    if (allocated != null) {
      c = c.withStatus(c.status().withAllocation(new AllocationResult(allocated, null))
          .withReservedFor(List.of(reservedFor)));
    }
    return c;
  }

  static ResourceClaimConsumerReference reservedFor(String pod, String uid) {
    return ResourceClaimConsumerReference.pod(pod, uid);
  }

  /** Upstream's {@code claim}: not allocated. */
  static ResourceClaim unallocatedClaim() {
    return claim(NS, CLAIM, POD, POD_UID, null);
  }

  static ResourceClaim inUseClaim(DeviceToleration... tolerations) {
    return claim(NS, CLAIM, POD, POD_UID, allocation(tolerations), reservedFor(POD, POD_UID));
  }

  static ResourceClaim inUseClaimOtherNamespace() {
    return claim(NS + "-other", CLAIM, POD, POD_UID + "-2", allocationOtherDevices(),
        reservedFor(POD, POD_UID + "-2"));
  }

  static ResourceClaim inUseClaimOtherName() {
    return claim(NS, CLAIM + "-other", POD + "-other", POD_UID + "-3", allocationOtherDevices(),
        reservedFor(POD + "-other", POD_UID + "-3"));
  }

  static ResourceClaim inUseClaimOtherNameShared() {
    return claim(NS, CLAIM + "-other", POD + "-other", POD_UID + "-3", allocationOtherDevices(),
        reservedFor(POD, POD_UID), reservedFor(POD + "-other", POD_UID + "-3"));
  }

  static ResourceClaim inUseClaimWithToleration() {
    return inUseClaim(DeviceToleration.equal(TAINT_KEY, TAINT_VALUE, DeviceTaintEffect.NO_EXECUTE)
        .withTolerationSeconds(TOLERATION.toSeconds()));
  }

  /** Upstream's {@code inUseClaimOld}: controlled by another pod uid, itself with uid "other". */
  static ResourceClaim inUseClaimOld() {
    return claim(NS, CLAIM, POD, POD_UID + "-other", allocation(), reservedFor(POD, POD_UID));
  }

  static DeviceToleration noExecute(@Nullable String key, @Nullable Long seconds) {
    return DeviceToleration.exists(key == null ? "" : key, DeviceTaintEffect.NO_EXECUTE)
        .withTolerationSeconds(seconds);
  }

  // ---- pods -----------------------------------------------------------------------------------------------------

  static Pod pod(String ns, String name, @Nullable String node, PodResourceClaim... claims) {
    Pod.Builder b = Pod.builder().namespace(ns).name(name).container("c", "img", ResourceList.EMPTY);
    if (node != null) {
      b.nodeName(node);
    }
    for (PodResourceClaim c : claims) {
      b.resourceClaim(c);
    }
    return b.build();
  }

  static Pod podWithClaimName() {
    return pod(NS, POD, NODE, PodResourceClaim.ofClaim(RESOURCE, CLAIM));
  }

  static Pod unscheduledPodWithClaimName() {
    return pod(NS, POD, null, PodResourceClaim.ofClaim(RESOURCE, CLAIM));
  }

  static Pod podWithTwoClaimNames() {
    return pod(NS, POD, NODE, PodResourceClaim.ofClaim(RESOURCE, CLAIM),
        PodResourceClaim.ofClaim(RESOURCE + "-other", CLAIM + "-other"));
  }

  static Pod podWithClaimNameOtherNamespace() {
    return pod(NS + "-other", POD, NODE, PodResourceClaim.ofClaim(RESOURCE, CLAIM));
  }

  static Pod podWithClaimNameOtherName() {
    return pod(NS, POD + "-other", NODE, PodResourceClaim.ofClaim(RESOURCE, CLAIM + "-other"));
  }

  static Pod podWithClaimTemplate() {
    return pod(NS, POD, NODE, PodResourceClaim.ofTemplate(RESOURCE, CLAIM));
  }

  static Pod podWithClaimTemplateInStatus(String claimName) {
    Pod p = podWithClaimTemplate();
    return p.withStatus(p.status().withResourceClaimStatuses(List.of(new PodResourceClaimStatus(RESOURCE,
        claimName))));
  }

  // ---- running a case -------------------------------------------------------------------------------------------

  /** Stores {@code object} with {@code uid} (its status too), as a case's initial state or an add event. */
  <T extends ApiObject<T>> T put(T object, String uid) {
    uids.push(uid);
    T created = store.create(object);
    if (object.status() != null && !java.util.Objects.equals(object.status(), created.status())) {
      created = store.updateStatus(created.withStatusOf(object));
    }
    return created;
  }

  <T extends ApiObject<T>> T put(T object) {
    return put(object, "uid-" + object.kind() + "-" + object.metadata().key());
  }

  /** An update event: {@code object} replaces the stored object of its name, status included. */
  <T extends ApiObject<T>> void update(T object) {
    @SuppressWarnings("unchecked")
    Class<T> kind = (Class<T>) object.getClass();
    T old = store.require(kind, object.metadata().namespace(), object.metadata().name());
    T updated = store.updateWithStatus(object.withMetadata(object.metadata().toBuilder()
        .uid(old.metadata().uid()).resourceVersion(old.metadata().resourceVersion()).build()));
    assertThat(updated).isNotNull();
  }

  /** A remove event: the object is gone (a pod force-deleted, grace period 0, as upstream's fake client removes it). */
  void remove(Class<? extends ApiObject<?>> kind, String ns, String name) {
    @SuppressWarnings({"unchecked", "rawtypes"})
    Class raw = kind;
    store.delete(raw, ns, name, DeleteOptions.gracePeriod(0));
  }

  /** The event handlers' part: recompute, without deleting pods. */
  void refresh() {
    controller.refresh();
  }

  /** The scheduled evictions ({@code deletePodAt}): pod key to time and reasons. */
  Map<String, String> scheduled(String... podKeys) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String k : podKeys) {
      controller.scheduledEviction(k).ifPresent(t -> out.put(k, t + " " + controller.evictionReasons(k)));
    }
    return out;
  }

  static String eviction(Instant when, String... reasons) {
    return when + " " + Arrays.asList(reasons);
  }

  static String sliceReason(String slice, String device, int index) {
    return "ResourceSlice " + slice + " " + DRIVER + "/" + NODE + "/" + device + " taint #" + index;
  }

  static String ruleReason(String rule) {
    return "DeviceTaintRule " + rule;
  }

  /** The claim's eviction time and reasons ({@code allocatedClaims}), or "none". */
  String claimEviction(String ns, String name) {
    ResourceClaim c = store.require(ResourceClaim.class, ns, name);
    Eviction e = DeviceTaintEvictions.of(store.list(ResourceSlice.class).items(),
        store.list(DeviceTaintRule.class).items(), id -> T0).claimEviction(c);
    return e == null ? "none" : e.when() + " " + e.reasons().stream().map(Object::toString).toList();
  }

  /** The workers' part at the current time: syncs until idle, as the simulation does. */
  /**
   * Syncs until nothing is left at this instant. A deleted pod is ended at once by a kubelet stand-in
   * ({@link Sim#finishTerminating}), as upstream's fake client removes a deleted pod at once: the store deletes a bound
   * pod gracefully and leaves it Terminating until its kubelet ends it.
   */
  void step() {
    for (int i = 0; i < 100; i++) {
      int synced = controller.sync();
      int ended = Sim.finishTerminating(store);
      if (synced == 0 && ended == 0) {
        break;
      }
    }
  }

  void advance(Duration d) {
    clock.advance(d);
  }

  /** The pods left, by key. */
  List<String> pods() {
    return store.list(Pod.class).items().stream().map(p -> p.metadata().key()).sorted().toList();
  }

  /** Each rule's condition as {@code name status reason "message" @lastTransitionTime}. */
  List<String> rules() {
    List<String> out = new ArrayList<>();
    for (DeviceTaintRule r : store.list(DeviceTaintRule.class).items()) {
      Condition c = r.status().condition(DeviceTaintRuleStatus.EVICTION_IN_PROGRESS);
      out.add(c == null ? r.metadata().name() + " -" : cond(r.metadata().name(), c.status() == ConditionStatus.True,
          c.reason(), c.message(), c.lastTransitionTime()));
    }
    out.sort(null);
    return out;
  }

  static String cond(String rule, boolean status, String reason, String message, @Nullable Instant when) {
    return rule + " " + status + " " + reason + " \"" + message + "\" @" + when;
  }

  static String deleteEvent(String ns, String pod, String uid) {
    return EventRecorder.DEVICE_TAINT_MANAGER_EVICTION + " " + ns + "/" + pod + " " + uid + ": Marking for deletion";
  }

  static String cancelEvent(String ns, String pod, String uid) {
    return EventRecorder.DEVICE_TAINT_MANAGER_EVICTION + " " + ns + "/" + pod + " " + uid + ": Cancelling deletion";
  }
}
