package io.fleetkit.queueing.controller.internal;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.queueing.AdmissionCheckState;
import io.fleetkit.queueing.CheckState;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The events Kueue's job reconciler records about a Job (kueue {@code pkg/controller/jobframework/reconciler.go},
 * reasons from its {@code events.go}): reason (also the action, as Kueue gives both), type and note as Kueue's,
 * regarding the Job. A Job's workload has the Job's namespace and name, so the notes name it {@code ns/name}.
 *
 * <p>Each event is recorded once per transition: {@code Stopped} only when the Job's {@code spec.suspend} is written
 * from false to true, {@code Started} only when it is written back, and the warnings only when what they report
 * changes; a reconcile that changes nothing records nothing. A workload created for a Job that is running (created
 * unsuspended) is reported after the Job's {@code Stopped}, in Kueue's order (its reconciler stops such a Job before
 * it creates the workload), or when the Job starts or goes.
 *
 * <p>The recorder is the controller's ({@code ReconcileContext.events()}); with {@link EventRecorder#NOOP} nothing is
 * built. Thread-safe: the per-Job state is keyed by Job, and a Job is reconciled by one worker at a time.
 */
final class JobEvents {
  /** A workload was created for the Job (Normal). */
  static final String CREATED_WORKLOAD = "CreatedWorkload";
  /** The Job's workload was changed to match it, or its priority to follow its label (Normal). */
  static final String UPDATED_WORKLOAD = "UpdatedWorkload";
  /** The Job's workload finished with it (Normal). */
  static final String FINISHED_WORKLOAD = "FinishedWorkload";
  /** The Job was unsuspended with its admission (Normal). */
  static final String STARTED = "Started";
  /** The Job was suspended (Normal). */
  static final String STOPPED = "Stopped";
  /** Messages of the pending admission checks of a Job with reserved quota (Normal). */
  static final String UPDATED_ADMISSION_CHECK = "UpdatedAdmissionCheck";
  /** The WorkloadPriorityClass the Job's label names does not exist (Warning). */
  static final String WORKLOAD_PRIORITY_CLASS_NOT_FOUND = "WorkloadPriorityClassNotFound";

  /** Kueue's {@code StopReasonNoMatchingWorkload} note for a running Job that has no workload. */
  static final String MISSING_WORKLOAD = "Missing Workload; unable to restore pod templates";
  /** Kueue's {@code StopReasonNotAdmitted} note for a running Job whose workload is not admitted. */
  static final String NOT_ADMITTED = "Not admitted by cluster queue";

  /** Kueue's {@code maxEventMsgSize}. */
  private static final int NOTE_LIMIT = 1024;

  /** {@code CreatedWorkload} of Jobs that were running when their workload was made, until they stop or start. */
  private final Map<String, ObjectReference> createdWhileRunning = new ConcurrentHashMap<>();
  /** The last {@code UpdatedAdmissionCheck} note recorded per Job, while its quota is reserved. */
  private final Map<String, String> checkNotes = new ConcurrentHashMap<>();
  /** The missing WorkloadPriorityClass last reported per Job, while it is missing. */
  private final Map<String, String> missingClasses = new ConcurrentHashMap<>();
  /** Jobs whose workload failed to start whose {@code FinishedWorkload} was recorded. */
  private final java.util.Set<String> failedReported = ConcurrentHashMap.newKeySet();

  /**
   * A workload was submitted for the Job: {@code Created Workload: ns/name}, at once for a suspended Job, for a
   * running one after its {@link #stopped} (or {@link #started}, {@link #forget}).
   */
  void created(EventRecorder r, Job job) {
    if (r == EventRecorder.NOOP) {
      return;
    }
    if (job.spec().suspend()) {
      r.event(ObjectReference.to(job), null, Event.NORMAL, CREATED_WORKLOAD, CREATED_WORKLOAD, createdNote(job));
    } else {
      createdWhileRunning.put(job.metadata().key(), ObjectReference.to(job));
    }
  }

  /** Whether the Job's workload was made while it ran and the Job has not stopped since. */
  boolean createdWhileRunning(String key) {
    return createdWhileRunning.containsKey(key);
  }

  /** The waiting workload was submitted again with the Job's changed pod sets. */
  void updated(EventRecorder r, Job job) {
    if (r != EventRecorder.NOOP) {
      r.event(ObjectReference.to(job), null, Event.NORMAL, UPDATED_WORKLOAD, UPDATED_WORKLOAD,
          "Updated not matching Workload for suspended job: " + job.metadata().key());
    }
  }

  /** The workload's priority followed the Job's priority-class label. */
  void priorityUpdated(EventRecorder r, Job job) {
    if (r != EventRecorder.NOOP) {
      r.event(ObjectReference.to(job), null, Event.NORMAL, UPDATED_WORKLOAD, UPDATED_WORKLOAD,
          "Updated workload priority class: " + job.metadata().key());
    }
  }

