package io.fleetkit.reconcile.node.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.scheduling.Taint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * What the pod garbage collector's checks read, kept up to date from pod and node watch events so that a pass costs
 * what it deletes rather than a visit of every pod: the terminated pods in deletion order, the pods of every node
 * name, the nodes that are gone while pods are still bound to them, the terminating pods never bound to a node and
 * the nodes that are not ready and carry the out-of-service taint. Each query answers as upstream's scan of its pod
 * and node listers would at that instant. Not thread-safe.
 */
public final class PodGcIndex {
  /** The pod status reason of a kubelet eviction (upstream {@code eviction.Reason}). */
  public static final String EVICTED = "Evicted";

  /**
   * Upstream {@code byEvictionAndCreationTimestamp}: evicted pods first, then by creation time, then by name (and,
   * so that the order is total, by namespace).
   */
  public static final Comparator<Pod> DELETION_ORDER = PodGcIndex::compareForDeletion;

  private final String outOfServiceTaint;
  /** Every pod, by {@code namespace/name}: its last seen state. */
  private final Map<String, Pod> pods = new HashMap<>();
  /** Pods in phase Succeeded or Failed, in {@link #DELETION_ORDER}. */
  private final TreeSet<Pod> terminated = new TreeSet<>(DELETION_ORDER);
  /** The keys of the pods bound to each node name (present nodes and gone ones alike). */
  private final Map<String, Set<String>> podsByNode = new HashMap<>();
  /** Terminating pods with no node, by key. */
  private final TreeSet<String> unscheduledTerminating = new TreeSet<>();
  /** Every node, by name. */
  private final Map<String, Node> nodes = new HashMap<>();
  /** Node names with bound pods that are not among the nodes. */
  private final TreeSet<String> missing = new TreeSet<>();
  /** Nodes that are not ready and carry the out-of-service taint. */
  private final TreeSet<String> outOfService = new TreeSet<>();

  /** @param outOfServiceTaint the taint key that marks a node out of service */
  public PodGcIndex(String outOfServiceTaint) {
    this.outOfServiceTaint = Objects.requireNonNull(outOfServiceTaint, "outOfServiceTaint");
  }

  /** The pod's key, {@code namespace/name}. */
  public static String key(Pod p) {
    return p.metadata().namespace() + "/" + p.metadata().name();
  }

  /** Upstream {@code eviction.PodIsEvicted}: Failed with reason {@value #EVICTED}. */
  public static boolean evicted(Pod p) {
    return p.status().phase() == PodPhase.Failed && EVICTED.equals(p.status().reason());
  }

  private static boolean deleting(Pod p) {
    return p.metadata().deletionTimestamp() != null;
  }

  private static int compareForDeletion(Pod a, Pod b) {
    boolean ea = evicted(a);
    boolean eb = evicted(b);
    if (ea != eb) {
      return ea ? -1 : 1;
    }
    @Nullable Instant ca = a.metadata().creationTimestamp();
    @Nullable Instant cb = b.metadata().creationTimestamp();
    if (!Objects.equals(ca, cb)) {
      if (ca == null || cb == null) {
        return ca == null ? -1 : 1;
      }
      return ca.compareTo(cb);
    }
    int c = a.metadata().name().compareTo(b.metadata().name());
    return c != 0 ? c : a.metadata().namespace().compareTo(b.metadata().namespace());
  }

  /** A pod was added or changed. */
  public void podChanged(Pod p) {
    String key = key(p);
    Pod old = pods.put(key, p);
    if (old != null) {
      if (sameIndexing(old, p)) {
        if (p.status().phase().isTerminal()) {
          terminated.remove(old); // same position; keep the current object
          terminated.add(p);
        }
        return;
      }
      unindex(old, key);
    }
    index(p, key);
  }

  /** A pod was deleted. */
  public void podDeleted(Pod p) {
    String key = key(p);
    Pod old = pods.remove(key);
    if (old != null) {
      unindex(old, key);
    }
  }

  private static boolean sameIndexing(Pod a, Pod b) {
    return a.spec().nodeName().equals(b.spec().nodeName())
        && a.status().phase().isTerminal() == b.status().phase().isTerminal()
        && evicted(a) == evicted(b)
        && deleting(a) == deleting(b)
        && Objects.equals(a.metadata().creationTimestamp(), b.metadata().creationTimestamp());
  }

