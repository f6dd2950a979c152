package io.fleetkit.adapter.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.slurm.internal.Gres;
import io.fleetkit.api.core.PodPhase;
import org.junit.jupiter.api.Test;

/** Small value types: wait status, job states, GRES strings. */
final class ValuesTest {
  @Test
  void waitStatus_exitAndSignal_decoded() {
    assertThat(new WaitStatus(768).exitCode()).isEqualTo(3);
    assertThat(new WaitStatus(768).signal()).isZero();
    assertThat(new WaitStatus(15).signal()).isEqualTo(15);
    assertThat(new WaitStatus(15).exitCode()).isZero();
    assertThat(new WaitStatus(9 | 0x80).signal()).isEqualTo(9); // core dump bit ignored
    assertThat(new WaitStatus(1 << 8).toString()).isEqualTo("1:0");
    assertThat(new WaitStatus(255 << 8).exitCode()).isEqualTo(255);
  }

  @Test
  void waitStatus_everyExitAndSignal_roundTrips() {
    for (int exit = 0; exit <= 255; exit++) {
      WaitStatus w = new WaitStatus(exit << 8);
      assertThat(w.exitCode()).isEqualTo(exit);
      assertThat(w.signaled()).isFalse();
    }
    for (int sig = 1; sig < 127; sig++) {
      WaitStatus w = new WaitStatus(sig);
      assertThat(w.signal()).isEqualTo(sig);
      assertThat(w.exitCode()).isZero();
      assertThat(w.toString()).isEqualTo("0:" + sig);
    }
  }

  @Test
  void jobState_parse_baseWordAndUnknown() {
    assertThat(SlurmJobState.parse("COMPLETED")).isEqualTo(SlurmJobState.COMPLETED);
    assertThat(SlurmJobState.parse("cancelled by 0")).isEqualTo(SlurmJobState.CANCELLED);
    assertThat(SlurmJobState.parse("NODE_FAIL")).isEqualTo(SlurmJobState.NODE_FAIL);
    assertThat(SlurmJobState.parse("OUT_OF_MEMORY")).isEqualTo(SlurmJobState.OUT_OF_MEMORY);
    assertThat(SlurmJobState.parse("WEIRD")).isEqualTo(SlurmJobState.UNKNOWN);
    assertThat(SlurmJobState.parse("")).isEqualTo(SlurmJobState.UNKNOWN);
  }

  @Test
  void jobState_phase_mapping() {
    assertThat(SlurmJobState.PENDING.phase()).isEqualTo(PodPhase.Pending);
    assertThat(SlurmJobState.REQUEUED.phase()).isEqualTo(PodPhase.Pending);
    assertThat(SlurmJobState.RUNNING.phase()).isEqualTo(PodPhase.Running);
    assertThat(SlurmJobState.COMPLETING.phase()).isEqualTo(PodPhase.Running);
    assertThat(SlurmJobState.COMPLETED.phase()).isEqualTo(PodPhase.Succeeded);
    for (SlurmJobState s : new SlurmJobState[] {SlurmJobState.FAILED, SlurmJobState.CANCELLED,
        SlurmJobState.TIMEOUT, SlurmJobState.NODE_FAIL, SlurmJobState.PREEMPTED, SlurmJobState.OUT_OF_MEMORY}) {
      assertThat(s.phase()).as(s.name()).isEqualTo(PodPhase.Failed);
      assertThat(s.isFinished()).isTrue();
    }
    assertThat(SlurmJobState.UNKNOWN.isFinished()).isFalse();
  }

  @Test
  void gres_gpuCountsAndModels() {
    assertThat(Gres.gpus("gpu:2")).isEqualTo(2);
    assertThat(Gres.gpus("gpu:a100:4(S:0-1)")).isEqualTo(4);
    assertThat(Gres.gpuModel("gpu:a100:4(S:0-1)")).isEqualTo("a100");
    assertThat(Gres.gpus("gpu:1(IDX:0,1),mps:100")).isEqualTo(1);
    assertThat(Gres.gpus("gpu:a100:2,gpu:v100:1")).isEqualTo(3);
    assertThat(Gres.gpus("gres:gpu:1")).isEqualTo(1);
    assertThat(Gres.gpus("gres/gpu=3")).isEqualTo(3);
    assertThat(Gres.gpus("N/A")).isZero();
    assertThat(Gres.gpus("")).isZero();
    assertThat(Gres.gpus("(null)")).isZero();
    assertThat(Gres.gpuModel("gpu:2")).isEmpty();
  }
}
