package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.internal.DefaultInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One informer per kind for several controllers, as client-go's {@code SharedInformerFactory}: each kind is listed,
 * watched and cached once, and every user's handlers are called from that one informer, in the order the users
 * started. Give it to controller builders ({@link ControllerBuilder#informers}, the workload controllers' and the
 * {@link GarbageCollectorBuilder#informers garbage collector's}) that run against the same store; a process with a
 * dozen controllers watching pods then keeps one pod cache instead of a dozen.
 *
 * <p>{@link #informer} returns a user's view of the shared informer, itself an {@link Informer}: handlers added to it
 * are registered with the shared informer when the view {@linkplain Informer#start() starts} (those added later, at
 * once), and each then first receives an {@code onAdd} for every cached object, exactly as with an informer of its
 * own; {@linkplain Informer#close() closing} the view removes its handlers and leaves the shared informer running for
 * the others. The shared informers cache every namespace and never resync. {@link #close()} stops them all.
 *
 * <p>Thread-safe.
 */
public final class SharedInformers implements AutoCloseable {
  private final ObjectStore store;
  private final TimerClock clock;
  private final Map<Class<?>, DefaultInformer<?>> informers = new LinkedHashMap<>();
  private boolean closed;

  private SharedInformers(ObjectStore store, TimerClock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Shared informers over {@code store}; {@code clock} is the informers' (they never resync). */
  public static SharedInformers of(ObjectStore store, TimerClock clock) {
    return new SharedInformers(store, clock);
  }

  /** The store the informers watch. */
  public ObjectStore store() {
    return store;
  }

  /**
   * A new user's view of the informer of {@code kind} (made on the first request).
   *
   * @throws IllegalStateException if these informers are closed
   */
  public <T extends ApiObject<T>> Informer<T> informer(Class<T> kind) {
    return informer(kind, Map.of());
  }

  /**
   * {@link #informer(Class)}, adding the custom indexes {@code indexers} to the shared cache (each is built on its
   * first read, so users that never read an index do not pay for it).
   *
   * @throws IllegalStateException if these informers are closed, or an index of one of those names exists
   */
  @SuppressWarnings("unchecked")
  public synchronized <T extends ApiObject<T>> Informer<T> informer(Class<T> kind,
      Map<String, Function<? super T, ? extends Collection<String>>> indexers) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(indexers, "indexers");
    if (closed) {
      throw new IllegalStateException("shared informers: closed; cannot share an informer of "
          + kind.getSimpleName());
    }
    DefaultInformer<T> shared = (DefaultInformer<T>) informers.computeIfAbsent(kind,
        k -> new DefaultInformer<>(store, kind, "", Duration.ZERO, clock, Map.of()));
    indexers.forEach(shared::addIndexer);
    return new View<>(shared);
  }

  /** Stops every shared informer; their users' handlers receive no further calls. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (DefaultInformer<?> inf : informers.values()) {
      inf.close();
    }
  }

  @Override
  public String toString() {
    return "SharedInformers" + informers.values();
  }

  /** One user's handlers on a shared informer, registered when the user starts. */
  private static final class View<T extends ApiObject<T>> implements Informer<T> {
    private final DefaultInformer<T> shared;
    /** Handlers added before the start, registered by it. */
    private final List<ResourceEventHandler<T>> pending = new ArrayList<>();
    /** Handlers registered with the shared informer, removed by {@link #close()}. */
    private final List<ResourceEventHandler<T>> registered = new ArrayList<>();
    private boolean started;
    private boolean closed;

    View(DefaultInformer<T> shared) {
      this.shared = shared;
    }

    @Override
    public Class<T> kind() {
      return shared.kind();
    }

    @Override
    public synchronized void addEventHandler(ResourceEventHandler<T> handler) {
      Objects.requireNonNull(handler, "handler");
      if (closed) {
        return;
      }
      if (started) {
        registered.add(handler);
        shared.addEventHandler(handler);
      } else {
        pending.add(handler);
      }
    }

    @Override
    public synchronized CompletableFuture<Void> start() {
      if (closed) {
        throw new IllegalStateException("informer " + kind().getSimpleName() + " is closed");
      }
      CompletableFuture<Void> synced = shared.start(); // lists first: the handlers below then get every object
      if (!started) {
        started = true;
        for (ResourceEventHandler<T> h : pending) {
          registered.add(h);
          shared.addEventHandler(h);
        }
        pending.clear();
      }
      return synced;
    }

    @Override
    public synchronized boolean hasSynced() {
      return started && shared.hasSynced();
    }

    @Override
    public Lister<T> lister() {
      return shared.lister();
    }

    @Override
    public String lastSyncResourceVersion() {
      return shared.lastSyncResourceVersion();
    }

    @Override
    public int listCount() {
      return shared.listCount();
    }

    @Override
    public synchronized void close() {
      if (closed) {
        return;
      }
      closed = true;
      for (ResourceEventHandler<T> h : registered) {
        shared.removeEventHandler(h);
      }
      registered.clear();
      pending.clear();
    }

    @Override
    public String toString() {
      return "shared " + shared;
    }
  }
}
