package io.fleetkit.reconcile.internal;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.reconcile.Lister;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The informer's store: objects by {@code namespace/name} plus inverted indexes (index name → value → keys),
 * as client-go's {@code threadSafeMap}. One read-write lock keeps objects and indexes consistent with each other;
 * writes come from the one informer dispatch thread at a time, reads from anywhere.
 *
 * <p>Every key set (all keys, and each index value's keys) is a hash set plus its keys in listing order (namespace,
 * then name) as of its last read: a write costs a few hash operations whatever the set's size, and a read after
 * writes merges the keys that joined since (sorted among themselves) into that order, so a list or index read costs
 * the size of its answer and never sorts the whole set again. A controller that reads the hundred pods it owns among
 * ten thousand in its namespace pays for a hundred, and a namespace nobody lists costs no ordering at all.
 */
public final class IndexedCache<T extends ApiObject<T>> implements Lister<T> {
  /** Orders {@code namespace/name} keys (or bare names) as namespace then name, the order lists promise. */
  public static final Comparator<String> KEY_ORDER = IndexedCache::compareKeys;

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  /** The cached objects' entries by key. */
  private final Map<String, Entry> items = new HashMap<>();
  /**
   * The same entries by namespace, then name: {@link #get} looks up the strings it is given instead of building a
   * {@code namespace/name} key (the controllers find each changed pod's owner this way, several times per event), and
   * so does {@link #put} (an update replaces the object in its entry, which every map and posting shares).
   */
  private final Map<String, Map<String, Entry>> byName = new HashMap<>();
  /** Every cached key (in no index map: nothing removes it when empty). */
  private final Posting all = new Posting(new HashMap<>(), "", true);
  /** Index name → indexer; replaced whole (never changed in place) when {@link #addIndexer} adds one. */
  private volatile Map<String, Function<? super T, ? extends Collection<String>>> indexers;
  private final Map<String, Map<String, Posting>> indices = new HashMap<>();
  /**
   * The indexes kept: an index is built on its first read and kept from then on, so an informer whose controller
   * never asks for an index (a namespace nobody lists, the owners of kinds nobody reconciles) does not pay for it on
   * every event.
   */
  private final Set<String> active = ConcurrentHashMap.newKeySet();
  /** The last answer of {@link #list(String, LabelSelector)} per (namespace, selector) and the posting it filtered. */
  private final Map<SelectorKey, Selected<T>> selected = new ConcurrentHashMap<>();

  /**
   * For {@link #indexMatchesSelection}: the postings last found equal to a selection, with their change counts then.
   * Entries are immutable and replaced under the read lock; two readers of one key at once (a runtime runs one
   * reconcile per owner at a time) would both answer right, the last one's entry kept.
   */
  private final Map<MatchKey, Matched> matchingIndex = new ConcurrentHashMap<>();
  /** Set (under the write lock) once a cached object has a label key with '=': then {@link #matchingIndex} is unused. */
  private volatile boolean oddLabelKeys;

  /** Bound on {@link #selected} and {@link #matchingIndex}: cleared when one holds this many (owners come and go). */
  private static final int MAX_SELECTED = 4096;
  /** How many of its last joins and leaves a posting remembers, for {@link #indexMatchesSelection}. */
  private static final int RECENT = 16;

  /**
   * One cached object, with its key (the one string instance the maps and postings hold for it) and the index postings
   * it is in: an update replaces {@link #object} and tells those postings, without the indexers or a lookup by key.
   * Written under the write lock.
   */
  private final class Entry {
    final String key;
    T object;
    /** Its membership of {@link #all}. */
    final Membership inAll;
    /** Its memberships of index postings (built indexes only). */
    final List<Membership> in = new ArrayList<>(4);

    Entry(String key, T object) {
      this.key = key;
      this.object = object;
      this.inAll = new Membership(all, this);
    }

    @Nullable Membership membership(Posting p) {
      for (int i = 0; i < in.size(); i++) {
        if (in.get(i).posting == p) {
          return in.get(i);
        }
      }
      return null;
    }
  }

  /**
   * An entry's place in one posting: {@link #mark} is the posting's {@link Posting#batch} when the key was last put
   * among its joined or replaced keys, so that an update in the same batch (they are the same while the mark is) skips
   * the posting's maps; {@link #position} is where the key was last found in the posting's last list, a hint checked
   * against that list's key there (the same key instance, or search again). Written under the write lock, but for
   * the hint (under the posting's lock).
   */
  private final class Membership {
    final Posting posting;
    final Entry entry;
    int mark = -1;
    int position = -1;

