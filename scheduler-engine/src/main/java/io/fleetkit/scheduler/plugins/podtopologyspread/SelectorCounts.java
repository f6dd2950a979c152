package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.labels.Requirement;
import io.fleetkit.api.labels.SelectionOperator;
import io.fleetkit.api.labels.Selector;
import io.fleetkit.scheduler.nodetable.NodeTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The pods matching each remembered (selector, namespace) pair, counted per node and per topology domain, and kept up
 * to date across scheduling cycles: {@link #sync} brings the index to a snapshot's node list by diffing each changed
 * node view once for all selectors, so a pod bound, updated or deleted costs a few label lookups (the selectors whose
 * anchor requirement the pod's labels hold, plus the unanchored ones) however many workloads are tracked. Successive
 * pods of many interleaved workloads then read their counts without walking any node's pods.
 *
 * <p>Nodes are followed by name; a node's pods are compared by identity with its previous view (its pods never
 * change once the view is made, {@link NodeInfo}), only the pods between the common prefix and suffix being matched.
 * With a {@link NodeTable}, only the positions its change log names since the last sync are visited; otherwise every
 * position (one identity check each). At most {@value #MAX_SELECTORS} selectors are remembered (least recently used
 * dropped). A new selector counts every node's pods once, unless no pod holds its anchor label (the index counts the
 * pods per namespace, label key and value), as when a workload's first pod is scheduled.
 *
 * <p>Not thread-safe: callers hold this object's monitor for a whole PreFilter/PreScore pass.
 */
final class SelectorCounts {
  private static final int MAX_SELECTORS = 1024;

  private final LinkedHashMap<String, Tracked> bySelector = new LinkedHashMap<>(16, 0.75f, true);
  /** The tracked selectors by the selector objects asked for (compiled selectors are reused across cycles). */
  private final IdentityHashMap<Selector, Tracked> byInstance = new IdentityHashMap<>();
  /** Tracked selectors by the key and value of their first exact requirement. */
  private final HashMap<String, HashMap<String, List<Tracked>>> anchored = new HashMap<>();
  /** {@link #anchored}'s keys and value maps as arrays, for the per-pod lookups. */
  private String[] anchorKeys = new String[0];
  @SuppressWarnings("unchecked")
  private HashMap<String, List<Tracked>>[] anchorValues = new HashMap[0];
  /** Tracked selectors without an exact requirement: checked against every changed pod. */
  private final List<Tracked> unanchored = new ArrayList<>();

  private final HashMap<String, Entry> byName = new HashMap<>();
  private @Nullable Entry[] atPosition = new Entry[0];
  /** The size of the node list last synced. */
  private int known;
  private int idCapacity = 16;
  private int nextId;
  private int[] freeIds = new int[0];
  private int freeCount;
  private @Nullable NodeTable table;
  private long tableSeen = -1;
  private long epoch;
  /** How far the last node found at a new position had moved up (a removal shifts every later row alike). */
  private int shift;
  private final List<Entry> displaced = new ArrayList<>();
  /** Pods on the synced nodes (not terminating) per namespace, label key and label value. */
  private final HashMap<String, HashMap<String, HashMap<String, int[]>>> labelPods = new HashMap<>();
  /** The domain layouts that some tracked selector's sums use. */
  private final List<Layout> layouts = new ArrayList<>();

  /** One node as last synced. */
  private static final class Entry {
    final String name;
    final int id;
    NodeInfo view;
    Map<String, String> labels;
    int position;
    long epoch;

    Entry(String name, int id, NodeInfo view) {
      this.name = name;
      this.id = id;
      this.view = view;
      this.labels = view.labels();
    }
  }

