package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.discovery.EndpointSlice;
import java.util.List;

/**
 * The writes one EndpointSlice sync needs, as the reconciler's {@code finalize} issues them: creates (named already,
 * as the apiserver's {@code generateName} would), updates (full replacements of existing slices, keeping their
 * metadata), deletes. {@code errors} lists pods skipped for a reason the caller should retry on (a missing node).
 * {@code events} are the topology-aware hints events to record on the Service once the writes were tried, as the
 * reconciler does after {@code finalize} whether or not the writes succeeded.
 */
public record SlicePlan(List<EndpointSlice> creates, List<EndpointSlice> updates, List<EndpointSlice> deletes,
    List<String> errors, List<TopologyCache.HintEvent> events) {
  public SlicePlan {
    creates = List.copyOf(creates);
    updates = List.copyOf(updates);
    deletes = List.copyOf(deletes);
    errors = List.copyOf(errors);
    events = List.copyOf(events);
  }

  /** A plan without events. */
  public SlicePlan(List<EndpointSlice> creates, List<EndpointSlice> updates, List<EndpointSlice> deletes,
      List<String> errors) {
    this(creates, updates, deletes, errors, List.of());
  }

  /** Creates + updates + deletes. */
  public int writes() {
    return creates.size() + updates.size() + deletes.size();
  }

  public boolean isEmpty() {
    return writes() == 0;
  }
}
