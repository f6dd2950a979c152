package io.fleetkit.reconcile;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.junit.jupiter.api.Test;

/**
 * The work queue against client-go's {@code workqueue} semantics under concurrency. Each Lincheck thread is a worker
 * that takes an item ({@link #get}), holds it, and finishes it ({@link #done}); histories of add / get / done / len
 * must linearize (fair; stingy: an item added twice before it is taken is handed out once; an item added while it
 * is held is handed out again only after done). And an item is never held by two workers at once: {@link #get}
 * returns {@code -99} if another worker already holds its item, which no sequential history can produce.
 */
@Param(name = "item", gen = IntGen.class, conf = "1:3")
@Param(name = "worker", gen = ThreadIdGen.class)
public class WorkQueueLincheckTest {
  private final WorkQueue<Integer> queue = WorkQueue.create();
  private final Set<Integer> inFlight = ConcurrentHashMap.newKeySet();
  private final int[] held = new int[8];

  @Operation
  public void add(@Param(name = "item") int item) {
    queue.add(item);
  }

  /** The worker takes the next item if it holds none: the item, 0 when none is ready, -1 when still holding one. */
  @Operation
  public int get(@Param(name = "worker") int worker) {
    if (held[worker] != 0) {
      return -1;
    }
    Optional<Integer> item = queue.poll();
    if (item.isEmpty()) {
      return 0;
    }
    int i = item.get();
    if (!inFlight.add(i)) {
      return -99;
    }
    held[worker] = i;
    return i;
  }

  /** The worker finishes the item it holds: the item, or 0 when it holds none. */
  @Operation
  public int done(@Param(name = "worker") int worker) {
    int i = held[worker];
    if (i == 0) {
      return 0;
    }
    held[worker] = 0;
    inFlight.remove(i);
    queue.done(i);
    return i;
  }

  @Operation
  public int len() {
    return queue.len();
  }

  @Test
  void modelChecking_linearizableAndNeverTwoWorkersOnOneItem() {
    new ModelCheckingOptions().iterations(4).invocationsPerIteration(50).threads(2).actorsPerThread(4)
        .actorsBefore(1).actorsAfter(2).check(WorkQueueLincheckTest.class);
  }

  @Test
  void stress_linearizableAndNeverTwoWorkersOnOneItem() {
    new StressOptions().iterations(10).invocationsPerIteration(200).threads(3).actorsPerThread(3)
        .check(WorkQueueLincheckTest.class);
  }
}
