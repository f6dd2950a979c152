package io.fleetkit.simulator;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.simulation.JobArrival;
import io.fleetkit.api.simulation.JobStream;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.node.HealthSource;
import io.fleetkit.queueing.controller.QueueLabels;
import io.fleetkit.traces.OpenbTraces;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates the Jobs of a scenario's {@link JobStream}s at their arrival times: one batch/v1 Job per arrival, named
 * {@code STREAM-N} (N counting from 0 in arrival order), {@code pods} pods at once ({@code parallelism} =
 * {@code completions}), each container requesting the arrival's resources and exiting 0 after {@code runFor}
 * (the simulated kubelet's {@code exit-after-seconds}). A stream with a queue labels its Jobs
 * {@code kueue.x-k8s.io/queue-name} and creates them suspended, as Kueue's webhook would.
 */
final class JobArrivals {
  /** Label on each arrived Job naming its stream. */
  static final String STREAM_LABEL = "simulate.fleetkit.io/job-stream";
  /** Label on each arrived Job's pods naming their Job. */
  static final String JOB_LABEL = "job-name";

  private JobArrivals() {}

  /** The arrivals of {@code stream} before {@code until}; a trace stream reads its bundled pod list. */
  static List<JobArrival> arrivals(JobStream stream, long seed, Duration until) {
    if (stream.trace().isEmpty()) {
      return stream.arrivals(seed, until);
    }
    String text;
    try (InputStream in = OpenbTraces.openPods(stream.trace())) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("job stream " + stream.name() + ": reading trace " + stream.trace(), e);
    }
    List<JobArrival> all = JobStream.parsePodList(text, stream.timeScale(), stream.first());
    return JobStream.of(stream.name(), stream.namespace(), stream.queue(), all).arrivals(seed, until);
  }

  /** Schedules every stream's Jobs on the simulation's clock; returns how many will arrive. */
  static int schedule(Simulation sim, List<JobStream> streams, long seed, Duration until) {
    ManualClock clock = sim.clock();
    int total = 0;
    for (JobStream s : streams) {
      List<JobArrival> arrivals = arrivals(s, seed, until);
      for (int i = 0; i < arrivals.size(); i++) {
        JobArrival a = arrivals.get(i);
        Job job = job(s, jobName(s, i, arrivals.size()), a);
        clock.schedule(a.at(), () -> {
          try {
            sim.store().create(job);
          } catch (RuntimeException e) {
            sim.record("JobArrivalFailed", "Job/" + job.metadata().key(), e.getMessage());
          }
        });
      }
      total += arrivals.size();
    }
    return total;
  }

  /** The name of the {@code index}th of {@code count} Jobs of {@code s}: {@code STREAM-N}, N zero-padded. */
  static String jobName(JobStream s, int index, int count) {
    int width = Integer.toString(Math.max(0, count - 1)).length();
    return String.format("%s-%0" + width + "d", s.name(), index);
  }

  static Job job(JobStream s, String name, JobArrival a) {
    PodSpec spec = PodSpec.builder().container("main", "job:1", a.requests()).restartPolicy(RestartPolicy.Never)
        .build();
    ObjectMeta.Builder tmeta = ObjectMeta.builder().label(STREAM_LABEL, s.name()).label(JOB_LABEL, name)
        .annotation(HealthSource.EXIT_AFTER, Long.toString(Math.max(0, a.runFor().toSeconds())));
    Job.Builder b = Job.builder().namespace(s.namespace()).name(name).parallelism(a.pods()).completions(a.pods())
        .template(new PodTemplateSpec(tmeta.build(), spec)).label(STREAM_LABEL, s.name());
    if (!s.queue().isEmpty()) {
      b.label(QueueLabels.QUEUE_NAME, s.queue()).suspend(true);
    }
    return b.build();
  }

  /** Names of the arrived Jobs' streams, for the series. */
  static List<String> streamNames(List<JobStream> streams) {
    List<String> out = new ArrayList<>();
    for (JobStream s : streams) {
      out.add(s.namespace() + "/" + s.name());
    }
    return out;
  }
}
