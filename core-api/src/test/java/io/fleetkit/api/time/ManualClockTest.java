package io.fleetkit.api.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
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
}
