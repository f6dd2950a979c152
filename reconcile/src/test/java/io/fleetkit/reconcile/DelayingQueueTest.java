package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.time.ManualClock;
import io.fleetkit.api.time.TimerClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/kubernetes staging/src/k8s.io/client-go/util/workqueue/delaying_queue_test.go (4 tests:
 * TestSimpleQueue, TestDeduping, TestAddTwoFireEarly, TestCopyShifting). The fake clock is a {@link ManualClock};
 * upstream's waitingForDepth gauge is {@link DelayingQueue#waitingLen()}. Releases happen synchronously on
 * {@code advance}, so upstream's polling waits become direct assertions.
 */
final class DelayingQueueTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final DelayingQueue<String> q = DelayingQueue.create(clock);

  // TestSimpleQueue
  @Test
  void addAfter_beforeAndAfterDeadline_addsOnlyWhenDue() {
    q.addAfter("foo", Duration.ofMillis(50));
    assertThat(q.waitingLen()).isEqualTo(1);
    assertThat(q.len()).isZero();

    clock.advance(Duration.ofMillis(60));
    assertThat(q.len()).isEqualTo(1);
    assertThat(q.waitingLen()).isZero();
    String item = q.poll().orElseThrow();
    q.done(item);

    clock.advance(Duration.ofSeconds(10)); // past upstream's heartbeat
    assertThat(q.len()).isZero();
  }

  // TestDeduping
  @Test
  void addAfter_sameItemTwice_keepsTheEarlierTime() {
    q.addAfter("foo", Duration.ofMillis(50));
    q.addAfter("foo", Duration.ofMillis(70));
    assertThat(q.waitingLen()).isEqualTo(1);
    assertThat(q.len()).isZero();

    clock.advance(Duration.ofMillis(60));
    assertThat(q.len()).isEqualTo(1);
    assertThat(q.waitingLen()).isZero();
    q.done(q.poll().orElseThrow());

    clock.advance(Duration.ofMillis(20)); // past the second (dropped) add
    assertThat(q.len()).isZero();

    // this time the earlier, later add overrides
    q.addAfter("foo", Duration.ofMillis(50));
    q.addAfter("foo", Duration.ofMillis(30));
    assertThat(q.waitingLen()).isEqualTo(1);
    assertThat(q.len()).isZero();

    clock.advance(Duration.ofMillis(40));
    assertThat(q.len()).isEqualTo(1);
    assertThat(q.waitingLen()).isZero();
    q.done(q.poll().orElseThrow());

    clock.advance(Duration.ofMillis(20));
    assertThat(q.len()).isZero();
  }

  // TestAddTwoFireEarly
  @Test
  void addAfter_laterAddFiresEarlier_handsOutInReadyOrder() {
    q.addAfter("foo", Duration.ofSeconds(1));
    q.addAfter("bar", Duration.ofMillis(50));
    assertThat(q.waitingLen()).isEqualTo(2);
    assertThat(q.len()).isZero();

    clock.advance(Duration.ofMillis(60));
    assertThat(q.len()).isEqualTo(1);
    assertThat(q.waitingLen()).isEqualTo(1);
    assertThat(q.poll()).contains("bar");

    q.addAfter("baz", Duration.ofSeconds(2));
    clock.advance(Duration.ofSeconds(1));
    assertThat(q.len()).isEqualTo(1);
    assertThat(q.waitingLen()).isEqualTo(1);
    assertThat(q.poll()).contains("foo");

    clock.advance(Duration.ofSeconds(2));
    assertThat(q.len()).isEqualTo(1);
    assertThat(q.waitingLen()).isZero();
    assertThat(q.poll()).contains("baz");
  }

  // TestCopyShifting
  @Test
  void addAfter_threeItemsReleasedTogether_comeOutEarliestFirst() {
    q.addAfter("foo", Duration.ofSeconds(1));
    q.addAfter("bar", Duration.ofMillis(500));
    q.addAfter("baz", Duration.ofMillis(250));
    assertThat(q.waitingLen()).isEqualTo(3);
    assertThat(q.len()).isZero();

    clock.advance(Duration.ofSeconds(2));
    assertThat(q.len()).isEqualTo(3);
    assertThat(q.waitingLen()).isZero();
    assertThat(q.poll()).contains("baz");
    assertThat(q.poll()).contains("bar");
    assertThat(q.poll()).contains("foo");
  }

  @Test
  void addAfter_nonPositiveDelay_addsImmediately() {
    q.addAfter("now", Duration.ZERO);
    q.addAfter("past", Duration.ofMillis(-5));
    assertThat(q.len()).isEqualTo(2);
    assertThat(q.waitingLen()).isZero();
  }

  @Test
  void addAfter_afterShutDown_isIgnored() {
    q.addAfter("early", Duration.ofMillis(10));
    q.shutDown();
    q.addAfter("late", Duration.ofMillis(10));
    clock.advance(Duration.ofSeconds(1));
    assertThat(q.len()).isZero();
    assertThat(clock.pendingTasks()).as("shutdown cancels the timer").isZero();
  }

  @Test
  void addAfter_onSystemClock_firesOnTheTimerThread() throws Exception {
    DelayingQueue<String> real = DelayingQueue.create(TimerClock.system());
    long start = System.nanoTime();
    real.addAfter("x", Duration.ofMillis(20));
    assertThat(real.get()).contains("x");
    assertThat(System.nanoTime() - start).as("not released early").isGreaterThanOrEqualTo(20_000_000L);
  }
}
