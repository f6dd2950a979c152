package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.text.GoIntegers;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The annotation form of the application model ({@link HealthSource#fromAnnotations()}): reads the
 * {@code simulate.fleetkit.io/*} keys of a pod, each either for the whole pod or, with the suffix
 * {@code .<container name>}, for one container (the suffixed key wins). Init containers read only their suffixed
 * keys. Stateless.
 */
final class ScriptAnnotations implements HealthSource {
  static final ScriptAnnotations SOURCE = new ScriptAnnotations();

  private ScriptAnnotations() {}

  @Override
  public ContainerScript script(Pod pod, Container container, int restartCount) {
    return script(pod, container, restartCount, true,
        ownedByJob(pod) ? HealthSource.DEFAULT_JOB_RUN : null);
  }

  @Override
  public ContainerScript initScript(Pod pod, Container initContainer, int restartCount) {
    return script(pod, initContainer, restartCount, false, initContainer.isRestartable() ? null : Duration.ZERO);
  }

  /**
   * The script from the container's keys, and the pod-wide ones when {@code podWide}; {@code defaultExit} when no
   * key says when the process exits.
   */
  private static ContainerScript script(Pod pod, Container container, int restartCount, boolean podWide,
      @Nullable Duration defaultExit) {
    Map<String, String> a = pod.metadata().annotations();
    String name = container.name();
    Long crashes = seconds(pod, a, HealthSource.CRASHES, name, podWide);
    if (crashes != null && restartCount < crashes) {
      return ContainerScript.crashes();
    }
    Long exit = seconds(pod, a, HealthSource.EXIT_AFTER, name, podWide);
    Long code = seconds(pod, a, HealthSource.EXIT_CODE, name, podWide);
    Duration exitAfter = exit != null ? Duration.ofSeconds(exit) : defaultExit;
    Duration stopAfter = secondsOrNever(pod, a, HealthSource.STOP_AFTER, name, podWide);
    Long stopCode = seconds(pod, a, HealthSource.STOP_EXIT_CODE, name, podWide);
    int stopExitCode = stopCode == null ? ContainerScript.SIGTERM_EXIT_CODE : stopCode.intValue();
    Duration hookRunsFor = duration(seconds(pod, a, HealthSource.HOOK_SECONDS, name, podWide));
    ProbeAnswer hooks = new ProbeAnswer(Duration.ZERO,
        duration(seconds(pod, a, HealthSource.HOOK_FAILS_AFTER, name, podWide)));
    Duration runsFor = hookRunsFor == null ? Duration.ZERO : hookRunsFor;
    Duration unreadyAfterStop = duration(seconds(pod, a, HealthSource.READINESS_FAILS_AFTER_STOP, name, podWide));
    if (unhealthyImage(a, name, container.image(), podWide)) {
      return new ContainerScript(ProbeAnswer.NEVER, ProbeAnswer.NEVER, ProbeAnswer.NEVER, exitAfter,
          code == null ? 0 : code.intValue(), stopAfter, stopExitCode, hooks, runsFor, unreadyAfterStop);
    }
    ProbeAnswer startup = new ProbeAnswer(secondsOrNever(pod, a, HealthSource.STARTED_AFTER, name, podWide), null);
    ProbeAnswer readiness = new ProbeAnswer(secondsOrNever(pod, a, HealthSource.READY_AFTER, name, podWide),
        duration(seconds(pod, a, HealthSource.READINESS_FAILS_AFTER, name, podWide)));
    ProbeAnswer liveness = new ProbeAnswer(Duration.ZERO,
        duration(seconds(pod, a, HealthSource.LIVENESS_FAILS_AFTER, name, podWide)));
    return new ContainerScript(startup, readiness, liveness, exitAfter, code == null ? 0 : code.intValue(),
        stopAfter, stopExitCode, hooks, runsFor, unreadyAfterStop);
  }

  private static boolean unhealthyImage(Map<String, String> a, String container, String image, boolean podWide) {
    String v = value(a, HealthSource.UNHEALTHY_IMAGES, container, podWide);
    if (v == null || image.isEmpty()) {
      return false;
    }
    for (String s : v.split(",")) {
      if (s.trim().equals(image)) {
        return true;
      }
    }
    return false;
  }

  private static @Nullable Duration duration(@Nullable Long seconds) {
    return seconds == null ? null : Duration.ofSeconds(seconds);
  }

  private static boolean ownedByJob(Pod pod) {
    OwnerReference ref = pod.metadata().controllerRef();
    return ref != null && ref.kind().equals("Job");
  }

  private static @Nullable String value(Map<String, String> a, String key, String container, boolean podWide) {
    String v = a.get(key + "." + container);
    return v != null || !podWide ? v : a.get(key);
  }

  /** Seconds, {@code "never"} as {@code null}; a missing key is zero. */
  private static @Nullable Duration secondsOrNever(Pod pod, Map<String, String> a, String key, String container,
      boolean podWide) {
    String v = value(a, key, container, podWide);
    if (v == null) {
      return Duration.ZERO;
    }
    if (v.trim().equals("never")) {
      return null;
    }
    return Duration.ofSeconds(seconds(pod, a, key, container, podWide));
  }

  private static @Nullable Long seconds(Pod pod, Map<String, String> a, String key, String container,
      boolean podWide) {
    String v = a.get(key + "." + container);
    String used = v != null ? key + "." + container : key;
    if (v == null && podWide) {
      v = a.get(key);
    }
    if (v == null) {
      return null;
    }
    try {
      long n = GoIntegers.parseInt(v.trim(), 64); // ASCII digits only
      if (n < 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("pod " + pod.metadata().key() + ": annotation " + used + " \"" + v
          + "\" must be a non-negative integer" + (key.equals(HealthSource.READY_AFTER)
              || key.equals(HealthSource.STARTED_AFTER) || key.equals(HealthSource.STOP_AFTER)
              ? " or \"never\"" : ""), e);
    }
  }
}
