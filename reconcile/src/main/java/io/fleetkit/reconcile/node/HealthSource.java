package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where a simulated node gets its containers' behaviour from: the stand-in for the images, processes and probes of
 * a real kubelet. Called once per container start ({@code restartCount} 0 for the first start), on the simulation
 * thread; implementations must be deterministic for a simulation to be reproducible.
 */
@FunctionalInterface
public interface HealthSource {
  /** Annotation: seconds until the readiness probe succeeds ({@code "never"} for never). */
  String READY_AFTER = "simulate.fleetkit.io/ready-after-seconds";
  /** Annotation: seconds until the process exits by itself. */
  String EXIT_AFTER = "simulate.fleetkit.io/exit-after-seconds";
  /** Annotation: the exit code of that exit (default 0). */
  String EXIT_CODE = "simulate.fleetkit.io/exit-code";
  /** Annotation: seconds until the liveness probe fails. */
  String LIVENESS_FAILS_AFTER = "simulate.fleetkit.io/liveness-fails-after-seconds";
  /** Annotation: how many first runs of each container exit with code 1 at once (a crash) before it behaves. */
  String CRASHES = "simulate.fleetkit.io/crashes";
  /** How long a pod owned by a Job runs when its annotations say nothing (then it exits 0). */
  Duration DEFAULT_JOB_RUN = Duration.ofSeconds(10);

  /** The script of the run of {@code container} of {@code pod} that is starting now. */
  ContainerScript script(Pod pod, Container container, int restartCount);

  /** Every container is ready at once and runs forever. */
  static HealthSource healthy() {
    return (pod, container, restartCount) -> ContainerScript.healthy();
  }

  /**
   * Reads the pod's annotations ({@link #READY_AFTER}, {@link #EXIT_AFTER}, {@link #EXIT_CODE},
   * {@link #LIVENESS_FAILS_AFTER}, {@link #CRASHES}); a pod without them is ready at once and runs forever, except a
   * pod owned by a Job, which runs {@link #DEFAULT_JOB_RUN} and exits 0. The annotations come from the workload's
   * pod template, so a manifest can script its pods.
   *
   * @throws IllegalArgumentException (from {@code script}) if an annotation is not a non-negative integer
   */
  static HealthSource fromAnnotations() {
    return (pod, container, restartCount) -> {
      Map<String, String> a = pod.metadata().annotations();
      Long crashes = seconds(pod, a, CRASHES);
      if (crashes != null && restartCount < crashes) {
        return ContainerScript.crashes();
      }
      String ready = a.get(READY_AFTER);
      Duration readyAfter = ready == null ? Duration.ZERO
          : ready.trim().equals("never") ? null : Duration.ofSeconds(seconds(pod, a, READY_AFTER));
      Long exit = seconds(pod, a, EXIT_AFTER);
      Long code = seconds(pod, a, EXIT_CODE);
      Long liveness = seconds(pod, a, LIVENESS_FAILS_AFTER);
      Duration exitAfter = exit != null ? Duration.ofSeconds(exit) : ownedByJob(pod) ? DEFAULT_JOB_RUN : null;
      return new ContainerScript(readyAfter, exitAfter, code == null ? 0 : code.intValue(),
          liveness == null ? null : Duration.ofSeconds(liveness));
    };
  }

  private static boolean ownedByJob(Pod pod) {
    OwnerReference ref = pod.metadata().controllerRef();
    return ref != null && ref.kind().equals("Job");
  }

  private static @Nullable Long seconds(Pod pod, Map<String, String> annotations, String key) {
    String v = annotations.get(key);
    if (v == null) {
      return null;
    }
    try {
      long n = Long.parseLong(v.trim());
      if (n < 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("pod " + pod.metadata().key() + ": annotation " + key + " \"" + v
          + "\" must be a non-negative integer", e);
    }
  }
}
