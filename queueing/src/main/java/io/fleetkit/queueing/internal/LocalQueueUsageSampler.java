package io.fleetkit.queueing.internal;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.AdmissionFairSharing;
import io.fleetkit.queueing.LocalQueueFairSharingStatus;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's LocalQueue controller for admission fair sharing ({@code pkg/controller/core/localqueue_controller.go},
 * {@code initializeAfsIfNeeded} and {@code reconcileConsumedUsage}) and the workload controller's settlement of an
 * entry penalty ({@code updateAfsConsumedUsage}), over an {@link AfsUsageLedger}; it keeps each LocalQueue's {@link
 * LocalQueueFairSharingStatus}, the status Kueue persists.
 *
 * <p>A {@link #reconcile} of a LocalQueue first seeds its ledger entry if it has none, from the persisted status only
 * (never from live usage: an admitted workload's entry penalty already prices it), with the entry's last update now;
 * an entry a settlement created first gets the status merged in once. Then, unless the entry existed and was updated
 * less than a sampling interval ago with no penalty pending (then it only says when to come back), it decays the
 * history towards the LocalQueue's admitted usage over the time elapsed since the entry's last update (never negative:
 * a future last update counts as none, and stays), and writes the status. A half-life of zero resets the history.
 */
final class LocalQueueUsageSampler {
  private final AdmissionFairSharing config;
  private final AfsUsageLedger ledger;
  private final Map<String, LocalQueueFairSharingStatus> status = new HashMap<>();

  LocalQueueUsageSampler(AdmissionFairSharing config, AfsUsageLedger ledger) {
    this.config = config;
    this.ledger = ledger;
  }

  AdmissionFairSharing config() {
    return config;
  }

  AfsUsageLedger ledger() {
    return ledger;
  }

  /** The persisted status of {@code lqKey}, or {@code null} if it has no admission fair sharing status yet. */
  @Nullable LocalQueueFairSharingStatus status(String lqKey) {
    return status.get(lqKey);
  }

  /** Sets the persisted status of {@code lqKey} (restoring it); {@code null} removes it. */
  void status(String lqKey, @Nullable LocalQueueFairSharingStatus s) {
    if (s == null) {
      status.remove(lqKey);
    } else {
      status.put(lqKey, s);
    }
  }

  /** Forgets a removed LocalQueue: its status and its ledger entry. */
  void forget(String lqKey) {
    status.remove(lqKey);
    ledger.delete(lqKey);
  }

  /**
   * One reconcile of LocalQueue {@code lqKey} whose admitted workloads use {@code admittedUsage} now (by resource
   * name, summed over flavors).
   *
   * @return how long until the next sample is due (Kueue's {@code RequeueAfter})
   */
  Duration reconcile(String lqKey, Map<String, BigDecimal> admittedUsage, Instant now) {
    LocalQueueFairSharingStatus persisted = status.get(lqKey);
    AfsUsageLedger.Entry found = ledger.get(lqKey);
    boolean hadCache = found != null;
    TreeMap<String, BigDecimal> seeded = persisted == null ? new TreeMap<>() : amounts(persisted.consumedResources());
    AfsUsageLedger.Entry entry;
    if (found == null) {
      entry = ledger.getOrCreate(lqKey, now);
      entry.resources = seeded;
      entry.statusAccounted = true;
      ledger.changed();
    } else {
      entry = found;
      if (!entry.statusAccounted) {
        entry.resources = AfsMath.sum(entry.resources, seeded);
        entry.statusAccounted = true;
        ledger.changed();
      }
    }
    Duration interval = config.usageSamplingInterval();
    Duration since = Duration.between(entry.lastUpdate, now);
    if (hadCache && since.compareTo(interval) < 0 && !entry.hasPendingPenalty()) {
      return interval.minus(since);
    }
    consume(lqKey, entry, admittedUsage, now);
    return interval;
  }

  /** Kueue's {@code reconcileConsumedUsage}. */
  private void consume(String lqKey, AfsUsageLedger.Entry entry, Map<String, BigDecimal> admittedUsage, Instant now) {
    double halfLife = AfsMath.seconds(config.usageHalfLifeTime());
    if (halfLife == 0) {
      status.put(lqKey, new LocalQueueFairSharingStatus(Map.of(), now));
      entry.resources = new TreeMap<>();
      entry.lastUpdate = now;
      ledger.changed();
      return;
    }
    double elapsed = Math.max(0, AfsMath.seconds(Duration.between(entry.lastUpdate, now)));
    TreeMap<String, BigDecimal> consumed = AfsMath.decayed(entry.resources, admittedUsage, elapsed, halfLife);
    status.put(lqKey, new LocalQueueFairSharingStatus(quantities(consumed), now));
    entry.resources = consumed;
    if (!entry.lastUpdate.isAfter(now)) {
      entry.lastUpdate = now; // a future last update stays: the next decay must not over-elapse
    }
    ledger.changed();
  }

  /**
   * Kueue's {@code updateAfsConsumedUsage}, when workload {@code wlKey} of {@code lqKey} becomes admitted: the history
   * decays to now towards the admitted usage (which includes the workload), and the workload's entry penalty, if it
   * has one, moves into it.
   */
  void settle(String lqKey, String wlKey, Map<String, BigDecimal> admittedUsage, Instant now) {
    AfsUsageLedger.Entry entry = ledger.getOrCreate(lqKey, now);
    double elapsed = Math.max(0, AfsMath.seconds(Duration.between(entry.lastUpdate, now)));
    TreeMap<String, BigDecimal> consumed = AfsMath.decayed(entry.resources, admittedUsage, elapsed,
        AfsMath.seconds(config.usageHalfLifeTime()));
    TreeMap<String, BigDecimal> penalty = entry.penalties.remove(wlKey);
    entry.resources = penalty == null ? consumed : AfsMath.sum(consumed, penalty);
    if (!entry.lastUpdate.isAfter(now)) {
      entry.lastUpdate = now;
    }
    ledger.changed();
  }

  /**
   * Kueue's usage of LocalQueue {@code lqKey} of weight {@code weight} for ordering: its consumed history and pending
   * penalties, weighted by resource, divided by the weight.
   */
  double usage(String lqKey, double weight) {
    AfsUsageLedger.Entry e = ledger.get(lqKey);
    if (e == null) {
      return AfsMath.usage(Map.of(), Map.of(), weight, config);
    }
    return AfsMath.usage(e.resources, e.pendingPenalty(), weight, config);
  }

  static TreeMap<String, BigDecimal> amounts(Map<String, Quantity> quantities) {
    TreeMap<String, BigDecimal> out = new TreeMap<>();
    for (Map.Entry<String, Quantity> e : quantities.entrySet()) {
      out.put(e.getKey(), e.getValue().toBigDecimal());
    }
    return out;
  }

  static TreeMap<String, Quantity> quantities(Map<String, BigDecimal> amounts) {
    TreeMap<String, Quantity> out = new TreeMap<>();
    for (Map.Entry<String, BigDecimal> e : amounts.entrySet()) {
      out.put(e.getKey(), Quantity.of(e.getValue(), Quantity.Format.DECIMAL_SI));
    }
    return out;
  }
}
