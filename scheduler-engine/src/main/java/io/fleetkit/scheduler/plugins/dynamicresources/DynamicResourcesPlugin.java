package io.fleetkit.scheduler.plugins.dynamicresources;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PostFilterPlugin;
import io.fleetkit.api.framework.PostFilterResult;
import io.fleetkit.api.framework.PreBindPlugin;
import io.fleetkit.api.framework.PreEnqueuePlugin;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.DeviceSubRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceClaimStatus;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.RequiredNodeAffinity;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.scheduler.dra.AllocationOutcome;
import io.fleetkit.scheduler.dra.DeviceId;
import io.fleetkit.scheduler.dra.StructuredAllocator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Dynamic Resource Allocation, as kube-scheduler's {@code DynamicResources}
 * ({@code pkg/scheduler/framework/plugins/dynamicresources}, structured parameters only).
 *
 * <ul>
 *   <li>PreEnqueue: every claim of the pod must exist (a template entry's claim is the one named in the pod's
 *       {@code status.resourceClaimStatuses}, made by the resource-claim controller and controlled by the pod), and
 *       not be being deleted; otherwise the pod waits, with upstream's reasons.
 *   <li>PreFilter skips pods without claims, so they pay nothing. It reads the pod's claims, rejects a claim whose
 *       {@code reservedFor} is full, or whose request (or an alternative of a prioritized list, named
 *       {@code request/subrequest}) names a device class that does not exist, and prepares the allocator over the
 *       classes, the slices and the devices in use: those of every allocated claim plus the allocations in flight
 *       (between Reserve and PreBind of other pods), except devices allocated with admin access.
 *   <li>Filter: the claims not yet allocated must all get devices on the node ({@value #REASON_CANNOT_ALLOCATE});
 *       an allocated claim confines the pod to its allocation's node selector ({@value #REASON_NOT_AVAILABLE}, the
 *       claim remembered for PostFilter); the allocation found is kept per node. Both rejections are
 *       UNSCHEDULABLE_AND_UNRESOLVABLE (preemption frees no device); a selector failing at run time is an error.
 *   <li>PostFilter (no node passed Filter): an allocated claim of the pod that some node rejected as out of reach
 *       and that is reserved for nobody, or for this pod only, is deallocated ({@code status.allocation} and
 *       {@code reservedFor} cleared; its finalizer stays for the resource-claim controller), so that the next
 *       attempt may allocate it elsewhere: {@value #DEALLOCATED}. Otherwise {@value #STILL_NOT_SCHEDULABLE}, or
 *       {@value #NO_CLAIMS} when PreFilter read no claims. Always UNSCHEDULABLE, so preemption runs next.
 *   <li>Reserve records the node's allocation as in flight, refusing it if another cycle holds the claim or one of
 *       its devices (admin access shares devices); Unreserve drops it and removes the pod from the {@code reservedFor} of the claims PreBind
 *       reserved.
 *   <li>PreBind writes each claim's {@code status.allocation} (if it allocated it, with the {@value #FINALIZER}
 *       finalizer, so that the claim is not deleted while allocated: the resource-claim controller deallocates it
 *       and removes the finalizer once no pod uses it) and adds the pod to {@code status.reservedFor},
 *       compare-and-swap on the claim's resourceVersion, retrying on conflicts.
 * </ul>
 *
 * <p>Claims, classes and slices are read from the object store when the plugin has one (given to
 * {@link #factory(ObjectStore)}, or the store of the binder the scheduler binds through, {@link io.fleetkit.api.framework.Binder#objectStore()}), else from the
 * objects the scheduler was given ({@link FrameworkHandle#list}); PreBind needs the store. The allocator brings prioritized lists, admin
 * access and device taints. Not modelled: PreScore.
 *
 * <p>Queueing hints ({@link #isSchedulableAfter}), upstream's {@code EventsToRegister}: a pod this plugin rejected
 * is retried after a node is added or updated; after a ResourceClaim is added or updated
 * ({@link ClusterEvent#DYNAMIC_RESOURCES}) only when {@link #isSchedulableAfterClaimChange} says so (a claim of
 * another pod deallocated, or one of this pod's claims created or its status changed, once all of its claims
 * exist); after a ResourceSlice or DeviceClass is added or updated. Deletions of these objects leave the pod where
 * it is (upstream registers no Delete for them: a claim is deallocated, an update, before it goes). Any change of a
 * DeviceTaintRule re-queues (upstream sees it as updates of the slices it taints). When the pod's own
 * {@code status.resourceClaimStatuses} change, and all its claims exist now, the pod (waiting at PreEnqueue or
 * parked) is retried ({@link #isSchedulableAfterPodChange}).
 *
 * <p>DeviceTaintRules taint the devices they match for the allocator, as the devices' own taints.
 * Thread-safe.
 */
public final class DynamicResourcesPlugin implements PreEnqueuePlugin, PreFilterPlugin, FilterPlugin,
    PostFilterPlugin, ReservePlugin, PreBindPlugin, EnqueueExtensions {
  /** The name this plugin is registered under. */
  public static final String NAME = "DynamicResources";
  /** Filter: the claims not yet allocated cannot all get devices on the node (upstream's text). */
  public static final String REASON_CANNOT_ALLOCATE = "cannot allocate all claims";
  /** Filter: an allocated claim's devices cannot be reached from the node (upstream's text). */
  public static final String REASON_NOT_AVAILABLE = "resourceclaim not available on the node";
  /** PreFilter: the claim is reserved for as many consumers as it may be (upstream's text). */
  public static final String REASON_IN_USE = "resourceclaim in use";
  /** PostFilter: a claim was deallocated so that the next attempt may allocate it elsewhere (upstream's text). */
  public static final String DEALLOCATED = "deallocation of ResourceClaim completed";
  /** PostFilter: no claim of the pod can be deallocated to help (upstream's text). */
  public static final String STILL_NOT_SCHEDULABLE = "still not schedulable";
  /** PostFilter: PreFilter read no claims of the pod (it rejected the pod first; upstream's text). */
  public static final String NO_CLAIMS = "no new claims to deallocate";
  /** The finalizer of a claim the scheduler allocated (upstream's {@code resourceapi.Finalizer}). */
  public static final String FINALIZER = "resource.kubernetes.io/delete-protection";

  /**
   * Creates the plugin for a profile: it writes through the store of the scheduler's binder
   * ({@link io.fleetkit.api.framework.Binder#objectStore()}), if it has one.
   */
  public static final PluginFactory FACTORY = handle -> new DynamicResourcesPlugin(handle, null,
      new ConcurrentHashMap<>());

  static final StateKey<State> KEY = StateKey.of("PreFilter" + NAME, State.class);
  private static final Status CANNOT_ALLOCATE = Status.unresolvable(REASON_CANNOT_ALLOCATE).withPlugin(NAME);
  private static final Status NOT_AVAILABLE = Status.unresolvable(REASON_NOT_AVAILABLE).withPlugin(NAME);
  private static final int WRITE_ATTEMPTS = 5;

  private final FrameworkHandle handle;
  private final @Nullable ObjectStore explicitStore;
  /** Allocations between Reserve and PreBind, by claim key ({@code namespace/name}). */
  private final ConcurrentHashMap<String, InFlight> inFlight;

  DynamicResourcesPlugin(FrameworkHandle handle, @Nullable ObjectStore store,
      ConcurrentHashMap<String, InFlight> inFlight) {
    this.handle = handle;
    this.explicitStore = store;
    this.inFlight = inFlight;
  }

  /** A factory for profiles whose plugins read and write claims in {@code store} and share one in-flight map. */
  public static PluginFactory factory(ObjectStore store) {
    Objects.requireNonNull(store, "store");
    ConcurrentHashMap<String, InFlight> shared = new ConcurrentHashMap<>();
    return handle -> new DynamicResourcesPlugin(handle, store, shared);
  }

  @Override
  public String name() {
    return NAME;
  }

  /** An allocation between Reserve and PreBind: the claim (as PreFilter read it), its result, the pod holding it. */
  record InFlight(ResourceClaim claim, AllocationResult allocation, String podKey) {}

  /** The pod's claims as PreFilter found them, with what Filter computed per node and Reserve chose. */
  static final class State {
    final List<ResourceClaim> claims;
    final List<ResourceClaim> toAllocate;
    /** Per claim (same index as {@link #claims}): its allocation's node selector, null if none or not allocated. */
    final List<@Nullable RequiredNodeAffinity> allocatedOn;
    final @Nullable StructuredAllocator allocator;
    final Map<String, List<AllocationResult>> byNode = new ConcurrentHashMap<>();
    /** Indexes of the allocated claims some node's Filter found out of reach (upstream's unavailableClaims). */
    final Set<Integer> unavailable = ConcurrentHashMap.newKeySet();
    final Set<String> reservedByPreBind = ConcurrentHashMap.newKeySet();
    volatile @Nullable String reservedNode;

    State(List<ResourceClaim> claims, List<ResourceClaim> toAllocate,
        List<@Nullable RequiredNodeAffinity> allocatedOn, @Nullable StructuredAllocator allocator) {
      this.claims = claims;
      this.toAllocate = toAllocate;
      this.allocatedOn = allocatedOn;
      this.allocator = allocator;
    }
  }

  /**
   * Upstream's events: {@code Node/Add|UpdateNodeLabel} (a new or relabelled node may reach a pool or an allocation's
   * node selector) as {@link ClusterEvent#NODE_ADD} and {@link ClusterEvent#NODE_UPDATE};
   * {@code ResourceClaim/Add|Update}, {@code DeviceClass/Add|Update} and {@code ResourceSlice/Add|Update} as
   * {@link ClusterEvent#DYNAMIC_RESOURCES}, which {@link #isSchedulableAfter} narrows; upstream's
   * {@code TargetPod/UpdatePodGeneratedResourceClaim} (the claims made from the pod's templates were recorded in its
   * status) as {@link ClusterEvent#TARGET_POD_UPDATE_GENERATED_RESOURCE_CLAIM}, answered by
   * {@link #isSchedulableAfterPodChange}.
   */
  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return Set.of(ClusterEvent.DYNAMIC_RESOURCES, ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE,
        ClusterEvent.TARGET_POD_UPDATE_GENERATED_RESOURCE_CLAIM);
  }

  /**
   * Node events re-queue; the pod's own generated claims changing is {@link #isSchedulableAfterPodChange}'s answer.
   * For {@link ClusterEvent#DYNAMIC_RESOURCES}: a claim added or updated is judged by
   * {@link #isSchedulableAfterClaimChange}; a slice or class added or updated re-queues (upstream has no hint for
   * them); a deletion of any of the three does not; any change of a DeviceTaintRule re-queues. An event without objects, or with objects of another type,
   * re-queues.
   */
  @Override
  public boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
      @Nullable Object newObject) {
    if (event == ClusterEvent.TARGET_POD_UPDATE_GENERATED_RESOURCE_CLAIM) {
      return isSchedulableAfterPodChange(pod, newObject);
    }
    if (event != ClusterEvent.DYNAMIC_RESOURCES) {
      return true;
    }
    Object changed = newObject != null ? newObject : oldObject;
    if (changed instanceof ResourceClaim) {
      return newObject != null && isSchedulableAfterClaimChange(pod, oldObject, newObject);
    }
    if (changed instanceof ResourceSlice || changed instanceof DeviceClass) {
      return newObject != null;
    }
    if (changed instanceof DeviceTaintRule) {
      return true; // upstream's slice tracker turns any rule change, removal too, into ResourceSlice updates
    }
    return true;
  }

  /**
   * Upstream's {@code isSchedulableAfterClaimChange}, for a claim added ({@code oldObject} null) or updated: no while
   * one of the pod's claims is missing, being deleted or not the pod's (what PreEnqueue waits for); yes when
   * {@code newObject} is a claim that was deallocated (its devices are free for other pods); no for a claim the pod
   * does not use (by uid); yes when the pod's claim was created; for an update of the pod's claim, yes only when its
   * status changed (not, e.g., for a finalizer added).
   *
   * @throws IllegalArgumentException if {@code newObject} is not a ResourceClaim, or {@code oldObject} is neither
   *     null nor one (upstream's error, which re-queues)
   */
  boolean isSchedulableAfterClaimChange(Pod pod, @Nullable Object oldObject, @Nullable Object newObject) {
    ResourceClaim before = asClaim(oldObject, "old");
    ResourceClaim after = asClaim(newObject, "new");
    List<ResourceClaim> claims = new ArrayList<>();
    if (readClaims(pod, claims) != null) {
      return false;
    }
    if (after == null) {
      return false; // a deletion; upstream does not ask
    }
    if (before != null && before.status().allocation() != null && after.status().allocation() == null) {
      return true;
    }
    boolean usesClaim = false;
    for (ResourceClaim c : claims) {
      if (c.metadata().uid().equals(after.metadata().uid())) {
        usesClaim = true;
        break;
      }
    }
    if (!usesClaim) {
      return false;
    }
    return before == null || !before.status().equals(after.status());
  }

  /**
   * Upstream's {@code isSchedulableAfterPodChange}, for an update of a pod ({@code newObject}): yes only when it is
   * {@code pod} (by uid) and all of its claims now exist (its {@code status.resourceClaimStatuses} name the claims
   * made from its templates).
   *
   * @throws IllegalArgumentException if {@code newObject} is not a Pod (upstream's error, which re-queues)
   */
  boolean isSchedulableAfterPodChange(Pod pod, @Nullable Object newObject) {
    if (!(newObject instanceof Pod modified)) {
      throw new IllegalArgumentException("DynamicResources pod hint for pod " + pod.metadata().key()
          + ": the new object must be a Pod, got " + typeName(newObject));
    }
    if (!pod.metadata().uid().equals(modified.metadata().uid())) {
      return false;
    }
    return readClaims(modified, new ArrayList<>()) == null;
  }

  private static @Nullable ResourceClaim asClaim(@Nullable Object o, String which) {
    if (o == null || o instanceof ResourceClaim) {
      return (ResourceClaim) o;
    }
    throw new IllegalArgumentException("DynamicResources claim hint: the " + which
        + " object must be a ResourceClaim, got " + typeName(o));
  }

  private static String typeName(@Nullable Object o) {
    return o == null ? "null" : o.getClass().getSimpleName();
  }

  @Override
  public Status preEnqueue(Pod pod) {
    if (pod.spec().resourceClaims().isEmpty()) {
      return Status.success();
    }
    List<ResourceClaim> claims = new ArrayList<>();
    Status s = readClaims(pod, claims);
    return s == null ? Status.success() : s;
  }

  /** Upstream's {@code foreachPodResourceClaim}: adds the pod's claims to {@code out}; the first problem, or null. */
  private @Nullable Status readClaims(Pod pod, List<ResourceClaim> out) {
    String ns = pod.metadata().namespace();
    for (PodResourceClaim pc : pod.spec().resourceClaims()) {
      String name = pod.resourceClaimName(pc);
      if (name == null) {
        return Status.unresolvable("pod \"" + pod.metadata().key() + "\": ResourceClaim not created yet");
      }
      if (name.isEmpty()) {
        continue; // made from a template, no claim needed
      }
      Optional<ResourceClaim> found = claim(ns, name);
      if (found.isEmpty()) {
        return Status.unresolvable("resourceclaim \"" + name + "\" not found");
      }
      ResourceClaim c = found.get();
      if (c.metadata().deletionTimestamp() != null) {
        return Status.unresolvable("resourceclaim \"" + name + "\" is being deleted");
      }
      if (pc.fromTemplate() && !controlledBy(c, pod)) {
        return Status.unresolvable("ResourceClaim " + c.metadata().key() + " was not created for pod "
            + pod.metadata().key() + " (pod is not owner)");
      }
      out.add(c);
    }
    return null;
  }

  private static boolean controlledBy(ResourceClaim claim, Pod pod) {
    return claim.metadata().isControlledBy(pod.metadata().uid());
  }

  private static boolean reservedFor(ResourceClaimStatus status, Pod pod) {
    return status.reservedForPod(pod.metadata().uid());
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo podInfo, Snapshot snapshot) {
    Pod pod = podInfo.pod();
    if (pod.spec().resourceClaims().isEmpty()) {
      return PreFilterResult.skip();
    }
    List<ResourceClaim> claims = new ArrayList<>();
    Status problem = readClaims(pod, claims);
    if (problem != null) {
      return PreFilterResult.of(problem);
    }
    if (claims.isEmpty()) {
      return PreFilterResult.skip(); // every template entry said no claim is needed
    }
    List<ResourceClaim> toAllocate = new ArrayList<>();
    List<@Nullable RequiredNodeAffinity> allocatedOn = new ArrayList<>();
    Set<String> classNames = null;
    for (ResourceClaim c : claims) {
      AllocationResult a = c.status().allocation();
      if (a != null) {
        if (!reservedFor(c.status(), pod) && c.status().reservedFor().size() >= ResourceClaimStatus.MAX_RESERVED_FOR) {
          return PreFilterResult.of(Status.unresolvable(REASON_IN_USE));
        }
        allocatedOn.add(a.nodeSelector() == null ? null
            : RequiredNodeAffinity.of(Map.of(), new NodeAffinity(a.nodeSelector(), List.of())));
        continue;
      }
      allocatedOn.add(null);
      InFlight other = inFlight.get(c.metadata().key());
      if (other != null && !other.podKey().equals(podInfo.key())) {
        return PreFilterResult.of(Status.unschedulable("resourceclaim " + c.metadata().key()
            + " is in the process of being allocated for pod " + other.podKey()));
      }
      if (classNames == null) {
        classNames = new HashSet<>();
        for (DeviceClass dc : list(DeviceClass.class)) {
          classNames.add(dc.metadata().name());
        }
      }
      for (DeviceRequest r : c.spec().devices().requests()) {
        if (r.exactly() != null && !classNames.contains(r.exactly().deviceClassName())) {
          return PreFilterResult.of(missingClass(r.name(), r.exactly().deviceClassName()));
        }
        for (DeviceSubRequest sub : r.firstAvailable()) {
          if (!classNames.contains(sub.deviceClassName())) {
            return PreFilterResult.of(missingClass(r.name() + "/" + sub.name(), sub.deviceClassName()));
          }
        }
      }
      toAllocate.add(c);
    }
    StructuredAllocator allocator = null;
    if (!toAllocate.isEmpty()) {
      allocator = StructuredAllocator.of(list(DeviceClass.class), list(ResourceSlice.class),
          list(DeviceTaintRule.class), devicesInUse(podInfo));
    }
    state.write(KEY, new State(List.copyOf(claims), List.copyOf(toAllocate),
        Collections.unmodifiableList(allocatedOn), allocator));
    return PreFilterResult.success();
  }

  private static Status missingClass(String request, String className) {
    return Status.unresolvable("request " + request + ": device class " + className + " does not exist");
  }

  /**
   * Upstream's {@code ListAllAllocatedDevices}: the devices of every allocated claim and of other pods in flight;
   * devices allocated with admin access do not count as allocated.
   */
  private Set<DeviceId> devicesInUse(PodInfo pod) {
    Set<DeviceId> out = new HashSet<>();
    for (ResourceClaim c : list(ResourceClaim.class)) {
      AllocationResult a = c.status().allocation();
      if (a != null) {
        addDevices(a, out);
      }
    }
    for (InFlight f : inFlight.values()) {
      if (!f.podKey().equals(pod.key())) {
        addDevices(f.allocation(), out);
      }
    }
    return out;
  }

  private static void addDevices(AllocationResult a, Set<DeviceId> out) {
    for (DeviceRequestAllocationResult r : a.devices()) {
      if (!r.adminAccess()) {
        out.add(new DeviceId(r.driver(), r.pool(), r.device()));
      }
    }
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo nodeInfo) {
    State st = state.read(KEY);
    if (st == null) {
      return Status.success();
    }
    List<Integer> unavailable = null;
    for (int i = 0; i < st.allocatedOn.size(); i++) {
      RequiredNodeAffinity on = st.allocatedOn.get(i);
      if (on != null && !on.match(nodeInfo.name(), nodeInfo.labels())) {
        if (unavailable == null) {
          unavailable = new ArrayList<>(1);
        }
        unavailable.add(i);
      }
    }
    List<AllocationResult> results = null;
    if (st.allocator != null) { // upstream asks the allocator first: its error or refusal wins
      AllocationOutcome outcome = st.allocator.allocate(nodeInfo.node(), st.toAllocate);
      if (outcome instanceof AllocationOutcome.Failed f) {
        return Status.error(f.error());
      }
      if (!(outcome instanceof AllocationOutcome.Allocated a)) {
        return CANNOT_ALLOCATE;
      }
      results = a.results();
    }
    if (unavailable != null) {
      st.unavailable.addAll(unavailable);
      return NOT_AVAILABLE;
    }
    if (results != null) {
      st.byNode.put(nodeInfo.name(), results);
    }
    return Status.success();
  }

  /**
   * Upstream's PostFilter: deallocates one allocated claim of the pod that a node's Filter found out of reach and
   * that is reserved for nobody or only for this pod (the first such claim in the pod's order; upstream picks one at
   * random), so that the next attempt may allocate it where the pod fits: the deallocation is a claim update, which
   * the queueing hint answers with a retry. The claim is written as PreFilter read it (compare-and-swap on its
   * resourceVersion); a failed write is an error. Every other result is UNSCHEDULABLE with upstream's reason (none
   * for a pod without claims), so preemption still runs.
   */
  @Override
  public PostFilterResult postFilter(CycleState state, PodInfo podInfo, Snapshot snapshot,
      NodeToStatus filteredStatuses) {
    Pod pod = podInfo.pod();
    if (pod.spec().resourceClaims().isEmpty()) {
      return PostFilterResult.of(Status.unschedulable().withPlugin(NAME));
    }
    State st = state.read(KEY);
    if (st == null || st.claims.isEmpty()) {
      return PostFilterResult.of(Status.unschedulable(NO_CLAIMS).withPlugin(NAME));
    }
    for (int index : new TreeSet<>(st.unavailable)) {
      ResourceClaim claim = st.claims.get(index);
      List<ResourceClaimConsumerReference> reserved = claim.status().reservedFor();
      if (reserved.isEmpty() || reserved.size() == 1 && reserved.get(0).uid().equals(pod.metadata().uid())) {
        ObjectStore store = store();
        if (store == null) {
          return PostFilterResult.of(Status.error("pod " + podInfo.key() + ": resourceclaim "
              + claim.metadata().key() + " should be deallocated, but the scheduler has no object store to write "
              + "it to").withPlugin(NAME));
        }
        try {
          store.updateStatus(claim.withStatus(ResourceClaimStatus.INITIAL));
        } catch (ConflictException | NotFoundException e) {
          return PostFilterResult.of(Status.error("deallocating resourceclaim " + claim.metadata().key()
              + " for pod " + podInfo.key() + ": " + e.getMessage()).withPlugin(NAME));
        }
        return PostFilterResult.of(Status.unschedulable(DEALLOCATED).withPlugin(NAME));
      }
    }
    return PostFilterResult.of(Status.unschedulable(STILL_NOT_SCHEDULABLE).withPlugin(NAME));
  }

  @Override
  public Status reserve(CycleState state, PodInfo pod, String nodeName) {
    State st = state.read(KEY);
    if (st == null || st.toAllocate.isEmpty()) {
      return Status.success();
    }
    List<AllocationResult> results = st.byNode.get(nodeName);
    if (results == null) {
      return Status.error("pod " + pod.key() + ": no allocation was computed for node " + nodeName);
    }
    synchronized (inFlight) { // the check and the insertion are one step for concurrent cycles
      Set<DeviceId> held = new HashSet<>();
      for (InFlight f : inFlight.values()) {
        if (!f.podKey().equals(pod.key())) {
          addDevices(f.allocation(), held);
        }
      }
      for (int i = 0; i < results.size(); i++) {
        String key = st.toAllocate.get(i).metadata().key();
        InFlight other = inFlight.get(key);
        if (other != null && !other.podKey().equals(pod.key())) {
          return Status.unschedulable("resourceclaim " + key + " is being allocated for pod " + other.podKey());
        }
        for (DeviceRequestAllocationResult r : results.get(i).devices()) {
          DeviceId d = new DeviceId(r.driver(), r.pool(), r.device());
          if (!r.adminAccess() && held.contains(d)) {
            return Status.unschedulable("device " + d + " is being allocated to another pod");
          }
        }
      }
      for (int i = 0; i < results.size(); i++) {
        ResourceClaim c = st.toAllocate.get(i);
        inFlight.put(c.metadata().key(), new InFlight(c, results.get(i), pod.key()));
      }
    }
    st.reservedNode = nodeName;
    return Status.success();
  }

  @Override
  public void unreserve(CycleState state, PodInfo pod, String nodeName) {
    State st = state.read(KEY);
    if (st == null) {
      return;
    }
    for (ResourceClaim c : st.toAllocate) {
      InFlight f = inFlight.get(c.metadata().key());
      if (f != null && f.podKey().equals(pod.key())) {
        inFlight.remove(c.metadata().key(), f);
      }
    }
    st.reservedNode = null;
    ObjectStore store = store();
    if (store == null) {
      return;
    }
    for (ResourceClaim c : st.claims) { // upstream removes the pod from reservedFor; the allocation stays
      if (st.reservedByPreBind.remove(c.metadata().key())) {
        for (int attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
          Optional<ResourceClaim> current = store.get(ResourceClaim.class, c.metadata().namespace(),
              c.metadata().name());
          if (current.isEmpty() || !reservedFor(current.get().status(), pod.pod())) {
            break;
          }
          List<ResourceClaimConsumerReference> left = new ArrayList<>(current.get().status().reservedFor());
          left.removeIf(r -> r.isPod(pod.pod().metadata().uid()));
          try {
            store.updateStatus(current.get().withStatus(current.get().status().withReservedFor(left)));
            break;
          } catch (ConflictException e) {
            // read again
          }
        }
      }
    }
  }

  @Override
  public Status preBind(CycleState state, PodInfo podInfo, String nodeName) {
    State st = state.read(KEY);
    if (st == null) {
      return Status.success();
    }
    ObjectStore store = store();
    if (store == null) {
      return Status.error("pod " + podInfo.key() + " has resource claims, but the scheduler has no object store to "
          + "write their allocation to (build it with SchedulerBuilder.store, or register "
          + "DynamicResourcesPlugin.factory(store))");
    }
    Pod pod = podInfo.pod();
    ResourceClaimConsumerReference me = ResourceClaimConsumerReference.pod(pod.metadata().name(),
        pod.metadata().uid());
    for (ResourceClaim c : st.claims) {
      String key = c.metadata().key();
      InFlight f = inFlight.get(key);
      AllocationResult mine = f != null && f.podKey().equals(podInfo.key()) ? f.allocation() : null;
      String failure = writeClaim(store, c, mine, pod, me);
      if (failure != null) {
        return Status.error("binding resourceclaim " + key + " for pod " + podInfo.key() + ": " + failure);
      }
      st.reservedByPreBind.add(key);
      if (mine != null) {
        inFlight.remove(key, f); // the store has the allocation now
      }
    }
    return Status.success();
  }

  /** Writes {@code allocation} (if not null) and the pod's reservation into the claim; the failure, or null. */
  private static @Nullable String writeClaim(ObjectStore store, ResourceClaim claim,
      @Nullable AllocationResult allocation, Pod pod, ResourceClaimConsumerReference me) {
    for (int attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      Optional<ResourceClaim> found = store.get(ResourceClaim.class, claim.metadata().namespace(),
          claim.metadata().name());
      if (found.isEmpty()) {
        return "the claim is gone";
      }
      ResourceClaim current = found.get();
      if (!current.metadata().uid().equals(claim.metadata().uid())) {
        return "the claim was replaced";
      }
      ResourceClaimStatus s = current.status();
      boolean addFinalizer = false;
      if (allocation != null) {
        if (s.allocation() != null && !s.allocation().equals(allocation)) {
          return "the claim was allocated meanwhile by someone else";
        }
        if (s.allocation() == null && current.metadata().deletionTimestamp() != null) {
          return "the claim is being deleted";
        }
        s = s.withAllocation(allocation);
        addFinalizer = !current.metadata().finalizers().contains(FINALIZER);
      } else if (s.allocation() == null) {
        return "the claim is no longer allocated";
      }
      if (!reservedFor(s, pod)) {
        List<ResourceClaimConsumerReference> r = new ArrayList<>(s.reservedFor());
        r.add(me);
        s = s.withReservedFor(r);
      }
      if (s.equals(current.status()) && !addFinalizer) {
        return null;
      }
      try {
        if (addFinalizer) { // the finalizer and the allocation in one write
          List<String> finalizers = new ArrayList<>(current.metadata().finalizers());
          finalizers.add(FINALIZER);
          store.updateWithStatus(current.withMetadata(current.metadata().toBuilder().finalizers(finalizers).build())
              .withStatus(s));
        } else {
          store.updateStatus(current.withStatus(s));
        }
        return null;
      } catch (ConflictException e) {
        // read again
      }
    }
    return "gave up after " + WRITE_ATTEMPTS + " write conflicts";
  }

  private Optional<ResourceClaim> claim(String namespace, String name) {
    ObjectStore store = store();
    if (store != null) {
      return store.get(ResourceClaim.class, namespace, name);
    }
    for (ResourceClaim c : handle.list(ResourceClaim.class)) {
      if (c.metadata().name().equals(name) && c.metadata().namespace().equals(namespace)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  private <T extends io.fleetkit.api.meta.ApiObject<T>> List<T> list(Class<T> kind) {
    ObjectStore store = store();
    return store != null ? store.list(kind).items() : handle.list(kind);
  }

  private @Nullable ObjectStore store() {
    if (explicitStore != null) {
      return explicitStore;
    }
    return handle.binder().objectStore().orElse(null);
  }

  /** The claims in flight, by key (for tests). */
  Map<String, InFlight> inFlight() {
    return new HashMap<>(inFlight);
  }
}
