package io.fleetkit.scheduler.internal;

import io.fleetkit.api.meta.ObjectMeta;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's lock and the inbox in front of it. The lock guards all of the engine's state and is held for a whole
 * scheduling cycle ({@link #call}). Cluster events and Permit decisions that arrive from other threads are not made to
 * wait for it: {@link #submit} appends them to a lock-free FIFO inbox and returns at once when another thread holds
 * the lock. Whoever holds the lock applies the inbox in order: the submitting thread itself when the lock is free (or
 * is already its own), else the lock holder before it releases the lock (and again when it finds the inbox non-empty
 * after releasing it, so that no task is left behind by a race).
 *
 * <p>So a caller that feeds and drives the scheduler from one thread sees every event applied before its call returns,
 * as with a plain lock, while a watch thread feeding a scheduler that is in the middle of a cycle returns in
 * microseconds; its event takes effect at the end of that cycle, as an informer's event that arrives during a cycle
 * does in kube-scheduler.
 *
 * <p>A task that throws is logged and skipped (the other tasks still run), except that the exception of a task is
 * rethrown to the thread that submitted it when that thread applied it itself.
 */
final class EngineLock {
  private static final Logger LOG = LoggerFactory.getLogger(EngineLock.class);

  /** Work submitted to the engine: what it is (for logs) and what to do. */
  static final class Task {
    private final String verb;
    private final Object subject;
    private final Runnable action;
    private @Nullable RuntimeException failure;

    private Task(String verb, Object subject, Runnable action) {
      this.verb = verb;
      this.subject = subject;
      this.action = action;
    }

    @Override
    public String toString() {
      // An object's metadata names it by key, computed only when a log line needs it.
      return verb + " " + (subject instanceof ObjectMeta m ? m.key() : subject);
    }
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final ConcurrentLinkedQueue<Task> inbox = new ConcurrentLinkedQueue<>();
  /** Run holding the lock just before its outermost release; null for none. */
  private @Nullable Runnable beforeRelease;

  /**
   * Runs {@code action} holding the lock just before every outermost release (the end of a call, or of applying
   * tasks), e.g. to hand batched observations to thread-safe metric series so that whatever reads them after a call
   * returned sees everything the call did.
   */
  void beforeRelease(Runnable action) {
    this.beforeRelease = action;
  }

  private void released() {
    Runnable r = beforeRelease;
    if (r != null) {
      try {
        r.run();
      } catch (RuntimeException e) {
        LOG.warn("scheduler: work before releasing the engine lock failed", e);
      }
    }
  }

  /**
   * Runs {@code action} holding the lock, the inbox applied before and after it (by the outermost call only: a
   * reentrant call from inside a cycle does not apply other threads' events in the middle of it).
   */
  <T> T call(Supplier<T> action) {
    lock.lock();
    boolean outermost = lock.getHoldCount() == 1;
    T result;
    try {
      if (outermost) {
        drain(null);
      }
      result = action.get();
      if (outermost) {
        drain(null);
      }
    } finally {
      if (outermost) {
        released();
      }
      lock.unlock();
      if (outermost) {
        help(null); // tasks that arrived after the last drain, while this thread still held the lock
      }
    }
    return result;
  }

  /** {@link #call} for an action without a result. */
  void run(Runnable action) {
    call(() -> {
      action.run();
      return null;
    });
  }

  /**
   * Submits {@code action} ({@code verb subject} names it in logs): applies it now, with the tasks before it, when the
   * lock is free or held by this thread; else leaves it to the lock holder and returns at once.
   *
   * @throws RuntimeException what {@code action} threw, when this thread applied it
   */
  void submit(String verb, Object subject, Runnable action) {
    help(post(verb, subject, action));
  }

  /**
   * Appends a task to the inbox without applying it; the caller then calls {@link #help} with it (outside any monitor
   * of its own: applying tasks can take a while). Lets a caller order its check with the inbox under its own lock.
   */
  Task post(String verb, Object subject, Runnable action) {
    Task t = new Task(verb, subject, action);
    inbox.add(t);
    return t;
  }

  /**
   * Applies the inbox if the lock is free or this thread's, until it is empty or another thread holds the lock.
   *
   * @throws RuntimeException what {@code mine} threw, when this thread applied it
   */
  void help(@Nullable Task mine) {
    while (!inbox.isEmpty() && lock.tryLock()) {
      try {
        drain(mine);
      } finally {
        if (lock.getHoldCount() == 1) {
          released();
        }
        lock.unlock();
      }
    }
    if (mine != null && mine.failure != null) {
      RuntimeException e = mine.failure;
      mine.failure = null;
      throw e;
    }
  }

  /**
   * Applies the inbox now, on this thread, which must hold the lock: between two cycles of {@code runUntilIdle}, so
   * that events and binding outcomes that arrived during a cycle take effect before the next one rather than at the
   * end of the whole run.
   *
   * @throws IllegalStateException if this thread does not hold the lock
   */
  void applyInbox() {
    if (!lock.isHeldByCurrentThread()) {
      throw new IllegalStateException("engine lock: applyInbox needs the lock");
    }
    if (!inbox.isEmpty()) {
      drain(null);
    }
  }

  /** Whether this thread holds the lock (is inside a cycle, an introspection call or applying tasks). */
  boolean isHeldByCurrentThread() {
    return lock.isHeldByCurrentThread();
  }

  private void drain(@Nullable Task mine) {
    Task t;
    while ((t = inbox.poll()) != null) {
      try {
        t.action.run();
      } catch (RuntimeException e) {
        if (t == mine) {
          t.failure = e;
        } else {
          LOG.warn("scheduler: applying \"{}\" failed; skipped", t, e);
        }
      }
    }
  }
}
