package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The device ids of one scheduler's pods: those reserved but not yet recorded on the pod (by Reserve, until the bound
 * pod carries annotation {@value GpuRequests#IDS_ANNOTATION}), and a per-node {@link DeviceLedger} cache rebuilt
 * from the node's pods whenever the node's generation or a reservation changes. A pod that leaves the node frees its
 * devices with the next rebuild. After a restart the ledgers come back from the recorded annotations alone.
 *
 * <p>Thread-safe: Filter and Score read ledgers from several threads.
 */
public final class GpuAssignments {
  private final Map<String, String> reserved = new ConcurrentHashMap<>();
  /** Per node, a counter bumped whenever a reservation on it changes. */
  private final Map<String, AtomicLong> nodeVersions = new ConcurrentHashMap<>();
  /** Per reserved pod, its node. */
  private final Map<String, String> reservedNode = new ConcurrentHashMap<>();
  private final Map<String, Cached> ledgers = new ConcurrentHashMap<>();

  private record Cached(long generation, long version, DeviceLedger ledger) {}

  /** The ids reserved for {@code podKey} and not yet seen recorded on the pod, or {@code null}. */
  public @Nullable String reservedIds(String podKey) {
    return reserved.get(podKey);
  }

  void reserve(String podKey, String nodeName, String ids) {
    reserved.put(podKey, ids);
    String old = reservedNode.put(podKey, nodeName);
    if (old != null && !old.equals(nodeName)) {
      bump(old);
    }
    bump(nodeName);
  }

  void unreserve(String podKey) {
    reserved.remove(podKey);
    String node = reservedNode.remove(podKey);
    if (node != null) {
      bump(node);
    }
  }

  private void bump(String nodeName) {
    nodeVersions.computeIfAbsent(nodeName, k -> new AtomicLong()).incrementAndGet();
  }

  private long nodeVersion(String nodeName) {
    AtomicLong v = nodeVersions.get(nodeName);
    return v == null ? 0 : v.get();
  }

  /** Forgets a reservation, e.g. when the pod was deleted before it was bound. */
  public void forget(String podKey) {
    unreserve(podKey);
  }

  /** The node's ledger, from its pods' recorded (or reserved) device ids. */
  DeviceLedger ledger(NodeInfo node) {
    long v = nodeVersion(node.name());
    Cached c = ledgers.get(node.name());
    if (c != null && c.generation == node.generation() && c.version == v) {
      return c.ledger;
    }
    DeviceLedger l = build(node, null);
    ledgers.put(node.name(), new Cached(node.generation(), v, l));
    return l;
  }

  /** The node's ledger as if {@code podKey} were not on it (Reserve picks for a pod the node may already hold). */
  DeviceLedger ledgerWithout(NodeInfo node, String podKey) {
    return build(node, podKey);
  }

  private DeviceLedger build(NodeInfo node, @Nullable String excludedKey) {
    DeviceLedger l = new DeviceLedger(node.node().status().gpus());
    List<PodInfo> pods = node.pods();
    PodInfo[] unrecorded = null;
    int nUnrecorded = 0;
    for (PodInfo p : pods) {
      GpuDemand d = GpuDemand.of(p.pod());
      if (d.isNone() || p.key().equals(excludedKey)) {
        continue;
      }
      List<String> ids = GpuRequests.assignedIds(p.pod().metadata());
      if (!ids.isEmpty()) {
        reserved.remove(p.key());
        reservedNode.remove(p.key());
      } else {
        String r = reserved.get(p.key());
        ids = r == null ? List.of() : List.of(r.split(",", -1));
      }
      int[] idx = ids.stream().mapToInt(l::indexOf).toArray();
      if (ids.isEmpty() || !l.charge(idx, d)) {
        if (unrecorded == null) {
          unrecorded = new PodInfo[pods.size()];
        }
        unrecorded[nUnrecorded++] = p;
      }
    }
    // Pods without usable recorded ids (bound by another scheduler, or ids that collide) still hold devices:
    // charge them where they fit now so that nothing is ever overcommitted.
    for (int i = 0; i < nUnrecorded; i++) {
      GpuDemand d = GpuDemand.of(unrecorded[i].pod());
      int[] idx = l.pick(new GpuDemand(d.whole(), d.milli(), List.of()), false);
      if (idx != null) {
        l.charge(idx, d);
      }
    }
    return l;
  }
}
