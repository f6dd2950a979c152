package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.core.Endpoints;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointConditions;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.discovery.EndpointTargetRef;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.net.IpText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Plans the EndpointSlice writes that mirror one Endpoints object, as kube-controller-manager's
 * {@code endpointslicemirroring} reconciler ({@code reconciler.go}, {@code reconciler_helpers.go},
 * {@code utils.go}): the subsets are first repacked ({@link EndpointsRepacking}); each subset's addresses, at most
 * {@link #maxEndpointsPerSubset()} of them, ready then not-ready, become endpoints of the slice of their address
 * family (IPv4 or IPv6) and the subset's ports, so that one subset maps to at most one slice per family. A group of
 * ports and family keeps its first existing slice (updated when its endpoints, labels, annotations or owner differ)
 * and loses the others; a slice whose group is no longer desired is deleted; a create takes over the name of a slice
 * of the same family being deleted ("recycling"). Mirrored slices carry the Endpoints' labels, with
 * {@value EndpointSlice#LABEL_SERVICE_NAME} and {@value EndpointSlice#LABEL_MANAGED_BY}
 * {@value #CONTROLLER_NAME} set, its annotations but the last-change trigger time and kubectl's last applied
 * configuration, and a controller owner reference to it.
 *
 * <p>Stateless apart from its settings; thread-safe when the name supplier is.
 */
public final class EndpointSliceMirroringReconciler {
  /** The managed-by value of mirrored slices. */
  public static final String CONTROLLER_NAME = EndpointSlice.MIRRORING_CONTROLLER_NAME;
  /** kubectl's annotation holding the applied configuration, never mirrored. */
  public static final String LAST_APPLIED_ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";

  private final int maxEndpointsPerSubset;
  private final Supplier<String> nameSuffixes;

  /**
   * @param maxEndpointsPerSubset {@code --mirroring-max-endpoints-per-subset}, 1..1000
   * @param nameSuffixes the random part of new slice names (what {@code generateName} appends)
   * @throws IllegalArgumentException if {@code maxEndpointsPerSubset} is outside 1..1000
   */
  public EndpointSliceMirroringReconciler(int maxEndpointsPerSubset, Supplier<String> nameSuffixes) {
    if (maxEndpointsPerSubset < 1 || maxEndpointsPerSubset > EndpointSlice.MAX_ENDPOINTS) {
      throw new IllegalArgumentException("EndpointSliceMirroringReconciler: maxEndpointsPerSubset must be between 1"
          + " and " + EndpointSlice.MAX_ENDPOINTS + " but was " + maxEndpointsPerSubset);
    }
    this.maxEndpointsPerSubset = maxEndpointsPerSubset;
    this.nameSuffixes = Objects.requireNonNull(nameSuffixes, "nameSuffixes");
  }

  public int maxEndpointsPerSubset() {
    return maxEndpointsPerSubset;
  }

  /**
   * What one sync of an Endpoints object writes, and how many of its addresses were not mirrored.
   *
   * @param slices the creates, updates and deletes
   * @param addressesSkipped the addresses beyond {@link #maxEndpointsPerSubset()} in a subset
   */
  public record MirrorPlan(SlicePlan slices, int addressesSkipped) {
    public MirrorPlan {
      Objects.requireNonNull(slices, "slices");
    }
  }

  /** A group of slices: one address family and one set of ports (upstream's {@code addrTypePortMapKey}). */
  private record GroupKey(AddressType type, List<EndpointPort> ports) {
    static GroupKey of(AddressType type, List<EndpointPort> ports) {
      List<EndpointPort> sorted = new ArrayList<>(ports);
      sorted.sort(Comparator.comparing(EndpointPort::name)
          .thenComparing(p -> p.port() == null ? -1 : p.port())
          .thenComparing(EndpointPort::protocol).thenComparing(EndpointPort::appProtocol));
      return new GroupKey(type, List.copyOf(sorted));
    }
  }

  /**
   * Plans the writes mirroring {@code endpoints} given the slices this controller mirrored for it so far.
   *
   * @param endpoints the Endpoints object, to be mirrored (the caller checked the Service and the skip label)
   * @param existing the slices labelled as mirrored for it, not pending deletion
   */
  public MirrorPlan plan(Endpoints endpoints, List<EndpointSlice> existing) {
    Map<GroupKey, List<EndpointPort>> portsByKey = new LinkedHashMap<>();
    Map<GroupKey, Map<EndpointSliceReconciler.EndpointKey, Endpoint>> desired = new LinkedHashMap<>();
    int skipped = 0;
    for (Endpoints.Subset subset : EndpointsRepacking.repack(endpoints.subsets())) {
      List<EndpointPort> ports = new ArrayList<>(subset.ports().size());
      for (Endpoints.Port p : subset.ports()) {
        ports.add(new EndpointPort(p.name(), p.port(), p.protocol(), p.appProtocol()));
      }
      for (AddressType t : List.of(AddressType.IPv4, AddressType.IPv6)) {
        GroupKey key = GroupKey.of(t, ports);
        desired.computeIfAbsent(key, k -> new LinkedHashMap<>());
        portsByKey.put(key, ports);
      }
      int added = 0;
      int total = subset.addresses().size() + subset.notReadyAddresses().size();
      for (int i = 0; i < total && added < maxEndpointsPerSubset; i++) {
        boolean ready = i < subset.addresses().size();
        Endpoints.Address a = ready ? subset.addresses().get(i)
            : subset.notReadyAddresses().get(i - subset.addresses().size());
        Endpoint e = addressToEndpoint(a, ready);
        desired.get(GroupKey.of(e.addresses().get(0).indexOf(':') >= 0 ? AddressType.IPv6 : AddressType.IPv4,
            ports)).put(EndpointSliceReconciler.EndpointKey.of(e), e);
        added++;
      }
      skipped += total - added;
    }

    Map<GroupKey, List<EndpointSlice>> existingByKey = new HashMap<>();
    List<EndpointSlice> sortedExisting = new ArrayList<>(existing);
    sortedExisting.sort(Comparator.comparing(s -> s.metadata().name()));
    for (EndpointSlice s : sortedExisting) {
      existingByKey.computeIfAbsent(GroupKey.of(s.addressType(), s.ports()), k -> new ArrayList<>()).add(s);
    }
    List<EndpointSlice> creates = new ArrayList<>();
    List<EndpointSlice> updates = new ArrayList<>();
    List<EndpointSlice> deletes = new ArrayList<>();
    desired.forEach((key, want) -> byPortMapping(endpoints, existingByKey.getOrDefault(key, List.of()),
        List.copyOf(want.values()), portsByKey.get(key), key.type(), creates, updates, deletes));
    existingByKey.forEach((key, slices) -> {
      if (!desired.containsKey(key)) {
        deletes.addAll(slices);
      }
    });
    recycle(creates, updates, deletes);
    if (endpoints.metadata().deletionTimestamp() != null) {
      creates.clear(); // no new slices for an Endpoints object being deleted
    }
    return new MirrorPlan(new SlicePlan(creates, updates, deletes, List.of()), skipped);
  }

  /** {@code reconcileByPortMapping}: the writes of one group of ports and family. */
  private void byPortMapping(Endpoints endpoints, List<EndpointSlice> existing, List<Endpoint> want,
      List<EndpointPort> ports, AddressType type, List<EndpointSlice> creates, List<EndpointSlice> updates,
      List<EndpointSlice> deletes) {
    if (want.isEmpty()) {
      deletes.addAll(existing);
      return;
    }
    EndpointSlice first = existing.isEmpty() ? null : existing.get(0);
    if (first != null) {
      deletes.addAll(existing.subList(1, existing.size()));
      if (unchanged(first, want) && first.metadata().labels().equals(sliceLabels(endpoints))
          && first.metadata().annotations().equals(sliceAnnotations(endpoints)) && !ownedByAnother(first, endpoints)) {
        return;
      }
    }
    List<Endpoint> endpointsOut = want.size() > maxEndpointsPerSubset ? want.subList(0, maxEndpointsPerSubset) : want;
    ObjectMeta base = first != null ? first.metadata()
        : ObjectMeta.builder().namespace(endpoints.metadata().namespace())
            .name(SliceRules.slicePrefix(endpoints.metadata().name()) + nameSuffixes.get()).build();
    EndpointSlice slice = new EndpointSlice(sliceMeta(base, endpoints), type, endpointsOut, ports);
    (first != null ? updates : creates).add(slice);
  }

  /** {@code totalChanges} found nothing to add, update or remove: the slice holds exactly the wanted endpoints. */
  private static boolean unchanged(EndpointSlice slice, List<Endpoint> want) {
    if (slice.endpoints().size() != want.size()) {
      return false;
    }
    Map<EndpointSliceReconciler.EndpointKey, Endpoint> byKey = new HashMap<>();
    for (Endpoint e : want) {
      byKey.put(EndpointSliceReconciler.EndpointKey.of(e), e);
    }
    for (Endpoint e : slice.endpoints()) {
      Endpoint w = byKey.remove(EndpointSliceReconciler.EndpointKey.of(e));
      if (w == null || !SliceRules.equalBeyondHash(w, e)) {
        return false;
      }
    }
    return byKey.isEmpty();
  }

  /**
   * Whether the slice names an Endpoints object of this name with another UID as owner: it was mirrored from an
   * earlier object of the same name (kubernetes#125354), so it is rewritten with the current owner.
   */
  private static boolean ownedByAnother(EndpointSlice slice, Endpoints endpoints) {
    for (OwnerReference o : slice.metadata().ownerReferences()) {
      if (o.kind().equals(Endpoints.KIND) && o.name().equals(endpoints.metadata().name())
          && !o.uid().equals(endpoints.metadata().uid())) {
        return true;
      }
    }
    return false;
  }

  /** {@code newEndpointSlice}'s metadata over {@code base}: labels, annotations and the owner reference. */
  private static ObjectMeta sliceMeta(ObjectMeta base, Endpoints endpoints) {
    ObjectMeta m = endpoints.metadata();
    return base.toBuilder().labels(sliceLabels(endpoints)).annotations(sliceAnnotations(endpoints))
        .ownerReferences(List.of(new OwnerReference(Endpoints.API_VERSION, Endpoints.KIND, m.name(), m.uid(), true,
            true)))
        .build();
  }

  /** The Endpoints' labels with service-name and managed-by set. */
  static Map<String, String> sliceLabels(Endpoints endpoints) {
    Map<String, String> labels = new LinkedHashMap<>(endpoints.metadata().labels());
    labels.put(EndpointSlice.LABEL_SERVICE_NAME, endpoints.metadata().name());
    labels.put(EndpointSlice.LABEL_MANAGED_BY, CONTROLLER_NAME);
    return Map.copyOf(labels);
  }

  /** The Endpoints' annotations but the last-change trigger time and the last applied configuration. */
  static Map<String, String> sliceAnnotations(Endpoints endpoints) {
    Map<String, String> out = new LinkedHashMap<>(endpoints.metadata().annotations());
    out.remove(EndpointSliceReconciler.TRIGGER_TIME_ANNOTATION);
    out.remove(LAST_APPLIED_ANNOTATION);
    return Map.copyOf(out);
  }

  /**
   * {@code addressToEndpoint}: the address parsed as Kubernetes parses the legacy field (leading zeros in an IPv4
   * octet read as decimal) and re-printed canonically, {@code ready} as its only condition, its target, node and
   * hostname. The Endpoints object's validation guarantees an IP.
   */
  static Endpoint addressToEndpoint(Endpoints.Address a, boolean ready) {
    byte[] b = Objects.requireNonNull(IpText.parseSloppy(a.ip()), "validated IP");
    if (IpText.isV4Mapped(b)) {
      b = java.util.Arrays.copyOfRange(b, 12, 16); // Go's To4: an IPv4-mapped address is an IPv4 endpoint
    }
    String ip = IpText.format(b);
    Endpoints.TargetRef ref = a.targetRef();
    EndpointTargetRef target = ref == null ? null
        : new EndpointTargetRef(ref.kind(), ref.namespace(), ref.name(), ref.uid());
    return new Endpoint(List.of(ip), new EndpointConditions(ready, null, null), a.hostname(), target, a.nodeName(),
        "", null);
  }

  /**
   * {@code recycleSlices}: per address family, each create becomes an update of a slice that would be deleted
   * (keeping that slice's name and metadata), as many as both lists allow.
   */
  static void recycle(List<EndpointSlice> creates, List<EndpointSlice> updates, List<EndpointSlice> deletes) {
    for (AddressType t : AddressType.values()) {
      List<EndpointSlice> c = creates.stream().filter(s -> s.addressType() == t).toList();
      List<EndpointSlice> d = deletes.stream().filter(s -> s.addressType() == t).toList();
      for (int i = 0; i < Math.min(c.size(), d.size()); i++) {
        EndpointSlice create = c.get(i);
        EndpointSlice old = d.get(i);
        creates.remove(create);
        deletes.remove(old);
        ObjectMeta m = old.metadata().toBuilder().labels(create.metadata().labels())
            .annotations(create.metadata().annotations()).ownerReferences(create.metadata().ownerReferences())
            .build();
        updates.add(new EndpointSlice(m, t, create.endpoints(), create.ports()));
      }
    }
  }
}
