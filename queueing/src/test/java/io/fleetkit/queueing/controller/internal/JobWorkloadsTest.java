package io.fleetkit.queueing.controller.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.controller.QueueLabels;
import org.junit.jupiter.api.Test;

/** {@link JobWorkloads#parallelism}: the recorded own parallelism is an ASCII whole number, else the spec's. */
final class JobWorkloadsTest {
  private static Job job(String originalParallelism) {
    return Job.builder().metadata(ObjectMeta.builder().namespace("ns").name("j")
            .annotation(QueueLabels.ORIGINAL_PARALLELISM, originalParallelism).build())
        .parallelism(2).podSpec(PodSpec.builder().container("c", "img", ResourceList.ofCpuMemory(100, 0))
            .restartPolicy(io.fleetkit.api.core.RestartPolicy.Never).build())
        .build();
  }

  @Test
  void parallelism_recordedAscii_read() {
    assertThat(JobWorkloads.parallelism(job("8"))).isEqualTo(8);
  }

  /** Integer.parseInt read "\u0668" (Arabic-Indic eight) as 8: a hand edit in another script is not a number. */
  @Test
  void parallelism_recordedInDigitsOfAnotherScript_theSpecs() {
    assertThat(JobWorkloads.parallelism(job("\u0668"))).isEqualTo(2);
    assertThat(JobWorkloads.parallelism(job("\uff18"))).isEqualTo(2);
  }
}
