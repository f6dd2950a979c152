package io.fleetkit.queueing.controller.internal;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.controller.QueueLabels;
import io.fleetkit.queueing.Workload;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** How a Job becomes a {@link Workload}: one pod set {@value #POD_SET} of {@code parallelism} template pods. */
final class JobWorkloads {
  /** The name of a Job workload's only pod set (Kueue uses {@code main} for batch/v1 Jobs too). */
  static final String POD_SET = "main";

  private JobWorkloads() {}

  /** Whether the Job carries the queue-name label. */
  static boolean managed(Job job) {
    return job.metadata().labels().containsKey(QueueLabels.QUEUE_NAME);
  }

  /** The LocalQueue the Job names. */
  static String queueName(Job job) {
    return job.metadata().labels().getOrDefault(QueueLabels.QUEUE_NAME, "");
  }

  /**
   * The Job's workload: same namespace and name, the label's queue, {@code max(1, parallelism)} pods of the
   * template ({@link PodSet#ofTemplate}: its effective requests, node selector, required node affinity and
   * tolerations), created at the Job's creation time.
   *
   * @throws io.fleetkit.api.ValidationException if the workload is invalid (e.g. the queue name is not a DNS
   *     subdomain)
   */
  static Workload of(Job job, int priority) {
    Instant created = job.metadata().creationTimestamp();
    return Workload.builder(job.metadata().namespace(), job.metadata().name())
        .queueName(queueName(job))
        .priority(priority)
        .creationTime(created != null ? created : Instant.EPOCH)
        .podSet(PodSet.ofTemplate(POD_SET, Math.max(1, job.spec().parallelism()), job.spec().template().spec()))
        .build();
  }

  /**
   * The template's priority: {@code spec.priority} if set, else the value of the PriorityClass named by
   * {@code spec.priorityClassName} if the store has it, else 0.
   */
  static int priority(Job job, @Nullable ObjectStore store) {
    PodSpec spec = job.spec().template().spec();
    if (spec.priority() != null) {
      return spec.priority();
    }
    if (store == null || spec.priorityClassName().isEmpty()) {
      return 0;
    }
    Optional<PriorityClass> pc = store.get(PriorityClass.class, "", spec.priorityClassName());
    return pc.map(PriorityClass::value).orElse(0);
  }
}
