package io.fleetkit.api.admission;

import io.fleetkit.api.core.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The driver of the quota concurrency tests (admission's properties, the etcd store's shared quota): creates pods
 * from several threads released together.
 */
public final class ConcurrentCreates {
  private ConcurrentCreates() {}

  /**
   * Creates {@code pods} on {@code threads} threads, all starting at once; {@code create} gets each pod's index and
   * the pod, {@code onDenied} each admission denial (to check its rule). Returns how many were denied.
   */
  public static int run(int threads, List<Pod> pods, BiConsumer<Integer, Pod> create,
      Consumer<AdmissionDeniedException> onDenied) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger denied = new AtomicInteger();
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < pods.size(); i++) {
      int index = i;
      Pod pod = pods.get(i);
      futures.add(pool.submit(() -> {
        start.await();
        try {
          create.accept(index, pod);
        } catch (AdmissionDeniedException e) {
          onDenied.accept(e);
          denied.incrementAndGet();
        }
        return null;
      }));
    }
    start.countDown();
    try {
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdown();
    }
    return denied.get();
  }
}
