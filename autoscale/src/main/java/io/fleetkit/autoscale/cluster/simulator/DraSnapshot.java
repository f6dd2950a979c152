package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceClaimStatus;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.scheduler.dra.AllocationOutcome;
import io.fleetkit.scheduler.dra.DeviceId;
import io.fleetkit.scheduler.dra.StructuredAllocator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The DRA objects of a {@link SimulatedCluster}, changed as the simulation places and removes pods (upstream
 * {@code simulator/dynamicresources/snapshot/snapshot.go}): the ResourceClaims, the ResourceSlices (those of the
 * cluster plus the node-local slices of the nodes the simulation adds, such as template nodes) and the DeviceClasses.
 * The DynamicResources plugin reads them through the simulation's framework handle, so its PreFilter and Filter see the
 * devices that pods placed earlier in the simulation took.
 *
 * <ul>
 *   <li>{@link #reserve}: a pod placed on a node gets its claims that are not allocated yet allocated there by the
 *       scheduler's {@link StructuredAllocator} (the allocation the plugin's Filter found on that node), and is added to
 *       every claim's {@code reservedFor} (upstream's Reserve plus {@code ReservePodClaims}).
 *   <li>{@link #unreserve}: a pod taken off a node leaves the {@code reservedFor} of its claims, and a claim the pod
 *       owns, or one left without consumers, is deallocated (upstream's {@code UnreservePodClaims}): the pod may then be
 *       placed, and its claims allocated, elsewhere.
 *   <li>{@link #removePodOwnedClaims}: a pod whose node leaves the simulation loses the claims it owns and leaves the
 *       consumers of the others (upstream's {@code RemovePodOwnedClaims}).
 *   <li>Node-local slices are added with a node ({@link #addNodeSlices}) and removed with it.
 * </ul>
 *
 * <p>Changes since {@link #checkpoint()} are journaled and undone by {@link #rollback()}, with the simulation's. Not
 * thread-safe: confined to its simulation.
 */
final class DraSnapshot {
  private final List<DeviceClass> classes;
  /** The cluster's slices, as given. */
  private final List<ResourceSlice> baseSlices;
  /** The cluster's node-local slices, by the node they name. */
  private final Map<String, List<ResourceSlice>> baseNodeSlices = new HashMap<>();
  /** The node-local slices of nodes the simulation added, by node name. */
  private final Map<String, List<ResourceSlice>> nodeSlices = new LinkedHashMap<>();
  /** The claims by {@code namespace/name}. */
  private final Map<String, ResourceClaim> claims = new HashMap<>();
  private @Nullable List<ResourceSlice> allSlices;
  private @Nullable List<ResourceClaim> claimList;
  /**
   * The node each pod with claims was last placed on here, by pod uid ({@code ""}: taken off); a pod not in it is on
   * its {@code spec.nodeName}. A pod moved in a drain simulation is on two nodes' views at once for a while (its copy
   * without a node placed elsewhere, its original on the node being drained): only the node it was last placed on
   * releases its claims.
   */
  private final Map<String, String> placedOn = new HashMap<>();
  /** Since the checkpoint: each changed claim's, node's and pod's entry before its first change (empty: absent). */
  private @Nullable Map<String, Optional<ResourceClaim>> savedClaims;
  private @Nullable Map<String, Optional<List<ResourceSlice>>> savedSlices;
  private @Nullable Map<String, Optional<String>> savedPlaced;

  DraSnapshot(List<DeviceClass> classes, List<ResourceSlice> slices, List<ResourceClaim> claims) {
    this.classes = List.copyOf(classes);
    this.baseSlices = List.copyOf(slices);
    for (ResourceSlice s : baseSlices) {
      if (s.spec().nodeName() != null) {
        baseNodeSlices.computeIfAbsent(s.spec().nodeName(), k -> new ArrayList<>()).add(s);
      }
    }
    for (ResourceClaim c : claims) {
      this.claims.put(c.metadata().key(), c);
    }
  }

  List<DeviceClass> classes() {
    return classes;
  }

  /** The cluster's slices followed by the node-local slices added, in the order their nodes were added. */
  List<ResourceSlice> slices() {
    List<ResourceSlice> l = allSlices;
    if (l == null) {
      if (nodeSlices.isEmpty()) {
        l = baseSlices;
      } else {
        List<ResourceSlice> out = new ArrayList<>(baseSlices);
        nodeSlices.values().forEach(out::addAll);
        l = List.copyOf(out);
      }
      allSlices = l;
    }
    return l;
  }

  List<ResourceClaim> claims() {
    List<ResourceClaim> l = claimList;
    if (l == null) {
      l = List.copyOf(claims.values());
      claimList = l;
    }
    return l;
  }

  /** The claim {@code namespace/name}, or {@code null}. */
  @Nullable ResourceClaim claim(String key) {
    return claims.get(key);
  }

  /**
   * Gives node {@code nodeName} the node-local {@code slices} (replacing those given before).
   *
   * @throws IllegalArgumentException if a slice is not local to that node (upstream refuses other slices for a node)
   */
  void addNodeSlices(String nodeName, List<ResourceSlice> slices) {
    for (ResourceSlice s : slices) {
      if (!nodeName.equals(s.spec().nodeName())) {
        throw new IllegalArgumentException("simulated cluster: ResourceSlice " + s.metadata().name()
            + " is not local to node " + nodeName + " (spec.nodeName " + s.spec().nodeName() + ")");
      }
    }
    saveSlices(nodeName);
    nodeSlices.put(nodeName, List.copyOf(slices));
    allSlices = null;
  }

  /** Removes the node-local slices added for {@code nodeName}, if any. */
  void removeNodeSlices(String nodeName) {
    if (nodeSlices.containsKey(nodeName)) {
      saveSlices(nodeName);
      nodeSlices.remove(nodeName);
      allSlices = null;
    }
  }

  /** Whether slices were added for {@code nodeName} or the cluster has a slice local to it. */
  boolean hasNodeSlices(String nodeName) {
    return nodeSlices.containsKey(nodeName) || baseNodeSlices.containsKey(nodeName);
  }

  /** The slices local to {@code nodeName}: the cluster's, then those added for it. */
  List<ResourceSlice> localSlices(String nodeName) {
    List<ResourceSlice> base = baseNodeSlices.getOrDefault(nodeName, List.of());
    List<ResourceSlice> added = nodeSlices.getOrDefault(nodeName, List.of());
    if (added.isEmpty()) {
      return Collections.unmodifiableList(base);
    }
    if (base.isEmpty()) {
      return added;
    }
    List<ResourceSlice> out = new ArrayList<>(base);
    out.addAll(added);
    return out;
  }

  /**
   * Allocates {@code pod}'s unallocated claims on {@code node} and reserves all of its claims for it. Claims that do not
   * exist are passed over; when the claims cannot all be allocated on the node (a pod placed without a check) none is
   * allocated, and the pod is still added to the consumers of the allocated ones.
   */
  void reserve(Pod pod, Node node) {
    List<ResourceClaim> own = claimsOf(pod);
    if (own.isEmpty()) {
      return;
    }
    place(pod, node.name());
    List<ResourceClaim> unallocated = new ArrayList<>();
    for (ResourceClaim c : own) {
      if (c.status().allocation() == null) {
        unallocated.add(c);
      }
    }
    Map<String, AllocationResult> allocated = new HashMap<>();
    if (!unallocated.isEmpty()) {
      AllocationOutcome o = StructuredAllocator.of(classes, slices(), devicesInUse()).allocate(node, unallocated);
      if (o instanceof AllocationOutcome.Allocated a) {
        for (int i = 0; i < unallocated.size(); i++) {
          allocated.put(unallocated.get(i).metadata().key(), a.results().get(i));
        }
      }
    }
    ResourceClaimConsumerReference me = ResourceClaimConsumerReference.pod(pod.metadata().name(),
        pod.metadata().uid());
    for (ResourceClaim c : own) {
      ResourceClaimStatus s = c.status();
      AllocationResult a = allocated.get(c.metadata().key());
      if (a != null) {
        s = s.withAllocation(a);
      }
      if (s.allocation() != null && !reservedFor(s, pod)) {
        List<ResourceClaimConsumerReference> r = new ArrayList<>(s.reservedFor());
        r.add(me);
        s = s.withReservedFor(r);
      }
      if (!s.equals(c.status())) {
        put(c.withStatus(s));
      }
    }
  }

  /**
   * Takes {@code pod}, leaving node {@code nodeName}, off the consumers of its claims; a claim the pod owns (its
   * controller) or one left without consumers is deallocated. Nothing happens when the pod was placed on another node
   * since (a moved copy holds its claims now).
   */
  void unreserve(Pod pod, String nodeName) {
    List<ResourceClaim> own = claimsOf(pod);
    if (own.isEmpty()) {
      return;
    }
    if (!isOn(pod, nodeName)) {
      return;
    }
    place(pod, "");
    for (ResourceClaim c : own) {
      ResourceClaimStatus s = c.status();
      List<ResourceClaimConsumerReference> left = new ArrayList<>(s.reservedFor().size());
      for (ResourceClaimConsumerReference r : s.reservedFor()) {
        if (!r.isPod(pod.metadata().uid())) {
          left.add(r);
        }
      }
      s = s.withReservedFor(left);
      if (ownedBy(c, pod) || left.isEmpty()) {
        s = s.withAllocation(null);
      }
      if (!s.equals(c.status())) {
        put(c.withStatus(s));
      }
    }
  }

  /** Whether {@code pod} is on node {@code nodeName} in the simulation (placed there, or bound there and not moved). */
  private boolean isOn(Pod pod, String nodeName) {
    String uid = pod.metadata().uid();
    return nodeName.equals(placedOn.containsKey(uid) ? placedOn.get(uid) : pod.spec().nodeName());
  }

  /**
   * Upstream's {@code RemovePodOwnedClaims}, for {@code pod} on node {@code nodeName} when that node leaves the
   * simulation ({@code RemoveNodeInfo}, as its ghost replaces a node whose removal is simulated): the claims the pod
   * owns (its controller; those made from its claim templates) are gone, their devices free, and the pod leaves the
   * consumers of its other claims, which keep their allocation. Nothing happens when the pod was placed on another node
   * since (a moved copy holds its claims now).
   */
  void removePodOwnedClaims(Pod pod, String nodeName) {
    List<ResourceClaim> own = claimsOf(pod);
    if (own.isEmpty()) {
      return;
    }
    if (!isOn(pod, nodeName)) {
      return;
    }
    for (ResourceClaim c : own) {
      if (ownedBy(c, pod)) {
        delete(c.metadata().key());
        continue;
      }
      ResourceClaimStatus s = c.status();
      if (reservedFor(s, pod)) {
        List<ResourceClaimConsumerReference> left = new ArrayList<>(s.reservedFor().size());
        for (ResourceClaimConsumerReference r : s.reservedFor()) {
          if (!r.isPod(pod.metadata().uid())) {
            left.add(r);
          }
        }
        put(c.withStatus(s.withReservedFor(left)));
      }
    }
  }

  /** What {@link #mark} saved: the pods' claims and where the pods were placed. */
  record Mark(Map<String, ResourceClaim> claims, Map<String, Optional<String>> placed) {}

  /** The current claims of {@code pods} and where the pods are, for {@link #reset}. */
  Mark mark(List<Pod> pods) {
    Map<String, ResourceClaim> cs = new HashMap<>();
    Map<String, Optional<String>> ps = new HashMap<>();
    for (Pod p : pods) {
      for (ResourceClaim c : claimsOf(p)) {
        cs.put(c.metadata().key(), c);
      }
      ps.put(p.metadata().uid(), Optional.ofNullable(placedOn.get(p.metadata().uid())));
    }
    return new Mark(cs, ps);
  }

  /** Puts back the claims and placements {@code m} saved (journaled as any change). */
  void reset(Mark m) {
    m.claims().forEach((k, c) -> {
      if (claims.get(k) != c) {
        put(c);
      }
    });
    m.placed().forEach((uid, on) -> {
      savePlaced(uid);
      if (on.isPresent()) {
        placedOn.put(uid, on.get());
      } else {
        placedOn.remove(uid);
      }
    });
  }

  /** Starts journaling changes for {@link #rollback()}. */
  void checkpoint() {
    savedClaims = new HashMap<>();
    savedSlices = new HashMap<>();
    savedPlaced = new HashMap<>();
  }

  /** Undoes the changes since {@link #checkpoint()} and stops journaling. */
  void rollback() {
    Map<String, Optional<ResourceClaim>> sc = savedClaims;
    Map<String, Optional<List<ResourceSlice>>> ss = savedSlices;
    Map<String, Optional<String>> sp = savedPlaced;
    savedClaims = null;
    savedSlices = null;
    savedPlaced = null;
    if (sp != null) {
      sp.forEach((k, v) -> {
        if (v.isPresent()) {
          placedOn.put(k, v.get());
        } else {
          placedOn.remove(k);
        }
      });
    }
    if (sc != null && !sc.isEmpty()) {
      sc.forEach((k, v) -> {
        if (v.isPresent()) {
          claims.put(k, v.get());
        } else {
          claims.remove(k);
        }
      });
      claimList = null;
    }
    if (ss != null && !ss.isEmpty()) {
      ss.forEach((k, v) -> {
        if (v.isPresent()) {
          nodeSlices.put(k, v.get());
        } else {
          nodeSlices.remove(k);
        }
      });
      allSlices = null;
    }
  }

  /** The pod's claims that exist, in the order of its {@code spec.resourceClaims}. */
  List<ResourceClaim> claimsOf(Pod pod) {
    List<PodResourceClaim> refs = pod.spec().resourceClaims();
    if (refs.isEmpty()) {
      return List.of();
    }
    List<ResourceClaim> out = new ArrayList<>(refs.size());
    for (PodResourceClaim pc : refs) {
      String name = pod.resourceClaimName(pc);
      if (name == null || name.isEmpty()) {
        continue;
      }
      ResourceClaim c = claims.get(pod.metadata().namespace() + "/" + name);
      if (c != null) {
        out.add(c);
      }
    }
    return out;
  }

  /** The devices of every allocated claim but those allocated with admin access (the plugin's devices in use). */
  private Set<DeviceId> devicesInUse() {
    Set<DeviceId> out = new HashSet<>();
    for (ResourceClaim c : claims.values()) {
      AllocationResult a = c.status().allocation();
      if (a != null) {
        for (DeviceRequestAllocationResult r : a.devices()) {
          if (!r.adminAccess()) {
            out.add(new DeviceId(r.driver(), r.pool(), r.device()));
          }
        }
      }
    }
    return out;
  }

  private void put(ResourceClaim c) {
    String key = c.metadata().key();
    if (savedClaims != null && !savedClaims.containsKey(key)) {
      savedClaims.put(key, Optional.ofNullable(claims.get(key)));
    }
    claims.put(key, c);
    claimList = null;
  }

  private void delete(String key) {
    if (savedClaims != null && !savedClaims.containsKey(key)) {
      savedClaims.put(key, Optional.ofNullable(claims.get(key)));
    }
    claims.remove(key);
    claimList = null;
  }

  private void place(Pod pod, String nodeName) {
    String uid = pod.metadata().uid();
    savePlaced(uid);
    placedOn.put(uid, nodeName);
  }

  private void savePlaced(String uid) {
    if (savedPlaced != null && !savedPlaced.containsKey(uid)) {
      savedPlaced.put(uid, Optional.ofNullable(placedOn.get(uid)));
    }
  }

  private void saveSlices(String nodeName) {
    if (savedSlices != null && !savedSlices.containsKey(nodeName)) {
      savedSlices.put(nodeName, Optional.ofNullable(nodeSlices.get(nodeName)));
    }
  }

  private static boolean reservedFor(ResourceClaimStatus s, Pod pod) {
    return s.reservedForPod(pod.metadata().uid());
  }

  /** Upstream's {@code IsForPod}: the claim's controller is the pod. */
  private static boolean ownedBy(ResourceClaim c, Pod pod) {
    return c.metadata().isControlledBy(pod.metadata().uid());
  }

  /** Whether {@code kind} is one of the DRA kinds this snapshot answers for. */
  static boolean isDraKind(Class<?> kind) {
    return kind == ResourceClaim.class || kind == ResourceSlice.class || kind == DeviceClass.class;
  }

  @SuppressWarnings("unchecked")
  <T> List<T> list(Class<T> kind) {
    Objects.requireNonNull(kind, "kind");
    if (kind == ResourceClaim.class) {
      return (List<T>) claims();
    }
    if (kind == ResourceSlice.class) {
      return (List<T>) slices();
    }
    return (List<T>) classes;
  }
}
