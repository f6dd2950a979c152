package io.fleetkit.api.simulation;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What to simulate.
 *
 * @param duration simulated time to run
 * @param seed seeds every random choice; the same scenario and seed give byte-identical output
 * @param sampleInterval how often the time series are sampled
 * @param loads load per workload, at most one per workload
 * @param faults faults at times
 * @param features which engines run
 * @param queues Kueue-style ClusterQueues with their LocalQueues
 * @param jobStreams batch jobs arriving over time
 * @param queueScalers KEDA-style queue-length scaling of Deployments
 * @param nodeStartup start-up phases per NodePool, at most one per pool
 * @param scheduler the scheduler's profile and GPU placement policy
 * @param cohorts the Kueue cohort tree the queues' cohorts belong to
 * @param waitForPodsReady Kueue's {@code waitForPodsReady} for the queues; {@code null}: off
 * @param clusterAutoscaler the cluster autoscaler's options; {@code null}: upstream's defaults
 * @param provisioner the provisioner's options; {@code null}: Karpenter's defaults
 * @param fairSharing Kueue's {@code fairSharing} for the queues; {@code null}: off
 * @param admissionFairSharing Kueue's {@code admissionFairSharing} for the queues; {@code null}: off
 * @param admissionCheckControllers the built-in controllers of Kueue AdmissionChecks among the manifests, besides
 *     {@value ScenarioCheckController#AUTO_APPROVE}
 */
public record ScenarioSpec(Duration duration, long seed, Duration sampleInterval, List<WorkloadLoad> loads,
    List<ScenarioFault> faults, ScenarioFeatures features, List<ScenarioQueue> queues, List<JobStream> jobStreams,
    List<QueueScaler> queueScalers, List<NodeStartup> nodeStartup, ScenarioScheduler scheduler,
    List<ScenarioCohort> cohorts, @Nullable ScenarioPodsReady waitForPodsReady,
    @Nullable ScenarioAutoscaler clusterAutoscaler, @Nullable ScenarioProvisioner provisioner,
    @Nullable ScenarioFairSharing fairSharing, @Nullable ScenarioAdmissionFairSharing admissionFairSharing,
    List<ScenarioCheckController> admissionCheckControllers) {
  /** The default sample interval. */
  public static final Duration DEFAULT_SAMPLE_INTERVAL = Duration.ofMinutes(1);

  public ScenarioSpec {
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(sampleInterval, "sampleInterval");
    Objects.requireNonNull(features, "features");
    Objects.requireNonNull(scheduler, "scheduler");
    loads = List.copyOf(loads);
    faults = List.copyOf(faults);
    queues = List.copyOf(queues);
    jobStreams = List.copyOf(jobStreams);
    queueScalers = List.copyOf(queueScalers);
    nodeStartup = List.copyOf(nodeStartup);
    cohorts = List.copyOf(cohorts);
    admissionCheckControllers = List.copyOf(admissionCheckControllers);
  }

  /** A scenario without Kueue's fair sharing, admission fair sharing or check controllers. */
  public ScenarioSpec(Duration duration, long seed, Duration sampleInterval, List<WorkloadLoad> loads,
      List<ScenarioFault> faults, ScenarioFeatures features, List<ScenarioQueue> queues, List<JobStream> jobStreams,
      List<QueueScaler> queueScalers, List<NodeStartup> nodeStartup, ScenarioScheduler scheduler,
      List<ScenarioCohort> cohorts, @Nullable ScenarioPodsReady waitForPodsReady,
      @Nullable ScenarioAutoscaler clusterAutoscaler, @Nullable ScenarioProvisioner provisioner) {
    this(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers, nodeStartup,
        scheduler, cohorts, waitForPodsReady, clusterAutoscaler, provisioner, null, null, List.of());
  }

  /** A scenario with the provisioner's default options. */
  public ScenarioSpec(Duration duration, long seed, Duration sampleInterval, List<WorkloadLoad> loads,
      List<ScenarioFault> faults, ScenarioFeatures features, List<ScenarioQueue> queues, List<JobStream> jobStreams,
      List<QueueScaler> queueScalers, List<NodeStartup> nodeStartup, ScenarioScheduler scheduler,
      List<ScenarioCohort> cohorts, @Nullable ScenarioPodsReady waitForPodsReady,
      @Nullable ScenarioAutoscaler clusterAutoscaler) {
    this(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers, nodeStartup,
        scheduler, cohorts, waitForPodsReady, clusterAutoscaler, null);
  }

  /** A scenario with the cluster autoscaler's and the provisioner's default options. */
  public ScenarioSpec(Duration duration, long seed, Duration sampleInterval, List<WorkloadLoad> loads,
      List<ScenarioFault> faults, ScenarioFeatures features, List<ScenarioQueue> queues, List<JobStream> jobStreams,
      List<QueueScaler> queueScalers, List<NodeStartup> nodeStartup, ScenarioScheduler scheduler,
      List<ScenarioCohort> cohorts, @Nullable ScenarioPodsReady waitForPodsReady) {
    this(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers, nodeStartup,
        scheduler, cohorts, waitForPodsReady, null);
  }

  /** A scenario without {@code waitForPodsReady}. */
  public ScenarioSpec(Duration duration, long seed, Duration sampleInterval, List<WorkloadLoad> loads,
      List<ScenarioFault> faults, ScenarioFeatures features, List<ScenarioQueue> queues, List<JobStream> jobStreams,
      List<QueueScaler> queueScalers, List<NodeStartup> nodeStartup, ScenarioScheduler scheduler,
      List<ScenarioCohort> cohorts) {
    this(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers, nodeStartup,
        scheduler, cohorts, null);
  }

  /** A scenario without declared cohorts (queues' cohorts are roots without quota). */
  public ScenarioSpec(Duration duration, long seed, Duration sampleInterval, List<WorkloadLoad> loads,
      List<ScenarioFault> faults, ScenarioFeatures features, List<ScenarioQueue> queues, List<JobStream> jobStreams,
      List<QueueScaler> queueScalers, List<NodeStartup> nodeStartup, ScenarioScheduler scheduler) {
    this(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers, nodeStartup,
        scheduler, List.of());
  }

  /** A scenario with kube's default scheduler profile and no GPU policy. */
  public ScenarioSpec(Duration duration, long seed, Duration sampleInterval, List<WorkloadLoad> loads,
      List<ScenarioFault> faults, ScenarioFeatures features, List<ScenarioQueue> queues, List<JobStream> jobStreams,
      List<QueueScaler> queueScalers, List<NodeStartup> nodeStartup) {
    this(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers, nodeStartup,
        ScenarioScheduler.DEFAULT);
  }

  /** This spec with another scheduler. */
  public ScenarioSpec withScheduler(ScenarioScheduler v) {
    return new ScenarioSpec(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers,
        nodeStartup, v, cohorts, waitForPodsReady, clusterAutoscaler, provisioner, fairSharing,
        admissionFairSharing, admissionCheckControllers);
  }

  /** This spec with another cohort tree. */
  public ScenarioSpec withCohorts(List<ScenarioCohort> v) {
    return new ScenarioSpec(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers,
        nodeStartup, scheduler, v, waitForPodsReady, clusterAutoscaler, provisioner, fairSharing,
        admissionFairSharing, admissionCheckControllers);
  }

  /** This spec with another {@code waitForPodsReady} ({@code null}: off). */
  public ScenarioSpec withWaitForPodsReady(@Nullable ScenarioPodsReady v) {
    return new ScenarioSpec(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers,
        nodeStartup, scheduler, cohorts, v, clusterAutoscaler, provisioner, fairSharing,
        admissionFairSharing, admissionCheckControllers);
  }

  /** This spec with other cluster autoscaler options ({@code null}: upstream's defaults). */
  public ScenarioSpec withClusterAutoscaler(@Nullable ScenarioAutoscaler v) {
    return new ScenarioSpec(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers,
        nodeStartup, scheduler, cohorts, waitForPodsReady, v, provisioner, fairSharing,
        admissionFairSharing, admissionCheckControllers);
  }

  /** This spec with other provisioner options ({@code null}: Karpenter's defaults). */
  public ScenarioSpec withProvisioner(@Nullable ScenarioProvisioner v) {
    return new ScenarioSpec(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers,
        nodeStartup, scheduler, cohorts, waitForPodsReady, clusterAutoscaler, v, fairSharing,
        admissionFairSharing, admissionCheckControllers);
  }

  /** A scenario without node start-up phases. */
  public ScenarioSpec(Duration duration, long seed, Duration sampleInterval, List<WorkloadLoad> loads,
      List<ScenarioFault> faults, ScenarioFeatures features, List<ScenarioQueue> queues, List<JobStream> jobStreams,
      List<QueueScaler> queueScalers) {
    this(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers, List.of());
  }

  /** A scenario without queues, job streams or queue scalers. */
  public ScenarioSpec(Duration duration, long seed, Duration sampleInterval, List<WorkloadLoad> loads,
      List<ScenarioFault> faults, ScenarioFeatures features) {
    this(duration, seed, sampleInterval, loads, faults, features, List.of(), List.of(), List.of(), List.of(),
        ScenarioScheduler.DEFAULT);
  }

  /** This spec with other fair sharing ({@code null}: off). */
  public ScenarioSpec withFairSharing(@Nullable ScenarioFairSharing v) {
    return new ScenarioSpec(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers,
        nodeStartup, scheduler, cohorts, waitForPodsReady, clusterAutoscaler, provisioner, v, admissionFairSharing,
        admissionCheckControllers);
  }

  /** This spec with other admission fair sharing ({@code null}: off). */
  public ScenarioSpec withAdmissionFairSharing(@Nullable ScenarioAdmissionFairSharing v) {
    return new ScenarioSpec(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers,
        nodeStartup, scheduler, cohorts, waitForPodsReady, clusterAutoscaler, provisioner, fairSharing, v,
        admissionCheckControllers);
  }

  /** This spec with other admission check controllers. */
  public ScenarioSpec withAdmissionCheckControllers(List<ScenarioCheckController> v) {
    return new ScenarioSpec(duration, seed, sampleInterval, loads, faults, features, queues, jobStreams, queueScalers,
        nodeStartup, scheduler, cohorts, waitForPodsReady, clusterAutoscaler, provisioner, fairSharing,
        admissionFairSharing, v);
  }
}
