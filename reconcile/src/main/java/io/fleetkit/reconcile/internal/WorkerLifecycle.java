package io.fleetkit.reconcile.internal;

import io.fleetkit.reconcile.Informer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start and close of a queue-driven loop, shared by {@link DefaultController} and
 * {@link DefaultGarbageCollector}: {@link #start} starts the informers and, once they have synced, the worker
 * threads (none in stepping mode, where the caller drives the loop); {@link #close} shuts the queue and the
 * informers, then waits for the workers up to a deadline and interrupts the ones still busy.
 */
final class WorkerLifecycle {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerLifecycle.class);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

  private final String owner;
  private final String threadPrefix;
  private final int workers;
  private final Runnable workLoop;
  private final Collection<? extends Informer<?>> informers;
  private final Runnable shutDownQueue;
  private final List<Thread> threads = new ArrayList<>();
  /** Set once, by {@link #start()} under the lock; volatile, so that stepping calls check it without the lock. */
  private volatile @Nullable CompletableFuture<Void> started;
  private boolean closed;

  /**
   * @param owner how errors name the loop ({@code controller web}, {@code garbage collector})
   * @param informers the loop's informers, read when it starts and when it closes
   */
  WorkerLifecycle(String owner, String threadPrefix, int workers, Runnable workLoop,
      Collection<? extends Informer<?>> informers, Runnable shutDownQueue) {
    this.owner = owner;
    this.threadPrefix = threadPrefix;
    this.workers = workers;
    this.workLoop = workLoop;
    this.informers = informers;
    this.shutDownQueue = shutDownQueue;
  }

  int workers() {
    return workers;
  }

  synchronized CompletableFuture<Void> start() {
    if (closed) {
      throw new IllegalStateException(owner + " is closed");
    }
    if (started != null) {
      return started;
    }
    List<CompletableFuture<Void>> syncs = new ArrayList<>();
    for (Informer<?> inf : informers) {
      syncs.add(inf.start());
    }
    started = CompletableFuture.allOf(syncs.toArray(CompletableFuture[]::new)).thenRun(this::startWorkers);
    return started;
  }

  private synchronized void startWorkers() {
    if (closed) {
      return;
    }
    for (int i = 0; i < workers; i++) {
      Thread t = new Thread(workLoop, threadPrefix + i);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    LOG.debug("{}: started {} workers", owner, workers);
  }

  /** Throws unless the loop is in stepping mode (no workers) and started: {@code op} names the caller's call. */
  void checkStepping(String op) {
    if (workers != 0) {
      throw new IllegalStateException(owner + ": " + op + " needs stepping mode but it runs " + workers
          + " worker threads");
    }
    if (started == null) {
      throw new IllegalStateException(owner + ": " + op + " before start()");
    }
  }

  void close() {
    List<Thread> toJoin;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      toJoin = List.copyOf(threads);
    }
    shutDownQueue.run();
    for (Informer<?> inf : informers) {
      inf.close();
    }
    long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
    for (Thread t : toJoin) {
      try {
        t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (t.isAlive()) {
        LOG.warn("{}: worker {} still busy after {}; interrupting", owner, t.getName(), CLOSE_WAIT);
        t.interrupt();
      }
    }
  }
}
