package io.fleetkit.admission;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaStatus;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' ResourceQuota admission ({@code k8s.io/apiserver/pkg/admission/plugin/resourcequota}): a create is
 * charged against every quota of its namespace that applies to it (see {@link QuotaEvaluator#matches}), and denied
 * with upstream's message {@code exceeded quota: NAME, requested: r=v, used: r=v, limited: r=v} when a hard limit
 * would be passed, or {@code failed quota: NAME: must specify ...} when the quota tracks cpu or memory and a
 * container does not set it.
 *
 * <p>Each charge is a compare-and-set of the quota's status on its resourceVersion, retried on conflict, so
 * concurrent creates never overshoot a limit. If a later quota, plugin or the store's write refuses the request,
 * the charges are given back (upstream leaves them to the quota controller's next recount). A quota whose status
 * does not yet cover its spec (new or changed) is first recounted from the store, which is what upstream's quota
 * controller does before admission can use it. Creates are charged, and updates of Services and claims by what
 * they grow; deletions are not admitted here (usage goes down when {@link QuotaRecount} recounts).
 *
 * <p>Built with a {@link QuotaLedger}, the plugin charges the ledger instead: all quotas of the namespace in one
 * critical section, no status write per create; the ledger publishes the statuses (see there). Same denials.
 */
public final class ResourceQuotaPlugin implements ValidatingAdmissionPlugin {
  public static final String NAME = "ResourceQuota";
  /** Compare-and-set attempts per quota before the request fails. */
  static final int MAX_ATTEMPTS = 1000;

  private final Clock clock;
  private final @Nullable QuotaLedger ledger;

  /** Charging through the status: one compare-and-set of each applying quota's status per create. */
  public ResourceQuotaPlugin(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ledger = null;
  }

  /**
   * Charging against {@code ledger} (one store's usage in memory, all quotas of a namespace charged together) and
   * publishing the status as the ledger says; see {@link QuotaLedger}.
   */
  public ResourceQuotaPlugin(Clock clock, QuotaLedger ledger) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
  }

  public ResourceQuotaPlugin() {
    this(Clock.systemUTC());
  }

  /** The ledger charged, or {@code null} when charges are status writes. */
  public @Nullable QuotaLedger ledger() {
    return ledger;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public AdmissionVerdict validate(AdmissionRequest request, ObjectStore store) {
    ApiObject<?> o = request.object();
    if (!o.namespaced() || !handles(request)) {
      return AdmissionVerdict.allow();
    }
    List<ResourceQuota> quotas = store.list(ResourceQuota.class, request.namespace()).items();
    if (quotas.isEmpty()) {
      return AdmissionVerdict.allow();
    }
    ResourceList delta = delta(request);
    if (ledger != null) {
      return ledger.charge(store, o, quotas, delta, clock);
    }
    List<Charge> charged = new ArrayList<>();
    Map<ResourceList, Prepared> prepared = new HashMap<>();
    for (ResourceQuota q : quotas) {
      String err;
      try {
        err = charge(store, q, o, delta, charged, prepared);
      } catch (RuntimeException e) {
        refund(store, charged);
        throw e;
      }
      if (err != null) {
        refund(store, charged);
        return AdmissionVerdict.deny("spec", err);
      }
    }
    if (charged.isEmpty()) {
      return AdmissionVerdict.allow();
    }
    List<Charge> done = List.copyOf(charged);
    return AdmissionVerdict.allowWithUndo(() -> refund(store, done));
  }

  /** What {@code request} adds to usage, without zero amounts: a create its usage, an update its growth. */
  private ResourceList delta(AdmissionRequest request) {
    ResourceList delta = QuotaEvaluator.usage(request.object(), clock.instant());
    ApiObject<?> old = request.oldObject();
    if (request.operation() == AdmissionOperation.UPDATE && old != null) {
      // Charge only growth: SubtractWithNonNegativeResult (a shrinking claim frees nothing until a recount).
      delta = QuotaRecount.clampAtZero(delta.subtract(QuotaEvaluator.usage(old, clock.instant())));
    }
    return withoutZeros(delta);
  }

  /**
   * Creates of namespaced objects; updates of Services and PersistentVolumeClaims, whose usage can grow (type
   * changes, storage expansion). Pod updates and all deletions are not charged, as upstream (bar in-place resize).
   */
  private static boolean handles(AdmissionRequest request) {
    return switch (request.operation()) {
      case CREATE -> true;
      case UPDATE -> request.object() instanceof io.fleetkit.api.core.Service
          || request.object() instanceof io.fleetkit.api.core.PersistentVolumeClaim;
      case DELETE -> false;
    };
  }

  private record Charge(String namespace, String name, ResourceList amount) {}

  /**
   * What a request is charged by quotas with the same hard limits: the limited names, the constraint failure
   * ({@code null} if none) and the amount. Computed once per distinct {@code status.hard} of a request, since
   * namespaces often hold several quotas over the same resources (scoped by priority class, say).
   */
  private record Prepared(Set<String> hard, @Nullable String failed, ResourceList requested) {
    static Prepared of(ResourceList hardLimits, ApiObject<?> o, ResourceList delta) {
      Set<String> hard = hardLimits.names();
      String failed = QuotaEvaluator.constraints(QuotaEvaluator.matchingResources(hard, o), o);
      return new Prepared(hard, failed, QuotaEvaluator.mask(delta, hard));
    }
  }

  /**
   * Charges {@code delta} (without zero amounts) to quota {@code q0} if it applies; returns a denial message or
   * {@code null}.
   */
  private @Nullable String charge(ObjectStore store, ResourceQuota q0, ApiObject<?> o, ResourceList delta,
      List<Charge> charged, Map<ResourceList, Prepared> prepared) {
    ResourceQuota q = q0;
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (!statusCovers(q)) {
        q = QuotaRecount.initialize(store, q, clock.instant());
        if (q == null) {
          return null; // deleted meanwhile
        }
      }
      Prepared p = prepared.computeIfAbsent(q.status().hard(), h -> Prepared.of(h, o, delta));
      if (!QuotaEvaluator.matches(q, p.hard(), o)) {
        return null;
      }
      if (p.failed() != null) {
        return "failed quota: " + q.metadata().name() + ": " + p.failed();
      }
      ResourceList requested = p.requested();
      if (requested.isEmpty()) {
        return null;
      }
      ResourceList used = q.status().used();
      ResourceList newUsed = used.add(requested);
      String exceeded = QuotaLedger.exceeded(q.metadata().name(), q.status().hard(), used, newUsed, requested);
      if (exceeded != null) {
        return exceeded;
      }
      try {
        store.updateStatus(q.withStatus(new ResourceQuotaStatus(q.status().hard(), newUsed)));
        charged.add(new Charge(q.metadata().namespace(), q.metadata().name(), requested));
        return null;
      } catch (ConflictException e) {
        ResourceQuota fresh = store.get(ResourceQuota.class, q.metadata().namespace(), q.metadata().name())
            .orElse(null);
        if (fresh == null) {
          return null;
        }
        q = fresh;
      }
    }
    return "quota " + q.metadata().name() + ": status changed by others " + MAX_ATTEMPTS
        + " times in a row; try again";
  }

  /** Whether {@code q}'s status holds a usage for every hard limit of its spec ({@code hasUsageStats}). */
  static boolean statusCovers(ResourceQuota q) {
    if (!q.status().hard().equals(q.spec().hard())) {
      return false;
    }
    for (String r : q.spec().hard().names()) {
      if (!q.status().used().has(r)) {
        return false;
      }
    }
    return true;
  }

  private static ResourceList withoutZeros(ResourceList l) {
    ResourceList.Builder b = ResourceList.builder();
    boolean any = false;
    for (Map.Entry<String, Quantity> e : l.asMap().entrySet()) {
      if (!e.getValue().isZero()) {
        b.put(e.getKey(), e.getValue());
        any = true;
      }
    }
    return any ? b.build() : ResourceList.EMPTY;
  }

  /** Gives charges back (compare-and-set, retried); usage never goes below zero. */
  private static void refund(ObjectStore store, List<Charge> charges) {
    for (Charge c : charges) {
      for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        ResourceQuota q = store.get(ResourceQuota.class, c.namespace(), c.name()).orElse(null);
        if (q == null) {
          break;
        }
        ResourceList used = QuotaRecount.clampAtZero(q.status().used().subtract(c.amount()));
        try {
          store.updateStatus(q.withStatus(new ResourceQuotaStatus(q.status().hard(), used)));
          break;
        } catch (ConflictException | NotFoundException e) {
          // re-read and retry
        }
      }
    }
  }
}