  /**
   * Brings the index up to date with {@code list}, a snapshot's nodes: only the positions {@code table}'s change log
   * names when {@code list} is that table's nodes and the index followed it since the log's base; every position
   * otherwise. Nodes no longer in the list are forgotten.
   */
  void sync(List<NodeInfo> list, @Nullable NodeTable table) {
    int size = list.size();
    if (table == null || table != this.table || tableSeen < table.logBase()) {
      fullSync(list);
    } else {
      growPositions(size);
      for (int n = known; n < size; n++) {
        visit(n, list.get(n));
      }
      for (long seq = tableSeen, end = table.logEnd(); seq < end; seq++) {
        int n = table.changedAt(seq);
        if (n < size) {
          visit(n, list.get(n));
        }
      }
      clearFrom(size);
      known = size;
      for (int i = 0, k = displaced.size(); i < k; i++) {
        Entry e = displaced.get(i);
        if ((e.position >= size || atPosition[e.position] != e) && byName.get(e.name) == e) {
          remove(e);
        }
      }
      displaced.clear();
    }
    this.table = table;
    tableSeen = table == null ? -1 : table.logEnd();
  }

  private void fullSync(List<NodeInfo> list) {
    int size = list.size();
    growPositions(size);
    epoch++;
    for (int n = 0; n < size; n++) {
      visit(n, list.get(n));
    }
    clearFrom(size);
    known = size;
    displaced.clear();
    List<Entry> gone = null;
    for (Entry e : byName.values()) {
      if (e.epoch != epoch) {
        if (gone == null) {
          gone = new ArrayList<>();
        }
        gone.add(e);
      }
    }
    if (gone != null) {
      gone.forEach(this::remove);
    }
  }

  private void growPositions(int size) {
    if (size > atPosition.length) {
      atPosition = Arrays.copyOf(atPosition, Math.max(size, atPosition.length * 2));
    }
  }

  private void clearFrom(int size) {
    for (int n = size; n < known; n++) {
      Entry at = atPosition[n];
      if (at != null) {
        displaced.add(at);
        atPosition[n] = null;
      }
    }
  }

  /** Places {@code node} at position {@code n}, counting what changed since its previous view. */
  private void visit(int n, NodeInfo node) {
    Entry at = atPosition[n];
    if (at != null && at.view == node) {
      at.epoch = epoch;
      return;
    }
    String name = node.name();
    Entry e;
    int guess = n + shift;
    if (at != null && at.name.equals(name)) {
      e = at;
    } else if (shift > 0 && guess < known && atPosition[guess] != null && atPosition[guess].view == node) {
      e = atPosition[guess]; // rows moved up by a removal: the node met at the same distance as the last one
    } else {
      e = byName.get(name);
      shift = e == null ? 0 : e.position - n;
    }
    if (at != null && at != e) {
      displaced.add(at);
    }
    if (e == null) {
      e = add(name, node);
    } else if (e.view != node) {
      change(e, node);
    }
    e.position = n;
    e.epoch = epoch;
    atPosition[n] = e;
  }

  private Entry add(String name, NodeInfo node) {
    int id;
    if (freeCount > 0) {
      id = freeIds[--freeCount];
    } else {
      id = nextId++;
      if (id >= idCapacity) {
        idCapacity *= 2;
        for (Tracked t : bySelector.values()) {
          t.counts = Arrays.copyOf(t.counts, idCapacity);
        }
        for (Layout l : layouts) {
          l.grow(idCapacity);
        }
      }
    }
    Entry e = new Entry(name, id, node);
    byName.put(name, e);
    List<PodInfo> pods = node.pods();
    for (int i = 0, k = pods.size(); i < k; i++) {
      apply(pods.get(i), e, 1);
    }
    for (Layout l : layouts) {
      l.place(e.id, e.labels);
    }
    return e;
  }

