package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

final class ParallelRunnerTest {

  @Test
  void run_visitsEveryIndexExactlyOnce() {
    try (ParallelRunner r = new ParallelRunner(4)) {
      AtomicIntegerArray seen = new AtomicIntegerArray(1000);
      r.run(1000, 7, (from, to) -> {
        for (int i = from; i < to; i++) {
          seen.incrementAndGet(i);
        }
      });
      for (int i = 0; i < 1000; i++) {
        assertThat(seen.get(i)).isEqualTo(1);
      }
    }
  }

  @RepeatedTest(20)
  void stop_processedChunksFormAPrefix() {
    try (ParallelRunner r = new ParallelRunner(3)) {
      AtomicIntegerArray seen = new AtomicIntegerArray(1000);
      ParallelRunner.Job[] self = new ParallelRunner.Job[1];
      self[0] = ParallelRunner.job(1000, 10, (from, to) -> {
        for (int i = from; i < to; i++) {
          seen.incrementAndGet(i);
        }
        if (to >= 200) {
          self[0].stop();
        }
      });
      ParallelRunner.Job job = r.run(self[0]);
      int processed = job.processed();
      assertThat(processed).isBetween(200, 1000);
      for (int i = 0; i < 1000; i++) {
        assertThat(seen.get(i)).as("index %d", i).isEqualTo(i < processed ? 1 : 0);
      }
    }
  }

  @Test
  void run_workThrows_rethrowsOnCaller() {
    try (ParallelRunner r = new ParallelRunner(2)) {
      assertThatThrownBy(() -> r.run(100, 5, (from, to) -> {
        throw new IllegalStateException("bad chunk");
      })).isInstanceOf(IllegalStateException.class).hasMessage("bad chunk");
    }
  }
}
