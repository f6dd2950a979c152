package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ManualClockTest {
  @Test
  void advance_pastSeveralTasks_runsThemInDeadlineOrderAtTheirDeadlines() {
    ManualClock clock = new ManualClock(Instant.EPOCH);
    List<String> log = new ArrayList<>();
    clock.schedule(Duration.ofSeconds(3), () -> log.add("c@" + clock.now().getEpochSecond()));
    clock.schedule(Duration.ofSeconds(1), () -> {
      log.add("a@" + clock.now().getEpochSecond());
      clock.schedule(Duration.ofSeconds(1), () -> log.add("b@" + clock.now().getEpochSecond()));
    });
    SchedulingClock.Timer cancelled = clock.schedule(Duration.ofSeconds(2), () -> log.add("never"));
    assertThat(cancelled.cancel()).isTrue();
    clock.advance(Duration.ofSeconds(5));
    assertThat(log).containsExactly("a@1", "b@2", "c@3");
    assertThat(clock.now()).isEqualTo(Instant.EPOCH.plusSeconds(5));
    assertThat(clock.pendingTasks()).isZero();
    assertThat(clock.asClock().instant()).isEqualTo(clock.now());
  }
}
