package io.fleetkit.reconcile.internal;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ResourceEventHandler;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * How a controller watches one secondary kind: the event types that wake it and how an object of that kind maps to
 * primary keys.
 *
 * @param on the event types handled; events of other types are ignored (the informer still caches them)
 * @param mapper the watched object and the watched kind's cache (already holding the new state) to the primary keys
 *     to reconcile (empty: none); null maps an object to its controller owner, if that is a primary object
 * @param before handlers the informer calls on every event of the kind before the controller's mapping (a
 *     controller's own bookkeeping, as upstream controllers add their handlers to the shared informer)
 */
public record SecondaryWatch(Set<WatchEventType> on,
    @Nullable BiFunction<? super ApiObject<?>, ? super Lister<?>, ? extends Collection<ObjectKey>> mapper,
    List<ResourceEventHandler<?>> before) {
  /** Every event type. */
  public static final Set<WatchEventType> ALL = Set.copyOf(EnumSet.allOf(WatchEventType.class));

  /** Validates and copies; {@code on} must not be empty. */
  public SecondaryWatch {
    Objects.requireNonNull(on, "on");
    if (on.isEmpty()) {
      throw new IllegalArgumentException("a secondary watch must handle at least one event type");
    }
    on = Set.copyOf(EnumSet.copyOf(on));
    before = List.copyOf(before);
  }

  /** A watch of these event types and this mapping, with no handler before it. */
  public SecondaryWatch(Set<WatchEventType> on,
      @Nullable BiFunction<? super ApiObject<?>, ? super Lister<?>, ? extends Collection<ObjectKey>> mapper) {
    this(on, mapper, List.of());
  }

  /** This watch with {@code handler} called after the handlers before it already has. */
  public SecondaryWatch withHandlerBefore(ResourceEventHandler<?> handler) {
    Objects.requireNonNull(handler, "handler");
    List<ResourceEventHandler<?>> all = new java.util.ArrayList<>(before);
    all.add(handler);
    return new SecondaryWatch(on, mapper, all);
  }

  /** All events of the watched kind, each object mapped to its controller owner. */
  public static SecondaryWatch owner() {
    return new SecondaryWatch(ALL, null);
  }

  /** All events, each object mapped by {@code mapper} (which ignores the cache). */
  @SuppressWarnings("unchecked")
  public static <O> SecondaryWatch mapping(java.util.function.Function<? super O, ? extends Collection<ObjectKey>> f) {
    Objects.requireNonNull(f, "mapper");
    return new SecondaryWatch(ALL, (o, cache) -> f.apply((O) o));
  }
}
