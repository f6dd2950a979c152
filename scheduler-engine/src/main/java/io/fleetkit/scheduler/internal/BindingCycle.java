package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.Status;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Where the binding half of a binding cycle (PreBind and Bind, kube's {@code bindingCycle} after
 * {@code WaitOnPermit}) runs: inline on the scheduling thread, or on a bounded pool of binding threads while the
 * scheduling thread goes on with the next pod, as kube-scheduler's binding goroutine does.
 *
 * <p>Inline (parallelism 0) is the default: binding into the embedded store costs a few microseconds, less than a
 * hand-off to another thread. With a pool, {@link #start} returns at once; the outcome comes back through the
 * {@link EngineLock}'s inbox, so it is applied by whichever thread holds the engine lock next (between two cycles,
 * at the end of a call, or by the binding thread itself when the lock is free), never in the middle of a cycle.
 *
 * <p>Thread-safe: {@link #start} and {@link #awaitIdle} are called holding the engine lock; the pool threads run
 * the binding work and post its outcome. A pod's work and outcome never run twice: each is handed to exactly one
 * task, and the outcome is posted exactly once, after its work returned or threw.
 */
final class BindingCycle {
  private final EngineLock lock;
  private final @Nullable ThreadPoolExecutor pool;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Object idle = new Object();

  /**
   * @param parallelism binding threads; 0 binds inline on the scheduling thread
   */
  BindingCycle(EngineLock lock, int parallelism) {
    if (parallelism < 0) {
      throw new IllegalArgumentException("scheduler: bind parallelism " + parallelism + " must not be negative");
    }
    this.lock = lock;
    if (parallelism == 0) {
      this.pool = null;
    } else {
      AtomicInteger n = new AtomicInteger();
      this.pool = new ThreadPoolExecutor(parallelism, parallelism, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
          r -> {
            Thread t = new Thread(r, "fleetkit-binder-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
          });
      this.pool.allowCoreThreadTimeOut(true);
    }
  }

  /** Whether binding runs on a pool, so that {@link #start} returns before the pod is bound. */
  boolean isAsync() {
    return pool != null;
  }

  /** Binding cycles started on the pool whose outcome has not been posted yet. */
  int inFlight() {
    return inFlight.get();
  }

  /**
   * Runs {@code work} (PreBind and Bind; it must not touch engine state) and hands its status to {@code done}, which
   * runs holding the engine lock. Inline: both run now, on this thread. With a pool: {@code work} runs on a binding
   * thread and {@code done} is posted to the engine lock; an exception from {@code work} becomes an error status.
   *
   * @param podKey names the task in logs
   */
  void start(String podKey, Supplier<Status> work, Consumer<Status> done) {
    ExecutorService p = pool;
    if (p == null) {
      done.accept(run(work));
      return;
    }
    inFlight.incrementAndGet();
    try {
      p.execute(() -> {
        Status outcome = run(work);
        try {
          lock.submit("binding finished", podKey, () -> done.accept(outcome));
        } finally {
          if (inFlight.decrementAndGet() == 0) {
            synchronized (idle) {
              idle.notifyAll();
            }
          }
        }
      });
    } catch (RejectedExecutionException e) {
      inFlight.decrementAndGet();
      done.accept(Status.error("binding pod " + podKey + ": the scheduler is closing"));
    }
  }

  private static Status run(Supplier<Status> work) {
    try {
      return work.get();
    } catch (RuntimeException e) {
      return Status.error("binding failed: " + e);
    }
  }

  /**
   * Waits, holding the engine lock, until no binding cycle is in flight, applying the outcomes as they come (so that a
   * failed binding is re-queued before this returns). A no-op when binding is inline.
   */
  void awaitIdle() {
    awaitIdleOr(() -> false);
  }

  /**
   * As {@link #awaitIdle}, but returns early, after applying the inbox, once {@code moreWork} holds (e.g. a pod became
   * active): the scheduling thread then schedules it while the bindings in flight go on, as kube-scheduler's scheduling
   * loop never waits for its binding goroutines.
   *
   * @return whether no binding cycle is in flight (always true when binding is inline)
   */
  boolean awaitIdleOr(BooleanSupplier moreWork) {
    if (pool == null) {
      return true;
    }
    while (true) {
      lock.applyInbox();
      if (inFlight.get() == 0) {
        lock.applyInbox(); // outcomes are posted before the count drops: this picks up the last ones
        return true;
      }
      if (moreWork.getAsBoolean()) {
        return false;
      }
      synchronized (idle) {
        if (inFlight.get() != 0) {
          try {
            idle.wait(1);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return inFlight.get() == 0;
          }
        }
      }
    }
  }

  /** Stops taking work, lets the running binding cycles finish and applies their outcomes. */
  void close() {
    ThreadPoolExecutor p = pool;
    if (p == null) {
      return;
    }
    awaitIdle();
    p.shutdown();
  }
}
