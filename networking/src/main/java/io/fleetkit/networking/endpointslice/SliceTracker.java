package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ResourceEventHandler;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The slices a controller wrote (one tracker per controller: the EndpointSlice controller's, the mirroring
 * controller's), so that the events of its own writes do not sync their Service again, as
 * Kubernetes' {@code EndpointSliceTracker} (which compares generations): a slice event whose content is the one
 * last written (the same endpoint list instance, ports and labels: the store and the caches copy metadata, never
 * endpoint lists) or a deletion the controller asked for needs no sync; anything else (another writer's change, an
 * unexpected deletion) does. A write is recorded before it is made, because a store may deliver its event before
 * the write returns.
 *
 * <p>Thread-safe.
 */
final class SliceTracker {
  /** What was written to a slice, by {@code namespace/name}; {@link #DELETED} for an expected deletion. */
  private final Map<String, EndpointSlice> written = new ConcurrentHashMap<>();
  private static final EndpointSlice DELETED = new EndpointSlice(
      io.fleetkit.api.meta.ObjectMeta.of("", "deleted"), io.fleetkit.api.discovery.AddressType.IPv4,
      java.util.List.of(), java.util.List.of());

  /** Records a create or update about to be made. */
  void expectWrite(EndpointSlice s) {
    written.put(s.metadata().key(), s);
  }

  /** Records a deletion about to be made ({@code ExpectDeletion}). */
  void expectDeletion(EndpointSlice s) {
    written.put(s.metadata().key(), DELETED);
  }

  /** Forgets a slice (its write failed). */
  void forget(EndpointSlice s) {
    written.remove(s.metadata().key());
  }

  /** {@code ShouldSync}: whether an added or updated slice differs from what this controller last wrote. */
  boolean shouldSync(EndpointSlice s) {
    EndpointSlice w = written.get(s.metadata().key());
    return w == null || w == DELETED || w.endpoints() != s.endpoints() || !w.ports().equals(s.ports())
        || !w.metadata().labels().equals(s.metadata().labels()) || w.addressType() != s.addressType();
  }

  /** {@code Has}: whether the slice was written or deleted by this controller. */
  boolean has(EndpointSlice s) {
    return written.containsKey(s.metadata().key());
  }

  /** {@code HandleDeletion}: forgets a deleted slice; true when the deletion was the controller's own. */
  boolean handleDeletion(EndpointSlice s) {
    return written.remove(s.metadata().key()) == DELETED;
  }

  /** Makes a create or update of {@code s} ({@code op}), recorded first and forgotten if it fails. */
  void write(EndpointSlice s, Runnable op) {
    expectWrite(s);
    try {
      op.run();
    } catch (RuntimeException e) {
      forget(s);
      throw e;
    }
  }

  /** Deletes {@code s}, recorded first; a slice already gone is the desired state (no event will come). */
  void delete(ObjectStore store, EndpointSlice s) {
    expectDeletion(s);
    try {
      store.delete(EndpointSlice.class, s.metadata().namespace(), s.metadata().name());
    } catch (NotFoundException e) {
      forget(s);
    }
  }

  /**
   * The slice event handler of a controller whose slices {@code managed} recognises: queues the slice's Service
   * ({@code queue}) when another writer added, changed or deleted one of its slices, when a slice's managed-by or
   * service-name label changed (both Services for the latter), as upstream's {@code onEndpointSlice*} handlers.
   */
  ResourceEventHandler<EndpointSlice> handler(Predicate<EndpointSlice> managed, Consumer<EndpointSlice> queue) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(EndpointSlice s) {
        if (managed.test(s) && shouldSync(s)) {
          queue.accept(s);
        }
      }

      @Override
      public void onUpdate(EndpointSlice old, EndpointSlice s) {
        if (!old.serviceName().equals(s.serviceName())) {
          queue.accept(s);
          queue.accept(old);
        } else if (managed.test(old) != managed.test(s) || (managed.test(s) && shouldSync(s))) {
          queue.accept(s);
        }
      }

      @Override
      public void onDelete(EndpointSlice s, boolean finalStateUnknown) {
        if (managed.test(s) && has(s) && !handleDeletion(s)) {
          queue.accept(s);
        }
      }
    };
  }
}
