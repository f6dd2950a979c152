package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/** A thread-safe {@link WatchListener} that records what it receives, for tests. */
final class Recorder<T extends io.fleetkit.api.meta.ApiObject<T>> implements WatchListener<T> {
  private final List<WatchEvent<T>> events = new ArrayList<>();

  @Override
  public synchronized void onEvent(WatchEvent<T> event) {
    events.add(event);
  }

  synchronized List<WatchEvent<T>> events() {
    return List.copyOf(events);
  }

  /** "TYPE name@rv" for each event, compact to assert on. */
  synchronized List<String> summary() {
    List<String> out = new ArrayList<>();
    for (WatchEvent<T> e : events) {
      out.add(e.type() + " " + e.object().metadata().name() + "@" + e.resourceVersion());
    }
    return out;
  }

  synchronized int size() {
    return events.size();
  }

  void awaitSize(int n) {
    await(() -> size() >= n, "watch to receive " + n + " events (has " + size() + ")");
  }

  static void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out waiting for " + what);
      }
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting for " + what);
      }
    }
  }
}
