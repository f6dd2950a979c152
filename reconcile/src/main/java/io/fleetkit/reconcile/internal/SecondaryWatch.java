package io.fleetkit.reconcile.internal;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import java.util.Collection;
import java.util.EnumSet;
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
 */
public record SecondaryWatch(Set<WatchEventType> on,
    @Nullable BiFunction<? super ApiObject<?>, ? super Lister<?>, ? extends Collection<ObjectKey>> mapper) {
  /** Every event type. */
  public static final Set<WatchEventType> ALL = Set.copyOf(EnumSet.allOf(WatchEventType.class));

  /** Validates and copies; {@code on} must not be empty. */
  public SecondaryWatch {
    Objects.requireNonNull(on, "on");
    if (on.isEmpty()) {
      throw new IllegalArgumentException("a secondary watch must handle at least one event type");
    }
    on = Set.copyOf(EnumSet.copyOf(on));
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
