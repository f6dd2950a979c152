package io.fleetkit.api.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ManualClockTest {
  @Test
  void advance_movesForward_only() {
    ManualClock c = new ManualClock(Instant.EPOCH);
    c.advance(Duration.ofSeconds(5));
    assertThat(c.instant()).isEqualTo(Instant.ofEpochSecond(5));
    assertThat(c.millis()).isEqualTo(5000);
    assertThatThrownBy(() -> c.advance(Duration.ofSeconds(-1))).hasMessageContaining("must not be negative");
    assertThatThrownBy(() -> c.set(Instant.EPOCH)).hasMessageContaining("is before the current");
  }

  @Test
  void advance_pastSeveralTasks_runsThemInDeadlineOrderAtTheirDeadlines() {
    ManualClock clock = new ManualClock(Instant.EPOCH);
    List<String> log = new ArrayList<>();
    clock.schedule(Duration.ofSeconds(3), () -> log.add("c@" + clock.now().getEpochSecond()));
    clock.schedule(Duration.ofSeconds(1), () -> {
      log.add("a@" + clock.now().getEpochSecond());
      clock.schedule(Duration.ofSeconds(1), () -> log.add("b@" + clock.now().getEpochSecond()));
    });
    TimerClock.Timer cancelled = clock.schedule(Duration.ofSeconds(2), () -> log.add("never"));
    assertThat(cancelled.cancel()).isTrue();
    clock.advance(Duration.ofSeconds(5));
    assertThat(log).containsExactly("a@1", "b@2", "c@3");
    assertThat(clock.now()).isEqualTo(Instant.EPOCH.plusSeconds(5));
    assertThat(clock.pendingTasks()).isZero();
    assertThat(clock.asClock().instant()).isEqualTo(clock.now());
  }
}
