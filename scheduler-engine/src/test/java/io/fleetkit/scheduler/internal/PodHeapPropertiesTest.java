package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.QueuedPodInfo;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * {@link PodHeap} follows a sorted set under any mix of adds, removals, re-orderings ({@link PodHeap#fix}), peeks and
 * polls, in both of its modes (a key copied into the heap, a comparator over the entries): the same entries, the same
 * order, the same size, an entry in it at most once. Removal and re-ordering are lazy inside the heap, so the
 * properties run long sequences that trigger its compaction.
 */
final class PodHeapPropertiesTest {
  private static final int ENTRIES = 40;
  private static final PrioritySortPlugin SORT = new PrioritySortPlugin();
  /** PrioritySort's order of the entries as they are now, then arrival. */
  private static final Comparator<QueuedPod> ORDER = Comparator.<QueuedPod, QueuedPodInfo>comparing(p -> p.queued,
      SORT::compare).thenComparingLong(p -> p.seq);

  private static List<QueuedPod> entries() {
    List<QueuedPod> out = new ArrayList<>();
    for (int i = 0; i < ENTRIES; i++) {
      out.add(new QueuedPod(variant(i, 0), null, 0));
    }
    return out;
  }

  /** Entry {@code i}'s pod with {@code priority}. */
  private static EnginePodInfo variant(int i, int priority) {
    return EnginePodInfo.of(Pod.builder().name("p" + i).priority(priority)
        .container("c", "pause", ResourceList.EMPTY).build());
  }

  /** Gives {@code p} (entry {@code i}) a new priority and timestamp, as the queue does when a pod changes. */
  private static void rekey(QueuedPod p, int i, int priority, long timestamp) {
    p.info = variant(i, priority);
    p.timestampNanos = timestamp;
    p.refresh();
  }

  private static PodHeap keyed() {
    return new PodHeap((p, keys, at) -> {
      keys[at] = -(long) p.sortPriority;
      keys[at + 1] = p.sortTimestampNanos;
      keys[at + 2] = p.seq;
    });
  }

  /**
   * Ops: {@code v % 5} picks the operation on entry {@code (v / 5) % 40}: 0 adds it (if out), 1 removes it (if in),
   * 2 gives it a new priority and timestamp and fixes it (if in), 3 polls, 4 peeks.
   */
  @Property(tries = 300)
  void keyedHeap_followsASortedSet(@ForAll @Size(max = 600) List<@IntRange(min = 0, max = 10_000) Integer> ops) {
    check(keyed(), ops);
  }

  @Property(tries = 200)
  void comparatorHeap_followsASortedSet(@ForAll @Size(max = 600) List<@IntRange(min = 0, max = 10_000) Integer> ops) {
    check(new PodHeap(SORT::compare, (p, keys, at) -> {
      keys[at] = p.seq;
      keys[at + 1] = 0;
      keys[at + 2] = 0;
    }), ops);
  }

  private static void check(PodHeap heap, List<Integer> ops) {
    List<QueuedPod> all = entries();
    TreeSet<QueuedPod> model = new TreeSet<>(ORDER);
    long seq = 0;
    for (int v : ops) {
      int i = (v / 5) % ENTRIES;
      QueuedPod p = all.get(i);
      switch (v % 5) {
        case 0 -> {
          if (!model.contains(p)) {
            p.seq = ++seq;
            rekey(p, i, v % 3, v % 7);
            heap.add(p);
            model.add(p);
          }
        }
        case 1 -> {
          if (model.remove(p)) {
            heap.remove(p);
          }
        }
        case 2 -> {
          if (model.remove(p)) {
            rekey(p, i, (v / 7) % 3, (v / 3) % 5);
            model.add(p);
            heap.fix(p);
          }
        }
        case 3 -> assertThat(heap.poll()).isSameAs(model.pollFirst());
        default -> assertThat(heap.peek()).isSameAs(model.isEmpty() ? null : model.first());
      }
      assertThat(heap.size()).isEqualTo(model.size());
    }
    while (!model.isEmpty()) {
      assertThat(heap.poll()).isSameAs(model.pollFirst());
    }
    assertThat(heap.poll()).isNull();
    assertThat(heap.size()).isZero();
  }

  @Test
  void removingOrAddingTwice_isRejected() {
    PodHeap heap = keyed();
    QueuedPod p = entries().get(0);
    heap.add(p);
    assertThatThrownBy(() -> heap.add(p)).isInstanceOf(IllegalStateException.class).hasMessageContaining("p0");
    heap.remove(p);
    assertThatThrownBy(() -> heap.remove(p)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not in this heap");
    assertThatThrownBy(() -> heap.fix(p)).isInstanceOf(IllegalStateException.class);
    assertThat(heap.poll()).isNull();
  }

  @Test
  void thousandsOfRemovals_leaveTheOrderIntact() {
    PodHeap heap = keyed();
    List<QueuedPod> all = entries();
    for (int round = 0; round < 500; round++) {
      for (QueuedPod p : all) {
        p.seq = round * ENTRIES + all.indexOf(p);
        heap.add(p);
      }
      for (int i = 0; i < ENTRIES - 1; i++) {
        heap.remove(all.get(i));
      }
      assertThat(heap.size()).isEqualTo(1);
      assertThat(heap.poll()).isSameAs(all.get(ENTRIES - 1));
    }
    assertThat(heap.peek()).isNull();
  }
}
