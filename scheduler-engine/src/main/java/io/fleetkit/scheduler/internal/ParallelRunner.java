package io.fleetkit.scheduler.internal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * Runs a range of work in chunks on a fixed set of daemon worker threads plus the calling thread, as kube's
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
  private final Worker[] workers;
  /** The job on offer; workers take each job (by its sequence number) at most once. */
  private volatile @Nullable Job offered;
  private volatile long offeredSeq;
  private volatile boolean closed;

  public ParallelRunner(int parallelism) {
    this.parallelism = parallelism;
    this.workers = new Worker[Math.max(0, parallelism - 1)];
    for (int i = 0; i < workers.length; i++) {
      workers[i] = new Worker("fleetkit-scheduler-worker-" + (i + 1));
      workers[i].start();
    }
  }

  /** A helper thread: parks until the next job is offered. */
  private final class Worker extends Thread {
    volatile boolean parked;

    Worker(String name) {
      super(name);
      setDaemon(true);
    }

    @Override
    public void run() {
      long seen = 0;
      while (!closed) {
        long seq = offeredSeq;
        if (seq != seen) {
          seen = seq;
          Job j = offered;
          if (j != null) {
            j.run();
          }
          continue;
        }
        // No spinning: on a shared 2-core machine a spinning helper steals the caller's core (measured slower under
        // load); the caller unparks a parked worker directly, without an executor's queue and lock.
        if (offeredSeq == seen && !closed) {
          parked = true;
          if (offeredSeq == seen && !closed) {
            LockSupport.park(this);
          }
          parked = false;
        }
      }
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
    if (workers.length > 0 && job.chunks > 1 && !closed) {
      offered = job;
      offeredSeq = offeredSeq + 1; // only the scheduling thread offers jobs
      for (Worker w : workers) {
        if (w.parked) {
          LockSupport.unpark(w);
        }
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
    closed = true;
    offered = null;
    for (Worker w : workers) {
      LockSupport.unpark(w);
    }
  }
}
