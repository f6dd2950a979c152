package io.fleetkit.adapter.kubernetes.scheduler.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Preemption victims on their way out. The engine drops a victim from its cache when it chooses it; until the API
 * server shows the victim terminating (a {@code deletionTimestamp}) or gone, the pod feed must not put it back (the
 * informer still delivers its earlier versions, and the {@code DisruptionTarget} status patch), or the preemptor
 * would find its node full and preempt again. An eviction that fails is undone: the victim is queued for
 * {@link #drainResyncs() re-feeding} from the informer, so that the engine counts it again. Keyed by
 * {@code namespace/name} and uid. Thread-safe (no locks held while calling out).
 */
public final class EvictedPods {
  private final Map<String, String> evicting = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<String> resync = new ConcurrentLinkedQueue<>();

  /** The eviction of this pod (key and uid) has started. */
  public void start(String key, String uid) {
    evicting.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(uid, "uid"));
  }

  /** Whether the pod (this key and uid) is being evicted and its non-terminating versions are to be ignored. */
  public boolean isEvicting(String key, String uid) {
    return uid.equals(evicting.get(key));
  }

  /** The pod was deleted, or its eviction ended: its versions are fed again. */
  public void clear(String key) {
    evicting.remove(key);
  }

  /** The eviction did not happen: feed the informer's copy of the pod to the engine again. */
  public void undo(String key) {
    evicting.remove(key);
    resync.add(key);
  }

  /** The keys to re-feed, queued since the last drain. */
  public List<String> drainResyncs() {
    List<String> out = new ArrayList<>();
    for (String k = resync.poll(); k != null; k = resync.poll()) {
      out.add(k);
    }
    return out;
  }
}
