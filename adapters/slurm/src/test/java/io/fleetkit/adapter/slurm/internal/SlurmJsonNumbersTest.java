package io.fleetkit.adapter.slurm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** slurmrestd numbers written as JSON strings are read as ASCII whole numbers; anything else is the default. */
final class SlurmJsonNumbersTest {
  @Test
  void num_numberOrAsciiString_read() {
    assertThat(SlurmJson.num(SlurmJson.parse("{\"cpus\": 8}"), "cpus", 0)).isEqualTo(8);
    assertThat(SlurmJson.num(SlurmJson.parse("{\"cpus\": \" 8 \"}"), "cpus", 0)).isEqualTo(8);
  }

  /** Long.parseLong read "\u0668" (Arabic-Indic eight) as 8 CPUs. */
  @Test
  void num_digitsOfAnotherScript_theDefault() {
    assertThat(SlurmJson.num(SlurmJson.parse("{\"cpus\": \"\u0668\"}"), "cpus", 0)).isZero();
    assertThat(SlurmJson.num(SlurmJson.parse("{\"job_id\": \"\uff11\uff12\"}"), "job_id", -1)).isEqualTo(-1);
  }
}
