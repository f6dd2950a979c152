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

    @Override
    public void observe(long[] plain, int count) {
      for (int i = 0; i < count; i++) {
        values.add((double) plain[i]);
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
    int a = b.counter(attempts);
    int d = b.histogram(durations, true);
    int c = b.histogram(counts, false);
    for (int i = 1; i <= 5; i++) {
      b.increment(a);
      b.add(d, i * 1_000L);
      b.add(c, i);
    }
    assertThat(durations.values).isEmpty();
    assertThat(attempts.calls).isZero();
    b.flush();
    assertThat(attempts.total).isEqualTo(5.0);
    assertThat(attempts.calls).isOne();
    assertThat(durations.values).containsExactly(1e-6, 2e-6, 3e-6, 4e-6, 5e-6);
    assertThat(durations.calls).isOne();
    assertThat(counts.values).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0);
    assertThat(counts.calls).isOne();
    b.flush(); // nothing new: nothing handed on
    assertThat(attempts.calls).isOne();
    assertThat(durations.calls).isOne();
    b.increment(a);
    b.flush();
    assertThat(attempts.total).isEqualTo(6.0);
  }

  @Test
  void registeringASeriesTwice_givesItsSlot() {
    ObservationBuffer b = new ObservationBuffer();
    Kept h = new Kept();
    Kept other = new Kept();
    Summed c = new Summed();
    int slot = b.histogram(h, true);
    assertThat(b.histogram(other, true)).isNotEqualTo(slot);
    assertThat(b.histogram(h, true)).isEqualTo(slot);
    assertThat(b.counter(c)).isEqualTo(b.counter(c));
    b.add(slot, 5);
    b.add(b.histogram(h, true), 6);
    b.flush();
    assertThat(h.values).containsExactly(5e-9, 6e-9);
    assertThat(other.values).isEmpty();
  }

  @Test
  void aFullJournal_flushesEverything_thenHoldsTheNextValue() {
    ObservationBuffer b = new ObservationBuffer();
    Kept busy = new Kept();
    Kept quiet = new Kept();
    Summed other = new Summed();
    int f = b.histogram(busy, true);
    int q = b.histogram(quiet, true);
    b.increment(b.counter(other));
    b.add(q, 3);
    for (int i = 1; i < ObservationBuffer.JOURNAL; i++) {
      b.add(f, i);
    }
    assertThat(busy.values).isEmpty(); // held: the journal is exactly full
    assertThat(other.calls).isZero();
    b.add(f, 7);
    assertThat(busy.values).hasSize(ObservationBuffer.JOURNAL - 1);
    assertThat(busy.calls).isOne();
    assertThat(quiet.values).containsExactly(3e-9);
    assertThat(other.total).isEqualTo(1.0);
    b.flush();
    assertThat(busy.values).hasSize(ObservationBuffer.JOURNAL).endsWith(7e-9);
    assertThat(busy.calls).isEqualTo(2);
    assertThat(quiet.calls).isOne();
  }

  @Test
  void valuesOfInterleavedSeries_reachEachSeriesInTheirOrder() {
    ObservationBuffer b = new ObservationBuffer();
    Kept x = new Kept();
    Kept y = new Kept();
    int sx = b.histogram(x, false);
    int sy = b.histogram(y, false);
    for (int i = 0; i < 100; i++) {
      b.add(i % 3 == 0 ? sy : sx, i);
    }
    b.flush();
    assertThat(x.calls).isOne();
    assertThat(y.calls).isOne();
    assertThat(y.values).hasSize(34).startsWith(0.0, 3.0, 6.0).endsWith(99.0);
    assertThat(x.values).hasSize(66).startsWith(1.0, 2.0, 4.0).endsWith(98.0);
  }

  @Test
  void flush_visitsOnlyTheSeriesThatHeldSomething() {
    ObservationBuffer b = new ObservationBuffer();
    Kept used = new Kept();
    Kept idle = new Kept();
    Summed counted = new Summed();
    Summed never = new Summed();
    int u = b.histogram(used, true);
    b.histogram(idle, true);
    int c = b.counter(counted);
    b.counter(never);
    assertThat(b.isEmpty()).isTrue();
    for (int round = 1; round <= 3; round++) {
      b.add(u, round);
      b.increment(c);
      assertThat(b.isEmpty()).isFalse();
      b.flush();
      assertThat(b.isEmpty()).isTrue();
      assertThat(used.calls).isEqualTo(round);
      assertThat(counted.calls).isEqualTo(round);
    }
    assertThat(idle.calls).isZero();
    assertThat(never.calls).isZero();
    assertThat(counted.total).isEqualTo(3.0);
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
      b.add(b.histogram(h, true), i);
      int slot = b.counter(c);
      b.increment(slot);
      b.increment(slot);
    }
    b.flush();
    for (int i = 0; i < 150; i++) {
      assertThat(hs.get(i).values).as("histogram %d", i).containsExactly(i / 1e9);
      assertThat(cs.get(i).total).as("counter %d", i).isEqualTo(2.0);
    }
  }
}
