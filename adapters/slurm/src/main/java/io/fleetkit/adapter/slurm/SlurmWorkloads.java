package io.fleetkit.adapter.slurm;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.text.GoIntegers;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Turns FleetKit workloads into one Slurm job each. A gang of N pods that each request K GPUs becomes one job on
 * N nodes with one task per node and {@code gpu:K} per node ({@code --nodes=N --ntasks-per-node=1 --gres=gpu:K}):
 * Slurm starts all N tasks together or none, which is the gang's all-or-nothing natively.
 *
 * <p>Per pod: GPUs are {@code nvidia.com/gpu} of the pod's effective requests, CPUs per task its CPU request
 * rounded up to whole CPUs (none: Slurm's default of 1), memory per node its memory request in MiB, rounded up
 * (none: the partition default). The environment is the first container's {@code env} plus
 * {@code FLEETKIT_NAMESPACE} and {@code FLEETKIT_NAME}; its variables must be literals: a {@code valueFrom} or an
 * {@code envFrom}, which a kubelet would resolve, is refused with an {@link IllegalArgumentException}.
 *
 * <p>What to run comes from the object's annotations, since a pod's container has no command: {@link #SCRIPT}
 * (required unless given explicitly), {@link #PARTITION}, {@link #TIME_LIMIT_MINUTES} and {@link #WORKDIR}.
 * Stateless.
 */
public final class SlurmWorkloads {
  /** Annotation holding the batch script ({@code #!/bin/bash\nsrun ./train.sh}). */
  public static final String SCRIPT = "slurm.fleetkit.io/script";
  /** Annotation naming the partition; absent for the cluster's default. */
  public static final String PARTITION = "slurm.fleetkit.io/partition";
  /** Annotation with the time limit in minutes; for a Job, {@code activeDeadlineSeconds} otherwise. */
  public static final String TIME_LIMIT_MINUTES = "slurm.fleetkit.io/time-limit-minutes";
  /** Annotation with the working directory (absolute); {@code /tmp} otherwise. */
  public static final String WORKDIR = "slurm.fleetkit.io/workdir";

  private SlurmWorkloads() {}

  /**
   * A Job as one Slurm job. With {@code completions} equal to {@code parallelism} (or unset) it is a gang of
   * {@code parallelism} pods on as many nodes. With more completions than parallelism it is an array of
   * {@code completions} one-node tasks, at most {@code parallelism} at a time ({@code --array=0-(C-1)%P}), the
   * task index being the completion index.
   */
  public static SlurmJobSpec forJob(Job job) {
    return forJob(job, script(job.metadata()));
  }

  /** {@link #forJob(Job)} with the script given instead of read from the annotation. */
  public static SlurmJobSpec forJob(Job job, String script) {
    int parallelism = job.spec().parallelism();
    Integer completions = job.spec().completions();
    String what = "job " + job.metadata().namespace() + "/" + job.metadata().name();
    if (parallelism < 1) {
      throw new IllegalArgumentException(what + ": spec.parallelism " + parallelism + " must be at least 1 to run "
          + "on Slurm");
    }
    SlurmJobSpec.Builder b = base(job.metadata(), job.spec().template().spec(), script, what);
    if (completions != null && completions > parallelism) {
      b.nodes(1).array("0-" + (completions - 1) + "%" + parallelism);
    } else {
      b.nodes(completions == null ? parallelism : Math.max(1, completions));
    }
    if (!job.metadata().annotations().containsKey(TIME_LIMIT_MINUTES) && job.spec().activeDeadlineSeconds() != null) {
      b.timeLimit(Duration.ofSeconds(job.spec().activeDeadlineSeconds()));
    }
    return b.build();
  }

  /** A PodGroup of {@code minMember} pods shaped like {@code member}, as one job on {@code minMember} nodes. */
  public static SlurmJobSpec forPodGroup(PodGroup group, PodSpec member) {
    return forPodGroup(group, member, script(group.metadata()));
  }

  /** {@link #forPodGroup(PodGroup, PodSpec)} with the script given. */
  public static SlurmJobSpec forPodGroup(PodGroup group, PodSpec member, String script) {
    String what = "podgroup " + group.metadata().namespace() + "/" + group.metadata().name();
    return base(group.metadata(), member, script, what).nodes(group.spec().minMember()).build();
  }

  private static SlurmJobSpec.Builder base(ObjectMeta meta, PodSpec pod, String script, String what) {
    Objects.requireNonNull(script, "script");
    ResourceList req = pod.effectiveRequests();
    SlurmJobSpec.Builder b = SlurmJobSpec.builder()
        .name(jobName(meta))
        .script(script)
        .tasksPerNode(1)
        .gpusPerNode(Math.toIntExact(GpuRequests.whole(req)));
    long milliCpu = req.milliCpu();
    if (milliCpu > 0) {
      b.cpusPerTask(Math.toIntExact((milliCpu + 999) / 1000));
    }
    long mem = req.memoryBytes();
    if (mem > 0) {
      b.memoryPerNodeMiB((mem + (1 << 20) - 1) >> 20);
    }
    String partition = meta.annotations().get(PARTITION);
    if (partition != null) {
      b.partition(partition);
    }
    String minutes = meta.annotations().get(TIME_LIMIT_MINUTES);
    if (minutes != null) {
      try {
        b.timeLimit(Duration.ofMinutes(GoIntegers.parseInt(minutes.strip(), 64)));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(what + ": annotation " + TIME_LIMIT_MINUTES + " \"" + minutes
            + "\" must be a whole number of minutes", e);
      }
    }
    String workdir = meta.annotations().get(WORKDIR);
    if (workdir != null) {
      b.workingDirectory(workdir);
    }
    if (!pod.containers().isEmpty()) {
      Container c = pod.containers().get(0);
      for (int i = 0; i < c.env().size(); i++) {
        EnvVar e = c.env().get(i);
        if (e.valueFrom() != null) { // no kubelet resolves it here: a literal is all a Slurm job can be given
          throw new IllegalArgumentException(what + ": containers[0].env[" + i + "].valueFrom (" + e.name()
              + ") is not supported by the Slurm adapter; give a literal value");
        }
        b.env(e.name(), e.value());
      }
      if (!c.envFrom().isEmpty()) {
        throw new IllegalArgumentException(what + ": containers[0].envFrom is not supported by the Slurm adapter; "
            + "give literal values in env");
      }
    }
    b.env("FLEETKIT_NAMESPACE", meta.namespace()).env("FLEETKIT_NAME", meta.name());
    return b;
  }

  /** The Slurm job name of an object: {@code namespace.name} ({@code name} alone when cluster-scoped). */
  public static String jobName(ObjectMeta meta) {
    return meta.namespace().isEmpty() ? meta.name() : meta.namespace() + "." + meta.name();
  }

  private static String script(ObjectMeta meta) {
    @Nullable String s = meta.annotations().get(SCRIPT);
    if (s == null || s.isBlank()) {
      throw new IllegalArgumentException((meta.namespace().isEmpty() ? "" : meta.namespace() + "/") + meta.name()
          + ": annotation " + SCRIPT + " is required to run on Slurm (a batch script starting with #!)");
    }
    return s;
  }
}
