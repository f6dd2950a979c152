package io.fleetkit.observability.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventSeries;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class StoreEventRecorderTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().build();
  private final StoreEventRecorder recorder = StoreEventRecorder.create(store, clock, "fleetkit.io/scheduler",
      "fleetkit.io/scheduler-test");
  private final ObjectReference pod = new ObjectReference("v1", "Pod", "team", "web-0", "uid-1", "");

  @AfterEach
  void close() {
    store.close();
  }

  private List<Event> events() {
    return store.list(Event.class).items();
  }

  @Test
  void event_firstOccurrence_createdWithKubesFields() {
    recorder.event(pod, null, Event.WARNING, "FailedScheduling", "Scheduling", "0/3 nodes are available");
    Event e = events().get(0);
    assertThat(e.metadata().namespace()).isEqualTo("team");
    assertThat(e.metadata().name()).startsWith("web-0.");
    assertThat(e.regarding()).isEqualTo(pod);
    assertThat(e.reportingController()).isEqualTo("fleetkit.io/scheduler");
    assertThat(e.reportingInstance()).isEqualTo("fleetkit.io/scheduler-test");
    assertThat(e.series()).isNull();
    assertThat(e.eventTime()).isEqualTo(clock.instant());
  }

  @Test
  void event_repeats_countedInOneStoredSeries() {
    Instant first = clock.instant();
    recorder.event(pod, null, Event.WARNING, "FailedScheduling", "Scheduling", "no fit");
    clock.advance(Duration.ofSeconds(10));
    recorder.event(pod, null, Event.WARNING, "FailedScheduling", "Scheduling", "no fit");
    clock.advance(Duration.ofSeconds(10));
    recorder.event(pod, null, Event.WARNING, "FailedScheduling", "Scheduling", "no fit");
    assertThat(events()).singleElement().satisfies(e -> {
      assertThat(e.eventTime()).isEqualTo(first);
      assertThat(e.series()).isEqualTo(new EventSeries(3, first.plusSeconds(20)));
    });
  }

  @Test
  void event_repeatOfDeletedEvent_recreated() {
    recorder.event(pod, null, Event.NORMAL, "Scheduled", "Binding", "assigned");
    Event e = events().get(0);
    store.delete(Event.class, e.metadata().namespace(), e.metadata().name());
    clock.advance(Duration.ofSeconds(1));
    recorder.event(pod, null, Event.NORMAL, "Scheduled", "Binding", "assigned");
    assertThat(events()).singleElement().extracting(Event::count).isEqualTo(2);
  }

  @Test
  void event_clusterScopedObject_goesToDefaultNamespace_andLongNoteIsCut() {
    recorder.event(new ObjectReference("v1", "Node", "", "n1", "", ""), null, Event.NORMAL, "Ready", "Status",
        "x".repeat(3000));
    Event e = events().get(0);
    assertThat(e.metadata().namespace()).isEqualTo("default");
    assertThat(e.note()).hasSize(Event.NOTE_LENGTH_LIMIT).endsWith("...");
  }

  @Test
  void event_spam_droppedAfterBurst() {
    for (int i = 0; i < 40; i++) {
      recorder.event(pod, null, Event.WARNING, "Reason" + i, "Act", "note " + i); // distinct: no series
    }
    assertThat(events()).hasSize(EventCorrelator.DEFAULT_SPAM_BURST);
  }

  @Test
  void deleteExpired_removesEventsLastSeenBeforeTheTtl() {
    recorder.event(pod, null, Event.NORMAL, "Old", "Act", "old");
    clock.advance(Duration.ofMinutes(50));
    recorder.event(pod, null, Event.NORMAL, "New", "Act", "new");
    clock.advance(Duration.ofMinutes(11));
    assertThat(recorder.deleteExpired()).isEqualTo(1);
    assertThat(events()).extracting(Event::reason).containsExactly("New");
  }

  @Test
  void eventKind_invalidFields_rejectedNamingFieldAndRule() {
    assertThatThrownBy(() -> new Event(ObjectMeta.of("ns", "e"), Instant.EPOCH, null, "", "i", "A", "R", pod, null,
        "n", "Sideways", 0, null, null))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("reportingController")
        .hasMessageContaining("type")
        .hasMessageContaining("Sideways");
    assertThatThrownBy(() -> new Event(ObjectMeta.of("ns", "e"), Instant.EPOCH, null, "c", "i", "A".repeat(129), "R",
        pod, null, "n", Event.NORMAL, 0, null, null))
        .isInstanceOf(ValidationException.class).hasMessageContaining("action");
    assertThatThrownBy(() -> new EventSeries(1, Instant.EPOCH)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 2");
  }
}
