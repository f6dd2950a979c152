package io.fleetkit.adapter.slurm;

/**
 * A job's {@code exit_code} as slurmrestd v0.0.38 reports it: the raw POSIX wait status, not the exit code.
 * {@code exit 3} arrives as 768 ({@code 3 << 8}); a job killed by SIGTERM (scancel) as 15.
 *
 * @param raw the wait status
 */
public record WaitStatus(int raw) {
  public static final WaitStatus SUCCESS = new WaitStatus(0);

  /** The process's exit code ({@code WEXITSTATUS}: {@code (raw >> 8) & 0xff}); 0 when killed by a signal. */
  public int exitCode() {
    return (raw >> 8) & 0xff;
  }

  /** The signal that ended the process ({@code WTERMSIG}: {@code raw & 0x7f}), 0 when it exited normally. */
  public int signal() {
    return raw & 0x7f;
  }

  /** Whether a signal ended the process. */
  public boolean signaled() {
    return signal() != 0;
  }

  /** Slurm's own notation, {@code exit:signal}, as in {@code scontrol show job}'s {@code ExitCode=3:0}. */
  @Override
  public String toString() {
    return exitCode() + ":" + signal();
  }
}
