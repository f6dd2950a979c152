package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.discovery.EndpointSlice;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The slices this controller wrote, so that the events of its own writes do not sync their Service again, as
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
}