    Membership(Posting posting, Entry entry) {
      this.posting = posting;
      this.entry = entry;
    }
  }

  private record SelectorKey(String namespace, LabelSelector selector) {}

  /** An answer, the candidates it was filtered from and which of them matched. */
  private record Selected<T>(List<T> from, boolean[] matched, List<T> answer) {}

  private record MatchKey(String indexName, String value, String namespace, LabelSelector selector) {}

  /**
   * An index posting that was found to hold exactly a selection, and each posting of the selector's
   * {@code matchLabels}, with the change counts all had then.
   */
  private final class Matched {
    final Posting indexed;
    final List<Posting> labels;
    final String namespace;
    final long indexedChanges;
    final long[] labelChanges;

    /** Made under the cache's lock, with the postings' change counts as they are then. */
    Matched(Posting indexed, List<Posting> labels, String namespace) {
      this.indexed = indexed;
      this.labels = labels;
      this.namespace = namespace;
      this.indexedChanges = indexed.changes;
      this.labelChanges = new long[labels.size()];
      for (int i = 0; i < labelChanges.length; i++) {
        labelChanges[i] = labels.get(i).changes;
      }
    }

    /**
     * Whether the index value still holds exactly the selection: every key that joined or left one of the postings
     * since is in both or in neither (the others kept their memberships, so they still agree); null when more changed
     * than the postings remember or one of them was dropped (its value's keys are in another posting now).
     */
    @Nullable Boolean stillEqual() {
      if (indexed.dropped) {
        return null;
      }
      for (Posting p : labels) {
        if (p.dropped) {
          return null;
        }
      }
      if (indexed.changes == indexedChanges && unchangedLabels()) {
        return Boolean.TRUE;
      }
      if (!indexed.remembers(indexedChanges)) {
        return null;
      }
      for (int i = 0; i < labelChanges.length; i++) {
        if (!labels.get(i).remembers(labelChanges[i])) {
          return null;
        }
      }
      // each changed key checked where it is remembered (a key two postings remember, twice: the same answer)
      if (!agreeSince(indexed, indexedChanges)) {
        return Boolean.FALSE;
      }
      for (int i = 0; i < labelChanges.length; i++) {
        if (!agreeSince(labels.get(i), labelChanges[i])) {
          return Boolean.FALSE;
        }
      }
      return Boolean.TRUE;
    }

    /** Whether every key that joined or left {@code p} since change {@code since} is in both sets or in neither. */
    private boolean agreeSince(Posting p, long since) {
      for (long c = since; c < p.changes; c++) {
        String key = p.changedKey(c);
        if (indexed.contains(key) != selected(key)) {
          return false;
        }
      }
      return true;
    }

    private boolean unchangedLabels() {
      for (int i = 0; i < labelChanges.length; i++) {
        if (labels.get(i).changes != labelChanges[i]) {
          return false;
        }
      }
      return true;
    }

