package io.fleetkit.benchmarks;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.benchmarks.generator.PerfWorkloads;
import io.fleetkit.scheduler.Scheduler;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Event intake while scheduling: a feeder thread adds {@code feedPods} pending pods at {@code addsPerSecond} (paced
 * in 1 ms ticks), as an informer's watch thread would, while the measured thread runs the scheduling loop; the
 * operation ends when every fed pod is bound. With intake that never waits for a cycle (the engine lock's inbox), the
 * score is the feeding time ({@code feedPods / addsPerSecond}) plus the last pods' cycles; an intake that blocked on
 * cycles would show as a longer time and a slow feeder. 1,000 nodes of 4 CPU, pods of 100m.
 *
 * <p>Checked after each iteration: every fed pod was bound (no event lost). The feeder's pace is not asserted (on a
 * loaded machine it may lag for reasons of its own); an intake that blocked on cycles shows in the score.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class EventIntakeBenchmark {
  public static final int NODES = 1_000;

  @Param({"10000"})
  public int addsPerSecond;

  @Param({"20000"})
  public int feedPods;

  private Scheduler scheduler;
  private List<Pod> pods;
  private final AtomicInteger bound = new AtomicInteger();

  @Setup(Level.Iteration)
  public void setUp() {
    bound.set(0);
    scheduler = Scheduler.builder().seed(42).onResult(r -> {
      if (r.isBound()) {
        bound.incrementAndGet();
      }
    }).build();
    ResourceList host = ResourceList.builder().put("cpu", "4").put("memory", "32Gi").put("pods", "110").build();
    PerfWorkloads.nodes(NODES, host).forEach(scheduler::addNode);
    pods = PerfWorkloads.pods("default", "fed-", feedPods,
        ResourceList.builder().put("cpu", "100m").put("memory", "500Mi").build());
  }

  @Benchmark
  public int feedWhileScheduling() throws InterruptedException {
    Thread feeder = new Thread(this::feed, "informer-stand-in");
    feeder.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (bound.get() < feedPods) {
      if (scheduler.runUntilIdle().isEmpty()) {
        LockSupport.parkNanos(50_000);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("only " + bound.get() + " of " + feedPods + " fed pods bound after 120 s");
      }
    }
    feeder.join();
    return bound.get();
  }

  private void feed() {
    long tickNanos = 1_000_000;
    int perTick = Math.max(1, addsPerSecond / 1000);
    int i = 0;
    long next = System.nanoTime();
    while (i < pods.size()) {
      for (int k = 0; k < perTick && i < pods.size(); k++, i++) {
        scheduler.addPod(pods.get(i));
      }
      next += tickNanos;
      long wait = next - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
    }
  }

  @TearDown(Level.Iteration)
  public void tearDown() {
    scheduler.close();
    if (bound.get() != feedPods) {
      throw new IllegalStateException("events lost: " + bound.get() + " of " + feedPods + " fed pods bound");
    }
  }
}
