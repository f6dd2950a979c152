package io.fleetkit.scheduler.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Runs a range of work in chunks on a fixed pool of daemon threads plus the calling thread, as kube's
 * {@code parallelize.Until} but with chunks, not a task per node. Chunks are claimed in increasing order and every
 * claimed chunk is finished, so when a job stops early the chunks done always form a prefix {@code [0, k)}: callers
 * that cut their results at a deterministic point get the same answer whatever the thread timing.
 *
 * <p>One job at a time (the scheduling cycle is serial). Thread-safe for that use.
 */
public final class ParallelRunner implements AutoCloseable {
  /** The work of one chunk, {@code [from, to)}. */
  @FunctionalInterface
  public interface Chunk {
    void run(int from, int to);
  }

  private final int parallelism;
  private final @Nullable ExecutorService pool;

  public ParallelRunner(int parallelism) {
    this.parallelism = parallelism;
    if (parallelism > 1) {
      AtomicInteger n = new AtomicInteger();
      ThreadFactory f = r -> {
        Thread t = new Thread(r, "fleetkit-scheduler-worker-" + n.incrementAndGet());
        t.setDaemon(true);
        return t;
      };
      pool = Executors.newFixedThreadPool(parallelism - 1, f);
    } else {
      pool = null;
    }
  }

  public int parallelism() {
    return parallelism;
  }

  /** One run: a chunk counter, a stop flag and the count of threads inside. */
  public static final class Job implements Runnable {
    private final int count;
    private final int chunkSize;
    private final int chunks;
    private final Chunk work;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger inside = new AtomicInteger();
    private volatile boolean stop;
    private volatile @Nullable Throwable failure;

    Job(int count, int chunkSize, Chunk work) {
      this.count = count;
      this.chunkSize = chunkSize;
      this.chunks = (count + chunkSize - 1) / chunkSize;
      this.work = work;
    }

    /** Asks the threads to claim no further chunk (chunks already claimed still finish). */
    public void stop() {
      stop = true;
    }

    @Override
    public void run() {
      while (true) {
        inside.incrementAndGet();
        try {
          if (stop) {
            return;
          }
          int c = next.getAndIncrement();
          if (c >= chunks) {
            return;
          }
          int from = c * chunkSize;
          work.run(from, Math.min(count, from + chunkSize));
        } catch (Throwable t) {
          failure = t;
          stop = true;
          return;
        } finally {
          inside.decrementAndGet();
        }
      }
    }

    /** How many items the finished chunks covered (a prefix of the range). */
    public int processed() {
      return Math.min(count, Math.min(next.get(), chunks) * chunkSize);
    }
  }

  /**
   * Runs {@code work} over {@code [0, count)} in chunks of {@code chunkSize} and returns when every claimed chunk is
   * done. {@code work} may call {@link Job#stop()} through the returned job's reference it captured.
   */
  public Job run(int count, int chunkSize, Chunk work) {
    return run(new Job(count, Math.max(1, chunkSize), work));
  }

  /** Runs a prepared job (so that the work can reach {@link Job#stop()}). */
  public Job run(Job job) {
    ExecutorService p = pool;
    int helpers = p == null ? 0 : Math.min(parallelism - 1, job.chunks - 1);
    for (int i = 0; i < helpers; i++) {
      try {
        p.execute(job);
      } catch (RejectedExecutionException e) {
        break; // closed: the caller does the work alone
      }
    }
    job.run();
    job.stop = true;
    int spins = 0;
    while (job.inside.get() != 0) {
      if (++spins < 1000) {
        Thread.onSpinWait();
      } else {
        Thread.yield();
      }
    }
    Throwable t = job.failure;
    if (t instanceof RuntimeException re) {
      throw re;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return job;
  }

  /** Creates a job to be run with {@link #run(Job)}. */
  public static Job job(int count, int chunkSize, Chunk work) {
    return new Job(count, Math.max(1, chunkSize), work);
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
