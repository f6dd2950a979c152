package io.fleetkit.admission;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaStatus;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What Kubernetes' quota controller ({@code pkg/controller/resourcequota}) does: recounts a quota's usage from the
 * objects stored in its namespace and writes it to the status, with {@code status.hard} set to {@code spec.hard}.
 * Run it after deletions (usage only goes down here) or periodically; admission runs it itself for quotas whose
 * status is not yet known.
 */
public final class QuotaRecount {
  private QuotaRecount() {}

  /** The usage of {@code quota} in its namespace at {@code now}, over {@link NamespacedKinds#all()}. */
  public static ResourceList usage(ObjectStore store, ResourceQuota quota, Instant now) {
    Set<String> hard = quota.spec().hard().names();
    ResourceList total = ResourceList.EMPTY;
    for (Class<? extends ApiObject<?>> kind : NamespacedKinds.all()) {
      for (ApiObject<?> o : list(store, kind, quota.metadata().namespace())) {
        if (QuotaEvaluator.matches(quota, hard, o)) {
          total = total.add(QuotaEvaluator.mask(QuotaEvaluator.usage(o, now), hard));
        }
      }
    }
    ResourceList.Builder b = ResourceList.builder();
    for (String r : hard) {
      b.put(r, total.has(r) ? total.get(r) : Quantity.ZERO);
    }
    return b.build();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static List<? extends ApiObject<?>> list(ObjectStore store, Class<? extends ApiObject<?>> kind,
      String namespace) {
    return store.list((Class) kind, namespace).items();
  }

  /**
   * Recounts {@code quota} and writes its status (a compare-and-set on the version read).
   *
   * @return the quota as stored afterwards, re-read after a conflict; {@code null} if it no longer exists
   */
  public static @Nullable ResourceQuota recount(ObjectStore store, ResourceQuota quota, Instant now) {
    ResourceQuota q = quota;
    while (true) {
      ResourceQuotaStatus status = new ResourceQuotaStatus(q.spec().hard(), usage(store, q, now));
      if (status.equals(q.status())) {
        return q;
      }
      try {
        return store.updateStatus(q.withStatus(status));
      } catch (ConflictException e) {
        q = store.get(ResourceQuota.class, q.metadata().namespace(), q.metadata().name()).orElse(null);
        if (q == null) {
          return null;
        }
      } catch (NotFoundException e) {
        return null;
      }
    }
  }

  /** Recounts every quota of {@code namespace} ({@code ""}: all namespaces). */
  public static void recountAll(ObjectStore store, String namespace, Instant now) {
    for (ResourceQuota q : store.list(ResourceQuota.class, namespace).items()) {
      recount(store, q, now);
    }
  }

  /** {@code l} with negative values raised to zero. */
  static ResourceList clampAtZero(ResourceList l) {
    ResourceList.Builder b = ResourceList.builder();
    for (Map.Entry<String, Quantity> e : l.asMap().entrySet()) {
      b.put(e.getKey(), e.getValue().signum() < 0 ? Quantity.ZERO : e.getValue());
    }
    return b.build();
  }
}
