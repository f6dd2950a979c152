package io.fleetkit.scheduler;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a {@link Scheduler} from an {@link ObjectStore}, like kube-scheduler's informers: lists then watches
 * priority classes (first, so that pods resolve their priority), disruption budgets, namespaces, the Dynamic Resource
 * Allocation kinds (ResourceClaims, ResourceSlices, DeviceClasses, DeviceTaintRules: their changes re-queue pods
 * waiting for devices or for their claims to be created) and other requested kinds, nodes, and pods. Optionally runs the scheduler on a background thread ({@link #start()}).
 *
 * <p>Thread-safe. Watch events arrive on the store's delivery threads and call the scheduler, which applies them in
 * order without making the delivery thread wait for a running cycle.
 */
public final class StoreScheduler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StoreScheduler.class);

  private final Scheduler scheduler;
  private final List<Watch> watches = new ArrayList<>();
  private final Object signal = new Object();
  private volatile boolean running;
  private @Nullable Thread loop;
  private boolean dirty;

  private StoreScheduler(Scheduler scheduler) {
    this.scheduler = scheduler;
  }

  /**
   * Attaches {@code scheduler} to {@code store}: priority classes, disruption budgets, namespaces, the DRA objects,
   * nodes and pods, and the Services, ReplicationControllers, ReplicaSets and StatefulSets whose selectors are a pod's
   * default spreading selector (kube-scheduler's informers list them for {@code DefaultSelector}).
   */
  public static StoreScheduler attach(Scheduler scheduler, ObjectStore store) {
    return attach(scheduler, store, List.of());
  }

  /**
   * Attaches {@code scheduler} to {@code store}, also feeding the objects of {@code extraKinds} (claims, volumes...)
   * to {@link Scheduler#addObject}.
   */
  public static StoreScheduler attach(Scheduler scheduler, ObjectStore store,
      List<Class<? extends ApiObject<?>>> extraKinds) {
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(store, "store");
    StoreScheduler s = new StoreScheduler(scheduler);
    s.feedObjects(store, PriorityClass.class);
    s.feedObjects(store, PodDisruptionBudget.class);
    s.feedObjects(store, Namespace.class); // label changes re-queue pods with namespaceSelector affinity terms
    s.feedObjects(store, ResourceClaim.class);
    s.feedObjects(store, ResourceSlice.class);
    s.feedObjects(store, DeviceClass.class);
    s.feedObjects(store, DeviceTaintRule.class);
    // the default spreading selector's sources (system-defaulted PodTopologySpread constraints)
    s.feedObjects(store, Service.class);
    s.feedObjects(store, ReplicationController.class);
    s.feedObjects(store, ReplicaSet.class);
    s.feedObjects(store, StatefulSet.class);
    for (Class<? extends ApiObject<?>> k : extraKinds) {
      s.feedObjectsRaw(store, k);
    }
    s.feed(store, Node.class, scheduler::updateNode, n -> scheduler.removeNode(n.name()));
    s.feed(store, Pod.class, scheduler::updatePod, p -> scheduler.removePod(p.metadata().key()));
    return s;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void feedObjectsRaw(ObjectStore store, Class<? extends ApiObject<?>> kind) {
    feedObjects(store, (Class) kind);
  }

  private <T extends ApiObject<T>> void feedObjects(ObjectStore store, Class<T> kind) {
    feed(store, kind, scheduler::addObject, scheduler::removeObject);
  }

  private <T extends ApiObject<T>> void feed(ObjectStore store, Class<T> kind, Consumer<T> upsert,
      Consumer<T> delete) {
    ListResult<T> list = store.list(kind);
    for (T item : list.items()) {
      upsert.accept(item);
    }
    watches.add(store.watch(kind, list.resourceVersion(), e -> {
      if (e.type() == WatchEventType.DELETED) {
        delete.accept(e.object());
      } else {
        upsert.accept(e.object());
      }
      wake();
    }));
  }

  /** The scheduler being fed. */
  public Scheduler scheduler() {
    return scheduler;
  }

  /**
   * Starts a daemon thread that runs {@link Scheduler#runUntilIdle()} whenever an event arrives, and at least every
   * {@code period} (for backoff expiry and Permit timeouts).
   *
   * @throws IllegalStateException if already started
   */
  public synchronized StoreScheduler start(Duration period) {
    if (loop != null) {
      throw new IllegalStateException("store scheduler: already started");
    }
    long periodMillis = Math.max(1, period.toMillis());
    running = true;
    Thread t = new Thread(() -> {
      while (running) {
        try {
          scheduler.runUntilIdle();
        } catch (RuntimeException e) {
          if (!running) {
            return;
          }
          LOG.warn("scheduling loop failed; continuing", e);
        }
        synchronized (signal) {
          if (!dirty && running) {
            try {
              signal.wait(periodMillis);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
          }
          dirty = false;
        }
      }
    }, "fleetkit-store-scheduler");
    t.setDaemon(true);
    loop = t;
    t.start();
    return this;
  }

  /** {@link #start(Duration)} with a 100 ms period. */
  public StoreScheduler start() {
    return start(Duration.ofMillis(100));
  }

  private void wake() {
    synchronized (signal) {
      dirty = true;
      signal.notifyAll();
    }
  }

  /** Stops the watches and the loop (the scheduler itself stays open). */
  @Override
  public void close() {
    running = false;
    for (Watch w : watches) {
      w.close();
    }
    wake();
    Thread t;
    synchronized (this) {
      t = loop;
      loop = null;
    }
    if (t != null && t != Thread.currentThread()) {
      try {
        t.join(5000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
