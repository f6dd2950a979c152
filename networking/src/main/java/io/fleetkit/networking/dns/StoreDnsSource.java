package io.fleetkit.networking.dns;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The current {@link DnsSnapshot} of a store's Services and EndpointSlices (and Pods, when asked: what
 * {@link PodsMode#VERIFIED} needs, as CoreDNS watches pods only then), kept current by watches: every change marks the
 * snapshot stale and the next {@link #get()} rebuilds it (once, however many changes came in between). Thread-safe;
 * {@link #close()} stops the watches.
 */
public final class StoreDnsSource implements Supplier<DnsSnapshot>, AutoCloseable {
  private final ObjectStore store;
  private final Clock clock;
  private final AtomicBoolean stale = new AtomicBoolean(true);
  private final Watch services;
  private final Watch slices;
  private final @Nullable Watch pods;
  private volatile DnsSnapshot snapshot = DnsSnapshot.empty();

  /** Services and EndpointSlices, no pods. */
  public StoreDnsSource(ObjectStore store, Clock clock) {
    this(store, clock, false);
  }

  /**
   * @param withPods whether to watch and index Pods (needed for {@link PodsMode#VERIFIED} only; each pod change
   *     rebuilds the snapshot)
   */
  public StoreDnsSource(ObjectStore store, Clock clock, boolean withPods) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.services = store.watch(Service.class, "", e -> stale.set(true));
    this.slices = store.watch(EndpointSlice.class, "", e -> stale.set(true));
    this.pods = withPods ? store.watch(Pod.class, "", e -> stale.set(true)) : null;
  }

  @Override
  public DnsSnapshot get() {
    if (stale.get()) {
      synchronized (this) {
        if (stale.getAndSet(false)) {
          List<Service> svc = store.list(Service.class).items();
          List<EndpointSlice> sl = store.list(EndpointSlice.class).items();
          List<Pod> pl = pods == null ? List.of() : store.list(Pod.class).items();
          snapshot = DnsSnapshot.of(svc, sl, pl, List.of(), clock.instant().getEpochSecond());
        }
      }
    }
    return snapshot;
  }

  @Override
  public void close() {
    services.close();
    slices.close();
    if (pods != null) {
      pods.close();
    }
  }
}