  /**
   * The Job's label names a WorkloadPriorityClass that does not exist ({@code note} is Kueue's {@code
   * WorkloadPriorityClass "x" not found}); recorded when the Job first names that missing class.
   */
  void priorityClassNotFound(EventRecorder r, Job job, String className, String note) {
    if (r != EventRecorder.NOOP && !className.equals(missingClasses.put(job.metadata().key(), className))) {
      r.event(ObjectReference.to(job), null, Event.WARNING, WORKLOAD_PRIORITY_CLASS_NOT_FOUND,
          WORKLOAD_PRIORITY_CLASS_NOT_FOUND, note);
    }
  }

  /** The Job's priority resolved: a class missing again later is reported again. */
  void priorityResolved(String key) {
    missingClasses.remove(key);
  }

  /** The Job was unsuspended with its admission in {@code clusterQueue}. */
  void started(EventRecorder r, Job job, String clusterQueue) {
    if (r == EventRecorder.NOOP) {
      return;
    }
    flushCreated(r, job.metadata().key());
    checkNotes.remove(job.metadata().key());
    r.event(ObjectReference.to(job), null, Event.NORMAL, STARTED, STARTED, "Admitted by clusterQueue " + clusterQueue);
  }

  /** The running Job was suspended; {@code note} says why (Kueue's stop event message). */
  void stopped(EventRecorder r, Job job, String note) {
    if (r == EventRecorder.NOOP) {
      return;
    }
    r.event(ObjectReference.to(job), null, Event.NORMAL, STOPPED, STOPPED, truncate(note));
    flushCreated(r, job.metadata().key());
  }

  /**
   * The suspended Job's quota is reserved and its admission checks are not all ready: the messages of its Pending
   * checks ({@code name: message}, joined by {@code ; }), recorded when they change.
   */
  void admissionChecks(EventRecorder r, Job job, List<AdmissionCheckState> checks) {
    if (r == EventRecorder.NOOP) {
      return;
    }
    StringBuilder note = new StringBuilder();
    for (AdmissionCheckState c : checks) {
      if (c.state() == CheckState.PENDING && !c.message().isEmpty()) {
        if (note.length() > 0) {
          note.append("; ");
        }
        note.append(c.name()).append(": ").append(c.message());
      }
    }
    String key = job.metadata().key();
    if (note.length() == 0) {
      checkNotes.remove(key);
      return;
    }
    String n = truncate(note.toString());
    if (!n.equals(checkNotes.put(key, n))) {
      r.event(ObjectReference.to(job), null, Event.NORMAL, UPDATED_ADMISSION_CHECK, UPDATED_ADMISSION_CHECK, n);
    }
  }

  /** The Job's quota is no longer reserved: its next pending checks' messages are reported afresh. */
  void noReservation(String key) {
    checkNotes.remove(key);
  }

  /** The Job finished and its workload with it: {@code Workload 'ns/name' is declared finished}. */
  void finished(EventRecorder r, Job job) {
    if (r != EventRecorder.NOOP) {
      r.event(ObjectReference.to(job), null, Event.NORMAL, FINISHED_WORKLOAD, FINISHED_WORKLOAD,
          "Workload '" + job.metadata().key() + "' is declared finished");
    }
  }

  /** The Job's workload was finished as failed to start; recorded at the first reconcile that finds it so. */
  void failedToStart(EventRecorder r, Job job) {
    if (r != EventRecorder.NOOP && failedReported.add(job.metadata().key())) {
      finished(r, job);
    }
  }

  /** The Job went (finished, deleted, unlabelled): a pending {@code CreatedWorkload} is recorded, its state dropped. */
  void forget(EventRecorder r, String key) {
    flushCreated(r, key);
    checkNotes.remove(key);
    missingClasses.remove(key);
    failedReported.remove(key);
  }

  private void flushCreated(EventRecorder r, String key) {
    ObjectReference ref = createdWhileRunning.remove(key);
    if (ref != null && r != EventRecorder.NOOP) {
      r.event(ref, null, Event.NORMAL, CREATED_WORKLOAD, CREATED_WORKLOAD,
          "Created Workload: " + ref.namespace() + "/" + ref.name());
    }
  }

  private static String createdNote(Job job) {
    return "Created Workload: " + job.metadata().key();
  }

  /** Kueue's {@code TruncateEventMessage}: at most 1,024 characters, a cut one ending in {@code " ..."}. */
  static String truncate(String note) {
    return note.length() <= NOTE_LIMIT ? note : note.substring(0, NOTE_LIMIT - 4) + " ...";
  }
}
