package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/kubernetes staging/src/k8s.io/client-go/util/workqueue/default_rate_limiters_test.go (5
 * tests: TestItemExponentialFailureRateLimiter, TestItemExponentialFailureRateLimiterOverFlow,
 * TestItemFastSlowRateLimiter, TestMaxOfRateLimiter, TestWithMaxWaitRateLimiter), plus own cases for the token
 * bucket and the default controller limiter.
 */
final class RateLimitersTest {
  private static Duration ms(long n) {
    return Duration.ofMillis(n);
  }

  // TestItemExponentialFailureRateLimiter
  @Test
  void itemExponential_failures_doublePerItemAndResetOnForget() {
    RateLimiter<String> limiter = RateLimiters.itemExponential(ms(1), Duration.ofSeconds(1));
    assertThat(limiter.when("one")).isEqualTo(ms(1));
    assertThat(limiter.when("one")).isEqualTo(ms(2));
    assertThat(limiter.when("one")).isEqualTo(ms(4));
    assertThat(limiter.when("one")).isEqualTo(ms(8));
    assertThat(limiter.when("one")).isEqualTo(ms(16));
    assertThat(limiter.numRequeues("one")).isEqualTo(5);

    assertThat(limiter.when("two")).isEqualTo(ms(1));
    assertThat(limiter.when("two")).isEqualTo(ms(2));
    assertThat(limiter.numRequeues("two")).isEqualTo(2);

    limiter.forget("one");
    assertThat(limiter.numRequeues("one")).isZero();
    assertThat(limiter.when("one")).isEqualTo(ms(1));
  }

  // TestItemExponentialFailureRateLimiterOverFlow
  @Test
  void itemExponential_manyFailures_saturatesAtMaxWithoutOverflow() {
    RateLimiter<String> limiter = RateLimiters.itemExponential(ms(1), Duration.ofSeconds(1000));
    for (int i = 0; i < 5; i++) {
      limiter.when("one");
    }
    assertThat(limiter.when("one")).isEqualTo(ms(32));
    for (int i = 0; i < 1000; i++) {
      limiter.when("overflow1");
    }
    assertThat(limiter.when("overflow1")).isEqualTo(Duration.ofSeconds(1000));

    limiter = RateLimiters.itemExponential(Duration.ofMinutes(1), Duration.ofHours(1000));
    for (int i = 0; i < 2; i++) {
      limiter.when("two");
    }
    assertThat(limiter.when("two")).isEqualTo(Duration.ofMinutes(4));
    for (int i = 0; i < 1000; i++) {
      limiter.when("overflow2");
    }
    assertThat(limiter.when("overflow2")).isEqualTo(Duration.ofHours(1000));
  }

  // TestItemFastSlowRateLimiter
  @Test
  void itemFastSlow_afterMaxFastAttempts_switchesToSlow() {
    RateLimiter<String> limiter = RateLimiters.itemFastSlow(ms(5), Duration.ofSeconds(10), 3);
    assertThat(limiter.when("one")).isEqualTo(ms(5));
    assertThat(limiter.when("one")).isEqualTo(ms(5));
    assertThat(limiter.when("one")).isEqualTo(ms(5));
    assertThat(limiter.when("one")).isEqualTo(Duration.ofSeconds(10));
    assertThat(limiter.when("one")).isEqualTo(Duration.ofSeconds(10));
    assertThat(limiter.numRequeues("one")).isEqualTo(5);

    assertThat(limiter.when("two")).isEqualTo(ms(5));
    assertThat(limiter.when("two")).isEqualTo(ms(5));
    assertThat(limiter.numRequeues("two")).isEqualTo(2);

    limiter.forget("one");
    assertThat(limiter.numRequeues("one")).isZero();
    assertThat(limiter.when("one")).isEqualTo(ms(5));
  }

