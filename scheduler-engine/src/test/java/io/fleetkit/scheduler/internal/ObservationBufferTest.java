package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Histogram;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ObservationBufferTest {
  /** A histogram that keeps what reaches it, and in how many calls. */
  private static final class Kept implements Histogram {
    final List<Double> values = new ArrayList<>();
    int calls;

    @Override
    public void observe(double value) {
      values.add(value);
      calls++;
    }

    @Override
    public void observeNanos(long[] nanos, int count) {
      for (int i = 0; i < count; i++) {
        values.add(nanos[i] / 1e9);
      }
      calls++;
    }
  }

  private static final class Summed implements Counter {
    double total;
    int calls;

    @Override
    public void increment(double amount) {
      total += amount;
      calls++;
    }
  }

  @Test
  void flush_handsEachSeriesItsValuesInOneCall_countersTheirSum_nothingBefore() {
    ObservationBuffer b = new ObservationBuffer();
    Kept durations = new Kept();
    Kept counts = new Kept();
    Summed attempts = new Summed();
    for (int i = 1; i <= 5; i++) {
      b.increment(attempts);
      b.observeNanos(durations, i * 1_000L);
      b.observe(counts, i);
    }
    assertThat(durations.values).isEmpty();
    assertThat(attempts.calls).isZero();
    b.flush();
    assertThat(attempts.total).isEqualTo(5.0);
    assertThat(attempts.calls).isOne();
    assertThat(durations.values).containsExactly(1e-6, 2e-6, 3e-6, 4e-6, 5e-6);
    assertThat(durations.calls).isOne();
    assertThat(counts.values).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0);
    b.flush(); // nothing new: nothing handed on
    assertThat(attempts.calls).isOne();
    assertThat(durations.calls).isOne();
    b.increment(attempts);
    b.flush();
    assertThat(attempts.total).isEqualTo(6.0);
  }

  @Test
  void aSeriesHoldingItsCapacity_flushesEverything() {
    ObservationBuffer b = new ObservationBuffer();
    Kept full = new Kept();
    Summed other = new Summed();
    b.increment(other);
    for (int i = 0; i < ObservationBuffer.VALUES; i++) {
      b.observeNanos(full, i);
    }
    assertThat(full.values).hasSize(ObservationBuffer.VALUES);
    assertThat(other.total).isEqualTo(1.0);
    b.observeNanos(full, 7);
    b.flush();
    assertThat(full.values).hasSize(ObservationBuffer.VALUES + 1).endsWith(7e-9);
  }

  @Test
  void manySeries_noneLost() {
    ObservationBuffer b = new ObservationBuffer();
    List<Kept> hs = new ArrayList<>();
    List<Summed> cs = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      Kept h = new Kept();
      Summed c = new Summed();
      hs.add(h);
      cs.add(c);
      b.observeNanos(h, i);
      b.increment(c);
      b.increment(c);
    }
    b.flush();
    for (int i = 0; i < 150; i++) {
      assertThat(hs.get(i).values).as("histogram %d", i).containsExactly(i / 1e9);
      assertThat(cs.get(i).total).as("counter %d", i).isEqualTo(2.0);
    }
  }
}
