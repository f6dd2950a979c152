package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/kubernetes staging/src/k8s.io/client-go/util/workqueue/rate_limiting_queue_test.go (1
 * test: TestRateLimitingQueue). Upstream reads the ready time from the delaying queue's channel; here the ready
 * time is observed by stepping a {@link ManualClock} to one nanosecond before it and then to it.
 */
final class RateLimitingQueueTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final RateLimitingQueue<String> queue =
      RateLimitingQueue.create(clock, RateLimiters.itemExponential(Duration.ofMillis(1), Duration.ofSeconds(1)));

  private void assertReadyAfter(String item, Duration expected) {
    clock.advance(expected.minusNanos(1));
    assertThat(queue.len()).as("%s not ready before %s", item, expected).isZero();
    clock.advance(Duration.ofNanos(1));
    assertThat(queue.poll()).as("%s ready after %s", item, expected).contains(item);
    queue.done(item);
  }

  // TestRateLimitingQueue
  @Test
  void addRateLimited_repeatedFailures_backOffExponentiallyPerItem() {
    queue.addRateLimited("one");
    assertReadyAfter("one", Duration.ofMillis(1));
    queue.addRateLimited("one");
    assertReadyAfter("one", Duration.ofMillis(2));
    assertThat(queue.numRequeues("one")).isEqualTo(2);

    queue.addRateLimited("two");
    assertReadyAfter("two", Duration.ofMillis(1));
    queue.addRateLimited("two");
    assertReadyAfter("two", Duration.ofMillis(2));

    queue.forget("one");
    assertThat(queue.numRequeues("one")).isZero();
    queue.addRateLimited("one");
    assertReadyAfter("one", Duration.ofMillis(1));
  }

  @Test
  void defaultController_firstRetries_useFiveMillisecondBase() {
    RateLimitingQueue<String> q = RateLimitingQueue.create(clock);
    q.addRateLimited("a");
    assertThat(q.waitingLen()).isEqualTo(1);
    clock.advance(Duration.ofMillis(4));
    assertThat(q.len()).isZero();
    clock.advance(Duration.ofMillis(1));
    assertThat(q.len()).isEqualTo(1);
  }
}