  private void remove(Entry e) {
    for (Layout l : layouts) {
      l.retract(e.id);
    }
    // the node's pods taken back one by one (its id is in no layout now): every tracked count of the id is the sum
    // of its pods' matches, so this leaves them all 0, touching only the selectors a pod can match
    List<PodInfo> pods = e.view.pods();
    for (int i = 0, k = pods.size(); i < k; i++) {
      apply(pods.get(i), e, -1);
    }
    byName.remove(e.name);
    if (freeCount == freeIds.length) {
      freeIds = Arrays.copyOf(freeIds, Math.max(8, freeCount * 2));
    }
    freeIds[freeCount++] = e.id;
  }

  /** Moves {@code e} from its previous view to {@code node}: labels re-slotted, differing pods counted. */
  private void change(Entry e, NodeInfo node) {
    NodeInfo before = e.view;
    Map<String, String> labels = node.labels();
    boolean relabel = labels != e.labels && !labels.equals(e.labels);
    if (relabel) {
      for (Layout l : layouts) {
        l.retract(e.id);
      }
    }
    List<PodInfo> a = before.pods();
    List<PodInfo> b = node.pods();
    if (a != b) {
      int na = a.size();
      int nb = b.size();
      int m = Math.min(na, nb);
      int prefix = 0;
      while (prefix < m && a.get(prefix) == b.get(prefix)) {
        prefix++;
      }
      int suffix = 0;
      while (suffix < m - prefix && a.get(na - 1 - suffix) == b.get(nb - 1 - suffix)) {
        suffix++;
      }
      if (na == nb) {
        // pods replaced in place (a status write): counts are sums, so a pair that counts alike cancels out
        for (int i = prefix; i < na - suffix; i++) {
          PodInfo was = a.get(i);
          PodInfo now = b.get(i);
          if (was != now && !countsAlike(was.pod(), now.pod())) {
            apply(was, e, -1);
            apply(now, e, 1);
          }
        }
      } else {
        for (int i = prefix; i < na - suffix; i++) {
          apply(a.get(i), e, -1);
        }
        for (int i = prefix; i < nb - suffix; i++) {
          apply(b.get(i), e, 1);
        }
      }
    }
    e.view = node;
    e.labels = labels;
    if (relabel) {
      for (Layout l : layouts) {
        l.place(e.id, labels);
      }
    }
  }

  /**
   * Whether {@code a} and {@code b} add the same to every count ({@link #apply}): both terminating, or neither and of
   * the same namespace and labels.
   */
  private static boolean countsAlike(Pod a, Pod b) {
    boolean goneA = a.metadata().deletionTimestamp() != null;
    boolean goneB = b.metadata().deletionTimestamp() != null;
    if (goneA || goneB) {
      return goneA && goneB;
    }
    Map<String, String> la = a.metadata().labels();
    Map<String, String> lb = b.metadata().labels();
    return a.metadata().namespace().equals(b.metadata().namespace()) && (la == lb || la.equals(lb));
  }

  /** Adds {@code delta} on {@code e} to every tracked selector {@code info}'s pod matches. */
  private void apply(PodInfo info, Entry e, int delta) {
    Pod p = info.pod();
    if (p.metadata().deletionTimestamp() != null) {
      return;
    }
    String ns = p.metadata().namespace();
    Map<String, String> labels = p.metadata().labels();
    countLabels(ns, labels, delta);
    for (int a = 0; a < anchorKeys.length; a++) {
      String value = labels.get(anchorKeys[a]);
      List<Tracked> ts = value == null ? null : anchorValues[a].get(value);
      if (ts != null) {
        for (int i = 0, k = ts.size(); i < k; i++) {
          ts.get(i).apply(ns, labels, e.id, delta);
        }
      }
    }
    for (int i = 0, k = unanchored.size(); i < k; i++) {
      unanchored.get(i).apply(ns, labels, e.id, delta);
    }
  }

