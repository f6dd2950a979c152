package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * The autoscalers' taint writes on nodes (cluster-autoscaler's {@code utils/taints}: {@code addTaint} and
 * {@code cleanTaint}; Karpenter's terminator {@code Taint}), read-modify-write against the store with a few retries on
 * conflicts. Stateless; thread-safe as the store is.
 */
public final class NodeTaintWrites {
  private static final int CONFLICT_RETRIES = 3;

  private NodeTaintWrites() {}

  /** Whether {@code node} carries a taint with {@code key}. */
  static boolean has(Node node, String key) {
    List<Taint> taints = node.spec().taints();
    for (int i = 0, n = taints.size(); i < n; i++) {
      if (taints.get(i).key().equals(key)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Puts the taint {@code key} with {@code effect} on node {@code node}, its value the time in seconds (as upstream);
   * nothing when it has one with that key.
   *
   * @return {@code null}, or why it failed
   */
  static @Nullable String add(ObjectStore store, String node, String key, TaintEffect effect, Instant now) {
    return add(store, node, key, effect, now, false);
  }

  /**
   * {@link #add(ObjectStore, String, String, TaintEffect, Instant)}, and with {@code cordon} the node also marked
   * unschedulable in the same write (upstream's {@code AddTaints} with {@code cordonNode}); a node that already has the
   * taint is left as it is, cordon included.
   *
   * @return {@code null}, or why it failed
   */
  static @Nullable String add(ObjectStore store, String node, String key, TaintEffect effect, Instant now,
      boolean cordon) {
    return write(store, node, "node " + node + " not found", n -> {
      if (has(n, key)) {
        return null;
      }
      Node.Builder b = n.toBuilder().taint(new Taint(key, String.valueOf(now.getEpochSecond()), effect, now));
      return (cordon ? b.unschedulable(true) : b).build();
    });
  }

  /**
   * Puts {@code taint} on node {@code node} as Karpenter's terminator does: nothing when it has a taint of that key and
   * effect; otherwise its taints of that key (with another effect) are replaced by {@code taint}.
   *
   * @return {@code null}, or why it failed (also when the node does not exist)
   */
  public static @Nullable String put(ObjectStore store, String node, Taint taint) {
    return put(store, node, taint, Map.of());
  }

  /**
   * {@link #put(ObjectStore, String, Taint)}, and the node's {@code labels} set in the same write (Karpenter's
   * termination taints a node and labels it out of load balancers at once); nothing is written when both are there.
   *
   * @return {@code null}, or why it failed
   */
  public static @Nullable String put(ObjectStore store, String node, Taint taint, Map<String, String> labels) {
    return write(store, node, "node " + node + " not found", n -> {
      List<Taint> kept = new ArrayList<>();
      boolean tainted = false;
      for (Taint t : n.spec().taints()) {
        if (t.key().equals(taint.key()) && t.effect() == taint.effect()) {
          tainted = true;
          kept.add(t);
        } else if (!t.key().equals(taint.key())) {
          kept.add(t);
        }
      }
      boolean labelled = true;
      for (Map.Entry<String, String> e : labels.entrySet()) {
        labelled &= e.getValue().equals(n.metadata().labels().get(e.getKey()));
      }
      if (tainted && labelled) {
        return null;
      }
      Node.Builder b = n.toBuilder().taints(tainted ? n.spec().taints() : add(kept, taint));
      labels.forEach(b::label);
      return b.build();
    });
  }

  private static List<Taint> add(List<Taint> taints, Taint taint) {
    taints.add(taint);
    return taints;
  }

  /**
   * Removes the taints with {@code key} from node {@code node}; a node gone has none.
   *
   * @return {@code null}, or why it failed
   */
  static @Nullable String remove(ObjectStore store, String node, String key) {
    return remove(store, node, key, false);
  }

  /**
   * {@link #remove(ObjectStore, String, String)}, and with {@code uncordon} the node also marked schedulable in the same
   * write (upstream's {@code CleanTaints} with {@code cordonNode}); a node without the taint is left as it is, cordon
   * included.
   *
   * @return {@code null}, or why it failed
   */
  static @Nullable String remove(ObjectStore store, String node, String key, boolean uncordon) {
    return write(store, node, null, n -> {
      List<Taint> kept = new ArrayList<>();
      for (Taint t : n.spec().taints()) {
        if (!t.key().equals(key)) {
          kept.add(t);
        }
      }
      if (kept.size() == n.spec().taints().size()) {
        return null;
      }
      Node.Builder b = n.toBuilder().taints(kept);
      return (uncordon ? b.unschedulable(false) : b).build();
    });
  }

  /**
   * Reads node {@code node} and writes what {@code change} makes of it ({@code null}: nothing to write), again on a
   * conflict up to {@value #CONFLICT_RETRIES} times.
   *
   * @param gone the answer when the node does not exist
   * @return {@code null}, or why it failed
   */
  private static @Nullable String write(ObjectStore store, String node, @Nullable String gone,
      UnaryOperator<Node> change) {
    for (int attempt = 0; ; attempt++) {
      try {
        Optional<Node> cur = store.get(Node.class, "", node);
        if (cur.isEmpty()) {
          return gone;
        }
        Node next = change.apply(cur.get());
        if (next != null) {
          store.update(next);
        }
        return null;
      } catch (ConflictException e) {
        if (attempt + 1 >= CONFLICT_RETRIES) {
          return e.getMessage();
        }
      } catch (RuntimeException e) {
        return e.getMessage();
      }
    }
  }
}
