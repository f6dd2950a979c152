package io.fleetkit.adapter.kubernetes.scheduler.internal;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Pods whose binding the API server refused for good: 409 (already bound, or the pod was replaced: the Binding's
 * uid precondition failed) and 404 (the pod is gone). They are not retried: the binder records them here, the
 * scheduling loop removes them from the scheduler ({@link #drain}), and the pod feed ignores their pending
 * versions until the informer shows them bound or deleted. Keyed by {@code namespace/name} and uid, so that a new
 * pod of the same name is scheduled normally. Thread-safe.
 */
public final class ForgottenPods {
  /** A pod to forget. */
  public record Entry(String key, String uid) {
    public Entry {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(uid, "uid");
    }
  }

  private final ConcurrentLinkedQueue<Entry> toForget = new ConcurrentLinkedQueue<>();
  private final Map<String, String> forgotten = new ConcurrentHashMap<>();

  /** Called by the binder: forget this pod once the current scheduling pass is over. */
  public void add(String key, String uid) {
    toForget.add(new Entry(key, uid));
    forgotten.put(key, uid);
  }

  /** Whether the pod (this key and uid) was forgotten and not seen bound or deleted since. */
  public boolean isForgotten(String key, String uid) {
    return uid.equals(forgotten.get(key));
  }

  /** The pod was seen bound or deleted: its later versions are fed again. */
  public void clear(String key) {
    forgotten.remove(key);
  }

  /** The entries added since the last drain. */
  public java.util.List<Entry> drain() {
    java.util.List<Entry> out = new java.util.ArrayList<>();
    for (Entry e = toForget.poll(); e != null; e = toForget.poll()) {
      out.add(e);
    }
    return out;
  }
}
