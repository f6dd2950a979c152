package io.fleetkit.admission;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaStatus;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * ResourceQuota charging for a store that other processes write too ({@link ObjectStore#sharedWithOtherProcesses()}):
 * what the Kubernetes API servers do ({@code k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go},
 * {@code checkQuotas}). The quotas are read from the store, the request checked against all of them, and each
 * applying quota charged by a compare-and-set of its {@code status.used} on the version read: a status another
 * process wrote meanwhile makes the write fail, and the quota is read again and checked again. So the usage in the
 * store is the only count, and however many processes admit at once a hard limit is never passed. If a later quota
 * refuses, or a later plugin or the store's write does, the charges already made are given back by compare-and-set
 * too (upstream leaves them to the quota controller's next recount).
 *
 * <p>Stateless and thread-safe. A create costs a status write per applying quota (a round trip to etcd each), which
 * is why a process-local store charges the in-memory {@link QuotaLedger} instead.
 */
final class QuotaStatusCharge {
  private QuotaStatusCharge() {}

  /** One quota charged: what to give back. */
  private record Charge(String namespace, String name, String uid, ResourceList amount) {}

  static AdmissionVerdict charge(ObjectStore s, AdmissionRequest request, Clock clock,
      List<LimitedResource> limited) {
    String ns = request.namespace();
    List<ResourceQuota> listed = s.list(ResourceQuota.class, ns).items();
    if (listed.isEmpty() && limited.isEmpty()) {
      return AdmissionVerdict.allow();
    }
    Instant now = clock.instant();
    ApiObject<?> o = request.object();
    // A quota whose status does not yet cover its spec is counted first (the quota controller's work).
    List<ResourceQuota> quotas = new ArrayList<>(listed.size());
    for (ResourceQuota q : listed) {
      ResourceQuota ready = ResourceQuotaPlugin.statusCovers(q) ? q : QuotaRecount.initialize(s, q, now);
      if (ready != null) {
        quotas.add(ready);
      }
    }
    // Upstream checks the container fields every applying quota needs before any limit, then the covering quotas.
    QuotaCounters[] entries = new QuotaCounters[quotas.size()];
    int[] matched = new int[quotas.size()];
    int m = 0;
    for (int i = 0; i < entries.length; i++) {
      ResourceQuota q = quotas.get(i);
      entries[i] = new QuotaCounters(q);
      String failed = applies(q, entries[i], o);
      if (failed == NOT_APPLYING) {
        continue;
      }
      if (failed != null) {
        return AdmissionVerdict.deny("spec", failed);
      }
      matched[m++] = i;
    }
    if (!limited.isEmpty()) {
      String uncovered = LimitedResources.check(limited, request, now, entries, matched, m);
      if (uncovered != null) {
        return AdmissionVerdict.deny("spec", uncovered);
      }
    }
    if (m == 0) {
      return AdmissionVerdict.allow();
    }
    ResourceList delta = delta(request, now);
    if (delta.isEmpty()) {
      return AdmissionVerdict.allow();
    }
    List<Charge> charged = new ArrayList<>(m);
    for (int j = 0; j < m; j++) {
      String denial;
      try {
        denial = chargeOne(s, quotas.get(matched[j]), o, delta, now, request.dryRun() ? null : charged);
      } catch (RuntimeException e) {
        refund(s, charged);
        throw e;
      }
      if (denial != null) {
        refund(s, charged);
        return AdmissionVerdict.deny("spec", denial);
      }
    }
    if (charged.isEmpty()) {
      return AdmissionVerdict.allow();
    }
    List<Charge> done = List.copyOf(charged);
    return AdmissionVerdict.allowWithUndo(() -> refund(s, done));
  }

  /** Marks a quota that does not apply to the object (an identity, never a message). */
  private static final String NOT_APPLYING = new String("not applying");

  /**
   * {@code null} when quota {@code q} applies to {@code o} and {@code o} sets every field it needs,
   * {@link #NOT_APPLYING} when it does not apply, else upstream's {@code failed quota} message.
   */
  private static @Nullable String applies(ResourceQuota q, QuotaCounters e, ApiObject<?> o) {
    if (!QuotaEvaluator.matches(q, e.hardNames, o)) {
      return NOT_APPLYING;
    }
    String failed = QuotaEvaluator.constraints(QuotaEvaluator.matchingResources(e.hardNames, o), o);
    return failed == null ? null : "failed quota: " + q.metadata().name() + ": " + failed;
  }

  /** What {@code request} adds to usage: a create its usage, an update its growth (never a decrease). */
  private static ResourceList delta(AdmissionRequest request, Instant now) {
    ResourceList delta = QuotaEvaluator.usage(request.object(), now);
    if (QuotaEvaluator.chargesGrowthOnly(request)) {
      delta = QuotaRecount.clampAtZero(delta.subtract(QuotaEvaluator.usage(java.util.Objects.requireNonNull(request.oldObject()), now)));
    }
    ResourceList.Builder b = ResourceList.builder();
    boolean any = false;
    for (Map.Entry<String, Quantity> e : delta.asMap().entrySet()) {
      if (!e.getValue().isZero()) {
        b.put(e.getKey(), e.getValue());
        any = true;
      }
    }
    return any ? b.build() : ResourceList.EMPTY;
  }

  /**
   * Charges {@code delta} to quota {@code q0} by compare-and-set, reading it again after each conflict, and adds the
   * charge to {@code charged} ({@code null}: a dry run, only checked); returns a denial or {@code null} (charged, or
   * nothing to charge).
   */
  private static @Nullable String chargeOne(ObjectStore s, ResourceQuota q0, ApiObject<?> o, ResourceList delta,
      Instant now, @Nullable List<Charge> charged) {
    ResourceQuota q = q0;
    for (int attempt = 0; attempt < ResourceQuotaPlugin.MAX_ATTEMPTS; attempt++) {
      if (q != q0) { // read again: its spec may have changed, so check again whether and how it applies
        if (!ResourceQuotaPlugin.statusCovers(q)) {
          q = QuotaRecount.initialize(s, q, now);
          if (q == null) {
            return null;
          }
        }
        String failed = applies(q, new QuotaCounters(q), o);
        if (failed == NOT_APPLYING) {
          return null;
        }
        if (failed != null) {
          return failed;
        }
      }
      ResourceList hard = q.status().hard();
      ResourceList requested = QuotaEvaluator.mask(delta, hard.names());
      if (requested.isEmpty()) {
        return null;
      }
      ResourceList used = q.status().used();
      ResourceList newUsed = used.add(requested);
      String exceeded = exceeded(q.metadata().name(), hard, used, newUsed, requested);
      if (exceeded != null || charged == null) {
        return exceeded; // a dry run (no list to charge into) is checked, never charged
      }
      try {
        s.updateStatus(q.withStatus(new ResourceQuotaStatus(hard, newUsed)));
        charged.add(new Charge(q.metadata().namespace(), q.metadata().name(), q.metadata().uid(), requested));
        return null;
      } catch (ConflictException e) {
        q = s.get(ResourceQuota.class, q.metadata().namespace(), q.metadata().name()).orElse(null);
        if (q == null) {
          return null; // deleted meanwhile: nothing to charge
        }
      } catch (NotFoundException e) {
        return null;
      }
    }
    return "quota " + q.metadata().name() + ": status changed by others " + ResourceQuotaPlugin.MAX_ATTEMPTS
        + " times in a row; try again";
  }

  /** Upstream's {@code exceeded quota} message for the resources {@code newUsed} takes past {@code hard}, or null. */
  static @Nullable String exceeded(String name, ResourceList hard, ResourceList used, ResourceList newUsed,
      ResourceList requested) {
    ResourceList.Builder req = ResourceList.builder();
    ResourceList.Builder was = ResourceList.builder();
    ResourceList.Builder lim = ResourceList.builder();
    boolean any = false;
    for (Map.Entry<String, Quantity> e : requested.asMap().entrySet()) {
      String r = e.getKey();
      if (hard.has(r) && newUsed.get(r).compareTo(hard.get(r)) > 0) {
        req.put(r, e.getValue());
        was.put(r, used.get(r));
        lim.put(r, hard.get(r));
        any = true;
      }
    }
    if (!any) {
      return null;
    }
    return "exceeded quota: " + name + ", requested: " + QuotaEvaluator.prettyPrint(req.build()) + ", used: "
        + QuotaEvaluator.prettyPrint(was.build()) + ", limited: " + QuotaEvaluator.prettyPrint(lim.build());
  }

  /** Gives charges back by compare-and-set, retried on conflict; usage never goes below zero. */
  private static void refund(ObjectStore s, List<Charge> charges) {
    for (Charge c : charges) {
      for (int attempt = 0; attempt < ResourceQuotaPlugin.MAX_ATTEMPTS; attempt++) {
        ResourceQuota q = s.get(ResourceQuota.class, c.namespace(), c.name()).orElse(null);
        if (q == null || !q.metadata().uid().equals(c.uid())) {
          break; // deleted or replaced: its recount does not hold the charge
        }
        ResourceList used = QuotaRecount.clampAtZero(q.status().used().subtract(c.amount()));
        try {
          s.updateStatus(q.withStatus(new ResourceQuotaStatus(q.status().hard(), used)));
          break;
        } catch (ConflictException e) {
          // read again and retry
        } catch (NotFoundException e) {
          break;
        }
      }
    }
  }
}
