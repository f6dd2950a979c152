package io.fleetkit.simulator;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a run's nodes cost, to the millisecond: each node from its creation to its deletion (or to now) at its
 * NodePool's price per hour, as a cloud bills an instance from launch to termination, whatever the node's state. A
 * node of no pool, or of a pool without a price, costs nothing. Each stretch of a node's life is priced at its pool's
 * price when the stretch is counted (at the next {@link #total} or at the node's deletion), so a price changed during
 * a run applies from about then.
 *
 * <p>Deletions are taken from a watch on the store, which a simulation's stores deliver as they write, on the
 * simulation's clock; close this to end it. Not thread-safe: one simulation thread.
 */
final class NodeCost implements AutoCloseable {
  private final ObjectStore store;
  private final Supplier<Instant> clock;
  private final Instant start;
  /** The live nodes whose cost is counted up to an instant, by name. */
  private final Map<String, Instant> countedTo = new HashMap<>();
  private final Watch watch;
  private double dollars;

  /**
   * Counts the nodes of {@code store} from now on; a node created before, from its creation (not before the run's
   * {@code start}).
   */
  NodeCost(ObjectStore store, Supplier<Instant> clock, Instant start) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.start = Objects.requireNonNull(start, "start");
    this.watch = store.watch(Node.class, store.resourceVersion(), e -> {
      if (e.type() == WatchEventType.DELETED) {
        Node n = e.object();
        Instant from = countedTo.remove(n.name());
        add(n, from == null ? created(n) : from, clock.get(), price(pool(n)));
      }
    });
  }

  /** The cost in dollars of every node so far, the live ones up to now. */
  double total() {
    Instant now = clock.get();
    Map<String, Double> prices = new HashMap<>();
    for (NodePool p : store.list(NodePool.class).items()) {
      prices.put(p.metadata().name(), p.spec().pricePerHour());
    }
    for (Node n : store.list(Node.class).items()) {
      Instant from = countedTo.get(n.name());
      add(n, from == null ? created(n) : from, now, prices.getOrDefault(pool(n), 0.0));
      countedTo.put(n.name(), now);
    }
    return dollars;
  }

  private void add(Node n, Instant from, Instant to, double pricePerHour) {
    if (pricePerHour > 0 && to.isAfter(from)) {
      dollars += pricePerHour * Duration.between(from, to).toMillis() / 3_600_000.0;
    }
  }

  private Instant created(Node n) {
    Instant c = n.metadata().creationTimestamp();
    return c == null || c.isBefore(start) ? start : c;
  }

  private static String pool(Node n) {
    return n.metadata().labels().getOrDefault(NodePool.POOL_LABEL, "");
  }

  private double price(String pool) {
    if (pool.isEmpty()) {
      return 0;
    }
    NodePool p = store.get(NodePool.class, "", pool).orElse(null);
    return p == null ? 0 : p.spec().pricePerHour();
  }

  @Override
  public void close() {
    watch.close();
  }
}
