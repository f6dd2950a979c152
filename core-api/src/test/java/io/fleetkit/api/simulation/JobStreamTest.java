package io.fleetkit.api.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link JobStream#parsePodList}: the openb pod-list columns, read as ASCII whole numbers. */
final class JobStreamTest {
  private static final String HEADER = "name,cpu_milli,memory_mib,num_gpu,creation_time,deletion_time\n";

  @Test
  void parsePodList_asciiNumbers_read() {
    List<JobArrival> jobs = JobStream.parsePodList(HEADER + "p1, 500 ,1024,1,10,70\n", 1, 0);
    assertThat(jobs).hasSize(1);
    assertThat(jobs.get(0).name()).isEqualTo("p1");
    assertThat(jobs.get(0).runFor()).isEqualTo(Duration.ofSeconds(60));
  }

  /** Long.parseLong read "\u0665\u0660\u0660" (Arabic-Indic 500) as 500 millicores. */
  @Test
  void parsePodList_digitsOfAnotherScript_refusedNamingRowAndColumn() {
    assertThatThrownBy(() -> JobStream.parsePodList(HEADER + "p1,\u0665\u0660\u0660,1024,1,10,70\n", 1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pod list row 2: column cpu_milli must be a whole number, not \"\u0665\u0660\u0660\"");
    assertThatThrownBy(() -> JobStream.parsePodList(HEADER + "p1,500,1024,1,10,\uff17\uff10\n", 1, 0))
        .hasMessage("pod list row 2: column deletion_time must be a whole number, not \"\uff17\uff10\"");
  }
}
