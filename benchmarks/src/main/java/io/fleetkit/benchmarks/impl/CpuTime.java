package io.fleetkit.benchmarks.impl;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * CPU time spent inside measured operations: the calling thread's, and the whole process's (garbage collection, the
 * JIT, helper threads such as binders and Fenzo's workers included). A benchmark brackets its measured work with
 * {@link #start} and {@link #stop}; {@link CpuTimeProfiler} reports the sums per iteration. On a shared machine wall
 * time measures the load as much as the code; CPU time of the same work does not (cache pollution aside).
 */
public final class CpuTime {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final AtomicLong THREAD_NANOS = new AtomicLong();
  private static final AtomicLong PROCESS_NANOS = new AtomicLong();

  private CpuTime() {}

  /** A start mark: {@code [thread nanos, process nanos]}. */
  public static long[] start() {
    return new long[] {THREADS.getCurrentThreadCpuTime(), processNanos()};
  }

  /** Adds the CPU time since {@code mark} (from {@link #start} on the same thread) to the iteration's sums. */
  public static void stop(long[] mark) {
    THREAD_NANOS.addAndGet(THREADS.getCurrentThreadCpuTime() - mark[0]);
    PROCESS_NANOS.addAndGet(processNanos() - mark[1]);
  }

  /** The sums since the last drain, {@code [thread nanos, process nanos]}, and resets them. */
  static long[] drain() {
    return new long[] {THREAD_NANOS.getAndSet(0), PROCESS_NANOS.getAndSet(0)};
  }

  /** The process's CPU time, or -1 when the JVM does not say. */
  public static long processNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    return -1;
  }
}