  /** Adds {@code delta} to the count of pods in {@code ns} holding each of {@code labels}' pairs. */
  private void countLabels(String ns, Map<String, String> labels, int delta) {
    HashMap<String, HashMap<String, int[]>> byKey = labelPods.get(ns);
    if (byKey == null) {
      byKey = new HashMap<>();
      labelPods.put(ns, byKey);
    }
    for (Map.Entry<String, String> l : labels.entrySet()) {
      HashMap<String, int[]> byValue = byKey.get(l.getKey());
      if (byValue == null) {
        byValue = new HashMap<>();
        byKey.put(l.getKey(), byValue);
      }
      int[] c = byValue.get(l.getValue());
      if (c == null) {
        c = new int[1];
        byValue.put(l.getValue(), c);
      }
      c[0] += delta;
      if (c[0] == 0) {
        byValue.remove(l.getValue());
      }
    }
  }

  /** Whether some pod in {@code ns} on the synced nodes (not terminating) has label {@code key} = {@code value}. */
  private boolean anyPodLabelled(String ns, String key, String value) {
    HashMap<String, HashMap<String, int[]>> byKey = labelPods.get(ns);
    HashMap<String, int[]> byValue = byKey == null ? null : byKey.get(key);
    return byValue != null && byValue.containsKey(value);
  }

  /**
   * The counts for pods matching {@code selector} in {@code namespace} over the nodes last {@link #sync synced},
   * remembered from now on (counting every node's pods when new). {@code selector} must be able to match.
   */
  Tracked track(Selector selector, String namespace) {
    Tracked t = byInstance.get(selector);
    if (t != null && !t.dropped && t.namespace.equals(namespace)) {
      bySelector.get(t.key); // keeps it recently used
      return t;
    }
    String key = namespace + '\u0000' + selector;
    t = bySelector.get(key);
    if (t != null) {
      remember(selector, t);
      return t;
    }
    t = new Tracked(selector, namespace, key, idCapacity);
    remember(selector, t);
    String anchorKey = null;
    String anchorValue = null;
    for (Requirement r : selector.requirements()) {
      SelectionOperator op = r.operator();
      if ((op == SelectionOperator.Equals || op == SelectionOperator.DoubleEquals || op == SelectionOperator.In)
          && r.values().size() == 1) {
        anchorKey = r.key();
        anchorValue = r.values().get(0);
        break;
      }
    }
    // a workload's selector is usually first asked for when its first pod is scheduled: no pod holds its anchor yet
    if (anchorKey == null || anyPodLabelled(namespace, anchorKey, anchorValue)) {
      for (Entry e : byName.values()) {
        t.counts[e.id] = SpreadConstraint.countMatching(e.view.pods(), selector, namespace);
      }
    }
    bySelector.put(key, t);
    t.anchorKey = anchorKey;
    t.anchorValue = anchorValue;
    if (anchorKey == null) {
      unanchored.add(t);
    } else {
      anchored.computeIfAbsent(anchorKey, k -> new HashMap<>()).computeIfAbsent(anchorValue, k -> new ArrayList<>(1))
          .add(t);
      indexAnchors();
    }
    if (bySelector.size() > MAX_SELECTORS) {
      Iterator<Tracked> it = bySelector.values().iterator();
      untrack(it.next());
      it.remove();
    }
    return t;
  }

  private void remember(Selector selector, Tracked t) {
    if (byInstance.size() >= 4 * MAX_SELECTORS) {
      byInstance.clear();
    }
    byInstance.put(selector, t);
  }

  private void untrack(Tracked t) {
    t.dropped = true;
    for (DomainSums s : t.sums) {
      s.layout.sums.remove(s);
    }
    if (t.anchorKey == null) {
      unanchored.remove(t);
      return;
    }
    HashMap<String, List<Tracked>> byValue = anchored.get(t.anchorKey);
    List<Tracked> ts = byValue.get(t.anchorValue);
    ts.remove(t);
    if (ts.isEmpty()) {
      byValue.remove(t.anchorValue);
      if (byValue.isEmpty()) {
        anchored.remove(t.anchorKey);
        indexAnchors();
      }
    }
  }

