package io.fleetkit.queueing.controller.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.text.GoIntegers;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.controller.QueueLabels;
import io.fleetkit.queueing.Workload;
import io.fleetkit.queueing.WorkloadPriority;
import io.fleetkit.queueing.WorkloadPriorityClass;
import io.fleetkit.queueing.PriorityClassSource;
import java.util.function.Function;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * How a Job becomes a {@link Workload}: one pod set {@value #POD_SET} of {@code parallelism} template pods, with
 * {@value QueueLabels#JOB_MIN_PARALLELISM} as its {@code minCount}.
 */
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
   * The Job's workload: same namespace and name, the label's queue, {@code max(1, parallelism)} pods (the Job's own
   * {@link #parallelism}) of the
   * template ({@link PodSet#ofTemplate}: its effective requests, node selector, required node affinity and
   * tolerations), created at the Job's creation time.
   *
   * @throws io.fleetkit.api.ValidationException if the workload is invalid (e.g. the queue name is not a DNS
   *     subdomain)
   */
  static Workload of(Job job, WorkloadPriority priority) {
    Instant created = job.metadata().creationTimestamp();
    int count = Math.max(1, parallelism(job));
    Integer minCount = minParallelism(job, count);
    return Workload.builder(job.metadata().namespace(), job.metadata().name())
        .queueName(queueName(job))
        .priority(priority)
        .creationTime(created != null ? created : Instant.EPOCH)
        .podSet(PodSet.ofTemplate(POD_SET, count, job.spec().template().spec()).withMinCount(minCount)
            .withTopologyRequest(topologyRequest(job)))
        .build();
  }

  /**
   * The topology request of the Job's pod set, as Kueue's Job integration builds it: from the template's topology
   * annotations ({@link PodSetTopologyRequest#fromAnnotations}), with the pods' completion index ({@value
   * WorkloadLabels#JOB_COMPLETION_INDEX}) as their index label; without annotations a request of the index label
   * alone (which places nothing, but orders the pods of an implied topology request over their domains).
   *
   * @throws io.fleetkit.api.ValidationException if the annotations break Kueue's rules
   */
  static PodSetTopologyRequest topologyRequest(Job job) {
    PodSetTopologyRequest r = PodSetTopologyRequest.fromAnnotations(job.spec().template().metadata().annotations());
    return r == null ? PodSetTopologyRequest.ofPodIndexLabel(WorkloadLabels.JOB_COMPLETION_INDEX)
        : r.withPodIndexLabel(WorkloadLabels.JOB_COMPLETION_INDEX);
  }

  /**
   * The Job's own parallelism: {@value QueueLabels#ORIGINAL_PARALLELISM} while a partial admission runs it with
   * fewer pods, else {@code spec.parallelism}.
   */
  static int parallelism(Job job) {
    String v = job.metadata().annotations().get(QueueLabels.ORIGINAL_PARALLELISM);
    if (v != null) {
      try {
        int p = GoIntegers.parseInt32(v.trim()); // ASCII digits only
        if (p >= 0) {
          return p;
        }
      } catch (NumberFormatException e) {
        // edited by hand into something else: the spec's parallelism is the Job's
      }
    }
    return job.spec().parallelism();
  }

  /** Whether the Job may be admitted with fewer pods ({@value QueueLabels#JOB_MIN_PARALLELISM} is set). */
  static boolean partial(Job job) {
    return job.metadata().annotations().containsKey(QueueLabels.JOB_MIN_PARALLELISM);
  }

  /** Whether {@value QueueLabels#JOB_COMPLETIONS_EQUAL_PARALLELISM} is {@code true}. */
  static boolean completionsEqualParallelism(Job job) {
    return "true".equalsIgnoreCase(job.metadata().annotations().get(QueueLabels.JOB_COMPLETIONS_EQUAL_PARALLELISM));
  }

  /**
   * The pod set's {@code minCount} from {@value QueueLabels#JOB_MIN_PARALLELISM}, or {@code null} without it; Kueue's
   * Job webhook rules: an integer from 1 to {@code count - 1}, and {@value
   * QueueLabels#JOB_COMPLETIONS_EQUAL_PARALLELISM}, if set, a boolean, and {@code true} only on an Indexed Job whose
   * completions equal its parallelism.
   *
   * @throws io.fleetkit.api.ValidationException naming the annotation and the rule
   */
  private static @Nullable Integer minParallelism(Job job, int count) {
    Violations v = Violations.forObject("Job", job.metadata());
    String min = job.metadata().annotations().get(QueueLabels.JOB_MIN_PARALLELISM);
    String field = "metadata.annotations[" + QueueLabels.JOB_MIN_PARALLELISM + "]";
    Integer out = null;
    if (min != null) {
      try {
        out = GoIntegers.atoi32(min); // Kueue's webhook: strconv.Atoi (ASCII digits, no spaces)
        if (out <= 0 || out >= count) {
          v.add(field, "must be from 1 to " + (count - 1) + " (one less than parallelism)", out);
        }
      } catch (NumberFormatException e) {
        v.add(field, "must be an integer", min);
      }
    }
    String sync = job.metadata().annotations().get(QueueLabels.JOB_COMPLETIONS_EQUAL_PARALLELISM);
    String syncField = "metadata.annotations[" + QueueLabels.JOB_COMPLETIONS_EQUAL_PARALLELISM + "]";
    if (sync != null) {
      if (!sync.equalsIgnoreCase("true") && !sync.equalsIgnoreCase("false")) {
        v.add(syncField, "must be true or false", sync);
      } else if (sync.equalsIgnoreCase("true")) {
        if (job.spec().completionMode() != CompletionMode.Indexed) {
          v.add(syncField, "should not be enabled for NonIndexed jobs", sync);
        }
        Integer completions = job.spec().completions();
        // the spec's: a partial admission lowers both
        if ((completions == null ? 1 : completions) != job.spec().parallelism()) {
          v.add("spec.completions", "should be equal to parallelism when "
              + QueueLabels.JOB_COMPLETIONS_EQUAL_PARALLELISM + " annotation is true", completions);
        }
      }
    }
    v.throwIfAny();
    return out;
  }

  /**
   * A Job's priority, or why it has none: the {@code reason} and {@code message} of its {@code QuotaReserved=False}
   * condition.
   */
  record Priority(@Nullable WorkloadPriority priority, String reason, String message) {
    static Priority of(WorkloadPriority p) {
      return new Priority(p, "", "");
    }
  }

  /** The WorkloadPriorityClass the Job's {@value WorkloadPriorityClass#LABEL} label names, or empty. */
  static String priorityClassLabel(Job job) {
    return job.metadata().labels().getOrDefault(WorkloadPriorityClass.LABEL, "");
  }

  /**
   * The priority of a new workload of the Job (Kueue's {@code ExtractPriority}): the WorkloadPriorityClass its
   * {@value WorkloadPriorityClass#LABEL} label names ({@value QueueLabels#REASON_WORKLOAD_PRIORITY_CLASS_NOT_FOUND}
   * if {@code classes} has none of that name); else the template's {@code spec.priority} if set (FleetKit's addition,
   * with the template's {@code priorityClassName} as its class, if any); else the PriorityClass of the store the
   * template's {@code priorityClassName} names ({@value QueueLabels#REASON_INADMISSIBLE} if the store has none), or
   * without a name the store's global default class, or 0.
   */
  static Priority priority(Job job, ObjectStore store, Function<String, Optional<WorkloadPriorityClass>> classes) {
    String wpc = priorityClassLabel(job);
    if (!wpc.isEmpty()) {
      return WorkloadPriority.fromWorkloadPriorityClass(wpc, classes).map(Priority::of)
          .orElseGet(() -> new Priority(null, QueueLabels.REASON_WORKLOAD_PRIORITY_CLASS_NOT_FOUND,
              "WorkloadPriorityClass \"" + wpc + "\" not found"));
    }
    PodSpec spec = job.spec().template().spec();
    if (spec.priority() != null) {
      return Priority.of(spec.priorityClassName().isEmpty() ? WorkloadPriority.of(spec.priority())
          : new WorkloadPriority(spec.priority(), PriorityClassSource.POD_PRIORITY_CLASS, spec.priorityClassName()));
    }
    String name = spec.priorityClassName();
    return WorkloadPriority.fromPriorityClass(name, store.list(PriorityClass.class).items()).map(Priority::of)
        .orElseGet(() -> new Priority(null, QueueLabels.REASON_INADMISSIBLE,
            "priorityclasses.scheduling.k8s.io \"" + name + "\" not found"));
  }

  /**
   * The priority an existing workload of the Job takes (Kueue's {@code UpdateWorkloadPriority}): a workload whose
   * priority came from a pod PriorityClass does not follow the label, nor does one that holds quota without a class
   * (a class cannot be added then); one whose class is the label's keeps its priority (a class's new value reaches
   * it through {@link io.fleetkit.queueing.AdmissionEngine#putWorkloadPriorityClass}); otherwise the label changed and
   * the priority is resolved again as for a new workload ({@link #priority}), the current one kept if that fails.
   */
  static WorkloadPriority followPriority(Job job, Workload current, boolean reserved, ObjectStore store,
      Function<String, Optional<WorkloadPriorityClass>> classes) {
    return followPriority(job, current, reserved, store, classes, p -> { });
  }

  /**
   * As {@link #followPriority(Job, Workload, boolean, ObjectStore, Function)}; a label change whose priority cannot
   * be resolved is given to {@code unresolved} (with its reason and message) before the current priority is kept.
   */
  static WorkloadPriority followPriority(Job job, Workload current, boolean reserved, ObjectStore store,
      Function<String, Optional<WorkloadPriorityClass>> classes, java.util.function.Consumer<Priority> unresolved) {
    WorkloadPriority now = current.priorityInfo();
    PriorityClassSource source = current.priorityClassSource();
    if (reserved && source == PriorityClassSource.NONE || source == PriorityClassSource.POD_PRIORITY_CLASS
        || current.priorityClassName().equals(priorityClassLabel(job))) {
      return now;
    }
    Priority p = priority(job, store, classes);
    if (p.priority() == null) {
      unresolved.accept(p);
      return now;
    }
    return p.priority();
  }
}