    /** Whether the selection holds {@code key}: in the namespace and in every posting of the selector's labels. */
    private boolean selected(String key) {
      if (!namespace.isEmpty() && !(key.length() > namespace.length() && key.charAt(namespace.length()) == '/'
          && key.startsWith(namespace))) {
        return false;
      }
      for (Posting p : labels) {
        if (!p.contains(key)) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * One index value's keys, and the list of their objects in listing order, made on the first read after a change
   * and returned again, the same instance, until the next: a controller that reads the same owner's pods twice
   * without a change between pays once.
   *
   * <p>The keys are a hash set ({@link #members}) plus the keys and objects of the last list in listing order, and
   * what changed since: keys that joined and keys whose object was replaced, each with its object now, and keys that
   * left. The next read builds the new list from the last one: kept objects are copied, replaced ones put at their
   * places, and the joined ones (sorted among themselves) merged in at theirs. So a read costs the size of its answer
   * plus the changes, never a sort of the whole set and never a lookup of every key (nor of a changed one: the
   * objects come with the changes, not from the cache's map of every object). When more than half of the members
   * changed since, the last list is dropped and the next read sorts and looks up the members afresh. The last list's
   * keys are {@link PackedKeys}, so that finding the place of a changed key reads one array, not a key string per
   * probe.
   *
   * <p>The joined and replaced keys map to their {@link Membership memberships}, whose entries hold the objects now: a
   * key that is there already (its membership's mark is the current {@link #batch}) costs a later update nothing here;
   * a replaced key's place in the last list is looked up through its membership's hint before a search.
   */
  private final class Posting {
    private static final String[] NO_KEYS = new String[0];
    /** The most entries a new hash map or set holds before it grows its table (16 slots, load factor 0.75). */
    private static final int SMALL = 12;
    private static final Comparator<Map.Entry<String, ? extends IndexedCache<?>.Membership>> JOINED_ORDER =
        (a, b) -> compareKeys(a.getKey(), b.getKey());

    /** The index map this posting is the value {@link #value} of (removed from it when empty). */
    final Map<String, Posting> index;
    final String value;
    /** The keys; null for the posting of every object, whose keys are those of {@link #items}. */
    private final @Nullable Set<String> members;
    /** The keys of {@link #objects} in listing order (the last list); null: build the next one afresh. */
    private @Nullable PackedKeys sorted = PackedKeys.EMPTY;
    /** The last list's objects, in the order of {@link #sorted}; never changed once made. */
    private ApiObject<?>[] objects = new ApiObject<?>[0];
    /** Members not in {@link #sorted}, with their memberships (only while it is not null). */
    private Map<String, Membership> joined = new HashMap<>();
    /** Keys of {@link #sorted} no longer members (only while it is not null). */
    private Set<String> left = new HashSet<>();
    /**
     * Keys of {@link #sorted}, members, whose object is not the one in {@link #objects} (or may not be), with their
     * memberships (only while it is not null).
     */
    private Map<String, Membership> replaced = new HashMap<>();
    /**
     * Counts the times {@link #joined} and {@link #replaced} were emptied: a membership marked with the count now is
     * in one of them.
     */
    private int batch;
    /** The last list, or null when a key joined, left or got another object since. */
    private @Nullable List<T> view;
    /** How many times a key joined or left: the members are the same while it is. */
    long changes;
    /** Set when the posting is dropped from its index (it emptied); a later member goes into a new posting. */
    boolean dropped;
    /** The keys of the last {@link #RECENT} joins and leaves: change {@code c} (from 0) at {@code c % RECENT}. */
    private final String[] recent = new String[RECENT];

    Posting(Map<String, Posting> index, String value, boolean everything) {
      this.index = index;
      this.value = value;
      this.members = everything ? null : new HashSet<>();
    }

    int size() {
      return members != null ? members.size() : items.size();
    }

    boolean contains(String key) {
      return members != null ? members.contains(key) : items.containsKey(key);
    }

    /** Whether the keys of every join and leave since change count {@code since} are remembered. */
    boolean remembers(long since) {
      return changes - since <= RECENT;
    }

    /** The key of change {@code c} (one {@link #remembers}). */
    String changedKey(long c) {
      return recent[(int) (c % RECENT)];
    }

    /**
     * {@code m}'s key joins (under the write lock); false if it is a member already.
     */
    boolean join(Membership m) {
      String key = m.entry.key;
      if (members != null && !members.add(key)) {
        return false;
      }
      recent[(int) (changes++ % RECENT)] = key;
      view = null;
      if (sorted != null) {
        m.mark = batch;
        if (left.remove(key)) {
          replaced.put(key, m); // back at its old place, as another object perhaps
        } else {
          joined.put(key, m);
          tooMany();
        }
      }
      return true;
    }

    /** {@code key} leaves (under the write lock); false if it was no member. */
    boolean leave(String key) {
      if (members != null && !members.remove(key)) {
        return false;
      }
      recent[(int) (changes++ % RECENT)] = key;
      view = null;
      if (sorted != null && joined.remove(key) == null) {
        left.add(key);
        replaced.remove(key);
      }
      return true;
    }

    /** The object of a member ({@code m} its membership) was replaced (under the write lock). */
    void replaced(Membership m) {
      view = null;
      if (sorted != null && m.mark != batch) { // not joined nor replaced since the last list
        m.mark = batch;
        replaced.put(m.entry.key, m);
        tooMany();
      }
    }

    private void tooMany() {
      if (joined.size() + replaced.size() > 16 && joined.size() + replaced.size() > size() / 2) {
        sorted = null; // cheaper to build the next list afresh than to keep this many aside
        objects = new ApiObject<?>[0];
        forgetChanges();
      }
    }

    /**
     * Empties {@link #joined}, {@link #left} and {@link #replaced}; one that grew past a new hash set's first size is
     * made anew, since clearing keeps its table and the next read's walk over a few changes would visit every slot.
     */
    private void forgetChanges() {
      batch = batch == Integer.MAX_VALUE ? 0 : batch + 1; // never -1, a new membership's mark
      if (joined.size() > SMALL) {
        joined = new HashMap<>();
      } else {
        joined.clear();
      }
      if (left.size() > SMALL) {
        left = new HashSet<>();
      } else {
        left.clear();
      }
      if (replaced.size() > SMALL) {
        replaced = new HashMap<>();
      } else {
        replaced.clear();
      }
    }

    /** The objects (under the cache's lock, read or write; concurrent readers serialize here). */
    synchronized List<T> view() {
      List<T> v = view;
      if (v != null) {
        return v;
      }
      PackedKeys old = sorted;
      PackedKeys keys;
      ApiObject<?>[] objs;
      if (old == null) {
        String[] all = (members != null ? members : items.keySet()).toArray(NO_KEYS);
        Arrays.sort(all, KEY_ORDER);
        objs = new ApiObject<?>[all.length];
        for (int i = 0; i < all.length; i++) {
          objs[i] = items.get(all[i]).object;
        }
        keys = PackedKeys.of(all);
      } else if (joined.isEmpty() && left.isEmpty()) {
        keys = old; // only objects replaced: the same keys
        objs = objects.clone();
        for (Membership m : replaced.values()) {
          objs[at(old, m)] = m.entry.object;
        }
      } else {
        PackedKeys.Builder next = new PackedKeys.Builder(size(), old);
        objs = new ApiObject<?>[size()];
        @SuppressWarnings("unchecked")
        Map.Entry<String, Membership>[] in = joined.entrySet().toArray(new Map.Entry[0]);
        Arrays.sort(in, JOINED_ORDER);
        // the last list's objects with those of replaced keys put in and those of keys that left taken out (null),
        // their places found by binary search
        ApiObject<?>[] kept = objects;
        if (!left.isEmpty() || !replaced.isEmpty()) {
          kept = objects.clone();
          for (String k : left) {
            kept[at(old, k)] = null;
          }
          for (Membership m : replaced.values()) {
            kept[at(old, m)] = m.entry.object;
          }
        }
        int w = 0;
        int i = 0;
        for (int j = 0; j <= in.length; j++) {
          int to = j < in.length ? -(old.search(i, in[j].getKey()) + 1) : old.size();
          if (to < i) {
            throw new IllegalStateException("informer cache: " + in[j].getKey() + " joined index list \"" + value
                + "\" twice");
          }
          // the kept keys before the joined one, copied in runs between the keys that left
          int run = i;
          for (; i < to; i++) {
            if (kept[i] == null) {
              w = copyRun(old, kept, run, i, next, objs, w);
              run = i + 1;
            }
          }
          w = copyRun(old, kept, run, to, next, objs, w);
          if (j < in.length) {
            next.add(in[j].getKey());
            Membership m = in[j].getValue();
            m.position = w;
            objs[w++] = m.entry.object;
          }
        }
        if (w != objs.length) {
          throw new IllegalStateException("informer cache: index list of \"" + value + "\" has " + w
              + " keys but " + objs.length + " members");
        }
        keys = next.build();
      }
      sorted = keys;
      objects = objs;
      forgetChanges();
      @SuppressWarnings("unchecked")
      List<T> list = objs.length == 0 ? List.of() : (List<T>) Collections.unmodifiableList(Arrays.asList(objs));
      view = list;
      return list;
    }

    /** Copies keys {@code [from, to)} of {@code old} and their objects from {@code kept} at {@code w}; the next w. */
    private static int copyRun(PackedKeys old, ApiObject<?>[] kept, int from, int to, PackedKeys.Builder next,
        ApiObject<?>[] objs, int w) {
      if (from >= to) {
        return w;
      }
      next.addRange(old, from, to);
      System.arraycopy(kept, from, objs, w, to - from);
      return w + to - from;
    }

    /** The position of {@code m}'s key in {@code keys}: its hint when that holds the key, else found (and kept). */
    private int at(PackedKeys keys, Membership m) {
      int p = m.position;
      String key = m.entry.key;
      if (p < 0 || p >= keys.size() || keys.key(p) != key) {
        p = at(keys, key);
        m.position = p;
      }
      return p;
    }

    private int at(PackedKeys keys, String key) {
      int at = keys.search(0, key);
      if (at < 0) {
        throw new IllegalStateException("informer cache: " + key + " missing from index list \"" + value + "\"");
      }
      return at;
    }
  }

  public IndexedCache(Map<String, Function<? super T, ? extends Collection<String>>> custom) {
    Map<String, Function<? super T, ? extends Collection<String>>> all = new LinkedHashMap<>();
    all.put(NAMESPACE_INDEX, BY_NAMESPACE);
    all.put(LABEL_INDEX, BY_LABELS);
    all.put(CONTROLLER_INDEX, BY_CONTROLLER);
    all.putAll(custom);
    indexers = Map.copyOf(all);
    for (String name : indexers.keySet()) {
      indices.put(name, new HashMap<>());
    }
  }

  /**
   * Adds the index {@code name}; like every index it is built on its first read (an informer shared by several
   * controllers gets the indexes each of them asks for).
   *
   * @throws IllegalStateException if an index of that name exists (built-in ones included)
   */
  public void addIndexer(String name, Function<? super T, ? extends Collection<String>> indexer) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(indexer, "indexer");
    lock.writeLock().lock();
    try {
      if (indexers.containsKey(name)) {
        throw new IllegalStateException("informer cache: index \"" + name + "\" already exists (indexes: "
            + indexers.keySet() + ")");
      }
      Map<String, Function<? super T, ? extends Collection<String>>> next = new LinkedHashMap<>(indexers);
      next.put(name, indexer);
      indices.put(name, new HashMap<>());
      indexers = Map.copyOf(next);
    } finally {
      lock.writeLock().unlock();
    }
  }

  private static final Function<ApiObject<?>, List<String>> BY_NAMESPACE = o -> List.of(o.metadata().namespace());
  private static final Function<ApiObject<?>, List<String>> BY_LABELS = IndexedCache::labelValues;
  private static final Function<ApiObject<?>, List<String>> BY_CONTROLLER = IndexedCache::controllerUid;

  private static List<String> labelValues(ApiObject<?> o) {
    Map<String, String> labels = o.metadata().labels();
    List<String> values = new ArrayList<>(labels.size());
    labels.forEach((k, v) -> values.add(k + "=" + v));
    return values;
  }

  /**
   * Whether a label key of {@code o} holds '=': then two labels could share a label-index value ({@code "a=b"} +
   * {@code "c"} and {@code "a"} + {@code "b=c"}). Valid label keys never do (stored objects are validated), but the
   * cache does not rely on it.
   */
  private static boolean hasOddLabelKey(ApiObject<?> o) {
    for (String k : o.metadata().labels().keySet()) {
      if (k.indexOf('=') >= 0) {
        return true;
      }
    }
    return false;
  }

  private static List<String> controllerUid(ApiObject<?> o) {
    OwnerReference ref = o.metadata().controllerRef();
    return ref == null ? List.of() : List.of(ref.uid());
  }

  /** Compares keys as (namespace, name): a key without '/' is a cluster-scoped name (namespace ""). */
  static int compareKeys(String a, String b) {
    // one pass while the keys agree: once their common start holds the '/', the namespace is the same in both
    // and the text order decides (what compareTo answers), which is the usual case (a posting's keys share one)
    int n = Math.min(a.length(), b.length());
    boolean sameNamespace = false;
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        if (sameNamespace) {
          return x - y;
        }
        break;
      }
      if (x == '/') {
        sameNamespace = true;
      }
    }
    if (sameNamespace) { // one key is the start of the other
      return a.length() - b.length();
    }
    int sa = a.indexOf('/');
    int sb = b.indexOf('/');
    if (sa == sb && (sa <= 0 || a.regionMatches(0, b, 0, sa))) {
      return a.compareTo(b); // the same namespace (or none): the names decide, and the text order is theirs
    }
    int nsA = Math.max(sa, 0);
    int nsB = Math.max(sb, 0);
    int c = compareRegion(a, 0, nsA, b, 0, nsB);
    return c != 0 ? c : compareRegion(a, sa + 1, a.length(), b, sb + 1, b.length());
  }

  private static int compareRegion(String a, int fromA, int toA, String b, int fromB, int toB) {
    int n = Math.min(toA - fromA, toB - fromB);
    for (int i = 0; i < n; i++) {
      char x = a.charAt(fromA + i);
      char y = b.charAt(fromB + i);
      if (x != y) {
        return x - y;
      }
    }
    return (toA - fromA) - (toB - fromB);
  }

  static String key(String namespace, String name) {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }

  /** Stores {@code object}; returns the previous one at its key. */
  public @Nullable T put(T object) {
    ObjectMeta meta = object.metadata();
    lock.writeLock().lock();
    try {
      Map<String, Entry> names = byName.get(meta.namespace());
      Entry e = names == null ? null : names.get(meta.name());
      T old = e == null ? null : e.object;
      if (!oddLabelKeys && (old == null || old.metadata().labels() != meta.labels()) && hasOddLabelKey(object)) {
        oddLabelKeys = true;
        matchingIndex.clear();
      }
      if (e == null) {
        String key = meta.key();
        e = new Entry(key, object);
        items.put(key, e);
        if (names == null) {
          names = new HashMap<>();
          byName.put(meta.namespace(), names);
        }
        names.put(meta.name(), e);
        all.join(e.inAll);
        index(e);
      } else {
        e.object = object;
        reindex(e, old, object);
        all.replaced(e.inAll); // an updated object: its postings' lists hold the old one
        List<Membership> in = e.in;
        for (int i = 0; i < in.size(); i++) {
          Membership m = in.get(i);
          m.posting.replaced(m);
        }
      }
      return old;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Removes the object at {@code key}; returns it. */
  public @Nullable T remove(String key) {
    lock.writeLock().lock();
    try {
      Entry e = items.get(key);
      return e == null ? null : remove(e);
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Removes the object at {@code object}'s key (whichever version is cached); returns it. */
  public @Nullable T removeAt(ObjectMeta meta) {
    lock.writeLock().lock();
    try {
      Map<String, Entry> names = byName.get(meta.namespace());
      Entry e = names == null ? null : names.get(meta.name());
      return e == null ? null : remove(e);
    } finally {
      lock.writeLock().unlock();
    }
  }

  private T remove(Entry e) {
    String key = e.key;
    T old = e.object;
    items.remove(key);
    Map<String, Entry> inNamespace = byName.get(old.metadata().namespace());
    if (inNamespace != null && inNamespace.remove(old.metadata().name()) != null && inNamespace.isEmpty()) {
      byName.remove(old.metadata().namespace());
    }
    all.leave(key);
    for (Membership m : e.in) {
      Posting p = m.posting;
      p.leave(key);
      if (p.size() == 0) {
        p.index.remove(p.value);
        p.dropped = true;
      }
    }
    e.in.clear();
    return old;
  }

  private void index(Entry e) {
    indexers.forEach((name, fn) -> {
      if (!active.contains(name)) {
        return;
      }
      Map<String, Posting> index = indices.get(name);
      for (String value : fn.apply(e.object)) {
        join(e, index, value);
      }
    });
  }

  private void join(Entry e, Map<String, Posting> index, String value) {
    Posting p = index.get(value);
    if (p == null) {
      p = new Posting(index, value, false);
      index.put(value, p);
    }
    Membership m = new Membership(p, e);
    if (p.join(m)) {
      e.in.add(m);
    }
  }

  private void leave(Entry e, Map<String, Posting> index, String value) {
    Posting p = index.get(value);
    if (p == null || !p.leave(e.key)) {
      return;
    }
    if (p.size() == 0) {
      index.remove(value);
      p.dropped = true;
    }
    Membership m = e.membership(p);
    if (m != null) {
      e.in.remove(m);
    }
  }

  /** Moves {@code key} between index values, touching only the indexes whose values changed (status updates
   * usually change none). */
  private void reindex(Entry e, T old, T object) {
    indexers.forEach((name, fn) -> {
      if (!active.contains(name) || unchanged(fn, old, object)) {
        return;
      }
      Collection<String> before = fn.apply(old);
      Collection<String> after = fn.apply(object);
      if (before.equals(after)) {
        return;
      }
      Map<String, Posting> index = indices.get(name);
      for (String value : before) {
        leave(e, index, value);
      }
      for (String value : after) {
        join(e, index, value);
      }
    });
  }

  /**
   * Whether the built-in indexer {@code fn} certainly gives {@code old} and {@code object} (same key) the same values,
   * judged from the fields it reads, without computing them: the namespace is part of the key, the labels and the
   * owner references are compared as they are. False for custom indexers (their values are compared).
   */
  private static boolean unchanged(Function<?, ?> fn, ApiObject<?> old, ApiObject<?> object) {
    if (fn == BY_NAMESPACE) {
      return true;
    }
    if (fn == BY_LABELS) {
      return old.metadata().labels().equals(object.metadata().labels());
    }
    if (fn == BY_CONTROLLER) {
      return old.metadata().ownerReferences().equals(object.metadata().ownerReferences());
    }
    return false;
  }

  /** Builds the index {@code name} (a known one) from the cached objects unless it is kept already. */
  private void ensureIndexed(String name) {
    if (active.contains(name)) {
      return;
    }
    lock.writeLock().lock();
    try {
      if (active.contains(name)) {
        return;
      }
      Function<? super T, ? extends Collection<String>> fn = indexers.get(name);
      Map<String, Posting> index = indices.get(name);
      for (Entry e : items.values()) {
        for (String value : fn.apply(e.object)) {
          join(e, index, value);
        }
      }
      active.add(name);
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** A sorted snapshot of every object. */
  @Override
  public List<T> list() {
    lock.readLock().lock();
    try {
      return all.view();
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public Optional<T> get(String namespace, String name) {
    lock.readLock().lock();
    try {
      Map<String, Entry> inNamespace = byName.get(namespace);
      Entry e = inNamespace == null ? null : inNamespace.get(name);
      return e == null ? Optional.empty() : Optional.of(e.object);
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<T> list(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    return namespace.isEmpty() ? list() : byIndex(NAMESPACE_INDEX, namespace);
  }

  @Override
  public List<T> list(String namespace, LabelSelector selector) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(selector, "selector");
    // every candidate set below is in key order, so the filtered answer is too
    if (!selector.matchLabels().isEmpty()) {
      ensureIndexed(LABEL_INDEX);
    } else if (!namespace.isEmpty()) {
      ensureIndexed(NAMESPACE_INDEX);
    }
    lock.readLock().lock();
    try {
      // Narrow with the label index when the selector has an equality term; pick the rarest one.
      Posting candidates = null;
      Map<String, Posting> labelIndex = indices.get(LABEL_INDEX);
      for (Map.Entry<String, String> e : selector.matchLabels().entrySet()) {
        Posting withLabel = labelIndex.get(e.getKey() + "=" + e.getValue());
        if (withLabel == null) {
          return List.of();
        }
        if (candidates == null || withLabel.size() < candidates.size()) {
          candidates = withLabel;
        }
      }
      if (candidates == null && !namespace.isEmpty()) {
        candidates = indices.get(NAMESPACE_INDEX).get(namespace);
        if (candidates == null) {
          return List.of();
        }
      }
      if (candidates == null) {
        return filter(all.view(), namespace, selector);
      }
      // the answer depends only on the candidates' objects: while their list is the same, so is the answer
      List<T> from = candidates.view();
      SelectorKey memoKey = new SelectorKey(namespace, selector);
      Selected<T> last = selected.get(memoKey);
      if (last != null && last.from() == from) {
        return last.answer();
      }
      Selected<T> now = filter(from, namespace, selector, last);
      if (selected.size() >= MAX_SELECTED) {
        selected.clear();
      }
      selected.put(memoKey, now);
      return now.answer();
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Filters {@code from}; the candidates that are the same objects as in {@code last}'s common head and tail (one
   * changed object in between, mostly) take their match from it instead of matching the selector again.
   */
  private static <T extends ApiObject<T>> Selected<T> filter(List<T> from, String namespace, LabelSelector selector,
      @Nullable Selected<T> last) {
    int head = 0;
    int tail = 0;
    if (last != null) {
      List<T> old = last.from();
      int max = Math.min(old.size(), from.size());
      while (head < max && old.get(head) == from.get(head)) {
        head++;
      }
      while (tail < max - head && old.get(old.size() - 1 - tail) == from.get(from.size() - 1 - tail)) {
        tail++;
      }
    }
    boolean[] matched = new boolean[from.size()];
    int count = 0;
    for (int i = 0; i < matched.length; i++) {
      T o = from.get(i);
      boolean m;
      if (i < head) {
        m = last.matched()[i];
      } else if (i >= matched.length - tail) {
        m = last.matched()[last.matched().length - (matched.length - i)];
      } else {
        m = (namespace.isEmpty() || namespace.equals(o.metadata().namespace()))
            && selector.matches(o.metadata().labels());
      }
      matched[i] = m;
      if (m) {
        count++;
      }
    }
    // every candidate matched (a selector over its own label's posting, the usual case): the answer is the
    // candidates' list itself, unmodifiable already, and no list is built
    List<T> answer;
    if (count == 0) {
      answer = List.of();
    } else if (count == matched.length) {
      answer = from;
    } else {
      List<T> out = new ArrayList<>(count);
      for (int i = 0; i < matched.length; i++) {
        if (matched[i]) {
          out.add(from.get(i));
        }
      }
      answer = Collections.unmodifiableList(out);
    }
    return new Selected<>(from, matched, answer);
  }

  private static <T extends ApiObject<T>> List<T> filter(List<T> pool, String namespace, LabelSelector selector) {
    List<T> out = new ArrayList<>();
    for (T o : pool) {
      if ((namespace.isEmpty() || namespace.equals(o.metadata().namespace()))
          && selector.matches(o.metadata().labels())) {
        out.add(o);
      }
    }
    return out.isEmpty() ? List.of() : Collections.unmodifiableList(out);
  }

  /** The objects at {@code sortedKeys}, in that order, as an unmodifiable list (the caller holds the lock). */
  private List<T> resolve(String[] sortedKeys) {
    @SuppressWarnings("unchecked")
    T[] out = (T[]) new ApiObject<?>[sortedKeys.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = items.get(sortedKeys[i]).object;
    }
    return Collections.unmodifiableList(Arrays.asList(out));
  }

  @Override
  public List<T> byIndex(String indexName, String value) {
    Objects.requireNonNull(indexName, "indexName");
    Objects.requireNonNull(value, "value");
    if (indexers.containsKey(indexName)) {
      ensureIndexed(indexName);
    }
    lock.readLock().lock();
    try {
      Map<String, Posting> index = indices.get(indexName);
      if (index == null) {
        throw new IllegalArgumentException("lister: no index named \"" + indexName + "\"; indexes are "
            + indices.keySet());
      }
      Posting p = index.get(value);
      return p == null ? List.of() : p.view();
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Once the two were found equal, later calls look only at the keys that joined or left the index value's posting
   * or a posting of the selector's {@code matchLabels} since (each posting remembers its last {@value #RECENT}): the
   * selection is the keys in all of those postings (and in {@code namespace}, part of each key), so a key none of them
   * changed still agrees, and the two are equal again when every changed key is in both or in neither; both lists
   * resolve the same keys to the same cached objects, in listing order. More changes than remembered, a posting
   * dropped (emptied) or a failed comparison compare the lists afresh; selectors with {@code matchExpressions} or
   * without {@code matchLabels} are compared every time.
   */
  @Override
  public boolean indexMatchesSelection(String indexName, String value, String namespace, LabelSelector selector) {
    Objects.requireNonNull(indexName, "indexName");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(selector, "selector");
    if (selector.matchLabels().isEmpty() || !selector.matchExpressions().isEmpty()) {
      return Lister.super.indexMatchesSelection(indexName, value, namespace, selector);
    }
    if (indexers.containsKey(indexName)) {
      ensureIndexed(indexName);
    }
    ensureIndexed(LABEL_INDEX);
    lock.readLock().lock();
    try {
      MatchKey key = new MatchKey(indexName, value, namespace, selector);
      Matched kept = matchingIndex.get(key);
      Boolean still = kept == null ? null : kept.stillEqual();
      if (still != null) {
        if (still) {
          matchingIndex.put(key, new Matched(kept.indexed, kept.labels, namespace)); // from the counts now
        } else {
          matchingIndex.remove(key);
        }
        return still;
      }
      boolean same = Lister.sameObjects(byIndex(indexName, value), list(namespace, selector));
      Map<String, Posting> index = indices.get(indexName);
      Posting indexed = index == null ? null : index.get(value);
      if (!same || indexed == null || oddLabelKeys) {
        if (kept != null) {
          matchingIndex.remove(key);
        }
        return same;
      }
      Map<String, Posting> labelIndex = indices.get(LABEL_INDEX);
      List<Posting> labels = new ArrayList<>(selector.matchLabels().size());
      for (Map.Entry<String, String> e : selector.matchLabels().entrySet()) {
        // a member of the index value has every one of them
        labels.add(Objects.requireNonNull(labelIndex.get(e.getKey() + "=" + e.getValue())));
      }
      if (matchingIndex.size() >= MAX_SELECTED) {
        matchingIndex.clear();
      }
      matchingIndex.put(key, new Matched(indexed, labels, namespace));
      return true;
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public Set<String> indexNames() {
    return indexers.keySet();
  }

  @Override
  public int size() {
    lock.readLock().lock();
    try {
      return items.size();
    } finally {
      lock.readLock().unlock();
    }
  }
}
