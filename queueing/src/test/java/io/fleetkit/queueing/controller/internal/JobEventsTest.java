package io.fleetkit.queueing.controller.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Kueue's {@code TruncateEventMessage} (kueue {@code pkg/util/api/api.go}), as the job events cut their notes. */
final class JobEventsTest {
  @Test
  void truncate_upTo1024Characters_unchanged() {
    String note = "x".repeat(1024);
    assertThat(JobEvents.truncate(note)).isSameAs(note);
  }

  @Test
  void truncate_longer_cutTo1024EndingWithEllipsis() {
    String cut = JobEvents.truncate("y".repeat(1025));
    assertThat(cut).hasSize(1024).endsWith("y ...").startsWith("y".repeat(1020));
  }
}
