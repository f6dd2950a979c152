package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.ProbeType;
import io.fleetkit.reconcile.probe.ProbeResult;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one run of a simulated container does, measured from the moment it starts: what it answers to each kind of
 * probe ({@link ProbeAnswer}s), and whether and when its process exits and with which code. A
 * {@link HealthSource} hands one out per start.
 *
 * <p>How the simulated kubelet uses the answers: a probe the container declares is run on its period with the
 * kubelet's thresholds, and each attempt gets the answer for that moment; a kind of probe the container does not
 * declare still follows the answer, exactly at the moment it changes (readiness: the container is ready while it
 * passes; liveness: the container is killed with exit code 137 at {@link ProbeAnswer#failFrom}), so that scripts
 * written without probes keep their exact timing. Startup answers matter only for a declared startup probe.
 *
 * @param startup answers to the startup probe
 * @param readiness answers to the readiness probe
 * @param liveness answers to the liveness probe
 * <p>How the process answers the SIGTERM with which the kubelet stops it ({@code StopContainer} with a grace period):
 * it exits {@code stopAfter} later with {@code stopExitCode}, or, when that is not before the grace period runs out
 * or {@code stopAfter} is {@code null} (the process ignores SIGTERM, as a PID 1 without a handler does), the runtime
 * kills it with SIGKILL at the end of the grace period (exit code 137). The default is a process that the signal ends
 * at once: exit code 143 (128 + SIGTERM), as a process without a handler of its own reports it. The simulated
 * kubelet stops containers this way when it stops the sidecars of a pod whose regular containers are done, when it
 * kills a pod being deleted, and when it kills a container whose declared liveness or startup probe failed.
 * A container whose {@code lifecycle.stopSignal} names another signal gets that one instead of SIGTERM, answered the
 * same way; {@code stopExitCode} 143 (the default) then stands for 128 + that signal's number, and a process
 * without a handler ({@code stopAfter} zero) does not exit on a signal that does not end a process by default.
 *
 * @param startup answers to the startup probe
 * @param readiness answers to the readiness probe
 * @param liveness answers to the liveness probe
 * @param exitAfter when the process exits by itself; {@code null} means it runs until stopped
 * @param exitCode the exit code when it exits by itself
 * @param stopAfter how long after SIGTERM the process exits; {@code null}: it ignores SIGTERM
 * @param stopExitCode the exit code of that exit (0 for a handler that shuts down cleanly)
 * @param hooks what the container answers to its {@code exec} and {@code httpGet} lifecycle hooks, as a function of
 *     how long it has run when the hook starts (success: the command exits 0, the GET answers 2xx or 3xx), read as
 *     probe answers are; the default {@link ProbeAnswer#ALWAYS}
 * @param hookRunsFor how long one such hook runs (default zero). A {@code sleep} hook takes its own seconds and
 *     succeeds, a {@code tcpSocket} hook fails at once (the kubelet does not run it), whatever the script says
 * @param readinessFailsAfterStop what the application does to its readiness when it is told to stop: from this long
 *     after the stop signal (SIGTERM, or the container's {@code lifecycle.stopSignal}, sent once the {@code preStop}
 *     hook returned) its readiness answers are failures for the rest of the run ({@link Duration#ZERO}: it turns
 *     unready the moment it gets the signal); {@code null} (the default): the signal changes nothing, the readiness
 *     answers go on as scripted while the process runs
 */
public record ContainerScript(ProbeAnswer startup, ProbeAnswer readiness, ProbeAnswer liveness,
    @Nullable Duration exitAfter, int exitCode, @Nullable Duration stopAfter, int stopExitCode, ProbeAnswer hooks,
    Duration hookRunsFor, @Nullable Duration readinessFailsAfterStop) {
  /** The exit code of a container the kubelet killed (SIGKILL). */
  public static final int KILLED_EXIT_CODE = 137;
  /** The exit code of a process that SIGTERM ended without a handler of its own (128 + 15). */
  public static final int SIGTERM_EXIT_CODE = 143;

  private static final ContainerScript HEALTHY =
      new ContainerScript(ProbeAnswer.ALWAYS, ProbeAnswer.ALWAYS, ProbeAnswer.ALWAYS, null, 0);
  private static final ContainerScript COMPLETES =
      new ContainerScript(ProbeAnswer.ALWAYS, ProbeAnswer.ALWAYS, ProbeAnswer.ALWAYS, Duration.ZERO, 0);

  /**
   * @throws IllegalArgumentException if {@code exitAfter}, {@code stopAfter}, {@code hookRunsFor} or
   *     {@code readinessFailsAfterStop} is negative
   */
  public ContainerScript {
    Objects.requireNonNull(startup, "startup");
    Objects.requireNonNull(readiness, "readiness");
    Objects.requireNonNull(liveness, "liveness");
    Objects.requireNonNull(hooks, "hooks");
    Objects.requireNonNull(hookRunsFor, "hookRunsFor");
    if (hookRunsFor.isNegative()) {
      throw new IllegalArgumentException("container script: hookRunsFor " + hookRunsFor + " must not be negative");
    }
    if (exitAfter != null && exitAfter.isNegative()) {
      throw new IllegalArgumentException("container script: exitAfter " + exitAfter + " must not be negative");
    }
    if (stopAfter != null && stopAfter.isNegative()) {
      throw new IllegalArgumentException("container script: stopAfter " + stopAfter + " must not be negative");
    }
    if (readinessFailsAfterStop != null && readinessFailsAfterStop.isNegative()) {
      throw new IllegalArgumentException("container script: readinessFailsAfterStop " + readinessFailsAfterStop
          + " must not be negative");
    }
  }

  /** A script whose readiness answers the stop signal does not change. */
  public ContainerScript(ProbeAnswer startup, ProbeAnswer readiness, ProbeAnswer liveness,
      @Nullable Duration exitAfter, int exitCode, @Nullable Duration stopAfter, int stopExitCode, ProbeAnswer hooks,
      Duration hookRunsFor) {
    this(startup, readiness, liveness, exitAfter, exitCode, stopAfter, stopExitCode, hooks, hookRunsFor, null);
  }

  /** A script whose lifecycle hooks succeed at once. */
  public ContainerScript(ProbeAnswer startup, ProbeAnswer readiness, ProbeAnswer liveness,
      @Nullable Duration exitAfter, int exitCode, @Nullable Duration stopAfter, int stopExitCode) {
    this(startup, readiness, liveness, exitAfter, exitCode, stopAfter, stopExitCode, ProbeAnswer.ALWAYS,
        Duration.ZERO);
  }

  /** A script whose process SIGTERM ends at once with exit code {@value #SIGTERM_EXIT_CODE}. */
  public ContainerScript(ProbeAnswer startup, ProbeAnswer readiness, ProbeAnswer liveness,
      @Nullable Duration exitAfter, int exitCode) {
    this(startup, readiness, liveness, exitAfter, exitCode, Duration.ZERO, SIGTERM_EXIT_CODE);
  }

  /**
   * The script of a container that becomes ready after {@code readyAfter} ({@code null}: never), exits after
   * {@code exitAfter} ({@code null}: never) with {@code exitCode}, and fails its liveness probe from
   * {@code livenessFailsAfter} ({@code null}: never).
   */
  public ContainerScript(@Nullable Duration readyAfter, @Nullable Duration exitAfter, int exitCode,
      @Nullable Duration livenessFailsAfter) {
    this(ProbeAnswer.ALWAYS, new ProbeAnswer(readyAfter, null), new ProbeAnswer(Duration.ZERO, livenessFailsAfter),
        exitAfter, exitCode);
  }

  /** Ready at once, runs forever. */
  public static ContainerScript healthy() {
    return HEALTHY;
  }

  /** Ready after {@code d}, runs forever. */
  public static ContainerScript readyAfter(Duration d) {
    return new ContainerScript(Objects.requireNonNull(d, "d"), null, 0, null);
  }

  /** Ready at once, exits with {@code code} after {@code d} (a batch task, or a crash when the code is not 0). */
  public static ContainerScript exitsAfter(Duration d, int code) {
    return new ContainerScript(Duration.ZERO, Objects.requireNonNull(d, "d"), code, null);
  }

  /** Exits 0 the moment it starts: an init container with nothing to wait for. */
  public static ContainerScript completes() {
    return COMPLETES;
  }

  /** Never ready, exits with code 1 the moment it starts: a crash loop. */
  public static ContainerScript crashes() {
    return new ContainerScript(ProbeAnswer.ALWAYS, ProbeAnswer.NEVER, ProbeAnswer.ALWAYS, Duration.ZERO, 1);
  }

  /** When the readiness answers first pass; {@code null} when never. */
  public @Nullable Duration readyAfter() {
    return readiness.passFrom();
  }

  /** When the liveness answers turn to failure; {@code null} when never. */
  public @Nullable Duration livenessFailsAfter() {
    return liveness.failFrom();
  }

  /** The answers to probes of {@code type}. */
  public ProbeAnswer answer(ProbeType type) {
    return switch (type) {
      case Startup -> startup;
      case Readiness -> readiness;
      case Liveness -> liveness;
    };
  }

  /** This script with the liveness probe failing after {@code d}. */
  public ContainerScript withLivenessFailureAfter(Duration d) {
    return new ContainerScript(startup, readiness, liveness.withFailFrom(Objects.requireNonNull(d, "d")), exitAfter,
        exitCode, stopAfter, stopExitCode, hooks, hookRunsFor, readinessFailsAfterStop);
  }

  /** This script with other answers to probes of {@code type}. */
  public ContainerScript withAnswer(ProbeType type, ProbeAnswer a) {
    Objects.requireNonNull(a, "answer");
    return new ContainerScript(type == ProbeType.Startup ? a : startup, type == ProbeType.Readiness ? a : readiness,
        type == ProbeType.Liveness ? a : liveness, exitAfter, exitCode, stopAfter, stopExitCode, hooks, hookRunsFor,
        readinessFailsAfterStop);
  }

  /**
   * This script with another answer to SIGTERM: exit {@code after} the signal with {@code code}; {@code after}
   * {@code null} for a process that ignores the signal (killed when the grace period runs out, 137).
   */
  public ContainerScript withStop(@Nullable Duration after, int code) {
    return new ContainerScript(startup, readiness, liveness, exitAfter, exitCode, after, code, hooks, hookRunsFor,
        readinessFailsAfterStop);
  }

  /**
   * This script with other answers to its {@code exec} and {@code httpGet} lifecycle hooks: each runs
   * {@code runsFor} and succeeds when {@code answers} passes at the moment it starts.
   */
  public ContainerScript withHooks(Duration runsFor, ProbeAnswer answers) {
    return new ContainerScript(startup, readiness, liveness, exitAfter, exitCode, stopAfter, stopExitCode,
        Objects.requireNonNull(answers, "answers"), Objects.requireNonNull(runsFor, "runsFor"),
        readinessFailsAfterStop);
  }

  /**
   * This script with readiness answers that fail from {@code d} after the stop signal on ({@code null}: the signal
   * changes nothing).
   *
   * @throws IllegalArgumentException if {@code d} is negative
   */
  public ContainerScript withReadinessFailsAfterStop(@Nullable Duration d) {
    return new ContainerScript(startup, readiness, liveness, exitAfter, exitCode, stopAfter, stopExitCode, hooks,
        hookRunsFor, d);
  }

  /**
   * The answer to a probe of {@code type} once the run has run for {@code since}: {@link #answer(ProbeType)}'s,
   * except that readiness fails from {@link #readinessFailsAfterStop} after the stop signal on.
   *
   * @param signalled how long the run had run when it got the stop signal; {@code null} when it has not got it
   */
  public ProbeResult answerAt(ProbeType type, Duration since, @Nullable Duration signalled) {
    Duration failsFrom = failsFromStop(type, signalled);
    if (failsFrom != null && since.compareTo(failsFrom) >= 0) {
      return ProbeResult.Failure;
    }
    return answer(type).at(since);
  }

  /**
   * The first moment after {@code since} at which {@link #answerAt} changes; {@code null} when it never does.
   *
   * @param signalled as for {@link #answerAt}
   */
  public @Nullable Duration nextChange(ProbeType type, Duration since, @Nullable Duration signalled) {
    Duration failsFrom = failsFromStop(type, signalled);
    if (failsFrom != null && since.compareTo(failsFrom) >= 0) {
      return null; // failing for good
    }
    Duration next = answer(type).nextChange(since);
    if (failsFrom == null || (next != null && next.compareTo(failsFrom) < 0)) {
      return next;
    }
    // failure for good from failsFrom on; until then the answer stays what it is now
    return answer(type).at(since) == ProbeResult.Success ? failsFrom : null;
  }

  /** When, in run time, the stop turns {@code type}'s answers to failure; {@code null} when it does not. */
  private @Nullable Duration failsFromStop(ProbeType type, @Nullable Duration signalled) {
    return type != ProbeType.Readiness || signalled == null || readinessFailsAfterStop == null ? null
        : signalled.plus(readinessFailsAfterStop);
  }
}
