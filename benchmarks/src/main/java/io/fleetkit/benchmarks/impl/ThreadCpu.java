package io.fleetkit.benchmarks.impl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time per native thread of this JVM, read from Linux's {@code /proc/self/task/}{@literal *}{@code /stat}: unlike
 * {@code ThreadMXBean} it sees the JIT compiler and garbage collector threads. A benchmark takes a snapshot before and
 * after an operation and prints where the process's CPU went, by thread name with digits folded ({@code GC Thread#N}).
 * Elsewhere than Linux the snapshot is empty.
 */
public final class ThreadCpu {
  private static final double TICKS_PER_MS = 100.0 / 1000; // USER_HZ is 100 on Linux

  private final Map<String, Long> ticksByThread;

  private ThreadCpu(Map<String, Long> ticksByThread) {
    this.ticksByThread = ticksByThread;
  }

  /** The CPU ticks (user + system) of every live thread now, keyed by thread id and name. */
  public static ThreadCpu snapshot() {
    Map<String, Long> ticks = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      tasks.forEach(task -> {
        try {
          String stat = Files.readString(task.resolve("stat"));
          int open = stat.indexOf('(');
          int close = stat.lastIndexOf(')');
          String name = stat.substring(open + 1, close);
          String[] f = stat.substring(close + 2).split(" ");
          // after "pid (comm) ": state=0 ... utime=11, stime=12
          ticks.put(task.getFileName() + " " + name, Long.parseLong(f[11]) + Long.parseLong(f[12]));
        } catch (IOException | RuntimeException e) {
          // the thread ended while being read
        }
      });
    } catch (IOException e) {
      return new ThreadCpu(Map.of());
    }
    return new ThreadCpu(ticks);
  }

  /**
   * Milliseconds of CPU per thread group (name with digits folded to N) between {@code before} and this snapshot,
   * largest first; threads that ended in between are missing (their CPU shows only in the process total).
   */
  public Map<String, Long> msSince(ThreadCpu before) {
    Map<String, Long> byGroup = new TreeMap<>();
    ticksByThread.forEach((key, t) -> {
      long d = t - before.ticksByThread.getOrDefault(key, 0L);
      if (d > 0) {
        String group = key.substring(key.indexOf(' ') + 1).replaceAll("\\d+", "N");
        byGroup.merge(group, Math.round(d / TICKS_PER_MS), Long::sum);
      }
    });
    Map<String, Long> sorted = new java.util.LinkedHashMap<>();
    byGroup.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }
}
