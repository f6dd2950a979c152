package io.fleetkit.reconcile.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link PackedKeys#search} answers what {@code Arrays.binarySearch} with {@link IndexedCache#KEY_ORDER} answers over
 * the same keys, for keys that are present or not, from every start index, over keys of several namespaces whose text
 * order is not the key order ({@code "a-b/x"} before {@code "a/x"} as text, after it as keys), cluster-scoped names,
 * keys that are prefixes of others, and keys beyond Latin-1 (not packed); and an order built from a kept part of an
 * old one plus new keys searches as one packed afresh. A packed compare that took the text order across namespaces,
 * or copied the wrong characters of a kept key, fails.
 */
final class PackedKeysPropertyTest {
  private static final List<String> NAMESPACES = List.of("", "a", "a-b", "a0", "ab", "b", "n\u0100");

  @Provide
  Arbitrary<String> keys() {
    Arbitrary<String> name = Arbitraries.strings().withChars("ab-0z.\u00e9").ofMinLength(1).ofMaxLength(5);
    return net.jqwik.api.Combinators.combine(Arbitraries.of(NAMESPACES), name)
        .as((ns, n) -> ns.isEmpty() ? n : ns + "/" + n);
  }

  @Property(tries = 500)
  void search_equalsBinarySearchInKeyOrder(@ForAll("keyLists") List<String> present,
      @ForAll("keyLists") List<String> probes, @ForAll @IntRange(min = 0, max = 40) int start) {
    String[] sorted = sortedDistinct(present);
    PackedKeys packed = PackedKeys.of(sorted.clone());
    int from = Math.min(start, sorted.length);
    for (String probe : concat(probes, present)) {
      int expected = Arrays.binarySearch(sorted, from, sorted.length, probe, IndexedCache.KEY_ORDER);
      assertThat(packed.search(from, probe)).as("search %s from %d in %s", probe, from, Arrays.toString(sorted))
          .isEqualTo(expected);
    }
  }

  @Property(tries = 300)
  void builtFromOldAndNewKeys_searchesAsPackedAfresh(@ForAll("keyLists") List<String> oldKeys,
      @ForAll("keyLists") List<String> newKeys, @ForAll("keyLists") List<String> probes, @ForAll long dropSeed) {
    String[] old = sortedDistinct(oldKeys);
    PackedKeys oldPacked = PackedKeys.of(old.clone());
    TreeSet<String> next = new TreeSet<>(IndexedCache.KEY_ORDER);
    List<Integer> kept = new ArrayList<>();
    for (int i = 0; i < old.length; i++) {
      if (((dropSeed >>> (i % 64)) & 1) == 0) {
        kept.add(i);
        next.add(old[i]);
      }
    }
    List<String> added = new ArrayList<>();
    for (String k : newKeys) {
      if (!Arrays.asList(old).contains(k) && next.add(k)) {
        added.add(k);
      }
    }
    // add in key order, taking kept keys from the old order and new ones as strings
    PackedKeys.Builder b = new PackedKeys.Builder(next.size(), oldPacked);
    for (String k : next) {
      int at = Arrays.asList(old).indexOf(k);
      if (at >= 0) {
        b.addFrom(oldPacked, at);
      } else {
        b.add(k);
      }
    }
    PackedKeys built = b.build();
    String[] expectedKeys = next.toArray(new String[0]);
    assertThat(built.keys()).containsExactly(expectedKeys);
    for (String probe : concat(probes, concat(oldKeys, newKeys))) {
      assertThat(built.search(0, probe)).as("search %s in %s", probe, next)
          .isEqualTo(Arrays.binarySearch(expectedKeys, probe, IndexedCache.KEY_ORDER));
    }
  }

