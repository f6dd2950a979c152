package io.fleetkit.api.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link SortedKeys} lists what a sorted map of the same writes lists: after random puts, removes, removes and puts
 * of the same key (a new value at an old place), bursts past the merge threshold, and listings in between or not,
 * every listing of all keys and of every key range holds the model's values in the model's order. A merge that keeps
 * a removed key, misplaces a joined one or keeps an old value of a key put again fails.
 */
final class SortedKeysPropertyTest {
  /** Keys of a few namespaces whose text order is not their length order ("a-b" sorts before "a/"). */
  private static final List<String> NAMESPACES = List.of("a", "a-b", "a0", "b", "");

  enum OpType { PUT, REMOVE, REPLACE, LIST, LIST_RANGE, BURST }

  record Op(OpType type, String namespace, int name, int count) {}

  @Provide
  Arbitrary<List<Op>> operations() {
    Arbitrary<Op> op = Combinators.combine(
        Arbitraries.of(OpType.class),
        Arbitraries.of(NAMESPACES), Arbitraries.integers().between(0, 60), Arbitraries.integers().between(1, 40))
        .as(Op::new);
    return op.list().ofMaxSize(120);
  }

  @Property(tries = 400)
  void listings_equalSortedMap(@ForAll("operations") List<Op> ops) {
    SortedKeys<Object> keys = new SortedKeys<>();
    TreeMap<String, Object> model = new TreeMap<>();
    for (Op op : ops) {
      String key = key(op.namespace(), op.name());
      switch (op.type()) {
        case PUT -> {
          if (!model.containsKey(key)) {
            Object v = new Object();
            keys.put(key, v);
            model.put(key, v);
          }
        }
        case REMOVE -> assertThat(keys.remove(key)).isSameAs(model.remove(key));
        case REPLACE -> {
          Object v = new Object();
          assertThat(keys.remove(key)).isSameAs(model.remove(key));
          keys.put(key, v);
          model.put(key, v);
        }
        case BURST -> {
          for (int i = 0; i < op.count(); i++) {
            String k = key(op.namespace(), op.name() * 7 + i);
            if (i % 3 == 2) {
              assertThat(keys.remove(k)).isSameAs(model.remove(k));
            } else if (!model.containsKey(k)) {
              Object v = new Object();
              keys.put(k, v);
              model.put(k, v);
            }
          }
        }
        case LIST -> assertThat(keys.all()).containsExactlyElementsOf(model.values());
        case LIST_RANGE -> {
          String from = op.namespace() + '/';
          String to = op.namespace() + '0';
          assertThat(keys.range(from, to)).as("range %s", from)
              .containsExactlyElementsOf(model.subMap(from, to).values());
        }
        default -> throw new AssertionError(op);
      }
      assertThat(keys.size()).isEqualTo(model.size());
      assertThat(keys.get(key)).isSameAs(model.get(key));
    }
    assertThat(keys.all()).containsExactlyElementsOf(model.values());
    for (String ns : NAMESPACES) {
      assertThat(keys.range(ns + '/', ns + '0')).containsExactlyElementsOf(model.subMap(ns + '/', ns + '0').values());
    }
  }

  @Property(tries = 50)
  void listingTakenEarlier_isNotChangedByLaterWrites(@ForAll("operations") List<Op> ops) {
    SortedKeys<Object> keys = new SortedKeys<>();
    for (int i = 0; i < 20; i++) {
      keys.put(key("a", i), i);
    }
    List<Object> before = keys.all();
    List<Object> copy = new ArrayList<>(before);
    for (Op op : ops) {
      String key = key(op.namespace(), op.name());
      if (keys.get(key) == null) {
        keys.put(key, op);
      } else {
        keys.remove(key);
      }
      keys.all();
    }
    assertThat(before).containsExactlyElementsOf(copy);
  }

  private static String key(String namespace, int name) {
    String n = "p" + Integer.toString(name, 7) + (name % 2 == 0 ? "" : "-x");
    return namespace.isEmpty() ? n : namespace + '/' + n;
  }
}