  private void index(Pod p, String key) {
    if (p.status().phase().isTerminal()) {
      terminated.add(p);
    }
    String node = p.spec().nodeName();
    if (node.isEmpty()) {
      if (deleting(p)) {
        unscheduledTerminating.add(key);
      }
      return;
    }
    Set<String> on = podsByNode.computeIfAbsent(node, n -> new HashSet<>());
    on.add(key);
    if (on.size() == 1 && !nodes.containsKey(node)) {
      missing.add(node);
    }
  }

  private void unindex(Pod p, String key) {
    if (p.status().phase().isTerminal()) {
      terminated.remove(p);
    }
    String node = p.spec().nodeName();
    if (node.isEmpty()) {
      unscheduledTerminating.remove(key);
      return;
    }
    Set<String> on = podsByNode.get(node);
    if (on != null && on.remove(key) && on.isEmpty()) {
      podsByNode.remove(node);
      missing.remove(node);
    }
  }

  /** A node was added or changed. */
  public void nodeChanged(Node n) {
    nodes.put(n.name(), n);
    missing.remove(n.name());
    if (!n.isReady() && hasTaint(n, outOfServiceTaint)) {
      outOfService.add(n.name());
    } else {
      outOfService.remove(n.name());
    }
  }

  /** A node was deleted. */
  public void nodeDeleted(Node n) {
    nodes.remove(n.name());
    outOfService.remove(n.name());
    if (podsByNode.containsKey(n.name())) {
      missing.add(n.name());
    }
  }

  private static boolean hasTaint(Node n, String key) {
    for (Taint t : n.spec().taints()) {
      if (t.key().equals(key)) {
        return true;
      }
    }
    return false;
  }

  /** How many pods are in phase Succeeded or Failed. */
  public int terminatedCount() {
    return terminated.size();
  }

  /** The first {@code count} terminated pods in {@link #DELETION_ORDER} (all of them if there are fewer). */
  public List<Pod> oldestTerminated(int count) {
    List<Pod> out = new ArrayList<>(Math.max(0, Math.min(count, terminated.size())));
    for (Pod p : terminated) {
      if (out.size() >= count) {
        break;
      }
      out.add(p);
    }
    return out;
  }

  /**
   * The terminating pods on nodes that are not ready and carry the out-of-service taint, in {@link
   * #DELETION_ORDER}.
   */
  public List<Pod> terminatingOnOutOfServiceNodes() {
    List<Pod> out = new ArrayList<>();
    for (String node : outOfService) {
      for (String key : podsByNode.getOrDefault(node, Set.of())) {
        Pod p = pods.get(key);
        if (p != null && deleting(p)) {
          out.add(p);
        }
      }
    }
    out.sort(DELETION_ORDER);
    return out;
  }

  /** Whether a node of this name exists. */
  public boolean nodeExists(String name) {
    return nodes.containsKey(name);
  }

  /** The names of the nodes that pods are bound to but that do not exist, in name order. */
  public Set<String> missingNodes() {
    return Collections.unmodifiableSet(missing);
  }

  /** The pods bound to node {@code name}, by key. */
  public List<Pod> podsOn(String name) {
    Set<String> keys = podsByNode.get(name);
    if (keys == null) {
      return List.of();
    }
    List<String> sorted = new ArrayList<>(keys);
    Collections.sort(sorted);
    List<Pod> out = new ArrayList<>(sorted.size());
    for (String k : sorted) {
      out.add(Objects.requireNonNull(pods.get(k)));
    }
    return out;
  }

  /** The terminating pods bound to no node, by key. */
  public List<Pod> unscheduledTerminating() {
    List<Pod> out = new ArrayList<>(unscheduledTerminating.size());
    for (String k : unscheduledTerminating) {
      out.add(Objects.requireNonNull(pods.get(k)));
    }
    return out;
  }

  /** Whether some unscheduled pod is terminating. */
  public boolean hasUnscheduledTerminating() {
    return !unscheduledTerminating.isEmpty();
  }

  /** Whether some not-ready, out-of-service node has a terminating pod. */
  public boolean hasTerminatingOnOutOfServiceNodes() {
    for (String node : outOfService) {
      for (String key : podsByNode.getOrDefault(node, Set.of())) {
        Pod p = pods.get(key);
        if (p != null && deleting(p)) {
          return true;
        }
      }
    }
    return false;
  }
}
