package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.api.time.GoDurations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The pods that were reserved on a node and are held by Permit plugins, kube's {@code waitingPodsMap}. A pod leaves
 * when every plugin that made it wait allowed it (it is bound), when one rejects it or its wait runs out (it is
 * unreserved and re-queued), or when it is deleted or bound elsewhere ({@link #drop}).
 *
 * <p>Thread-safe as a {@link WaitingPods}: {@link #allow} and {@link #reject} may be called from any thread; they go
 * through the scheduler's {@link EngineLock}, so a decision made from another thread during a cycle takes effect at its
 * end, and one made inside a cycle (by a plugin) takes effect once the cycle is over. Everything else is confined to
 * the lock.
 */
final class WaitingPodsImpl implements WaitingPods {

  /** What the scheduler does with a pod that leaves. */
  interface Outcomes {
    /** Every plugin allowed it: the binding cycle continues. */
    void allowed(WaitingPod wp, long nowNanos);

    /** A plugin rejected it or its wait ran out: unreserve, forget the assumed pod, re-queue. */
    void rejected(WaitingPod wp, Status why, long nowNanos);

    /** It was deleted or bound elsewhere: unreserve and forget the assumed pod, no re-queue. */
    void dropped(WaitingPod wp);
  }

  /** A pod reserved on a node and held by Permit plugins. */
  static final class WaitingPod {
    final QueuedPod qp;
    final Framework fw;
    final ArrayCycleState state;
    final EnginePodInfo assumed;
    final String nodeName;
    /** The plugins still to allow the pod, with their deadlines (nanoseconds), in Permit order. */
    final LinkedHashMap<String, Long> pending;
    final long sinceNanos;
    @Nullable Status rejected;

    WaitingPod(QueuedPod qp, Framework fw, ArrayCycleState state, EnginePodInfo assumed, String nodeName,
        Map<String, Long> deadlines, long sinceNanos) {
      this.qp = qp;
      this.fw = fw;
      this.state = state;
      this.assumed = assumed;
      this.nodeName = nodeName;
      this.pending = new LinkedHashMap<>(deadlines);
      this.sinceNanos = sinceNanos;
    }
  }

  private final EngineLock lock;
  private final LongSupplier nanos;
  private final Map<String, WaitingPod> pods = new LinkedHashMap<>();
  private final List<WaitingPod> ready = new ArrayList<>();
  private @Nullable Outcomes outcomes;
  /** Set while a cycle runs: decisions are only recorded then, and acted on after the cycle. */
  private boolean deferred;

  WaitingPodsImpl(EngineLock lock, LongSupplier nanos) {
    this.lock = lock;
    this.nanos = nanos;
  }

  /** Connects the scheduler (which is built after the frameworks that hold this object). */
  void outcomes(Outcomes outcomes) {
    this.outcomes = outcomes;
  }

  /** While {@code deferred}, allow and reject only record their decision; {@link #processReady} acts on it. */
  void defer(boolean deferred) {
    this.deferred = deferred;
  }

  void add(WaitingPod wp) {
    pods.put(wp.assumed.key(), wp);
  }

  @Override
  public Set<String> keys() {
    return lock.call(() -> Set.copyOf(pods.keySet()));
  }

  @Override
  public void allow(String podKey, String pluginName) {
    lock.submit("allow", podKey + " by " + pluginName, () -> {
      WaitingPod wp = pods.get(podKey);
      if (wp == null || wp.pending.remove(pluginName) == null) {
        return;
      }
      if (wp.pending.isEmpty() && !ready.contains(wp)) {
        ready.add(wp);
      }
      if (!deferred) {
        processReady();
      }
    });
  }

  @Override
  public void reject(String podKey, String pluginName, String reason) {
    lock.submit("reject", podKey + " by " + pluginName, () -> {
      WaitingPod wp = pods.get(podKey);
      if (wp == null || wp.rejected != null) {
        return;
      }
      wp.rejected = Status.unschedulable(reason).withPlugin(pluginName);
      if (!ready.contains(wp)) {
        ready.add(wp);
      }
      if (!deferred) {
        processReady();
      }
    });
  }

  /**
   * Rejects the waiting pod {@code key} because it is being deleted, kube's {@code RejectWaitingPod} (message
   * {@code removed}, no plugin): it is unreserved and re-queued now, or once the running cycle is over. Returns
   * whether the pod was waiting.
   */
  boolean rejectDeleted(String key) {
    WaitingPod wp = pods.get(key);
    if (wp == null) {
      return false;
    }
    if (wp.rejected == null) {
      wp.rejected = Status.unschedulable("removed");
      if (!ready.contains(wp)) {
        ready.add(wp);
      }
    }
    if (!deferred) {
      processReady();
    }
    return true;
  }

  /** Rejects pods whose wait ran out, with kube's message. */
  void expire(long now) {
    if (pods.isEmpty()) {
      return; // the common case: no iterator to allocate
    }
    for (WaitingPod wp : pods.values()) {
      if (wp.rejected != null) {
        continue;
      }
      for (Map.Entry<String, Long> e : wp.pending.entrySet()) {
        if (now - e.getValue() >= 0) {
          wp.rejected = Status.unschedulable("rejected due to timeout after waiting "
              + GoDurations.format(Duration.ofNanos(now - wp.sinceNanos)) + " at plugin " + e.getKey()).withPlugin(e.getKey());
          ready.add(wp);
          break;
        }
      }
    }
  }

  /** Binds the allowed pods and re-queues the rejected ones. */
  void processReady() {
    while (!ready.isEmpty()) {
      WaitingPod wp = ready.remove(0);
      if (pods.remove(wp.assumed.key()) != wp) {
        continue;
      }
      long now = nanos.getAsLong();
      wp.qp.where = QueuedPod.Where.IN_FLIGHT;
      if (wp.rejected != null) {
        outcomes().rejected(wp, wp.rejected, now);
      } else {
        outcomes().allowed(wp, now);
      }
    }
  }

  /** Forgets a waiting pod that was deleted or bound elsewhere: unreserve and forget, no re-queue. */
  void drop(String key) {
    WaitingPod wp = pods.remove(key);
    if (wp != null) {
      ready.remove(wp);
      outcomes().dropped(wp);
    }
  }

  /** Rejects every waiting pod with {@code reason} and acts on it (the scheduler is closing). */
  void rejectAll(String reason) {
    for (WaitingPod wp : pods.values()) {
      if (wp.rejected == null) {
        wp.rejected = Status.unschedulable(reason);
        ready.add(wp);
      }
    }
    processReady();
  }

  private Outcomes outcomes() {
    if (outcomes == null) {
      throw new IllegalStateException("waiting pods: not connected to a scheduler");
    }
    return outcomes;
  }
}
