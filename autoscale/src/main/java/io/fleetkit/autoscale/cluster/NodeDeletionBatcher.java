package io.fleetkit.autoscale.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Deletes the nodes scale-down actuation has prepared, gathering those of one pool for an interval (upstream's
 * {@code core/scaledown/actuation/delete_in_batch.go}, {@code NodeDeletionBatcher}). With interval 0 a node is deleted
 * when added; otherwise the first node of a pool opens its bucket, and {@link #advance} at or after the interval's
 * end deletes the bucket's nodes together. Upstream's timer goroutine is the deadline read by {@link #advance}, on
 * the autoscaler's clock.
 *
 * <p>Unlike a cloud provider's {@code DeleteNodes}, the store deletes node by node: each node of a bucket gets its own
 * result. Not thread-safe: confined to the autoscaler's loop.
 */
final class NodeDeletionBatcher {
  /** Deletes a node; {@code null} when done, else the error. */
  interface Deleter {
    @Nullable String delete(String node);
  }

  /** Told how each deletion ended. */
  interface Sink {
    void deleted(String node, String pool, boolean drain);

    void failed(String node, String pool, boolean drain, NodeDeleteResult result);
  }

  private final Duration interval;
  private final Deleter deleter;
  private final Sink sink;
  /** The nodes waiting, by pool, in the order added (upstream's {@code deletionsPerNodeGroup}). */
  private final Map<String, List<String>> deletionsPerPool = new LinkedHashMap<>();
  /** Whether each waiting node was drained (upstream's {@code drainedNodeDeletions}). */
  private final Map<String, Boolean> drainedNodeDeletions = new HashMap<>();
  /** When each pool's bucket is deleted. */
  private final Map<String, Instant> due = new HashMap<>();

  NodeDeletionBatcher(Duration interval, Deleter deleter, Sink sink) {
    this.interval = Objects.requireNonNull(interval, "interval");
    this.deleter = Objects.requireNonNull(deleter, "deleter");
    this.sink = Objects.requireNonNull(sink, "sink");
  }

  /** Adds a prepared node of {@code pool}: deleted now when the interval is 0, else with its pool's bucket. */
  void addNode(String node, String pool, boolean drain, Instant now) {
    if (interval.isZero()) {
      delete(List.of(node), pool, Map.of(node, drain));
      return;
    }
    if (addNodeToBucket(node, pool, drain)) {
      due.put(pool, now.plus(interval));
    }
  }

  /**
   * Adds {@code node} to its pool's bucket; whether it is the bucket's first node (upstream's
   * {@code addNodeToBucket}).
   */
  boolean addNodeToBucket(String node, String pool, boolean drain) {
    drainedNodeDeletions.put(node, drain);
    List<String> nodes = deletionsPerPool.get(pool);
    if (nodes == null || nodes.isEmpty()) {
      List<String> fresh = new ArrayList<>();
      fresh.add(node);
      deletionsPerPool.put(pool, fresh);
      return true;
    }
    nodes.add(node);
    return false;
  }

  /** Deletes the buckets whose interval has passed at {@code now}. */
  void advance(Instant now) {
    for (String pool : List.copyOf(deletionsPerPool.keySet())) {
      Instant at = due.get(pool);
      if (at != null && !now.isBefore(at)) {
        remove(pool);
      }
    }
  }

  /**
   * Deletes the nodes of {@code pool}'s bucket (upstream's {@code remove}).
   *
   * @return {@code null}, or the error when the pool has no bucket
   */
  @Nullable String remove(String pool) {
    List<String> nodes = deletionsPerPool.remove(pool);
    due.remove(pool);
    if (nodes == null) {
      return "Node Group " + pool + " is not present in the batch deleter";
    }
    Map<String, Boolean> drained = new HashMap<>();
    for (String n : nodes) {
      Boolean d = drainedNodeDeletions.remove(n);
      drained.put(n, d != null && d);
    }
    delete(nodes, pool, drained);
    return null;
  }

  private void delete(List<String> nodes, String pool, Map<String, Boolean> drained) {
    for (String n : nodes) {
      boolean drain = drained.getOrDefault(n, false);
      String err = deleter.delete(n);
      if (err == null) {
        sink.deleted(n, pool, drain);
      } else {
        sink.failed(n, pool, drain, NodeDeleteResult.failed(NodeDeleteResult.Type.FAILED_TO_DELETE,
            new AutoscalerError(AutoscalerError.Type.CLOUD_PROVIDER_ERROR, "failed to delete " + n + ": " + err)));
      }
    }
  }

  /** The pools with a bucket waiting. */
  int buckets() {
    return deletionsPerPool.size();
  }

  /** The nodes waiting in buckets. */
  int waitingNodes() {
    return drainedNodeDeletions.size();
  }
}
