package io.fleetkit.autoscale.hpa;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.reconcile.Lister;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@link PodLister} kept from a pod watch, as the informer cache upstream's HPA lists from: for each (namespace,
 * selector) asked for, the matching pods in key order, listed from the store once and then changed by the watch
 * events. A list asked for again is the same immutable list instance while it holds the same pod objects (a pod
 * created, changed, relabelled or deleted makes a new one; one created and deleted between two reads does not), so
 * a caller that compares its inputs (the HPA controller's reuse of its last computation) compares one reference
 * instead of every pod.
 *
 * <p>The answer equals {@code store.list(Pod.class, namespace, selector).items()} whenever the store has delivered
 * every event of its writes, which a store built with {@code directDelivery()} (as the simulation's) has done when a
 * write returns; with asynchronous delivery it lags the store as an informer does. A selector's pods are kept from
 * its first list until {@link #close}; each watch event costs a lookup of the pod's label set among the selectors
 * kept in its namespace (the matches of a label set are remembered). Not thread-safe: for single-threaded
 * simulations.
 */
public final class WatchedPods implements PodLister, AutoCloseable {
  /** Remembered label sets per namespace before the memo is cleared (label sets grow with rollouts). */
  private static final int MAX_LABEL_SETS = 10_000;

  private final ObjectStore store;
  private final Watch watch;
  /** The selectors kept per namespace, with their pods. */
  private final Map<String, Map<LabelSelector, Entry>> entries = new HashMap<>();
  /** Per namespace: the entries whose selector matches a label set. */
  private final Map<String, Map<Map<String, String>, Entry[]>> matching = new HashMap<>();
  /**
   * The entries by selector instance (callers ask with their target's selector, mostly the same instance at every
   * read): found without hashing the selector. Cleared when it outgrows the entries (callers that make a selector
   * per read).
   */
  private final Map<LabelSelector, Entry> byInstance = new java.util.IdentityHashMap<>();
  private int entryCount;
  /** The entries each kept pod is in, by uid (the same string at every version of the pod). */
  private final Map<String, Membership> memberOf = new HashMap<>();

  /**
   * The entries a kept pod is in, and the label map (instance) they were matched from at its last event; null when
   * they were not all matched from one label map (an entry listed since), so the next event matches afresh.
   */
  private record Membership(@Nullable Map<String, String> labels, Entry[] entries) {}
  private boolean closed;

  /**
   * One selector's pods by name, and their list made on the first read after a change; the pods per distinct label
   * set, and those label sets, kept while no set appears or goes.
   */
  private static final class Entry {
    final String namespace;
    final LabelSelector selector;
    /** The pods in name order, in the first {@link #size} slots (an array: a list of them is one copy). */
    Pod[] pods = new Pod[8];
    int size;
    final Map<Map<String, String>, int[]> labelCounts = new HashMap<>();
    @Nullable List<Pod> list;
    /** The list last handed out, kept across changes so that the same pods give the same instance. */
    @Nullable List<Pod> last;
    @Nullable Collection<Map<String, String>> labelSets;

    /** Where the pod named {@code name} is, or {@code -(insertion point) - 1}. */
    private int indexOf(String name) {
      int lo = 0;
      int hi = size - 1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        int c = pods[mid].metadata().name().compareTo(name);
        if (c < 0) {
          lo = mid + 1;
        } else if (c > 0) {
          hi = mid - 1;
        } else {
          return mid;
        }
      }
      return -(lo + 1);
    }

    /** Puts {@code p} in (replacing its older version). */
    void put(Pod p) {
      int i = indexOf(p.metadata().name());
      if (i >= 0 && pods[i].metadata().labels() == p.metadata().labels()) {
        pods[i] = p; // the same label map (a status write, a binding): its count stays as it is
        list = null;
        return;
      }
      if (i >= 0) {
        uncount(pods[i]);
        pods[i] = p;
      } else {
        i = -i - 1;
        if (size == pods.length) {
          pods = java.util.Arrays.copyOf(pods, size * 2);
        }
        System.arraycopy(pods, i, pods, i + 1, size - i);
        pods[i] = p;
        size++;
      }
      int[] n = labelCounts.computeIfAbsent(p.metadata().labels(), k -> new int[1]);
      if (n[0]++ == 0) {
        labelSets = null;
      }
      list = null;
    }

    void remove(String name) {
      int i = indexOf(name);
      if (i >= 0) {
        uncount(pods[i]);
        System.arraycopy(pods, i + 1, pods, i, size - i - 1);
        pods[--size] = null;
      }
      list = null;
    }

    private void uncount(Pod old) {
      int[] n = labelCounts.get(old.metadata().labels());
      if (n != null && --n[0] == 0) {
        labelCounts.remove(old.metadata().labels());
        labelSets = null;
      }
    }

    Collection<Map<String, String>> labelSets() {
      Collection<Map<String, String>> l = labelSets;
      if (l == null) {
        l = List.copyOf(labelCounts.keySet());
        labelSets = l;
      }
      return l;
    }

    Entry(String namespace, LabelSelector selector) {
      this.namespace = namespace;
      this.selector = selector;
    }

    List<Pod> list() {
      List<Pod> l = list;
      if (l == null) {
        l = size == 0 ? List.of() : java.util.Collections.unmodifiableList(java.util.Arrays.asList(
            java.util.Arrays.copyOf(pods, size)));
        if (last != null && Lister.sameObjects(last, l)) {
          l = last; // changed and changed back (a pod created and deleted between two reads): the same list
        }
        list = l;
        last = l;
      }
      return l;
    }
  }

  public WatchedPods(ObjectStore store) {
    this.store = Objects.requireNonNull(store, "store");
    this.watch = store.watch(Pod.class, store.resourceVersion(), this::onEvent);
  }

  /**
   * The pods of {@code namespace} that {@code selector} matches, in key order: the same list as last time while none
   * of them changed.
   *
   * @throws IllegalStateException after {@link #close}
   */
  @Override
  public List<Pod> list(String namespace, LabelSelector selector) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(selector, "selector");
    if (closed) {
      throw new IllegalStateException("watched pods: closed");
    }
    Entry e = entry(namespace, selector);
    if (e == null) {
      Map<LabelSelector, Entry> inNamespace = entries.computeIfAbsent(namespace, k -> new HashMap<>());
      e = new Entry(namespace, selector);
      inNamespace.put(selector, e);
      entryCount++;
      remember(selector, e);
      matching.remove(namespace); // the new selector may match label sets met before
      List<Pod> pods = store.list(Pod.class, namespace, selector).items();
      for (Pod p : pods) {
        e.put(p);
        Membership was = memberOf.get(p.metadata().uid());
        Entry[] now = was == null ? new Entry[1] : java.util.Arrays.copyOf(was.entries(), was.entries().length + 1);
        now[now.length - 1] = e;
        memberOf.put(p.metadata().uid(), new Membership(null, now));
      }
      e.list = pods.isEmpty() ? List.of() : List.copyOf(pods);
      e.last = e.list;
    }
    return e.list();
  }

  /** The label sets of {@code pods}: kept from the watch when {@code pods} is this lister's current list for them. */
  @Override
  public Collection<Map<String, String>> labelSets(String namespace, LabelSelector selector, List<Pod> pods) {
    Entry e = entry(namespace, selector);
    if (e != null && e.list == pods) {
      return e.labelSets();
    }
    return PodLister.super.labelSets(namespace, selector, pods);
  }

  /** The entry kept for {@code selector} (or an equal one) in {@code namespace}, or null. */
  private @Nullable Entry entry(String namespace, LabelSelector selector) {
    Entry e = byInstance.get(selector);
    if (e != null && e.namespace.equals(namespace)) {
      return e;
    }
    Map<LabelSelector, Entry> inNamespace = entries.get(namespace);
    e = inNamespace == null ? null : inNamespace.get(selector);
    if (e != null) {
      remember(selector, e);
    }
    return e;
  }

  private void remember(LabelSelector selector, Entry e) {
    if (byInstance.size() >= 2 * entryCount + 16) {
      byInstance.clear();
    }
    byInstance.put(selector, e);
  }

  private void onEvent(WatchEvent<Pod> event) {
    Pod p = event.object();
    String namespace = p.metadata().namespace();
    Map<LabelSelector, Entry> inNamespace = entries.get(namespace);
    if (inNamespace == null) {
      return;
    }
    String key = p.metadata().uid();
    String name = p.metadata().name();
    Membership member = memberOf.get(key);
    Entry[] was = member == null ? null : member.entries();
    Map<String, String> labels = p.metadata().labels();
    if (member != null && member.labels() == labels && event.type() != WatchEventType.DELETED) {
      // the label map its entries were matched from (a status write, a binding): the same entries match
      for (Entry e : was) {
        e.put(p);
      }
      return;
    }
    Entry[] now = event.type() == WatchEventType.DELETED ? new Entry[0] : matchingEntries(namespace, inNamespace,
        labels);
    if (was != null) {
      for (Entry e : was) {
        if (!contains(now, e)) {
          e.remove(name);
        }
      }
    }
    for (Entry e : now) {
      e.put(p);
    }
    if (now.length == 0) {
      memberOf.remove(key);
    } else {
      memberOf.put(key, new Membership(labels, now));
    }
  }

  private Entry[] matchingEntries(String namespace, Map<LabelSelector, Entry> inNamespace,
      Map<String, String> labels) {
    Map<Map<String, String>, Entry[]> memo = matching.computeIfAbsent(namespace, k -> new HashMap<>());
    Entry[] found = memo.get(labels);
    if (found == null) {
      List<Entry> out = new ArrayList<>(1);
      for (Entry e : inNamespace.values()) {
        if (e.selector.matches(labels)) {
          out.add(e);
        }
      }
      found = out.toArray(new Entry[0]);
      if (memo.size() >= MAX_LABEL_SETS) {
        memo.clear();
      }
      memo.put(labels, found);
    }
    return found;
  }

  private static boolean contains(Entry[] entries, Entry e) {
    for (Entry x : entries) {
      if (x == e) {
        return true;
      }
    }
    return false;
  }

  /** Stops following the store and forgets every kept selector. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    watch.close();
    entries.clear();
    byInstance.clear();
    matching.clear();
    memberOf.clear();
  }
}
