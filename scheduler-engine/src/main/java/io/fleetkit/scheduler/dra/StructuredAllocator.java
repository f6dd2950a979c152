package io.fleetkit.scheduler.dra;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceAllocationMode;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceConstraint;
import io.fleetkit.api.resource.dra.DeviceCounterConsumption;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.DeviceSelector;
import io.fleetkit.api.resource.dra.DeviceSelectorException;
import io.fleetkit.api.resource.dra.DeviceSubRequest;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceToleration;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.scheduler.dra.Pools.Pool;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' structured-parameters allocator (the "stable" variant of
 * {@code dynamic-resource-allocation/structured}, allocator_stable.go 03ab440c) for the features FleetKit models:
 * ExactCount and All requests, class and request selectors, {@code matchAttribute} constraints, prioritized lists
 * ({@code firstAvailable}), admin access, device taints and partitionable devices (shared counters, per-device node
 * selection).
 *
 * <p>The search is upstream's: claims in order, their requests in order, and for each required device every
 * candidate in pool, slice and device order that is not in use, matches the class's and the request's selectors and
 * keeps the claim's constraints; a dead end undoes the last choice and tries the next candidate (exhaustive
 * backtracking, the first complete solution wins). Devices of incomplete or invalid pools are never used; a request
 * for All devices fails when any reachable pool is incomplete or invalid, and must get every matching device.
 *
 * <p>A prioritized list tries its alternatives in order, each with everything after it, and the first that leads to a
 * complete solution is used; results name it {@code request/subrequest}. A constraint naming the request applies to
 * whichever alternative is used, one naming {@code request/subrequest} only to that alternative. A claim may hold at
 * most 32 devices: before each device, a path that would exceed it is abandoned, and a prioritized list then moves
 * on to its next alternative. A request with admin access may use devices allocated to other claims or being
 * allocated for them, but not a device already chosen for the same claim; its devices do not count as in use.
 *
 * <p>A device with a NoSchedule or NoExecute taint that none of the request's (or alternative's) tolerations
 * tolerates is not allocated, even for admin access; taints with effect None are ignored. A DeviceTaintRule's taint
 * counts as a taint of each device it matches. Each result carries a copy
 * of the tolerations of the request it was allocated for.
 *
 * <p>A device that consumes counters is allocated only while every counter of its pool's counter sets still covers
 * what the pool's allocated devices and the devices chosen so far in the search consume. In a slice with per-device
 * node selection a device is a candidate only when its own node name, node selector or all-nodes flag reaches the
 * node, and the allocation's node selector is then built from the device's fields.
 *
 * <p>Immutable and thread-safe: each {@link #allocate} call keeps its search state to itself.
 */
public final class StructuredAllocator {
  private final Map<String, DeviceClass> classes;
  private final List<ResourceSlice> slices;
  private final List<DeviceTaintRule> taintRules;
  private final Set<DeviceId> allocatedDevices;

  private StructuredAllocator(Map<String, DeviceClass> classes, List<ResourceSlice> slices,
      List<DeviceTaintRule> taintRules, Set<DeviceId> allocatedDevices) {
    this.classes = classes;
    this.slices = slices;
    this.taintRules = taintRules;
    this.allocatedDevices = allocatedDevices;
  }

  /**
   * An allocator over the cluster's device classes, published slices and the devices already allocated to other
   * claims.
   *
   * @throws IllegalArgumentException when two classes have the same name
   */
  public static StructuredAllocator of(Collection<DeviceClass> classes, List<ResourceSlice> slices,
      Set<DeviceId> allocatedDevices) {
    return of(classes, slices, List.of(), allocatedDevices);
  }

  /**
   * An allocator over the cluster's device classes, published slices, DeviceTaintRules (each rule's taint counts as a
   * taint of every device it matches, as upstream's slice tracker adds it) and the devices already allocated to
   * other claims.
   *
   * @throws IllegalArgumentException when two classes have the same name
   */
  public static StructuredAllocator of(Collection<DeviceClass> classes, List<ResourceSlice> slices,
      Collection<DeviceTaintRule> taintRules, Set<DeviceId> allocatedDevices) {
    Map<String, DeviceClass> byName = new HashMap<>();
    for (DeviceClass c : classes) {
      DeviceClass old = byName.put(c.metadata().name(), c);
      if (old != null) {
        throw new IllegalArgumentException("device classes: duplicate name " + c.metadata().name());
      }
    }
    return new StructuredAllocator(Map.copyOf(byName), List.copyOf(slices), List.copyOf(taintRules),
        Set.copyOf(allocatedDevices));
  }

  /**
   * Finds devices for every request of every claim on {@code node}. The claims are the pod's claims that are not
   * allocated yet; already allocated claims are the caller's to check.
   */
  public AllocationOutcome allocate(Node node, List<ResourceClaim> claims) {
    Objects.requireNonNull(node, "node");
    try {
      return new Search(node, List.copyOf(claims)).run();
    } catch (Abort a) {
      return new AllocationOutcome.Failed(a.getMessage());
    }
  }

  /** Ends the search with an error, as upstream's returned errors do. */
  private static final class Abort extends RuntimeException {
    Abort(String message) {
      super(message, null, false, false);
    }
  }

  private record Candidate(DeviceId id, Device device, ResourceSlice slice, Pool pool) {}

  private record Chosen(String request, Candidate candidate, boolean adminAccess,
      List<DeviceToleration> tolerations) {}

  /** What one step of the search found; an error ends the search with {@link Abort}. */
  private enum Step {
    /** Everything from here on allocated. */
    DONE,
    /** No solution on this path. */
    FAILED,
    /**
     * The claim's results would exceed {@link AllocationResult#MAX_RESULTS} ({@code errAllocationResultMaxSizeExceeded}):
     * no other device of the earlier requests helps, but another alternative of a prioritized list may.
     */
    EXCEEDED
  }

  /**
   * One request of one claim, or one alternative of a prioritized list ({@code requestData}), checked before the
   * search starts.
   */
  private static final class RequestData {
    /** The request, or for an alternative the request holding it. */
    final DeviceRequest request;
    /** The alternative, or {@code null} for a request with {@code exactly}. */
    final @Nullable DeviceSubRequest sub;
    final DeviceClass deviceClass;
    final String className;
    final List<DeviceSelector> selectors;
    final DeviceAllocationMode mode;
    final long count;
    final boolean adminAccess;
    final List<DeviceToleration> tolerations;
    int numDevices;
    @Nullable List<Candidate> allDevices;

    RequestData(DeviceRequest request, @Nullable DeviceSubRequest sub, DeviceClass deviceClass) {
      this.request = request;
      this.sub = sub;
      this.deviceClass = deviceClass;
      if (sub != null) {
        className = sub.deviceClassName();
        selectors = sub.selectors();
        mode = sub.allocationMode();
        count = sub.count();
        adminAccess = false; // sub-requests have no admin access
        tolerations = sub.tolerations();
      } else {
        ExactDeviceRequest e = Objects.requireNonNull(request.exactly());
        className = e.deviceClassName();
        selectors = e.selectors();
        mode = e.allocationMode();
        count = e.count();
        adminAccess = e.adminAccess();
        tolerations = e.tolerations();
      }
    }

    /** The name results carry: the request's, or {@code request/subrequest}. */
    String name() {
      return sub == null ? request.name() : request.name() + "/" + sub.name();
    }

    boolean all() {
      return mode == DeviceAllocationMode.ALL;
    }
  }

  /** {@code matchAttributeConstraint}: all devices of the named requests share the attribute's value. */
  private static final class MatchAttribute {
    final Set<String> requests;
    final String attribute;
    @Nullable Object value;
    int numDevices;

    MatchAttribute(DeviceConstraint c) {
      this.requests = Set.copyOf(c.requests());
      this.attribute = Objects.requireNonNull(c.matchAttribute());
    }

    /** A constraint naming a request applies to all of its alternatives; one naming an alternative, to that one. */
    boolean applies(RequestData rd) {
      return requests.isEmpty() || requests.contains(rd.request.name())
          || rd.sub != null && requests.contains(rd.name());
    }

    boolean add(RequestData rd, Candidate c) {
      if (!applies(rd)) {
        return true;
      }
      Object v = lookup(c);
      if (v == null) {
        return false;
      }
      if (numDevices == 0) {
        value = v;
        numDevices = 1;
        return true;
      }
      if (!v.equals(value)) {
        return false;
      }
      numDevices++;
      return true;
    }

    void remove(RequestData rd) {
      if (applies(rd)) {
        numDevices--;
      }
    }

    private @Nullable Object lookup(Candidate c) {
      Map<String, ?> attributes = c.device().attributes();
      Object v = attributes.get(attribute);
      if (v != null) {
        return v;
      }
      int slash = attribute.indexOf('/');
      if (slash < 0 || !attribute.substring(0, slash).equals(c.id().driver())) {
        return null;
      }
      return attributes.get(attribute.substring(slash + 1));
    }
  }

  /** The state of one {@link #allocate} call. */
  private final class Search {
    private final Node node;
    private final List<ResourceClaim> claims;
    private final List<Pool> pools;
    /** Per claim, per request: the alternatives (one for a request with {@code exactly}). */
    private final List<List<List<RequestData>>> requests = new ArrayList<>();
    private final List<List<MatchAttribute>> constraints = new ArrayList<>();
    private final List<List<Chosen>> results = new ArrayList<>();
    /** The devices being allocated, with the claims (by index) they are allocated for ({@code allocatingDevices}). */
    private final Map<DeviceId, Set<Integer>> allocating = new HashMap<>();
    private final Map<String, Boolean> selectable = new HashMap<>();
    /** Per pool: what its counter sets hold less what its allocated devices consume (computed when first needed). */
    private final Map<String, Map<String, Map<String, Quantity>>> availableCounters = new HashMap<>();
    /** Per pool: what the devices chosen in this search consume ({@code consumedCounters}). */
    private final Map<String, Map<String, Map<String, Quantity>>> consumedCounters = new HashMap<>();
    private @Nullable RequestData failed;
    private int failedClaim = -1;
    private int failedRequest = -1;

    Search(Node node, List<ResourceClaim> claims) {
      this.node = node;
      this.claims = claims;
      this.pools = Pools.gather(slices, node);
    }

    AllocationOutcome run() {
      for (int c = 0; c < claims.size(); c++) {
        ResourceClaim claim = claims.get(c);
        List<List<RequestData>> data = new ArrayList<>();
        int minDevices = 0;
        List<DeviceRequest> rs = claim.spec().devices().requests();
        for (int r = 0; r < rs.size(); r++) {
          DeviceRequest request = rs.get(r);
          List<RequestData> alternatives = new ArrayList<>();
          if (request.prioritized()) {
            // Only a lower bound: which alternative is used is not known yet.
            int min = Integer.MAX_VALUE;
            List<DeviceSubRequest> subs = request.firstAvailable();
            for (int s = 0; s < subs.size(); s++) {
              RequestData rd = validate(c, r, s, request, subs.get(s));
              alternatives.add(rd);
              min = Math.min(min, rd.numDevices);
            }
            minDevices += min;
          } else {
            RequestData rd = validate(c, r, 0, request, null);
            alternatives.add(rd);
            minDevices += rd.numDevices;
          }
          data.add(alternatives);
        }
        requests.add(data);
        if (minDevices > AllocationResult.MAX_RESULTS) {
          throw new Abort("claim " + name(claim) + ": number of requested devices " + minDevices
              + " exceeds the claim limit of " + AllocationResult.MAX_RESULTS);
        }
        List<MatchAttribute> cs = new ArrayList<>();
        for (DeviceConstraint dc : claim.spec().devices().constraints()) {
          cs.add(new MatchAttribute(dc));
        }
        constraints.add(cs);
        results.add(new ArrayList<>());
      }
      if (allocateOne(0, 0, 0, 0, false) != Step.DONE) {
        for (Pool p : pools) {
          if (p.invalid()) {
            return new AllocationOutcome.Failed("invalid resource pools were encountered: pool " + p.id() + ": "
                + p.invalidReason);
          }
        }
        return new AllocationOutcome.Unsatisfiable(reason());
      }
      List<AllocationResult> out = new ArrayList<>();
      for (List<Chosen> chosen : results) {
        List<DeviceRequestAllocationResult> devices = new ArrayList<>();
        for (Chosen ch : chosen) {
          DeviceId id = ch.candidate().id();
          devices.add(new DeviceRequestAllocationResult(ch.request(), id.driver(), id.pool(), id.device(),
              ch.adminAccess(), ch.tolerations()));
        }
        out.add(new AllocationResult(devices, nodeSelector(chosen)));
      }
      return new AllocationOutcome.Allocated(out);
    }

    private RequestData validate(int c, int r, int s, DeviceRequest request, @Nullable DeviceSubRequest sub) {
      ResourceClaim claim = claims.get(c);
      String requestName = sub == null ? request.name() : sub.name();
      String className = sub == null ? Objects.requireNonNull(request.exactly()).deviceClassName()
          : sub.deviceClassName();
      DeviceClass dc = classes.get(className);
      if (dc == null) {
        throw new Abort("claim " + name(claim) + ", request " + requestName + ": could not retrieve device class "
            + className + ": deviceclass \"" + className + "\" not found");
      }
      RequestData rd = new RequestData(request, sub, dc);
      if (!rd.all()) {
        rd.numDevices = (int) Math.min(Integer.MAX_VALUE, rd.count);
        return rd;
      }
      List<Candidate> all = new ArrayList<>();
      for (Pool pool : pools) {
        if (pool.incomplete) {
          throw new Abort("claim " + name(claim) + ", request " + requestName
              + ": asks for all devices, but resource pool " + pool.id() + " is currently being updated");
        }
        if (pool.invalid()) {
          throw new Abort("claim " + name(claim) + ", request " + requestName
              + ": asks for all devices, but resource pool " + pool.id() + " is currently invalid");
        }
        for (ResourceSlice slice : pool.slices) {
          for (Device d : slice.spec().devices()) {
            Candidate cand = new Candidate(new DeviceId(pool.driver, pool.name, d.name()), d, slice, pool);
            if (isSelectable(c, r, s, rd, cand)) {
              all.add(cand);
            }
          }
        }
      }
      rd.allDevices = all;
      rd.numDevices = all.size();
      return rd;
    }

    /**
     * Allocates the {@code d}-th device of alternative {@code s} of request {@code r} of claim {@code c}, then
     * everything after it. For a prioritized list, {@code inAlternative} is false on entry: each alternative is then
     * tried in order, and the first that leads to a full solution wins.
     */
    private Step allocateOne(int c, int r, int s, int d, boolean inAlternative) {
      if (c >= claims.size()) {
        return Step.DONE;
      }
      List<List<RequestData>> claimRequests = requests.get(c);
      if (r >= claimRequests.size()) {
        Step next = allocateOne(c + 1, 0, 0, 0, false);
        // Exceeding a later claim's limit is no reason to give up this claim's other choices.
        return next == Step.EXCEEDED ? Step.FAILED : next;
      }
      List<RequestData> alternatives = claimRequests.get(r);
      if (!inAlternative && alternatives.get(0).sub != null) {
        boolean allExceeded = true;
        for (int alt = 0; alt < alternatives.size(); alt++) {
          Step step = allocateOne(c, r, alt, d, true);
          if (step == Step.EXCEEDED) {
            continue; // a later alternative may need fewer devices
          }
          allExceeded = false;
          if (step == Step.DONE) {
            return Step.DONE;
          }
        }
        return allExceeded ? Step.EXCEEDED : Step.FAILED;
      }
      RequestData rd = alternatives.get(s);
      List<Candidate> all = rd.allDevices;
      if (all != null && all.isEmpty()) {
        noteFailure(c, r, rd);
        return Step.FAILED; // All needs at least one device
      }
      if (d >= rd.numDevices) {
        return allocateOne(c, r + 1, 0, 0, false);
      }
      if (results.get(c).size() + rd.numDevices - d > AllocationResult.MAX_RESULTS) {
        return Step.EXCEEDED;
      }
      if (all != null) {
        // The order in which "all" devices are allocated does not matter: if the next one cannot be had, there is
        // no solution on this path.
        Candidate cand = all.get(d);
        if (!tryAllocate(c, rd, cand, true)) {
          noteFailure(c, r, rd);
          return Step.FAILED;
        }
        Step step = allocateOne(c, r, s, d + 1, inAlternative);
        if (step != Step.DONE) {
          deallocate(c, rd, cand);
        }
        return step;
      }
      for (Pool pool : pools) {
        if (pool.incomplete || pool.invalid()) {
          continue; // not an error: other pools may do
        }
        for (ResourceSlice slice : pool.slices) {
          for (Device device : slice.spec().devices()) {
            DeviceId id = new DeviceId(pool.driver, pool.name, device.name());
            if (rd.adminAccess ? allocatingFor(id, c) : inUse(id)) {
              continue;
            }
            Candidate cand = new Candidate(id, device, slice, pool);
            if (!isSelectable(c, r, s, rd, cand) || !tryAllocate(c, rd, cand, false)) {
              continue;
            }
            Step step = allocateOne(c, r, s, d + 1, inAlternative);
            if (step == Step.DONE) {
              return Step.DONE;
            }
            deallocate(c, rd, cand);
            if (step == Step.EXCEEDED) {
              return Step.EXCEEDED;
            }
          }
        }
      }
      noteFailure(c, r, rd);
      return Step.FAILED;
    }

    /** In use: allocated to another claim already, or being allocated in this search. */
    private boolean inUse(DeviceId id) {
      return allocatedDevices.contains(id) || !allocating.getOrDefault(id, Set.of()).isEmpty();
    }

    /** Being allocated for claim {@code c} in this search: even admin access uses a device once per claim. */
    private boolean allocatingFor(DeviceId id, int c) {
      return allocating.getOrDefault(id, Set.of()).contains(c);
    }

    private boolean tryAllocate(int c, RequestData rd, Candidate cand, boolean must) {
      if (rd.adminAccess ? allocatingFor(cand.id(), c) : inUse(cand.id())) {
        return false;
      }
      if (!cand.device().consumesCounters().isEmpty() && !consumeCounters(cand)) {
        return false;
      }
      if (taintPreventsAllocation(cand.id(), cand.device(), rd)) {
        releaseCounters(cand);
        return false;
      }
      List<MatchAttribute> cs = constraints.get(c);
      for (int i = 0; i < cs.size(); i++) {
        if (!cs.get(i).add(rd, cand)) {
          releaseCounters(cand); // upstream keeps the consumption here; giving it back is what the search means
          if (must) {
            throw new Abort("claim " + name(claims.get(c)) + ", request " + (rd.sub == null ? rd.request.name()
                : rd.sub.name()) + ": cannot add device " + cand.id()
                + " because a claim constraint would not be satisfied");
          }
          for (int e = 0; e < i; e++) {
            cs.get(e).remove(rd);
          }
          return false;
        }
      }
      allocating.computeIfAbsent(cand.id(), k -> new HashSet<>()).add(c);
      results.get(c).add(new Chosen(rd.name(), cand, rd.adminAccess, rd.tolerations));
      return true;
    }

    /**
     * {@code taintPreventsAllocation}: a NoSchedule or NoExecute taint, of the device or of a DeviceTaintRule matching
     * it, that the request does not tolerate.
     */
    private boolean taintPreventsAllocation(DeviceId id, Device device, RequestData rd) {
      for (DeviceTaint t : DeviceTaintRule.deviceTaints(id.driver(), id.pool(), device, taintRules)) {
        if (t.preventsAllocation(rd.tolerations)) {
          return true;
        }
      }
      return false;
    }

    /**
     * {@code checkAvailableCounters}: adds the device's consumption to the pool's, and takes it back and answers false
     * when some counter of the pool would then be exceeded.
     */
    private boolean consumeCounters(Candidate cand) {
      Pool pool = cand.pool();
      Map<String, Map<String, Quantity>> available = availableCounters.computeIfAbsent(pool.id(),
          k -> Pools.availableCounters(pool, allocatedDevices));
      Map<String, Map<String, Quantity>> consumed = consumedCounters.computeIfAbsent(pool.id(), k -> new HashMap<>());
      for (DeviceCounterConsumption c : cand.device().consumesCounters()) {
        Map<String, Quantity> set = consumed.computeIfAbsent(c.counterSet(), k -> new HashMap<>());
        c.counters().forEach((counter, q) -> set.merge(counter, q, Quantity::add));
      }
      for (Map.Entry<String, Map<String, Quantity>> set : available.entrySet()) {
        Map<String, Quantity> used = consumed.getOrDefault(set.getKey(), Map.of());
        for (Map.Entry<String, Quantity> counter : set.getValue().entrySet()) {
          if (counter.getValue().compareTo(used.getOrDefault(counter.getKey(), Quantity.ZERO)) < 0) {
            releaseCounters(cand);
            return false;
          }
        }
      }
      return true;
    }

    /** Whether the device's consumption alone fits what its pool's allocated devices leave of the counters. */
    private boolean fitsAlone(Candidate cand) {
      if (cand.device().consumesCounters().isEmpty()) {
        return true;
      }
      Map<String, Map<String, Quantity>> available = availableCounters.computeIfAbsent(cand.pool().id(),
          k -> Pools.availableCounters(cand.pool(), allocatedDevices));
      for (DeviceCounterConsumption c : cand.device().consumesCounters()) {
        Map<String, Quantity> set = available.getOrDefault(c.counterSet(), Map.of());
        for (Map.Entry<String, Quantity> e : c.counters().entrySet()) {
          if (set.getOrDefault(e.getKey(), Quantity.ZERO).compareTo(e.getValue()) < 0) {
            return false;
          }
        }
      }
      return true;
    }

    /** {@code deallocateCountersForDevice}: takes the device's consumption back. */
    private void releaseCounters(Candidate cand) {
      if (cand.device().consumesCounters().isEmpty()) {
        return;
      }
      Map<String, Map<String, Quantity>> consumed = consumedCounters.get(cand.pool().id());
      for (DeviceCounterConsumption c : cand.device().consumesCounters()) {
        Map<String, Quantity> set = consumed.get(c.counterSet());
        c.counters().forEach((counter, q) -> set.computeIfPresent(counter, (k, used) -> used.subtract(q)));
      }
    }

    private void deallocate(int c, RequestData rd, Candidate cand) {
      for (MatchAttribute m : constraints.get(c)) {
        m.remove(rd);
      }
      releaseCounters(cand);
      Set<Integer> claimsOfDevice = allocating.get(cand.id());
      if (claimsOfDevice != null) {
        claimsOfDevice.remove(c);
        if (claimsOfDevice.isEmpty()) {
          allocating.remove(cand.id());
        }
      }
      List<Chosen> chosen = results.get(c);
      chosen.remove(chosen.size() - 1);
    }

    private boolean isSelectable(int c, int r, int s, RequestData rd, Candidate cand) {
      String key = c + "/" + r + "/" + s + "/" + cand.id();
      Boolean cached = selectable.get(key);
      if (cached != null) {
        return cached;
      }
      Device d = cand.device();
      boolean match = selectorsMatch(c, cand, rd.deviceClass, rd.deviceClass.spec().selectors())
          && selectorsMatch(c, cand, null, rd.selectors)
          && (!cand.slice().spec().perDeviceNodeSelection()
              || Pools.matches(node, d.nodeName(), d.allNodes(), d.nodeSelector()));
      selectable.put(key, match);
      return match;
    }

    private boolean selectorsMatch(int c, Candidate cand, @Nullable DeviceClass dc, List<DeviceSelector> selectors) {
      for (int i = 0; i < selectors.size(); i++) {
        DeviceSelector s = selectors.get(i);
        String owner = dc != null ? "class " + dc.metadata().name() : "claim " + name(claims.get(c));
        boolean match;
        try {
          match = s.compiled().matches(cand.id().driver(), cand.device());
        } catch (DeviceSelectorException e) {
          throw new Abort(owner + ": selector #" + i + " on device " + cand.id() + ": CEL runtime error: "
              + e.getMessage());
        }
        if (!match) {
          return false;
        }
      }
      return true;
    }

    private void noteFailure(int c, int r, RequestData rd) {
      if (c > failedClaim || c == failedClaim && r >= failedRequest) {
        failedClaim = c;
        failedRequest = r;
        failed = rd;
      }
    }

    /** Why the furthest request the search reached could not be satisfied. */
    private String reason() {
      RequestData rd = failed;
      if (rd == null) {
        return "cannot allocate all claims";
      }
      ResourceClaim claim = claims.get(failedClaim);
      int s = rd.sub == null ? 0 : rd.request.firstAvailable().indexOf(rd.sub);
      int matching = 0;
      int taken = 0;
      int tainted = 0;
      int shortOfCounters = 0;
      for (Pool pool : pools) {
        if (pool.incomplete || pool.invalid()) {
          continue;
        }
        for (ResourceSlice slice : pool.slices) {
          for (Device d : slice.spec().devices()) {
            Candidate cand = new Candidate(new DeviceId(pool.driver, pool.name, d.name()), d, slice, pool);
            if (isSelectable(failedClaim, failedRequest, s, rd, cand)) {
              matching++;
              if (allocatedDevices.contains(cand.id())) {
                taken++;
              } else if (taintPreventsAllocation(cand.id(), d, rd)) {
                tainted++;
              } else if (!fitsAlone(cand)) {
                shortOfCounters++;
              }
            }
          }
        }
      }
      StringBuilder sb = new StringBuilder("cannot allocate all claims: claim ").append(name(claim))
          .append(", request ").append(rd.name()).append(": ")
          .append(rd.allDevices != null ? "all" : String.valueOf(rd.numDevices)).append(" device(s) of class ")
          .append(rd.deviceClass.metadata().name()).append(" wanted, ").append(matching)
          .append(" on this node match the selectors, ").append(taken).append(" of them already allocated");
      if (tainted > 0) {
        sb.append(", ").append(tainted).append(" tainted (a NoSchedule or NoExecute taint the request does not "
            + "tolerate)");
      }
      if (shortOfCounters > 0) {
        sb.append(", ").append(shortOfCounters).append(" consuming more of their pool's shared counters than the "
            + "allocated devices leave");
      }
      if (rd.sub != null) {
        sb.append(" (the last of its ").append(rd.request.firstAvailable().size()).append(" alternatives tried)");
      }
      if (!constraints.get(failedClaim).isEmpty()) {
        sb.append(", or the claim's constraints are not met");
      }
      return sb.toString();
    }

    /** {@code createNodeSelector}: the node a node-local device is on, else the slices' selectors, else none. */
    private @Nullable NodeSelector nodeSelector(List<Chosen> chosen) {
      Map<String, NodeSelectorRequirement> fields = new LinkedHashMap<>();
      Map<String, NodeSelectorRequirement> expressions = new LinkedHashMap<>();
      for (Chosen ch : chosen) {
        var spec = ch.candidate().slice().spec();
        Device d = ch.candidate().device();
        String nodeName = spec.perDeviceNodeSelection() ? d.nodeName() : spec.nodeName();
        if (nodeName != null) {
          return localNodeSelector(nodeName);
        }
        NodeSelector ns = spec.perDeviceNodeSelection() ? d.nodeSelector() : spec.nodeSelector();
        if (ns != null && ns.nodeSelectorTerms().size() > 1) {
          // A slice's selector has one term (validation); a device's may have more, which cannot be merged.
          throw new Abort("create NodeSelector for device " + ch.candidate().id()
              + ": unsupported ResourceSlice.NodeSelector with " + ns.nodeSelectorTerms().size() + " terms");
        }
        if (ns != null && ns.nodeSelectorTerms().size() == 1) {
          NodeSelectorTerm t = ns.nodeSelectorTerms().get(0);
          t.matchFields().forEach(req -> fields.putIfAbsent(requirementKey(req), req));
          t.matchExpressions().forEach(req -> expressions.putIfAbsent(requirementKey(req), req));
        }
      }
      if (fields.isEmpty() && expressions.isEmpty()) {
        return null;
      }
      return new NodeSelector(List.of(new NodeSelectorTerm(List.copyOf(expressions.values()),
          List.copyOf(fields.values()))));
    }

    private String requirementKey(NodeSelectorRequirement r) {
      return r.key() + "\u0000" + r.operator() + "\u0000" + new java.util.TreeSet<>(r.values());
    }
  }

  /** A selector for exactly the node named {@code nodeName} ({@code metadata.name In [nodeName]}). */
  public static NodeSelector localNodeSelector(String nodeName) {
    return new NodeSelector(List.of(new NodeSelectorTerm(List.of(),
        List.of(new NodeSelectorRequirement("metadata.name", NodeSelectorOperator.In, List.of(nodeName))))));
  }

  private static String name(ResourceClaim claim) {
    String ns = claim.metadata().namespace();
    return ns.isEmpty() ? claim.metadata().name() : ns + "/" + claim.metadata().name();
  }
}
