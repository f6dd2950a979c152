package io.fleetkit.api.events;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An event (events.k8s.io/v1 Event): a report that something happened to {@link #regarding()}. Events are
 * namespaced (in the namespace of the object they regard, {@code default} for cluster-scoped ones) and have no
 * spec/status split.
 *
 * <p>Validated as kube-apiserver's {@code ValidateEventCreate} for events.k8s.io/v1 does: {@code eventTime},
 * {@code reportingController}, {@code reportingInstance} (at most 128 characters), {@code action} and
 * {@code reason} (each at most 128) are required; {@code note} has at most 1024 characters; {@code type} is
 * {@code Normal} or {@code Warning}; {@code series.count} is at least 2.
 *
 * @param eventTime when the event was first observed
 * @param series repetitions after the first; {@code null} for a single occurrence
 * @param reportingController who emitted it, e.g. {@code fleetkit.io/scheduler}
 * @param reportingInstance which replica of it, e.g. {@code fleetkit.io/scheduler-host1}
 * @param action what was done or failed, machine-readable, e.g. {@code Binding}
 * @param reason why, machine-readable, e.g. {@code FailedScheduling}
 * @param regarding the object acted on
 * @param related a second object, e.g. the preemptor of a preempted pod; {@code null} when none
 * @param note the human-readable description
 * @param type {@link #NORMAL} or {@link #WARNING}
 * @param deprecatedCount core/v1's {@code count}, kept for readers of the old API; 0 when unset
 * @param deprecatedFirstTimestamp core/v1's {@code firstTimestamp}; {@code null} when unset
 * @param deprecatedLastTimestamp core/v1's {@code lastTimestamp}; {@code null} when unset
 */
public record Event(ObjectMeta metadata, Instant eventTime, @Nullable EventSeries series, String reportingController,
    String reportingInstance, String action, String reason, ObjectReference regarding,
    @Nullable ObjectReference related, String note, String type, int deprecatedCount,
    @Nullable Instant deprecatedFirstTimestamp, @Nullable Instant deprecatedLastTimestamp)
    implements ApiObject<Event> {
  public static final String API_VERSION = "events.k8s.io/v1";
  public static final String KIND = "Event";
  public static final String NORMAL = "Normal";
  public static final String WARNING = "Warning";
  /** The length limit of {@code note}. */
  public static final int NOTE_LENGTH_LIMIT = 1024;
  /** The length limit of {@code reportingInstance}, {@code action} and {@code reason}. */
  public static final int FIELD_LENGTH_LIMIT = 128;

  public Event {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(eventTime, "eventTime");
    Objects.requireNonNull(reportingController, "reportingController");
    Objects.requireNonNull(reportingInstance, "reportingInstance");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(regarding, "regarding");
    Objects.requireNonNull(note, "note");
    Objects.requireNonNull(type, "type");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    if (reportingController.isEmpty()) {
      v.required("reportingController");
    }
    if (reportingInstance.isEmpty()) {
      v.required("reportingInstance");
    } else if (reportingInstance.length() > FIELD_LENGTH_LIMIT) {
      v.add("reportingInstance", "can have at most " + FIELD_LENGTH_LIMIT + " characters",
          reportingInstance.length());
    }
    if (action.isEmpty()) {
      v.required("action");
    } else if (action.length() > FIELD_LENGTH_LIMIT) {
      v.add("action", "can have at most " + FIELD_LENGTH_LIMIT + " characters", action.length());
    }
    if (reason.isEmpty()) {
      v.required("reason");
    } else if (reason.length() > FIELD_LENGTH_LIMIT) {
      v.add("reason", "can have at most " + FIELD_LENGTH_LIMIT + " characters", reason.length());
    }
    if (note.length() > NOTE_LENGTH_LIMIT) {
      v.add("note", "can have at most " + NOTE_LENGTH_LIMIT + " characters", note.length());
    }
    if (!type.equals(NORMAL) && !type.equals(WARNING)) {
      v.add("type", "Unsupported value: supported values: \"Normal\", \"Warning\"", type);
    }
    if (deprecatedCount < 0) {
      v.add("deprecatedCount", Violations.NON_NEGATIVE, deprecatedCount);
    }
    v.throwIfAny();
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public Event withMetadata(ObjectMeta newMetadata) {
    return new Event(newMetadata, eventTime, series, reportingController, reportingInstance, action, reason,
        regarding, related, note, type, deprecatedCount, deprecatedFirstTimestamp, deprecatedLastTimestamp);
  }

  /** Events have no spec: the regarded object, reason and note stand for it. */
  @Override
  public Object spec() {
    return regarding;
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  /** Events have no status: returns this. */
  @Override
  public Event withStatusOf(Event other) {
    return this;
  }

  /** This event with another series (the only field, besides metadata, that changes after creation). */
  public Event withSeries(@Nullable EventSeries s) {
    return new Event(metadata, eventTime, s, reportingController, reportingInstance, action, reason, regarding,
        related, note, type, deprecatedCount, deprecatedFirstTimestamp, deprecatedLastTimestamp);
  }

  /** This event with core/v1's count and timestamps set. */
  public Event withDeprecatedCount(int count, @Nullable Instant first, @Nullable Instant last) {
    return new Event(metadata, eventTime, series, reportingController, reportingInstance, action, reason, regarding,
        related, note, type, count, first, last);
  }

  /** This event with another note. */
  public Event withNote(String n) {
    return new Event(metadata, eventTime, series, reportingController, reportingInstance, action, reason, regarding,
        related, n, type, deprecatedCount, deprecatedFirstTimestamp, deprecatedLastTimestamp);
  }

  /** How often it occurred: {@code series.count}, or 1. */
  public int count() {
    return series == null ? 1 : series.count();
  }
}
