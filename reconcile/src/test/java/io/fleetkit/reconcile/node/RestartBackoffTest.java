package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/client-go util/flowcontrol/backoff_test.go (TestSlowBackoff, TestBackoffReset,
 * TestBackoffHighWaterMark, TestBackoffGC, TestIsInBackOffSinceUpdate); the kubelet builds its backoff without
 * jitter, so the expected values are exact.
 */
final class RestartBackoffTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private static final Duration STEP = Duration.ofSeconds(1);

  @Test
  void next_slowBackoff_doublesToMaxThenResetClears() { // TestSlowBackoff
    RestartBackoff b = new RestartBackoff(STEP, STEP.multipliedBy(50), clock::now);
    long[] cases = {0, 1, 2, 4, 8, 16, 32, 50, 50, 50};
    for (long c : cases) {
      clock.advance(STEP);
      assertThat(b.get("_idSlow")).isEqualTo(STEP.multipliedBy(c));
      b.next("_idSlow", clock.now());
    }
    b.next("_idSlow", clock.now());
    b.reset("_idSlow");
    assertThat(b.get("_idSlow")).isZero();
  }

  @Test
  void isInBackOffSince_afterTwiceMax_notInBackoff() { // TestBackoffReset
    RestartBackoff b = new RestartBackoff(STEP, STEP.multipliedBy(5), clock::now);
    for (int i = 0; i <= 5; i++) {
      clock.advance(STEP);
      b.next("_idReset", clock.now());
    }
    assertThat(b.isInBackOffSince("_idReset", clock.now())).isTrue();
    Instant lastUpdate = clock.now();
    clock.advance(STEP.multipliedBy(11));
    assertThat(b.isInBackOffSince("_idReset", lastUpdate)).isFalse();
  }

  @Test
  void next_withinTwiceMax_staysAtHighWaterMark() { // TestBackoffHighWaterMark
    RestartBackoff b = new RestartBackoff(STEP, STEP.multipliedBy(5), clock::now);
    for (int i = 0; i <= 5; i++) {
      clock.advance(STEP);
      b.next("_idHiWaterMark", clock.now());
    }
    clock.advance(STEP.multipliedBy(6));
    b.next("_idHiWaterMark", clock.now());
    assertThat(b.get("_idHiWaterMark")).isEqualTo(STEP.multipliedBy(5));
  }

  @Test
  void gc_entryOlderThanTwiceMax_removed() { // TestBackoffGC
    RestartBackoff b = new RestartBackoff(STEP, STEP.multipliedBy(5), clock::now);
    for (int i = 0; i <= 5; i++) {
      clock.advance(STEP);
      b.next("_idGC", clock.now());
    }
    clock.advance(STEP.multipliedBy(6));
    b.gc();
    assertThat(b.contains("_idGC")).isTrue();
    clock.advance(STEP.multipliedBy(6));
    b.gc();
    assertThat(b.contains("_idGC")).isFalse();
  }

  @Test
  void isInBackOffSinceUpdate_tickTable_matchesUpstream() { // TestIsInBackOffSinceUpdate
    RestartBackoff b = new RestartBackoff(STEP, STEP.multipliedBy(10), clock::now);
    Instant start = clock.now();
    int[][] cases = {{0, 0, 0}, {1, 0, 1}, {2, 1, 2}, {3, 0, 2}, {4, 1, 4}, {5, 1, 4}, {6, 1, 4}, {7, 0, 4},
        {8, 1, 8}, {9, 1, 8}, {10, 1, 8}, {11, 1, 8}, {12, 1, 8}, {13, 1, 8}, {14, 1, 8}, {15, 0, 8},
        {16, 1, 10}, {17, 1, 10}, {18, 1, 10}, {19, 1, 10}, {20, 1, 10}, {21, 1, 10}, {22, 1, 10}, {23, 1, 10},
        {24, 1, 10}, {25, 0, 10}, {26, 1, 10}, {27, 1, 10}, {28, 1, 10}, {29, 1, 10}, {30, 1, 10}, {31, 1, 10},
        {32, 1, 10}, {33, 1, 10}, {34, 1, 10}, {35, 0, 10}, {56, 0, 0}, {57, 0, 1}};
    for (int[] c : cases) {
      clock.advanceTo(start.plusSeconds(c[0]));
      boolean in = b.isInBackOffSinceUpdate("_id", clock.now());
      assertThat(in).as("tick %d", c[0]).isEqualTo(c[1] == 1);
      if (in) {
        assertThat(b.get("_id")).as("tick %d", c[0]).isEqualTo(Duration.ofSeconds(c[2]));
      } else {
        b.next("_id", clock.now());
      }
    }
  }

  @Test
  void kubelet_crashingContainer_delays10To300() {
    RestartBackoff b = RestartBackoff.kubelet(clock::now);
    long[] expected = {10, 20, 40, 80, 160, 300, 300};
    for (long e : expected) {
      b.next("c", clock.now());
      assertThat(b.get("c")).isEqualTo(Duration.ofSeconds(e));
      clock.advance(b.get("c"));
    }
  }
}
