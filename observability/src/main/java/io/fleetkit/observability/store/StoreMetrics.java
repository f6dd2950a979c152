package io.fleetkit.observability.store;

import io.fleetkit.api.metrics.MetricDescriptor;
import java.util.List;

/**
 * The object store's metrics, FleetKit's own (kube-apiserver's nearest are {@code apiserver_storage_*},
 * {@code apiserver_watch_events_total} and {@code apiserver_registered_watchers}, which count per resource at the
 * API server rather than per store call). {@code kind} is the object's kind ({@code Pod}, {@code Node}, ...).
 *
 * <ul>
 *   <li>{@code operation}: {@code create}, {@code update}, {@code update_status}, {@code delete}, {@code get},
 *       {@code list}, {@code watch}.
 *   <li>{@code result}: {@code success}; {@code conflict} (a compare-and-swap that lost: the resourceVersion or a
 *       delete precondition no longer matched, or the name was taken); {@code not_found}; {@code invalid} (rejected by
 *       validation or admission); {@code expired} (a watch from a compacted resourceVersion); {@code error}.
 *   <li>{@code type} of a watch event: {@code ADDED}, {@code MODIFIED}, {@code DELETED}.
 * </ul>
 */
public final class StoreMetrics {
  public static final String SUCCESS = "success";
  public static final String CONFLICT = "conflict";
  public static final String NOT_FOUND = "not_found";
  public static final String INVALID = "invalid";
  public static final String EXPIRED = "expired";
  public static final String ERROR = "error";

  public static final MetricDescriptor REQUESTS = MetricDescriptor.counter("fleetkit_store_requests_total",
      "Store requests by operation, kind and result; result conflict counts compare-and-swap writes that lost.",
      "operation", "kind", "result");
  public static final MetricDescriptor WATCH_EVENTS = MetricDescriptor.counter("fleetkit_store_watch_events_total",
      "Watch events delivered to watchers, by kind and event type.", "kind", "type");
  public static final MetricDescriptor WATCHERS = MetricDescriptor.gauge("fleetkit_store_watchers",
      "Watches open now, by kind.", "kind");

  /** Every store metric. */
  public static final List<MetricDescriptor> ALL = List.of(REQUESTS, WATCH_EVENTS, WATCHERS);

  private StoreMetrics() {}
}
