package io.fleetkit.scheduler.dra;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceAllocationMode;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceConstraint;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.DeviceSelector;
import io.fleetkit.api.resource.dra.DeviceSelectorException;
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
 * ExactCount and All requests, class and request selectors, {@code matchAttribute} constraints.
 *
 * <p>The search is upstream's: claims in order, their requests in order, and for each required device every
 * candidate in pool, slice and device order that is not in use, matches the class's and the request's selectors and
 * keeps the claim's constraints; a dead end undoes the last choice and tries the next candidate (exhaustive
 * backtracking, the first complete solution wins). Devices of incomplete or invalid pools are never used; a request
 * for All devices fails when any reachable pool is incomplete or invalid, and must get every matching device.
 *
 * <p>Immutable and thread-safe: each {@link #allocate} call keeps its search state to itself.
 */
public final class StructuredAllocator {
  private final Map<String, DeviceClass> classes;
  private final List<ResourceSlice> slices;
  private final Set<DeviceId> allocatedDevices;

  private StructuredAllocator(Map<String, DeviceClass> classes, List<ResourceSlice> slices,
      Set<DeviceId> allocatedDevices) {
    this.classes = classes;
    this.slices = slices;
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
    Map<String, DeviceClass> byName = new HashMap<>();
    for (DeviceClass c : classes) {
      DeviceClass old = byName.put(c.metadata().name(), c);
      if (old != null) {
        throw new IllegalArgumentException("device classes: duplicate name " + c.metadata().name());
      }
    }
    return new StructuredAllocator(Map.copyOf(byName), List.copyOf(slices), Set.copyOf(allocatedDevices));
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

  private record Candidate(DeviceId id, Device device, ResourceSlice slice) {}

  private record Chosen(String request, Candidate candidate) {}

  /** One request of one claim, checked before the search starts. */
  private static final class RequestData {
    final DeviceRequest request;
    final DeviceClass deviceClass;
    int numDevices;
    @Nullable List<Candidate> allDevices;

    RequestData(DeviceRequest request, DeviceClass deviceClass) {
      this.request = request;
      this.deviceClass = deviceClass;
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

    boolean applies(String request) {
      return requests.isEmpty() || requests.contains(request);
    }

    boolean add(String request, Candidate c) {
      if (!applies(request)) {
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

    void remove(String request) {
      if (applies(request)) {
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
    private final List<List<RequestData>> requests = new ArrayList<>();
    private final List<List<MatchAttribute>> constraints = new ArrayList<>();
    private final List<List<Chosen>> results = new ArrayList<>();
    private final Set<DeviceId> allocating = new HashSet<>();
    private final Map<String, Boolean> selectable = new HashMap<>();
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
        List<RequestData> data = new ArrayList<>();
        int minDevices = 0;
        List<DeviceRequest> rs = claim.spec().devices().requests();
        for (int r = 0; r < rs.size(); r++) {
          RequestData rd = validate(c, r, rs.get(r));
          data.add(rd);
          minDevices += rd.numDevices;
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
      if (!allocateOne(0, 0, 0)) {
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
          devices.add(new DeviceRequestAllocationResult(ch.request(), id.driver(), id.pool(), id.device()));
        }
        out.add(new AllocationResult(devices, nodeSelector(chosen)));
      }
      return new AllocationOutcome.Allocated(out);
    }

    private RequestData validate(int c, int r, DeviceRequest request) {
      ResourceClaim claim = claims.get(c);
      String className = request.exactly().deviceClassName();
      DeviceClass dc = classes.get(className);
      if (dc == null) {
        throw new Abort("claim " + name(claim) + ", request " + request.name() + ": could not retrieve device class "
            + className + ": deviceclass \"" + className + "\" not found");
      }
      RequestData rd = new RequestData(request, dc);
      if (request.exactly().allocationMode() == DeviceAllocationMode.EXACT_COUNT) {
        rd.numDevices = (int) Math.min(Integer.MAX_VALUE, request.exactly().count());
        return rd;
      }
      List<Candidate> all = new ArrayList<>();
      for (Pool pool : pools) {
        if (pool.incomplete) {
          throw new Abort("claim " + name(claim) + ", request " + request.name()
              + ": asks for all devices, but resource pool " + pool.id() + " is currently being updated");
        }
        if (pool.invalid()) {
          throw new Abort("claim " + name(claim) + ", request " + request.name()
              + ": asks for all devices, but resource pool " + pool.id() + " is currently invalid");
        }
        for (ResourceSlice slice : pool.slices) {
          for (Device d : slice.spec().devices()) {
            Candidate cand = new Candidate(new DeviceId(pool.driver, pool.name, d.name()), d, slice);
            if (isSelectable(c, r, rd, cand)) {
              all.add(cand);
            }
          }
        }
      }
      rd.allDevices = all;
      rd.numDevices = all.size();
      return rd;
    }

    /** Allocates the {@code d}-th device of request {@code r} of claim {@code c}, then everything after it. */
    private boolean allocateOne(int c, int r, int d) {
      if (c >= claims.size()) {
        return true;
      }
      List<RequestData> claimRequests = requests.get(c);
      if (r >= claimRequests.size()) {
        return allocateOne(c + 1, 0, 0);
      }
      RequestData rd = claimRequests.get(r);
      List<Candidate> all = rd.allDevices;
      if (all != null && all.isEmpty()) {
        noteFailure(c, r);
        return false; // All needs at least one device
      }
      if (d >= rd.numDevices) {
        return allocateOne(c, r + 1, 0);
      }
      if (all != null) {
        // The order in which "all" devices are allocated does not matter: if the next one cannot be had, there is
        // no solution on this path.
        Candidate cand = all.get(d);
        if (!tryAllocate(c, r, cand, true)) {
          noteFailure(c, r);
          return false;
        }
        if (allocateOne(c, r, d + 1)) {
          return true;
        }
        deallocate(c, r, cand);
        return false;
      }
      for (Pool pool : pools) {
        if (pool.incomplete || pool.invalid()) {
          continue; // not an error: other pools may do
        }
        for (ResourceSlice slice : pool.slices) {
          for (Device device : slice.spec().devices()) {
            DeviceId id = new DeviceId(pool.driver, pool.name, device.name());
            if (inUse(id)) {
              continue;
            }
            Candidate cand = new Candidate(id, device, slice);
            if (!isSelectable(c, r, rd, cand) || !tryAllocate(c, r, cand, false)) {
              continue;
            }
            if (allocateOne(c, r, d + 1)) {
              return true;
            }
            deallocate(c, r, cand);
          }
        }
      }
      noteFailure(c, r);
      return false;
    }

    private boolean inUse(DeviceId id) {
      return allocatedDevices.contains(id) || allocating.contains(id);
    }

    private boolean tryAllocate(int c, int r, Candidate cand, boolean must) {
      if (inUse(cand.id())) {
        return false;
      }
      String request = requests.get(c).get(r).request.name();
      List<MatchAttribute> cs = constraints.get(c);
      for (int i = 0; i < cs.size(); i++) {
        if (!cs.get(i).add(request, cand)) {
          if (must) {
            throw new Abort("claim " + name(claims.get(c)) + ", request " + request + ": cannot add device "
                + cand.id() + " because a claim constraint would not be satisfied");
          }
          for (int e = 0; e < i; e++) {
            cs.get(e).remove(request);
          }
          return false;
        }
      }
      allocating.add(cand.id());
      results.get(c).add(new Chosen(request, cand));
      return true;
    }

    private void deallocate(int c, int r, Candidate cand) {
      String request = requests.get(c).get(r).request.name();
      for (MatchAttribute m : constraints.get(c)) {
        m.remove(request);
      }
      allocating.remove(cand.id());
      List<Chosen> chosen = results.get(c);
      chosen.remove(chosen.size() - 1);
    }

    private boolean isSelectable(int c, int r, RequestData rd, Candidate cand) {
      String key = c + "/" + r + "/" + cand.id();
      Boolean cached = selectable.get(key);
      if (cached != null) {
        return cached;
      }
      boolean match = selectorsMatch(c, cand, rd.deviceClass, rd.deviceClass.spec().selectors())
          && selectorsMatch(c, cand, null, rd.request.exactly().selectors());
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

    private void noteFailure(int c, int r) {
      if (c > failedClaim || c == failedClaim && r > failedRequest) {
        failedClaim = c;
        failedRequest = r;
      }
    }

    /** Why the furthest request the search reached could not be satisfied. */
    private String reason() {
      if (failedClaim < 0) {
        return "cannot allocate all claims";
      }
      ResourceClaim claim = claims.get(failedClaim);
      RequestData rd = requests.get(failedClaim).get(failedRequest);
      int matching = 0;
      int taken = 0;
      for (Pool pool : pools) {
        if (pool.incomplete || pool.invalid()) {
          continue;
        }
        for (ResourceSlice slice : pool.slices) {
          for (Device d : slice.spec().devices()) {
            Candidate cand = new Candidate(new DeviceId(pool.driver, pool.name, d.name()), d, slice);
            if (isSelectable(failedClaim, failedRequest, rd, cand)) {
              matching++;
              if (allocatedDevices.contains(cand.id())) {
                taken++;
              }
            }
          }
        }
      }
      StringBuilder sb = new StringBuilder("cannot allocate all claims: claim ").append(name(claim))
          .append(", request ").append(rd.request.name()).append(": ")
          .append(rd.allDevices != null ? "all" : String.valueOf(rd.numDevices)).append(" device(s) of class ")
          .append(rd.deviceClass.metadata().name()).append(" wanted, ").append(matching)
          .append(" on this node match the selectors, ").append(taken).append(" of them already allocated");
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
        if (spec.nodeName() != null) {
          return localNodeSelector(spec.nodeName());
        }
        NodeSelector ns = spec.nodeSelector();
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
