package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.ExpiredException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchListener;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ClusterPods} kept from a pod watch on a store (list once, then watch from the list's version, as an
 * informer), so that a loop costs the pods that changed since the last one rather than a list of every pod.
 *
 * <p>The watch's events are queued as they are delivered and applied by {@link #current}. With a store that delivers
 * its events before a write returns ({@code ObjectStoreBuilder.directDelivery()}, as the simulator's), the grouping
 * {@code current} returns is that of {@code store.list(Pod.class)} at that moment; with asynchronous delivery it lags
 * the store as upstream's informer-fed listers do. A watch the store ends because it fell behind
 * ({@link WatchListener#onExpired}) is replaced by a new list and watch on the next {@code current}.
 *
 * <p>Thread-safety: the listener may run on any thread; {@link #current} and {@link #close} are called by the
 * autoscaler's loop (under its lock).
 */
final class WatchedClusterPods implements AutoCloseable {
  private final ObjectStore store;
  private final ConcurrentLinkedQueue<WatchEvent<Pod>> events = new ConcurrentLinkedQueue<>();
  private volatile boolean expired;
  private @Nullable Watch watch;
  private @Nullable ClusterPods pods;
  private boolean closed;

  WatchedClusterPods(ObjectStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /**
   * The pods as of the events delivered so far: on the first call (and after the watch expired) a new grouping of a
   * fresh list; otherwise the same instance as last time, changed by the queued events.
   *
   * @throws IllegalStateException after {@link #close}
   */
  ClusterPods current() {
    if (closed) {
      throw new IllegalStateException("cluster autoscaler: pod watch closed");
    }
    ClusterPods p = pods;
    if (p == null || expired) {
      p = relist();
    }
    for (WatchEvent<Pod> e = events.poll(); e != null; e = events.poll()) {
      p.apply(e);
    }
    return p;
  }

  private ClusterPods relist() {
    Watch w = watch;
    if (w != null) {
      w.close();
    }
    events.clear();
    expired = false;
    ListResult<Pod> list = store.list(Pod.class);
    ClusterPods p = new ClusterPods();
    p.update(list.items());
    watch = store.watch(Pod.class, list.resourceVersion(), new WatchListener<>() {
      @Override
      public void onEvent(WatchEvent<Pod> event) {
        events.add(event);
      }

      @Override
      public void onExpired(ExpiredException cause) {
        expired = true;
      }
    });
    pods = p;
    return p;
  }

  /** Ends the watch. Idempotent. */
  @Override
  public void close() {
    closed = true;
    Watch w = watch;
    if (w != null) {
      w.close();
    }
    events.clear();
  }
}
