package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** The simulation's object uids are {@code String.format("uid-%08d", n)}, written without the formatter. */
final class SimulationUidTest {
  @Property(tries = 300)
  void uid_isTheFormattedCounter(@ForAll @LongRange(min = 0, max = 10_000_000_000L) long n) {
    assertThat(Simulation.uid(n)).isEqualTo(String.format("uid-%08d", n));
  }

  @Property(tries = 50)
  void uid_aroundEightDigits(@ForAll @LongRange(min = 99_999_990L, max = 100_000_010L) long n) {
    assertThat(Simulation.uid(n)).isEqualTo(String.format("uid-%08d", n));
  }
}
