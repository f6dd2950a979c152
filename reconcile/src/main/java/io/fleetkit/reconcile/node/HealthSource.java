package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Pod;
import java.time.Duration;

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
  /** Annotation: seconds until the readiness probe fails again (for good) after passing. */
  String READINESS_FAILS_AFTER = "simulate.fleetkit.io/readiness-fails-after-seconds";
  /** Annotation: seconds until the startup probe succeeds ({@code "never"} for never; default 0). */
  String STARTED_AFTER = "simulate.fleetkit.io/started-after-seconds";
  /**
   * Annotation: comma-separated images (e.g. {@code shop:2.0}) that are broken: a container running one never
   * passes a startup or readiness probe and fails every liveness probe it declares.
   */
  String UNHEALTHY_IMAGES = "simulate.fleetkit.io/unhealthy-images";
  /** Annotation: seconds until the liveness probe fails. */
  String LIVENESS_FAILS_AFTER = "simulate.fleetkit.io/liveness-fails-after-seconds";
  /**
   * Annotation: seconds from SIGTERM until the process exits ({@code "never"}: it ignores SIGTERM and is killed when
   * the grace period runs out; default 0).
   */
  String STOP_AFTER = "simulate.fleetkit.io/stop-after-seconds";
  /** Annotation: the exit code of the exit on SIGTERM (default 143, 128 + SIGTERM; 0 for a clean shutdown). */
  String STOP_EXIT_CODE = "simulate.fleetkit.io/stop-exit-code";
  /**
   * Annotation: seconds from the stop signal (SIGTERM, or the container's {@code lifecycle.stopSignal}; sent once the
   * {@code preStop} hook returned) until the readiness answers fail for the rest of the run (0: the application turns
   * unready the moment it gets the signal). Without it the signal changes nothing: the readiness answers go on as
   * scripted while the process runs, and a declared readiness probe keeps seeing them while the kubelet stops the
   * container.
   */
  String READINESS_FAILS_AFTER_STOP = "simulate.fleetkit.io/readiness-fails-after-stop-seconds";
  /**
   * Annotation: seconds an {@code exec} or {@code httpGet} lifecycle hook ({@code postStart}, {@code preStop}) runs
   * (default 0).
   */
  String HOOK_SECONDS = "simulate.fleetkit.io/hook-seconds";
  /**
   * Annotation: seconds of a run after which its {@code exec} and {@code httpGet} lifecycle hooks fail (0: they
   * always fail; default never).
   */
  String HOOK_FAILS_AFTER = "simulate.fleetkit.io/hook-fails-after-seconds";
  /** Annotation: how many first runs of each container exit with code 1 at once (a crash) before it behaves. */
  String CRASHES = "simulate.fleetkit.io/crashes";
  /** How long a pod owned by a Job runs when its annotations say nothing (then it exits 0). */
  Duration DEFAULT_JOB_RUN = Duration.ofSeconds(10);

  /** The script of the run of {@code container} of {@code pod} that is starting now. */
  ContainerScript script(Pod pod, Container container, int restartCount);

  /**
   * The script of the run of init container {@code initContainer} of {@code pod} that is starting now. By default
   * a regular init container completes at once ({@link ContainerScript#completes()}: exit 0 the moment it starts, so
   * that init containers cost no simulated time unless scripted) and a sidecar ({@code restartPolicy: Always}) is
   * scripted by {@link #script} like a regular container.
   */
  default ContainerScript initScript(Pod pod, Container initContainer, int restartCount) {
    return initContainer.isRestartable() ? script(pod, initContainer, restartCount) : ContainerScript.completes();
  }

  /**
   * Every container is ready at once and runs forever; regular init containers complete at once ({@link #initScript}'s
   * default).
   */
  static HealthSource healthy() {
    return (pod, container, restartCount) -> ContainerScript.healthy();
  }

  /**
   * The application model read from the pod's annotations: {@link #STARTED_AFTER}, {@link #READY_AFTER},
   * {@link #READINESS_FAILS_AFTER}, {@link #LIVENESS_FAILS_AFTER}, {@link #UNHEALTHY_IMAGES}, {@link #EXIT_AFTER},
   * {@link #EXIT_CODE}, {@link #CRASHES}, {@link #STOP_AFTER}, {@link #STOP_EXIT_CODE},
   * {@link #READINESS_FAILS_AFTER_STOP}, {@link #HOOK_SECONDS}, {@link #HOOK_FAILS_AFTER}; each for the whole pod, or
   * for one container with the suffix
   * {@code .<container name>} (e.g. {@code simulate.fleetkit.io/ready-after-seconds.web}), which wins. A pod
   * without them is ready at once and runs forever, except a pod owned by a Job, which runs
   * {@link #DEFAULT_JOB_RUN} and exits 0. The annotations come from the workload's pod template, so a manifest can
   * script its pods; the answers they declare are what the container's declared probes see.
   *
   * <p>Init containers read only the keys suffixed with their own name (the pod-wide keys describe the regular
   * containers): a regular init container exits 0 at once unless {@code exit-after-seconds.<name>} says otherwise
   * ({@code exit-code.<name>} and {@code crashes.<name>} as for any container), and a sidecar runs until the pod is
   * done unless its keys say otherwise; the Job default does not apply to either.
   *
   * @throws IllegalArgumentException (from {@code script}) if an annotation is not a non-negative integer (or
   *     {@code never} where allowed)
   */
  static HealthSource fromAnnotations() {
    return ScriptAnnotations.SOURCE;
  }
}
