package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.PodsReadyCondition;
import io.fleetkit.queueing.RequeueState;
import io.fleetkit.queueing.WaitForPodsReady;
import io.fleetkit.queueing.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** {@link PodsReadyTimeouts} alone: timeouts from admission, the requeue backoff, the limit and blockAdmission. */
final class PodsReadyTimeoutsTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final String K = "team/w";

  private final PodsReadyTimeouts timeouts = new PodsReadyTimeouts();

  private static WaitForPodsReady.Builder config() {
    return WaitForPodsReady.builder().timeout(Duration.ofMinutes(5)).backoffJitter(0);
  }

  @Test
  void notConfigured_keepsConditionsButRunsNoTimeout() {
    timeouts.admitted(K, T0);

    assertThat(timeouts.config()).isNull();
    assertThat(timeouts.watching()).isFalse();
    assertThat(timeouts.timeout(K, T0.plus(Duration.ofDays(1)))).isNull();
    assertThat(timeouts.expire(K, T0.plus(Duration.ofDays(1)))).isNull();
    assertThat(timeouts.blocksAdmission(List.of(K))).isFalse();
    assertThat(timeouts.setPodsReady(K, true, true, T0).reason()).isEqualTo(PodsReadyCondition.REASON_STARTED);
    assertThat(timeouts.podsReady(K).status()).isTrue();
  }

  @Test
  void timeout_countsFromAdmission_andExpiresOnceItPassed() {
    WaitForPodsReady cfg = config().build();
    timeouts.configure(cfg, new SplittableRandom(1));
    timeouts.admitted(K, T0);

    assertThat(timeouts.watching()).isTrue();
    assertThat(timeouts.admittedKeys()).containsExactly(K);
    assertThat(timeouts.timeout(K, T0.plusSeconds(60)))
        .isEqualTo(new WaitForPodsReady.Timeout(WaitForPodsReady.CAUSE_WAIT_FOR_START, Duration.ofMinutes(4)));
    assertThat(timeouts.expire(K, T0.plusSeconds(299))).isNull();
    assertThat(timeouts.requeueState(K)).as("nothing changes before the timeout").isNull();

    Instant now = T0.plusSeconds(300);
    PodsReadyTimeouts.Expiry e = timeouts.expire(K, now);

    assertThat(e.deactivates()).isFalse();
    assertThat(e.timeout().cause()).isEqualTo(WaitForPodsReady.CAUSE_WAIT_FOR_START);
    assertThat(e.requeueAt()).isEqualTo(now.plusSeconds(WaitForPodsReady.DEFAULT_BACKOFF_BASE_SECONDS));
    assertThat(timeouts.requeueState(K)).isEqualTo(new RequeueState(1, e.requeueAt()));
  }

  @Test
  void expire_secondTime_doublesTheDelayAndCountsTwo() {
    timeouts.configure(config().build(), new SplittableRandom(1));
    timeouts.admitted(K, T0);
    timeouts.expire(K, T0.plusSeconds(300));
    timeouts.notAdmitted(K);
    timeouts.requeued(K);
    assertThat(timeouts.requeueState(K)).as("requeueAt cleared, count kept").isEqualTo(new RequeueState(1, null));

    Instant again = T0.plusSeconds(1000);
    timeouts.admitted(K, again);
    PodsReadyTimeouts.Expiry e = timeouts.expire(K, again.plusSeconds(300));

    assertThat(e.requeueAt()).isEqualTo(again.plusSeconds(300 + 2 * WaitForPodsReady.DEFAULT_BACKOFF_BASE_SECONDS));
    assertThat(timeouts.requeueState(K).count()).isEqualTo(2);
  }

  @Test
  void expire_backoffLimitReached_deactivatesAndClearsTheRequeueState() {
    timeouts.configure(config().backoffLimitCount(1).build(), new SplittableRandom(1));
    timeouts.restoreRequeueState(K, new RequeueState(1, null));
    timeouts.admitted(K, T0);

    PodsReadyTimeouts.Expiry e = timeouts.expire(K, T0.plusSeconds(300));

    assertThat(e.deactivates()).isTrue();
    assertThat(e.requeueAt()).isNull();
    assertThat(timeouts.requeueState(K)).isNull();
  }

  @Test
  void expire_withJitter_drawsOneNumberPerRequeue() {
    WaitForPodsReady cfg = WaitForPodsReady.builder().timeout(Duration.ofMinutes(5)).backoffJitter(0.5).build();
    timeouts.configure(cfg, new SplittableRandom(42));
    timeouts.admitted(K, T0);
    Instant now = T0.plusSeconds(300);

    PodsReadyTimeouts.Expiry e = timeouts.expire(K, now);

    double r = new SplittableRandom(42).nextDouble();
    assertThat(e.requeueAt()).isEqualTo(now.plus(cfg.requeueDelay(1, r)));
    assertThat(e.requeueAt()).isAfter(now.plusSeconds(WaitForPodsReady.DEFAULT_BACKOFF_BASE_SECONDS));
  }

  @Test
  void podsReady_stopsTheClock_andNotAdmittedHasNone() {
    timeouts.configure(config().build(), new SplittableRandom(1));
    timeouts.admitted(K, T0);
    timeouts.setPodsReady(K, true, true, T0.plusSeconds(10));

    assertThat(timeouts.timeout(K, T0.plusSeconds(600))).isNull();
    assertThat(timeouts.expire(K, T0.plusSeconds(600))).isNull();

    timeouts.notAdmitted(K);
    assertThat(timeouts.watching()).isFalse();
    assertThat(timeouts.podsReady(K).status()).as("the condition stays").isTrue();
  }

  @Test
  void quotaReserved_turnsAnOldConditionIntoWaitForStartFromNow() {
    timeouts.configure(config().build(), new SplittableRandom(1));
    timeouts.quotaReserved(K, T0);
    assertThat(timeouts.podsReady(K)).as("no condition, none made").isNull();
    timeouts.setPodsReady(K, true, true, T0);

    timeouts.quotaReserved(K, T0.plusSeconds(100));

    PodsReadyCondition c = timeouts.podsReady(K);
    assertThat(c.status()).isFalse();
    assertThat(c.reason()).isEqualTo(PodsReadyCondition.REASON_WAIT_FOR_START);
    assertThat(c.lastTransitionTime()).isEqualTo(T0.plusSeconds(100));
  }

  @Test
  void blocksAdmission_onlyWithBlockAdmissionAndAWorkloadNotReady() {
    timeouts.configure(config().blockAdmission(true).build(), new SplittableRandom(1));
    assertThat(timeouts.blocksAdmission(List.of())).isFalse();
    assertThat(timeouts.blocksAdmission(List.of(K))).as("no condition yet").isTrue();

    timeouts.setPodsReady(K, true, true, T0);
    assertThat(timeouts.blocksAdmission(List.of(K))).isFalse();

    PodsReadyTimeouts other = new PodsReadyTimeouts();
    other.configure(config().build(), new SplittableRandom(1));
    assertThat(other.blocksAdmission(List.of(K))).as("without blockAdmission").isFalse();
  }

  @Test
  void queueOrderTime_evictionOrCreationTimestamp() {
    Workload wl = Workload.builder("team", "w").queueName("q").creationTime(T0).request("cpu", "1").build();
    Instant now = T0.plusSeconds(500);
    timeouts.configure(config().build(), new SplittableRandom(1));
    assertThat(timeouts.queueOrderTime(wl, now)).isEqualTo(now);

    timeouts.configure(config().timestamp(WaitForPodsReady.RequeuingTimestamp.CREATION).build(),
        new SplittableRandom(1));
    assertThat(timeouts.queueOrderTime(wl, now)).isEqualTo(T0);
  }

  @Test
  void forget_clearsEverything() {
    timeouts.configure(config().build(), new SplittableRandom(1));
    timeouts.admitted(K, T0);
    timeouts.setPodsReady(K, true, false, T0);
    timeouts.restoreRequeueState(K, new RequeueState(2, T0));

    timeouts.forget(K);

    assertThat(timeouts.podsReady(K)).isNull();
    assertThat(timeouts.requeueState(K)).isNull();
    assertThat(timeouts.admittedKeys()).isEmpty();
    assertThat(timeouts.watching()).isFalse();
  }

  /**
   * Whatever the timeout and the times of admission, each requeue counts one more and is never earlier than the time
   * of the eviction plus the configured base delay, nor earlier than the requeue before it.
   */
  @Property(tries = 200)
  void requeues_countUpAndNeverComeEarlier(@ForAll @IntRange(min = 1, max = 600) int timeoutSeconds,
      @ForAll @Size(min = 1, max = 8) List<@IntRange(min = 0, max = 5000) Integer> gaps) {
    PodsReadyTimeouts t = new PodsReadyTimeouts();
    t.configure(WaitForPodsReady.builder().timeout(Duration.ofSeconds(timeoutSeconds)).backoffJitter(0).build(),
        new SplittableRandom(7));
    Instant now = T0;
    Instant lastRequeue = Instant.MIN;
    int count = 0;
    for (int gap : gaps) {
      t.admitted(K, now);
      now = now.plusSeconds(timeoutSeconds + gap);
      PodsReadyTimeouts.Expiry e = t.expire(K, now);
      count++;
      assertThat(e).isNotNull();
      assertThat(e.requeueAt()).isAfterOrEqualTo(now.plusSeconds(WaitForPodsReady.DEFAULT_BACKOFF_BASE_SECONDS))
          .isAfterOrEqualTo(lastRequeue);
      assertThat(t.requeueState(K)).isEqualTo(new RequeueState(count, e.requeueAt()));
      lastRequeue = e.requeueAt();
      t.notAdmitted(K);
    }
  }
}