  // TestMaxOfRateLimiter
  @Test
  void maxOf_twoLimiters_returnsTheLongerDelay() {
    RateLimiter<String> limiter = RateLimiters.maxOf(List.of(
        RateLimiters.itemFastSlow(ms(5), Duration.ofSeconds(3), 3),
        RateLimiters.itemExponential(ms(1), Duration.ofSeconds(1))));
    assertThat(limiter.when("one")).isEqualTo(ms(5));
    assertThat(limiter.when("one")).isEqualTo(ms(5));
    assertThat(limiter.when("one")).isEqualTo(ms(5));
    assertThat(limiter.when("one")).isEqualTo(Duration.ofSeconds(3));
    assertThat(limiter.when("one")).isEqualTo(Duration.ofSeconds(3));
    assertThat(limiter.numRequeues("one")).isEqualTo(5);

    assertThat(limiter.when("two")).isEqualTo(ms(5));
    assertThat(limiter.when("two")).isEqualTo(ms(5));
    assertThat(limiter.numRequeues("two")).isEqualTo(2);

    limiter.forget("one");
    assertThat(limiter.numRequeues("one")).isZero();
    assertThat(limiter.when("one")).isEqualTo(ms(5));
  }

  // TestWithMaxWaitRateLimiter (with upstream's StepRateLimiter test double)
  @Test
  void withMaxWait_slowDelays_areCappedAtMaxWait() {
    RateLimiter<Integer> step = new RateLimiter<>() {
      private int count;

      @Override
      public Duration when(Integer item) {
        count++;
        return count <= 100 ? ms(5) : Duration.ofSeconds(1000);
      }

      @Override
      public void forget(Integer item) {}

      @Override
      public int numRequeues(Integer item) {
        return 0;
      }
    };
    RateLimiter<Integer> limiter = RateLimiters.withMaxWait(step, Duration.ofSeconds(500));
    for (int i = 0; i < 100; i++) {
      assertThat(limiter.when(i)).isEqualTo(ms(5));
    }
    for (int i = 100; i < 200; i++) {
      assertThat(limiter.when(i)).isEqualTo(Duration.ofSeconds(500));
    }
  }

  @Test
  void bucket_burstUsedUp_thenPacesAtQps() {
    ManualClock clock = ManualClock.atEpoch2026();
    RateLimiter<String> bucket = RateLimiters.bucket(10, 100, clock);
    for (int i = 0; i < 100; i++) {
      assertThat(bucket.when("x" + i)).as("burst token %s", i).isEqualTo(Duration.ZERO);
    }
    assertThat(bucket.when("a")).isEqualTo(ms(100));
    assertThat(bucket.when("b")).isEqualTo(ms(200));
    clock.advance(ms(200));
    assertThat(bucket.when("c")).isEqualTo(ms(100));
    clock.advance(Duration.ofSeconds(60));
    assertThat(bucket.when("d")).as("refilled, capped at burst").isEqualTo(Duration.ZERO);
    assertThat(bucket.numRequeues("d")).isZero();
  }

  @Test
  void defaultController_combinesBackoffAndBucket() {
    ManualClock clock = ManualClock.atEpoch2026();
    RateLimiter<String> limiter = RateLimiters.defaultController(clock);
    assertThat(limiter.when("a")).isEqualTo(ms(5));
    assertThat(limiter.when("a")).isEqualTo(ms(10));
    assertThat(limiter.numRequeues("a")).isEqualTo(2);
    for (int i = 0; i < 98; i++) {
      limiter.when("item" + i);
    }
    assertThat(limiter.when("fresh")).as("bucket exhausted: 100 ms beats 5 ms").isEqualTo(ms(100));
    for (int i = 0; i < 40; i++) {
      limiter.when("a");
    }
    assertThat(limiter.when("a")).isEqualTo(RateLimiters.DEFAULT_MAX_DELAY);
  }

  @Test
  void factories_invalidArguments_failWithMessage() {
    assertThatThrownBy(() -> RateLimiters.itemExponential(ms(10), ms(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max delay");
    assertThatThrownBy(() -> RateLimiters.bucket(0, 1, ManualClock.atEpoch2026()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("qps");
    assertThatThrownBy(() -> RateLimiters.maxOf(List.<RateLimiter<String>>of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one");
  }
}
