package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The resource-claim controller's metrics, with upstream's names and labels ({@code
 * pkg/controller/resourceclaim/metrics/metrics.go}, subsystem {@code dynamic_resource_allocation}):
 * <ul>
 *   <li>{@value #CREATES_TOTAL} {@code {status, admin_access}}: the claims the controller tried to create from
 *       templates, {@code status} {@code success} or {@code failure}, {@code admin_access} whether a request of the
 *       template asks for admin access;
 *   <li>{@value #RESOURCE_CLAIMS} {@code {allocated, admin_access, source}}: the claims in the store, by whether they
 *       are allocated, whether a request asks for admin access, and where they come from ({@code
 *       resource_claim_template} for a claim made from a template, {@code extended_resource} for the scheduler's
 *       extended-resource claims, empty for one a user made). Upstream computes it from its claim informer at each
 *       scrape; here it is kept from the store's claim events while the controller follows the store, and a series
 *       that was non-zero once stays exported (at 0) when its last claim goes.
 * </ul>
 * Thread-safe. Made by {@link ResourceClaimController}; public for the names.
 */
public final class ResourceClaimMetrics {
  /** Upstream's {@code dynamic_resource_allocation_resourceclaim_creates_total}. */
  public static final String CREATES_TOTAL = "dynamic_resource_allocation_resourceclaim_creates_total";
  /** Upstream's {@code dynamic_resource_allocation_resource_claims}. */
  public static final String RESOURCE_CLAIMS = "dynamic_resource_allocation_resource_claims";
  /** The annotation (value {@code true}) upstream's scheduler puts on the claims it makes for extended resources. */
  public static final String EXTENDED_RESOURCE_CLAIM_ANNOTATION = "resource.kubernetes.io/extended-resource-claim";

  /** The create counter. */
  public static final MetricDescriptor CREATES = MetricDescriptor.counter(CREATES_TOTAL,
      "Number of ResourceClaims creation requests, categorized by creation status and admin access",
      "status", "admin_access");
  /** The claims gauge. */
  public static final MetricDescriptor CLAIMS = MetricDescriptor.gauge(RESOURCE_CLAIMS,
      "Number of ResourceClaims, categorized by allocation status, admin access, and source. Source can be"
          + " 'resource_claim_template' (created from a template), 'extended_resource' (extended resources), or"
          + " empty (manually created by a user).",
      "allocated", "admin_access", "source");

  private static final String[] SOURCES = {"", "resource_claim_template", "extended_resource"};

  private final MetricsRegistry registry;
  private final boolean enabled;
  private final Counter[] creates = new Counter[4];
  private final @Nullable Gauge[] claims = new Gauge[12];
  /** The series index each followed claim ({@code ns/name}) is counted in. */
  private final Map<String, Integer> counted = new HashMap<>();

  ResourceClaimMetrics(MetricsRegistry registry) {
    this.registry = registry;
    this.enabled = registry.enabled();
    for (int i = 0; i < creates.length; i++) {
      creates[i] = registry.counter(CREATES, i < 2 ? "success" : "failure", (i & 1) == 1 ? "true" : "false");
    }
  }

  /** Counts one create of a claim with {@code spec}, which succeeded or not. */
  void created(ResourceClaimSpec spec, boolean success) {
    creates[(success ? 0 : 2) + (adminAccess(spec) ? 1 : 0)].increment();
  }

  /** Counts {@code claim} (added or changed); {@code null} with {@code key} forgets a deleted one. */
  synchronized void claim(String key, @Nullable ResourceClaim claim) {
    if (!enabled) {
      return;
    }
    Integer before = counted.get(key);
    int after = claim == null ? -1 : series(claim);
    if (before != null && before == after) {
      return;
    }
    if (before != null) {
      gauge(before).add(-1);
      counted.remove(key);
    }
    if (after >= 0) {
      gauge(after).add(1);
      counted.put(key, after);
    }
  }

  private Gauge gauge(int series) {
    Gauge g = claims[series];
    if (g == null) {
      g = registry.gauge(CLAIMS, (series & 1) == 1 ? "true" : "false", (series & 2) == 2 ? "true" : "false",
          SOURCES[series >> 2]);
      claims[series] = g;
    }
    return g;
  }

  /** The series of {@code claim}: bit 0 allocated, bit 1 admin access, bits 2-3 the source. */
  static int series(ResourceClaim claim) {
    int series = (claim.status().allocation() != null ? 1 : 0) | (adminAccess(claim.spec()) ? 2 : 0);
    return series | source(claim) << 2;
  }

  private static int source(ResourceClaim claim) {
    Map<String, String> annotations = claim.metadata().annotations();
    if ("true".equals(annotations.get(EXTENDED_RESOURCE_CLAIM_ANNOTATION))) {
      return 2;
    }
    return annotations.containsKey(ResourceClaimController.POD_CLAIM_NAME_ANNOTATION) ? 1 : 0;
  }

  /**
   * Upstream's {@code getAdminAccessMetricLabel}: whether a request (not an alternative of a prioritized list) asks
   * for admin access.
   */
  static boolean adminAccess(ResourceClaimSpec spec) {
    for (DeviceRequest r : spec.devices().requests()) {
      if (r.exactly() != null && r.exactly().adminAccess()) {
        return true;
      }
    }
    return false;
  }
}
