package io.fleetkit.admission;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The replenishment half of Kubernetes' quota controller ({@code pkg/controller/resourcequota},
 * {@code replenishQuota}): when an object of {@link NamespacedKinds#all()} is deleted, or a pod reaches a terminal
 * phase, the quotas of its namespace are recounted by {@link QuotaRecount}, so that usage freed by deletions can be
 * charged again. A pod stuck terminating (as on a lost node) stops counting once it is past its deletion timestamp
 * plus its grace period ({@code QuotaV1Pod}); the first {@code sync} after that recounts its namespace (upstream's
 * quota controller notices it at its next full resync, every 5 minutes by default). Admission only adds to usage; without replenishment a namespace at its limit stays there.
 *
 * <p>Driven by {@link #sync()}, which recounts the namespaces that changed since the last call (a simulation steps
 * it with the controllers; a threaded program may call it periodically). With a {@link QuotaLedger}, {@code sync}
 * recounts through the ledger and publishes the ledger's usage, as upstream's quota controller writes status (not
 * on a store shared with other processes, whose admission charges the stored status: there it recounts the status
 * directly). Watch
 * events only mark namespaces, so {@code sync} may run on any thread, but not concurrently with itself.
 */
public final class QuotaReplenisher implements AutoCloseable {
  private final ObjectStore store;
  private final Clock clock;
  private final Set<String> dirty = ConcurrentHashMap.newKeySet();
  /**
   * Namespaces with a pod being deleted gracefully, and when the earliest of them stops counting
   * ({@link QuotaEvaluator#chargesCompute}: a pod stuck terminating, as on a lost node).
   */
  private final PriorityQueue<Expiry> expiries = new PriorityQueue<>(Comparator.comparing(Expiry::at));

  private record Expiry(Instant at, String namespace) {}
  private final List<Watch> watches = new ArrayList<>();

  private final @Nullable QuotaLedger ledger;

  private QuotaReplenisher(ObjectStore store, Clock clock, @Nullable QuotaLedger ledger) {
    this.store = store;
    this.clock = clock;
    this.ledger = ledger;
  }

  /** A replenisher watching {@code store} from now on, recounting at {@code clock}'s time. */
  public static QuotaReplenisher watch(ObjectStore store, Clock clock) {
    return watch(store, clock, null);
  }

  /**
   * A replenisher for a store whose quota admission charges {@code ledger}: it recounts through the ledger, and
   * every {@link #sync()} also publishes the ledger's usage to the quotas' status ({@code null}: no ledger).
   */
  public static QuotaReplenisher watch(ObjectStore store, Clock clock, @Nullable QuotaLedger ledger) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(clock, "clock");
    QuotaReplenisher r = new QuotaReplenisher(store, clock, ledger);
    for (Class<? extends ApiObject<?>> kind : NamespacedKinds.all()) {
      if (kind != ResourceQuota.class) {
        r.watchKind(kind);
      }
    }
    return r;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void watchKind(Class kind) {
    watches.add(store.watch(kind, store.resourceVersion(), e -> {
      ApiObject<?> o = (ApiObject<?>) e.object();
      if (e.type() == WatchEventType.DELETED || (o instanceof Pod p && p.isTerminal())) {
        dirty.add(o.metadata().namespace());
      } else if (o instanceof Pod p && p.metadata().deletionTimestamp() != null
          && p.metadata().deletionGracePeriodSeconds() != null) {
        Instant expiry = p.metadata().deletionTimestamp().plusSeconds(p.metadata().deletionGracePeriodSeconds());
        synchronized (expiries) {
          expiries.add(new Expiry(expiry, p.metadata().namespace()));
        }
      }
    }));
  }

  /**
   * Recounts the quotas of every namespace marked since the last call.
   *
   * @return how many quotas' status changed
   */
  public int sync() {
    synchronized (expiries) {
      Instant now = clock.instant();
      while (!expiries.isEmpty() && now.isAfter(expiries.peek().at())) {
        dirty.add(expiries.poll().namespace());
      }
    }
    if (ledger != null && !store.sharedWithOtherProcesses()) {
      return syncLedger(ledger);
    }
    if (dirty.isEmpty()) {
      return 0;
    }
    List<String> namespaces = new ArrayList<>(dirty);
    dirty.removeAll(namespaces);
    int changed = 0;
    for (String ns : namespaces) {
      for (ResourceQuota q : store.list(ResourceQuota.class, ns).items()) {
        ResourceQuota after = QuotaRecount.recount(store, q, clock.instant());
        if (after != null && !after.status().equals(q.status())) {
          changed++;
        }
      }
    }
    return changed;
  }

  private int syncLedger(QuotaLedger l) {
    int changed = 0;
    if (!dirty.isEmpty()) {
      List<String> namespaces = new ArrayList<>(dirty);
      dirty.removeAll(namespaces);
      for (String ns : namespaces) {
        changed += l.recount(store, ns, clock);
      }
    }
    return changed + l.publish();
  }

  /** Stops watching. */
  @Override
  public void close() {
    for (Watch w : watches) {
      w.close();
    }
  }
}
