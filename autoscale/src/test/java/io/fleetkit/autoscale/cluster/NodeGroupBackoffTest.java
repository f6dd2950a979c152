package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The pools' scale-up backoff, ported from kubernetes/autoscaler
 * {@code cluster-autoscaler/utils/backoff/exponential_backoff_test.go} (branch cluster-autoscaler-release-1.37,
 * commit a16f0ae8): all five test functions, with upstream's durations and instants. Upstream's {@code noBackOff}
 * status is {@code null} here, and a backed-off status is the error it was backed off with.
 */
final class NodeGroupBackoffTest {
  private static final InstanceErrorInfo QUOTA_ERROR = new InstanceErrorInfo(InstanceErrorClass.OUT_OF_RESOURCES,
      "QUOTA_EXCEEDED", "Not enough CPU");
  private static final InstanceErrorInfo IP_SPACE_EXHAUSTED_ERROR = new InstanceErrorInfo(InstanceErrorClass.OTHER,
      "IP_SPACE_EXHAUSTED", "IP space has been exhausted");
  private static final String NODE_GROUP_1 = "id1";
  private static final String NODE_GROUP_2 = "id2";
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private static NodeGroupBackoff backoff(Duration initial, Duration max, Duration reset) {
    return new NodeGroupBackoff(initial, max, reset);
  }

  @Test
  void backoffTwoKeys() {
    NodeGroupBackoff b = backoff(Duration.ofMinutes(10), Duration.ofHours(1), Duration.ofHours(3));
    assertThat(b.status(NODE_GROUP_1, START)).isNull();
    assertThat(b.status(NODE_GROUP_2, START)).isNull();
    b.backoff(NODE_GROUP_1, QUOTA_ERROR, START.plus(Duration.ofMinutes(1)));
    assertThat(b.status(NODE_GROUP_1, START.plus(Duration.ofMinutes(2)))).isEqualTo(QUOTA_ERROR);
    assertThat(b.status(NODE_GROUP_2, START)).isNull();
    assertThat(b.status(NODE_GROUP_1, START.plus(Duration.ofMinutes(11)).plusMillis(1))).isNull();
  }

  @Test
  void maxBackoff() {
    NodeGroupBackoff b = backoff(Duration.ofMinutes(1), Duration.ofMinutes(3), Duration.ofHours(3));
    b.backoff(NODE_GROUP_1, IP_SPACE_EXHAUSTED_ERROR, START);
    assertThat(b.status(NODE_GROUP_1, START)).isEqualTo(IP_SPACE_EXHAUSTED_ERROR);
    assertThat(b.status(NODE_GROUP_1, START.plus(Duration.ofMinutes(1)).plusMillis(1))).isNull();
    b.backoff(NODE_GROUP_1, IP_SPACE_EXHAUSTED_ERROR, START.plus(Duration.ofMinutes(1)));
    assertThat(b.status(NODE_GROUP_1, START.plus(Duration.ofMinutes(1)))).isEqualTo(IP_SPACE_EXHAUSTED_ERROR);
    assertThat(b.status(NODE_GROUP_1, START.plus(Duration.ofMinutes(3)))).isNull();
    b.backoff(NODE_GROUP_1, IP_SPACE_EXHAUSTED_ERROR, START.plus(Duration.ofMinutes(3)));
    assertThat(b.status(NODE_GROUP_1, START.plus(Duration.ofMinutes(3)))).isEqualTo(IP_SPACE_EXHAUSTED_ERROR);
    assertThat(b.status(NODE_GROUP_1, START.plus(Duration.ofMinutes(6)))).isNull();
  }

  @Test
  void removeBackoff() {
    NodeGroupBackoff b = backoff(Duration.ofMinutes(1), Duration.ofMinutes(3), Duration.ofHours(3));
    b.backoff(NODE_GROUP_1, QUOTA_ERROR, START);
    assertThat(b.status(NODE_GROUP_1, START)).isEqualTo(QUOTA_ERROR);
    b.remove(NODE_GROUP_1);
    assertThat(b.status(NODE_GROUP_1, START)).isNull();
  }

  @Test
  void resetStaleBackoffData() {
    NodeGroupBackoff b = backoff(Duration.ofMinutes(1), Duration.ofMinutes(3), Duration.ofHours(3));
    b.backoff(NODE_GROUP_1, QUOTA_ERROR, START);
    b.backoff(NODE_GROUP_2, QUOTA_ERROR, START.plus(Duration.ofHours(1)));
    b.removeStale(START.plus(Duration.ofHours(1)));
    assertThat(b.size()).isEqualTo(2);
    b.removeStale(START.plus(Duration.ofHours(4)));
    assertThat(b.size()).isEqualTo(1);
    b.removeStale(START.plus(Duration.ofHours(5)));
    assertThat(b.size()).isZero();
  }

  @Test
  void increaseExistingBackoff() {
    NodeGroupBackoff b = backoff(Duration.ofSeconds(1), Duration.ofMinutes(10), Duration.ofHours(3));
    Instant now = Instant.parse("2023-12-12T12:00:00Z");
    b.backoff(NODE_GROUP_1, QUOTA_ERROR, now);
    // NG in backoff for one second here
    assertThat(b.status(NODE_GROUP_1, now)).isEqualTo(QUOTA_ERROR);
    // Come out of backoff
    now = now.plus(Duration.ofSeconds(1)).plusMillis(1);
    assertThat(b.status(NODE_GROUP_1, now)).isNull();
    // Confirm existing backoff duration and error info have been increased by backing off again
    b.backoff(NODE_GROUP_1, IP_SPACE_EXHAUSTED_ERROR, now);
    // Backoff should be for 2 seconds now
    assertThat(b.status(NODE_GROUP_1, now)).isEqualTo(IP_SPACE_EXHAUSTED_ERROR);
    now = now.plus(Duration.ofSeconds(1));
    // Doing backoff during existing backoff should change error info and backoff end period but doesn't change the
    // duration.
    b.backoff(NODE_GROUP_1, QUOTA_ERROR, now);
    assertThat(b.status(NODE_GROUP_1, now)).isEqualTo(QUOTA_ERROR);
    now = now.plus(Duration.ofSeconds(2)).plusMillis(1);
    assertThat(b.status(NODE_GROUP_1, now)).isNull();
    // Result: existing backoff duration was scaled up beyond initial duration
    assertThat(b.entry(NODE_GROUP_1).duration()).isEqualTo(Duration.ofSeconds(2));
  }

  /** Upstream's rule at the instant the backoff ends: still backed off then, not a nanosecond later. */
  @Test
  void backedOffUpToAndIncludingTheEnd() {
    NodeGroupBackoff b = backoff(Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(3));
    Instant until = b.backoff(NODE_GROUP_1, QUOTA_ERROR, START);
    assertThat(until).isEqualTo(START.plus(Duration.ofMinutes(5)));
    assertThat(b.status(NODE_GROUP_1, until)).isEqualTo(QUOTA_ERROR);
    assertThat(b.status(NODE_GROUP_1, until.plusNanos(1))).isNull();
  }
}