  @SuppressWarnings("unchecked")
  private void indexAnchors() {
    anchorKeys = anchored.keySet().toArray(new String[0]);
    anchorValues = new HashMap[anchorKeys.length];
    for (int i = 0; i < anchorKeys.length; i++) {
      anchorValues[i] = anchored.get(anchorKeys[i]);
    }
  }

  /**
   * The matching pods on each of the first {@code size} nodes of the list last synced, by position, written into
   * {@code into} when it is long enough (else into a new array, returned).
   */
  int[] perPosition(Tracked t, int size, int[] into) {
    int[] out = into.length >= size ? into : new int[size];
    int[] counts = t.counts;
    for (int n = 0; n < size; n++) {
      Entry e = atPosition[n];
      out[n] = e == null ? 0 : counts[e.id];
    }
    return out;
  }

  /** The matching pods on the node at {@code position} of the list last synced. */
  int count(Tracked t, int position) {
    Entry e = atPosition[position];
    return e == null ? 0 : t.counts[e.id];
  }

  /** The running domain sums of {@code t} for {@code topologyKey} over nodes holding all {@code requiredKeys}. */
  DomainSums sums(Tracked t, String[] requiredKeys, String topologyKey) {
    for (DomainSums s : t.sums) {
      if (s.layout.is(requiredKeys, topologyKey)) {
        return s;
      }
    }
    Layout layout = null;
    for (Layout l : layouts) {
      if (l.is(requiredKeys, topologyKey)) {
        layout = l;
      }
    }
    if (layout == null) {
      layout = new Layout(requiredKeys, topologyKey, idCapacity);
      for (Entry e : byName.values()) {
        layout.place(e.id, e.labels);
      }
      layouts.add(layout);
    }
    DomainSums s = new DomainSums(layout, t);
    for (Entry e : byName.values()) {
      s.add(e.id, t.counts[e.id]);
    }
    layout.sums.add(s);
    t.sums = Arrays.copyOf(t.sums, t.sums.length + 1);
    t.sums[t.sums.length - 1] = s;
    return s;
  }

  /** One remembered (selector, namespace): matching pods per node id, and its domain sums. */
  static final class Tracked {
    private final Selector selector;
    private final String namespace;
    private final String key;
    private int[] counts;
    private boolean dropped;
    private DomainSums[] sums = new DomainSums[0];
    private @Nullable String anchorKey;
    private @Nullable String anchorValue;

    private Tracked(Selector selector, String namespace, String key, int capacity) {
      this.selector = selector;
      this.namespace = namespace;
      this.key = key;
      this.counts = new int[capacity];
    }

    private void apply(String ns, Map<String, String> labels, int id, int delta) {
      if (namespace.equals(ns) && selector.matches(labels)) {
        counts[id] += delta;
        for (DomainSums s : sums) {
          s.add(id, delta);
        }
      }
    }
  }

  /**
   * Which domain each node is in for one topology key, over the nodes that hold every key in {@code requiredKeys} (a
   * node lacking the topology key, when it is not required, is in the domain ""), with each domain's member count:
   * shared by the {@link DomainSums} of every tracked selector on the same keys, which it keeps up to date as nodes
   * come, go and change labels. The value index is copied before growing once handed out.
   */
  private static final class Layout {
    private final String[] requiredKeys;
    private final String topologyKey;
    private int[] slotById;
    private HashMap<String, Integer> index = new HashMap<>();
    private boolean indexShared;
    private int[] members = new int[4];
    /** Slots with at least one member node. */
    private int domains;
    /** Nodes in some domain (holding every required key). */
    private int placed;
    private final List<DomainSums> sums = new ArrayList<>();

    private Layout(String[] requiredKeys, String topologyKey, int capacity) {
      this.requiredKeys = requiredKeys;
      this.topologyKey = topologyKey;
      this.slotById = new int[capacity];
      Arrays.fill(slotById, -1);
    }

