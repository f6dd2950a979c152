package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.scheduler.NodeInfo;
import io.fleetkit.api.scheduler.PodInfo;
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
  private final AtomicLong version = new AtomicLong();
  private final Map<String, Cached> ledgers = new ConcurrentHashMap<>();

  private record Cached(long generation, long version, DeviceLedger ledger) {}

  /** The ids reserved for {@code podKey} and not yet seen recorded on the pod, or {@code null}. */
  public @Nullable String reservedIds(String podKey) {
    return reserved.get(podKey);
  }

  void reserve(String podKey, String ids) {
    reserved.put(podKey, ids);
    version.incrementAndGet();
  }

  void unreserve(String podKey) {
    if (reserved.remove(podKey) != null) {
      version.incrementAndGet();
    }
  }

  /** Forgets a reservation, e.g. when the pod was deleted before it was bound. */
  public void forget(String podKey) {
    unreserve(podKey);
  }

  /** The node's ledger, from its pods' recorded (or reserved) device ids. */
  DeviceLedger ledger(NodeInfo node) {
    long v = version.get();
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
