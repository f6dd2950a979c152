package io.fleetkit.observability.store;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.ExpiredException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchListener;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * An {@link ObjectStore} that records {@link StoreMetrics} around another store and otherwise behaves exactly as it:
 * every call is passed through, and every exception is rethrown unchanged after it was counted. Closing it closes the
 * wrapped store. Thread-safe if the wrapped store is.
 */
public final class MeteredObjectStore implements ObjectStore {
  private final ObjectStore store;
  private final MetricsRegistry metrics;

  private MeteredObjectStore(ObjectStore store, MetricsRegistry metrics) {
    this.store = Objects.requireNonNull(store, "store");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** {@code store}, counted into {@code metrics}; {@code store} itself when {@code metrics} records nothing. */
  public static ObjectStore wrap(ObjectStore store, MetricsRegistry metrics) {
    return metrics.enabled() ? new MeteredObjectStore(store, metrics) : Objects.requireNonNull(store, "store");
  }

  private <R> R count(String operation, String kind, Supplier<R> call) {
    R r;
    try {
      r = call.get();
    } catch (RuntimeException e) {
      metrics.counter(StoreMetrics.REQUESTS, operation, kind, result(e)).increment();
      throw e;
    }
    metrics.counter(StoreMetrics.REQUESTS, operation, kind, StoreMetrics.SUCCESS).increment();
    return r;
  }

  private static String result(RuntimeException e) {
    if (e instanceof ConflictException) {
      return StoreMetrics.CONFLICT;
    }
    if (e instanceof NotFoundException) {
      return StoreMetrics.NOT_FOUND;
    }
    if (e instanceof ValidationException || e instanceof IllegalArgumentException) {
      return StoreMetrics.INVALID;
    }
    if (e instanceof ExpiredException) {
      return StoreMetrics.EXPIRED;
    }
    return StoreMetrics.ERROR;
  }

  @Override
  public <T extends ApiObject<T>> T create(T object) {
    return count("create", object.kind(), () -> store.create(object));
  }

  @Override
  public <T extends ApiObject<T>> Optional<T> get(Class<T> kind, String namespace, String name) {
    return count("get", kind.getSimpleName(), () -> store.get(kind, namespace, name));
  }

  @Override
  public <T extends ApiObject<T>> T require(Class<T> kind, String namespace, String name) {
    return count("get", kind.getSimpleName(), () -> store.require(kind, namespace, name));
  }

  @Override
  public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace) {
    return count("list", kind.getSimpleName(), () -> store.list(kind, namespace));
  }

  @Override
  public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace, LabelSelector selector) {
    return count("list", kind.getSimpleName(), () -> store.list(kind, namespace, selector));
  }

  @Override
  public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace, Predicate<? super T> filter) {
    return count("list", kind.getSimpleName(), () -> store.list(kind, namespace, filter));
  }

  @Override
  public <T extends ApiObject<T>> T update(T object) {
    return count("update", object.kind(), () -> store.update(object));
  }

  @Override
  public <T extends ApiObject<T>> T updateStatus(T object) {
    return count("update_status", object.kind(), () -> store.updateStatus(object));
  }

  @Override
  public io.fleetkit.api.core.Namespace finalizeNamespace(io.fleetkit.api.core.Namespace namespace) {
    return count("finalize", namespace.kind(), () -> store.finalizeNamespace(namespace));
  }

  @Override
  public io.fleetkit.api.core.Pod resize(io.fleetkit.api.core.Pod pod) {
    return count("resize", pod.kind(), () -> store.resize(pod));
  }

  /** Counted as an update: one write of metadata, spec and status (the store's binding path). */
  @Override
  public <T extends ApiObject<T>> T updateWithStatus(T object) {
    return count("update", object.kind(), () -> store.updateWithStatus(object));
  }

  @Override
  public <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name, DeleteOptions options) {
    return count("delete", kind.getSimpleName(), () -> store.delete(kind, namespace, name, options));
  }

  @Override
  public <T extends ApiObject<T>> Watch watch(Class<T> kind, String fromResourceVersion, WatchListener<T> listener) {
    String k = kind.getSimpleName();
    Gauge open = metrics.gauge(StoreMetrics.WATCHERS, k);
    AtomicBoolean closed = new AtomicBoolean();
    WatchListener<T> counting = new WatchListener<>() {
      @Override
      public void onEvent(WatchEvent<T> event) {
        metrics.counter(StoreMetrics.WATCH_EVENTS, k, event.type().name()).increment();
        listener.onEvent(event);
      }

      @Override
      public void onExpired(ExpiredException cause) {
        if (closed.compareAndSet(false, true)) {
          open.add(-1); // the store ends an expired watch
        }
        listener.onExpired(cause);
      }
    };
    Watch w = count("watch", k, () -> store.watch(kind, fromResourceVersion, counting));
    open.add(1);
    return new Watch() {
      @Override
      public void close() {
        if (closed.compareAndSet(false, true)) {
          open.add(-1);
        }
        w.close();
      }

      @Override
      public boolean isClosed() {
        return w.isClosed();
      }
    };
  }

  @Override
  public String resourceVersion() {
    return store.resourceVersion();
  }

  @Override
  public boolean sharedWithOtherProcesses() {
    return store.sharedWithOtherProcesses();
  }

  @Override
  public void close() {
    store.close();
  }

  @Override
  public String toString() {
    return "MeteredObjectStore{" + store + "}";
  }
}