  /** As above, the kept keys added in runs of consecutive old keys ({@code addRange}), new keys between runs. */
  @Property(tries = 300)
  void builtFromRunsOfOldKeys_searchesAsPackedAfresh(@ForAll("keyLists") List<String> oldKeys,
      @ForAll("keyLists") List<String> newKeys, @ForAll("keyLists") List<String> probes, @ForAll long dropSeed) {
    String[] old = sortedDistinct(oldKeys);
    PackedKeys oldPacked = PackedKeys.of(old.clone());
    TreeSet<String> next = new TreeSet<>(IndexedCache.KEY_ORDER);
    for (int i = 0; i < old.length; i++) {
      if (((dropSeed >>> (i % 64)) & 1) == 0) {
        next.add(old[i]);
      }
    }
    for (String k : newKeys) {
      if (!Arrays.asList(old).contains(k)) {
        next.add(k);
      }
    }
    PackedKeys.Builder b = new PackedKeys.Builder(next.size(), oldPacked);
    int runFrom = -1; // the first old index of the run being collected, or -1
    int runTo = -1;
    for (String k : next) {
      int at = Arrays.asList(old).indexOf(k);
      if (at >= 0 && runFrom >= 0 && at == runTo) {
        runTo++;
        continue;
      }
      if (runFrom >= 0) {
        b.addRange(oldPacked, runFrom, runTo);
        runFrom = -1;
      }
      if (at >= 0) {
        runFrom = at;
        runTo = at + 1;
      } else {
        b.add(k);
      }
    }
    if (runFrom >= 0) {
      b.addRange(oldPacked, runFrom, runTo);
    }
    PackedKeys built = b.build();
    String[] expectedKeys = next.toArray(new String[0]);
    assertThat(built.keys()).containsExactly(expectedKeys);
    for (String probe : concat(probes, concat(oldKeys, newKeys))) {
      assertThat(built.search(0, probe)).as("search %s in %s", probe, next)
          .isEqualTo(Arrays.binarySearch(expectedKeys, probe, IndexedCache.KEY_ORDER));
    }
  }

  /**
   * An order rebuilt from the last one again and again (one key leaving and one joining each time, as an informer's
   * posting whose members churn) keeps its packed array within reach of its characters: sized from the old array's
   * length instead of its characters, it grew by the spare room with every rebuild, without bound.
   */
  @Property(tries = 30)
  void rebuiltManyTimes_packedArrayStaysNearItsCharacters(@ForAll("keyLists") List<String> start,
      @ForAll @IntRange(min = 200, max = 1000) int rebuilds, @ForAll long seed) {
    java.util.Random random = new java.util.Random(seed);
    TreeSet<String> current = new TreeSet<>(IndexedCache.KEY_ORDER);
    for (String k : start) {
      if (!k.contains("\u0100")) {
        current.add(k);
      }
    }
    PackedKeys packed = PackedKeys.of(current.toArray(new String[0]));
    for (int r = 0; r < rebuilds; r++) {
      if (!current.isEmpty() && random.nextBoolean()) {
        current.remove(current.toArray(new String[0])[random.nextInt(current.size())]);
      }
      current.add("ns/pod-" + r);
      String[] old = packed.keys();
      PackedKeys.Builder b = new PackedKeys.Builder(current.size(), packed);
      for (String k : current) {
        int at = Arrays.binarySearch(old, k, IndexedCache.KEY_ORDER);
        if (at >= 0) {
          b.addFrom(packed, at);
        } else {
          b.add(k);
        }
      }
      packed = b.build();
      assertThat(packed.keys()).containsExactly(current.toArray(new String[0]));
    }
    int length = packed.packedLength();
    assertThat(length).isPositive();
    assertThat(packed.packedCapacity()).as("capacity after %d rebuilds of %d bytes of keys", rebuilds, length)
        .isLessThanOrEqualTo(2 * length + 32 * 4);
  }

  @Provide
  Arbitrary<List<String>> keyLists() {
    return keys().list().ofMaxSize(40);
  }

  private static String[] sortedDistinct(List<String> keys) {
    TreeSet<String> s = new TreeSet<>(IndexedCache.KEY_ORDER);
    s.addAll(keys);
    return s.toArray(new String[0]);
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
