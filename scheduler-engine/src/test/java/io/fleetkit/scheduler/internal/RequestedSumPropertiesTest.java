package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link RequestedSum}, the cache's per-node sum of requests with its list folded on first read (and the standard
 * amounts summed beside it with {@link RequestedSum#add} and {@link RequestedSum#subtract}), against the sum kept
 * as a {@link ResourceList} and merged at every change ({@link ResourceList#add}, {@link ResourceList#subtract}), over
 * random streams of pods arriving and leaving: standard-only and extended requests, absent and zero-valued resources,
 * amounts near the {@code long} range (saturation), lists read at random moments or never, and sums taken earlier
 * read again later (they must not change).
 */
final class RequestedSumPropertiesTest {

  @Property(tries = 400)
  void sum_equalsEagerMerges(@ForAll long seed, @ForAll @IntRange(min = 1, max = 120) int steps) {
    SplittableRandom rnd = new SplittableRandom(seed);
    RequestedSum sum = RequestedSum.EMPTY;
    long cpu = 0;
    long mem = 0;
    long storage = 0;
    ResourceList eager = ResourceList.EMPTY;
    List<ResourceList> held = new ArrayList<>();
    List<RequestedSum> earlierSums = new ArrayList<>();
    List<ResourceList> earlierValues = new ArrayList<>();
    for (int step = 0; step < steps; step++) {
      if (!held.isEmpty() && rnd.nextInt(4) == 0) {
        ResourceList gone = held.remove(rnd.nextInt(held.size()));
        sum = sum.minus(gone);
        cpu = RequestedSum.subtract(cpu, gone.milliCpu());
        mem = RequestedSum.subtract(mem, gone.memoryBytes());
        storage = RequestedSum.subtract(storage, gone.ephemeralStorageBytes());
        eager = eager.subtract(gone);
      } else {
        ResourceList r = randomRequests(rnd);
        held.add(r);
        sum = sum.plus(r);
        cpu = RequestedSum.add(cpu, r.milliCpu());
        mem = RequestedSum.add(mem, r.memoryBytes());
        storage = RequestedSum.add(storage, r.ephemeralStorageBytes());
        eager = eager.add(r);
      }
      assertThat(cpu).as("cpu summed as a long").isEqualTo(eager.milliCpu());
      assertThat(mem).isEqualTo(eager.memoryBytes());
      assertThat(storage).isEqualTo(eager.ephemeralStorageBytes());
      if (rnd.nextInt(3) == 0) {
        assertThat(sum.value()).isEqualTo(eager);
        assertThat(sum.value().toString()).isEqualTo(eager.toString());
      }
      if (rnd.nextInt(5) == 0) {
        earlierSums.add(sum);
        earlierValues.add(eager);
      }
    }
    assertThat(sum.value()).isEqualTo(eager);
    assertThat(sum.value().toString()).as("formats and order as the merged list").isEqualTo(eager.toString());
    for (int i = 0; i < earlierSums.size(); i++) {
      assertThat(earlierSums.get(i).value()).as("a sum taken earlier").isEqualTo(earlierValues.get(i));
    }
  }

  @Property(tries = 50)
  void concurrentReaders_allSeeTheMergedList(@ForAll long seed) throws Exception {
    SplittableRandom rnd = new SplittableRandom(seed);
    RequestedSum sum = RequestedSum.EMPTY;
    ResourceList eager = ResourceList.EMPTY;
    for (int i = 0; i < 60; i++) {
      ResourceList r = randomRequests(rnd);
      sum = sum.plus(r);
      eager = eager.add(r);
    }
    RequestedSum shared = sum;
    ResourceList[] seen = new ResourceList[4];
    Thread[] readers = new Thread[seen.length];
    for (int t = 0; t < readers.length; t++) {
      int slot = t;
      readers[t] = new Thread(() -> seen[slot] = shared.value());
      readers[t].start();
    }
    for (Thread t : readers) {
      t.join();
    }
    for (ResourceList s : seen) {
      assertThat(s).isEqualTo(eager);
    }
  }

  private static ResourceList randomRequests(SplittableRandom rnd) {
    ResourceList.Builder b = ResourceList.builder();
    int kind = rnd.nextInt(10);
    if (kind == 0) {
      return ResourceList.EMPTY;
    }
    boolean huge = kind == 1;
    if (rnd.nextInt(5) != 0) {
      b.put("cpu", Quantity.ofMilli(huge ? Long.MAX_VALUE / 2 : rnd.nextInt(4000)));
    }
    if (rnd.nextInt(5) != 0) {
      b.put("memory", rnd.nextBoolean() ? Quantity.ofBytes(huge ? Long.MAX_VALUE / 3 : rnd.nextLong(1L << 36))
          : Quantity.parse(rnd.nextInt(64) + "Mi"));
    }
    if (rnd.nextInt(3) == 0) {
      b.put("ephemeral-storage", Quantity.of(rnd.nextInt(3) == 0 ? 0 : rnd.nextLong(1L << 40)));
    }
    if (rnd.nextInt(6) == 0) {
      b.put("nvidia.com/gpu", Quantity.of(rnd.nextInt(3)));
    }
    if (rnd.nextInt(8) == 0) {
      b.put("hugepages-2Mi", Quantity.parse(rnd.nextInt(8) + "Mi"));
    }
    return b.build();
  }
}
