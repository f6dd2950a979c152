package io.fleetkit.adapter.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.EnvVarSource;
import io.fleetkit.api.core.PodSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class SlurmWorkloadsTest {
  private static final String SCRIPT = "#!/bin/bash\nsrun hostname\n";

  @Test
  void forPodGroup_gangOfFourWithTwoGpus_nodesTasksGres() {
    SlurmJobSpec s = SlurmWorkloads.forPodGroup(Workloads.group("train", 4, Map.of(SlurmWorkloads.SCRIPT, SCRIPT,
        SlurmWorkloads.PARTITION, "debug", SlurmWorkloads.TIME_LIMIT_MINUTES, "30")),
        Workloads.pod("1500m", "1Gi", 2, Map.of("EPOCHS", "3")));
    assertThat(s.name()).isEqualTo("team.train");
    assertThat(s.nodes()).isEqualTo(4);
    assertThat(s.tasksPerNode()).isEqualTo(1);
    assertThat(s.gpusPerNode()).isEqualTo(2);
    assertThat(s.cpusPerTask()).isEqualTo(2);
    assertThat(s.memoryPerNodeMiB()).isEqualTo(1024);
    assertThat(s.partition()).isEqualTo("debug");
    assertThat(s.timeLimit()).isEqualTo(Duration.ofMinutes(30));
    assertThat(s.environment()).containsEntry("EPOCHS", "3").containsEntry("FLEETKIT_NAMESPACE", "team")
        .containsEntry("FLEETKIT_NAME", "train");
    assertThat(SbatchScript.render(s)).contains("#SBATCH --nodes=4\n#SBATCH --ntasks-per-node=1\n")
        .contains("#SBATCH --gres=gpu:2\n").contains("#SBATCH --time=30\n").contains("#SBATCH --job-name=team.train\n");
  }

  @Test
  void forJob_parallelEqualsCompletions_gangWithDeadlineAsTimeLimit() {
    SlurmJobSpec s = SlurmWorkloads.forJob(io.fleetkit.api.batch.Job.builder()
        .metadata(Workloads.meta("j", Map.of(SlurmWorkloads.SCRIPT, SCRIPT))).parallelism(3).completions(3)
        .activeDeadlineSeconds(600L).podSpec(Workloads.pod("1", "100Mi", 1, Map.of())).build());
    assertThat(s.nodes()).isEqualTo(3);
    assertThat(s.array()).isEmpty();
    assertThat(s.gpusPerNode()).isEqualTo(1);
    assertThat(s.timeLimitMinutes()).isEqualTo(10);
  }

  @Test
  void forJob_moreCompletionsThanParallelism_throttledArray() {
    SlurmJobSpec s = SlurmWorkloads.forJob(Workloads.job("sweep", 2, 5, Workloads.pod("1", "100Mi", 0, Map.of()),
        Map.of(SlurmWorkloads.SCRIPT, SCRIPT)));
    assertThat(s.nodes()).isEqualTo(1);
    assertThat(s.array()).isEqualTo("0-4%2");
    assertThat(s.gpusPerNode()).isZero();
  }

  @Test
  void forJob_noScriptAnnotation_rejectedNamingAnnotation() {
    assertThatThrownBy(() -> SlurmWorkloads.forJob(Workloads.job("x", 1, 1, Workloads.pod("1", "1Mi", 0, Map.of()),
        Map.of()))).hasMessage("team/x: annotation slurm.fleetkit.io/script is required to run on Slurm "
        + "(a batch script starting with #!)");
  }

  /** Long.parseLong read "\u0663\u0660" (Arabic-Indic 30) as 30 minutes: minutes are ASCII digits. */
  @Test
  void forJob_timeLimitInDigitsOfAnotherScript_rejected() {
    assertThatThrownBy(() -> SlurmWorkloads.forJob(Workloads.job("x", 1, 1, Workloads.pod("1", "1Mi", 0, Map.of()),
        Map.of(SlurmWorkloads.SCRIPT, SCRIPT, SlurmWorkloads.TIME_LIMIT_MINUTES, "\u0663\u0660"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("annotation slurm.fleetkit.io/time-limit-minutes \"\u0663\u0660\" must be a whole "
            + "number of minutes");
  }

  @Test
  void forJob_badTimeLimit_rejected() {
    assertThatThrownBy(() -> SlurmWorkloads.forJob(Workloads.job("x", 1, 1, Workloads.pod("1", "1Mi", 0, Map.of()),
        Map.of(SlurmWorkloads.SCRIPT, SCRIPT, SlurmWorkloads.TIME_LIMIT_MINUTES, "1h"))))
        .hasMessageContaining("annotation slurm.fleetkit.io/time-limit-minutes \"1h\" must be a whole number");
  }

  /** A variable a kubelet would resolve cannot be given to Slurm: refused, naming it, rather than sent empty. */
  @Test
  void forJob_envValueFromOrEnvFrom_rejected() {
    PodSpec pod = Workloads.pod("1", "1Mi", 0, Map.of("A", "1"));
    Container c = pod.containers().get(0);
    PodSpec valueFrom = pod.toBuilder().containers(List.of(c.withEnv(List.of(new EnvVar("A", "1"),
        EnvVar.from("LEVEL", EnvVarSource.configMapKey("cfg", "level", false)))))).build();
    assertThatThrownBy(() -> SlurmWorkloads.forJob(Workloads.job("x", 1, 1, valueFrom,
        Map.of(SlurmWorkloads.SCRIPT, SCRIPT)))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("job team/x: containers[0].env[1].valueFrom (LEVEL) is not supported by the Slurm adapter; "
            + "give a literal value");
    PodSpec envFrom = pod.toBuilder().containers(List.of(c.withEnvFrom(List.of(EnvFromSource.configMap("cfg",
        false))))).build();
    assertThatThrownBy(() -> SlurmWorkloads.forJob(Workloads.job("x", 1, 1, envFrom,
        Map.of(SlurmWorkloads.SCRIPT, SCRIPT)))).hasMessageContaining("containers[0].envFrom is not supported");
  }
}
