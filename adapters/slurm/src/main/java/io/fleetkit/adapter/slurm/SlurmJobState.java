package io.fleetkit.adapter.slurm;

import io.fleetkit.api.core.PodPhase;
import java.util.Locale;

/**
 * Slurm's base job states ({@code job_state} in slurmrestd v0.0.38; {@code JOB_*} in {@code slurm.h}) and the
 * FleetKit phase each one maps to. Flags Slurm may append (e.g. {@code "COMPLETING"} as a flag) are read by
 * {@link #parse} from the first word.
 */
public enum SlurmJobState {
  PENDING(PodPhase.Pending),
  RUNNING(PodPhase.Running),
  SUSPENDED(PodPhase.Running),
  /** The job's processes ended; Slurm is cleaning up. Not finished yet: the exit code may still change. */
  COMPLETING(PodPhase.Running),
  /** Also what a requeued job passes through. */
  REQUEUED(PodPhase.Pending),
  RESIZING(PodPhase.Running),
  COMPLETED(PodPhase.Succeeded),
  CANCELLED(PodPhase.Failed),
  FAILED(PodPhase.Failed),
  TIMEOUT(PodPhase.Failed),
  NODE_FAIL(PodPhase.Failed),
  PREEMPTED(PodPhase.Failed),
  BOOT_FAIL(PodPhase.Failed),
  DEADLINE(PodPhase.Failed),
  OUT_OF_MEMORY(PodPhase.Failed),
  /** A state this client does not know. */
  UNKNOWN(PodPhase.Unknown);

  private final PodPhase phase;

  SlurmJobState(PodPhase phase) {
    this.phase = phase;
  }

  /** The FleetKit phase: Pending, Running, Succeeded (COMPLETED only), Failed (every other end), or Unknown. */
  public PodPhase phase() {
    return phase;
  }

  /** Whether the job has ended and will not change again. */
  public boolean isFinished() {
    return phase.isTerminal();
  }

  /** Parses Slurm's text ({@code "COMPLETED"}, {@code "running"}, {@code "CANCELLED by 0"}); unknown → UNKNOWN. */
  public static SlurmJobState parse(String s) {
    String word = s.strip();
    int cut = 0;
    while (cut < word.length() && (Character.isLetter(word.charAt(cut)) || word.charAt(cut) == '_')) {
      cut++;
    }
    word = word.substring(0, cut).toUpperCase(Locale.ROOT);
    for (SlurmJobState st : values()) {
      if (st.name().equals(word)) {
        return st;
      }
    }
    return UNKNOWN;
  }
}
