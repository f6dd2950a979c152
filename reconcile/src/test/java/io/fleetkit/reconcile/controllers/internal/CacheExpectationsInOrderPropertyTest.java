package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.internal.IndexedCache;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link CacheExpectations#satisfiedInOrder}, which looks up each awaited name by binary search in a list in listing
 * order, against {@link CacheExpectations#satisfied(ObjectKey, List, java.util.function.Predicate, Instant)}, which
 * visits every object: two records fed the same creates and deletes answer the same through random owned lists
 * (names of several lengths, so that name order is not length order), with sometimes a pod of another namespace
 * among them, and some of them being deleted), and keep waiting for the same names afterwards.
 */
final class CacheExpectationsInOrderPropertyTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String[] NAMESPACES = {"a", "ns", "z"};

  private static Pod pod(String ns, String name) {
    return Pod.builder().namespace(ns).name(name).container("c", "img", ResourceList.ofCpuMemory(100, 0)).build();
  }

  private static String name(Random r) {
    return "web-" + "abc".charAt(r.nextInt(3)) + (r.nextBoolean() ? "" : String.valueOf(r.nextInt(3)));
  }

  @Property(tries = 300)
  void inOrder_answersAsVisitingEveryObject(@ForAll @IntRange(min = 1, max = 30) int rounds, @ForAll long seed) {
    Random r = new Random(seed);
    CacheExpectations visiting = new CacheExpectations();
    CacheExpectations searching = new CacheExpectations();
    ObjectKey owner = ObjectKey.of("ns", "web");
    Instant now = T0;
    for (int round = 0; round < rounds; round++) {
      for (int i = r.nextInt(4); i > 0; i--) {
        String n = name(r);
        if (r.nextBoolean()) {
          visiting.created(owner, n, now);
          searching.created(owner, n, now);
        } else {
          visiting.deleted(owner, n, now);
          searching.deleted(owner, n, now);
        }
      }
      TreeMap<String, Pod> owned = new TreeMap<>(IndexedCache.KEY_ORDER);
      for (int i = r.nextInt(10); i > 0; i--) {
        String ns = r.nextInt(6) == 0 ? NAMESPACES[r.nextInt(NAMESPACES.length)] : "ns";
        Pod p = pod(ns, name(r));
        if (r.nextInt(4) == 0) { // being deleted: a deletion timestamp, still listed
          p = p.withMetadata(p.metadata().toBuilder().deletionTimestamp(now).build());
        }
        owned.put(p.metadata().key(), p);
      }
      List<Pod> list = new ArrayList<>(owned.values());
      assertThat(list).isSortedAccordingTo(Comparator.comparing(p -> p.metadata().key(), IndexedCache.KEY_ORDER));
      String inStoreName = name(r);
      Predicate<String> inStore = n -> n.equals(inStoreName);
      now = now.plus(Duration.ofSeconds(r.nextInt(200)));
      boolean expected = visiting.satisfied(owner, list, inStore, now);
      assertThat(searching.satisfiedInOrder(owner, list, inStore, now)).as("round %d, owned %s", round,
          owned.keySet()).isEqualTo(expected);
      assertThat(searching.pending(owner)).isEqualTo(visiting.pending(owner));
      assertThat(searching.waiting(owner)).isEqualTo(visiting.waiting(owner));
    }
  }
}