    private boolean is(String[] keys, String key) {
      return topologyKey.equals(key) && Arrays.equals(requiredKeys, keys);
    }

    private void grow(int capacity) {
      int old = slotById.length;
      slotById = Arrays.copyOf(slotById, capacity);
      Arrays.fill(slotById, old, capacity, -1);
    }

    /** Places node {@code id} (in no domain yet) by its {@code labels}, adding its matching pods to every sum. */
    private void place(int id, Map<String, String> labels) {
      for (String k : requiredKeys) {
        if (!labels.containsKey(k)) {
          return;
        }
      }
      int slot = slotOf(labels.getOrDefault(topologyKey, ""));
      slotById[id] = slot;
      if (members[slot]++ == 0) {
        domains++;
      }
      placed++;
      for (int i = 0, n = sums.size(); i < n; i++) {
        DomainSums s = sums.get(i);
        s.addAt(slot, s.tracked.counts[id]);
      }
    }

    /** Takes node {@code id} out of its domain, with its matching pods from every sum. */
    private void retract(int id) {
      int slot = slotById[id];
      if (slot < 0) {
        return;
      }
      slotById[id] = -1;
      if (--members[slot] == 0) {
        domains--;
      }
      placed--;
      for (int i = 0, n = sums.size(); i < n; i++) {
        DomainSums s = sums.get(i);
        s.addAt(slot, -s.tracked.counts[id]);
      }
    }

    private int slotOf(String value) {
      Integer s = index.get(value);
      if (s != null) {
        return s;
      }
      if (indexShared) {
        index = new HashMap<>(index);
        indexShared = false;
      }
      int slot = index.size();
      index.put(value, slot);
      if (slot >= members.length) {
        members = Arrays.copyOf(members, slot * 2);
      }
      return slot;
    }
  }

  /**
   * Running per-domain sums of one tracked selector's matching pods over a {@link Layout}'s domains: the PreFilter and
   * PreScore counts of a pod whose constraints need no per-pod eligibility check (nodeAffinityPolicy Honor with no
   * node selector or affinity, or Ignore; nodeTaintsPolicy Ignore).
   */
  static final class DomainSums {
    private final Layout layout;
    private final Tracked tracked;
    private int[] totals = new int[4];

    private DomainSums(Layout layout, Tracked tracked) {
      this.layout = layout;
      this.tracked = tracked;
    }

    /** The number of domains: values with at least one member node. */
    int domains() {
      return layout.domains;
    }

    /** The number of nodes in some domain: those holding every required key. */
    int placed() {
      return layout.placed;
    }

    /** Adds {@code delta} matching pods on node {@code id} (nothing when the node is in no domain). */
    private void add(int id, int delta) {
      int slot = layout.slotById[id];
      if (slot >= 0) {
        addAt(slot, delta);
      }
    }

    private void addAt(int slot, int delta) {
      if (slot >= totals.length) {
        totals = Arrays.copyOf(totals, Math.max(slot + 1, totals.length * 2));
      }
      totals[slot] += delta;
    }

    /** The current sums as a pod's domain counts (domains: values with at least one member node). */
    DomainCounts toCounts() {
      layout.indexShared = true;
      HashMap<String, Integer> index = layout.index;
      int n = index.size();
      int[] members = layout.members;
      boolean[] present = new boolean[Math.max(4, n)];
      int domains = 0;
      for (int i = 0; i < n; i++) {
        if (members[i] > 0) {
          present[i] = true;
          domains++;
        }
      }
      int[] counts = new int[Math.max(4, n)];
      System.arraycopy(totals, 0, counts, 0, Math.min(n, totals.length));
      return new DomainCounts(index, counts, present, domains);
    }

    /** The matching pods over the member nodes whose topology value is {@code value} (0 when there is none). */
    int total(String value) {
      Integer s = layout.index.get(value);
      return s == null || s >= totals.length ? 0 : totals[s];
    }
  }
}
