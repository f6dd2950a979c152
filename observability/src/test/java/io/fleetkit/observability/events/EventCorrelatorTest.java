package io.fleetkit.observability.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from {@code kubernetes/client-go tools/record/events_cache_test.go} (core/v1 fields mapped to
 * events.k8s.io/v1: source → reportingController/Instance, involvedObject → regarding, message → note, count →
 * series). All cases of TestEventAggregatorByReasonFunc, TestEventAggregatorByReasonMessageFunc, TestEventCorrelator
 * (9) and TestEventSpamFilter (3), with upstream's {@code validateEvent} checks (a single occurrence has no series,
 * a repeat has a last observation after its first).
 */
final class EventCorrelatorTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  /** upstream's {@code makeObjectReference}. */
  static ObjectReference ref(String kind, String name, String namespace) {
    return new ObjectReference("version", kind, namespace, name, "C934D34AFB20242", "spec.containers{mycontainer}");
  }

  /** upstream's {@code makeEvent} (source kubelet on kublet.node1, type Normal, count 1). */
  static Event event(String reason, String message, ObjectReference involved) {
    return new Event(ObjectMeta.of("ev-ns", "ev"), START, null, "kubelet", "kublet.node1", "Action", reason,
        involved, null, message, Event.NORMAL, 0, null, null);
  }

  static List<Event> repeat(int n, Event e) {
    return Collections.nCopies(n, e);
  }

  /** upstream's {@code makeUniqueEvents}. */
  static List<Event> unique(int n) {
    List<Event> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(event("reason-" + i, "message-" + i, ref("Pod", "pod-" + i, "ns-" + i)));
    }
    return out;
  }

  /** upstream's {@code makeSimilarEvents}: note = prefix-i-note. */
  static List<Event> similar(int n, Event template, String prefix) {
    List<Event> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(template.withNote(prefix + "-" + i + "-" + template.note()));
    }
    return out;
  }

  static Event at(Event e, Instant now) {
    return new Event(e.metadata(), now, null, e.reportingController(), e.reportingInstance(), e.action(),
        e.reason(), e.regarding(), e.related(), e.note(), e.type(), 0, null, null);
  }

  @Test
  void aggregatorByReasonFunc_sameReasonDifferentMessage_sameAggregateKeyDifferentLocalKey() {
    Event e1 = event("end-of-world", "it was fun", ref("Pod", "pod1", "other"));
    Event e2 = event("end-of-world", "it was awful", ref("Pod", "pod1", "other"));
    Event e3 = event("nevermind", "it was a bug", ref("Pod", "pod1", "other"));
    assertThat(EventCorrelator.aggregateKey(e1)).isEqualTo(EventCorrelator.aggregateKey(e2));
    assertThat(e1.note()).isNotEqualTo(e2.note()); // the local key
    assertThat(EventCorrelator.aggregateKey(e1)).isNotEqualTo(EventCorrelator.aggregateKey(e3));
  }

  @Test
  void aggregatorByReasonMessageFunc_prefix() {
    assertThat(EventCorrelator.COMBINED_PREFIX).isEqualTo("(combined from similar events): ");
  }

  static Stream<Arguments> correlatorCases() {
    ObjectReference myPod = ref("Pod", "my-pod", "my-ns");
    Event first = event("first", "i am first", myPod);
    Event duplicate = event("duplicate", "me again", myPod);
    Event uniqueEvent = event("unique", "snowflake", myPod);
    Event similarEvent = event("similar", "similar message", myPod.withFieldPath("spec.containers{container1}"));
    Event aggregate = event(similarEvent.reason(), EventCorrelator.COMBINED_PREFIX + similarEvent.note(),
        similarEvent.regarding());
    Event otherContainer = new Event(similarEvent.metadata(), START, null, "kubelet", "kublet.node1", "Action",
        similarEvent.reason(), myPod.withFieldPath("spec.containers{container2}"), null, similarEvent.note(),
        Event.NORMAL, 0, null, null);
    int maxEvents = EventCorrelator.DEFAULT_AGGREGATE_MAX_EVENTS;
    int burst = EventCorrelator.DEFAULT_SPAM_BURST;
    return Stream.of(
        Arguments.of("create-a-single-event", List.of(), first, first, 1, 5, false),
        Arguments.of("the-same-event-should-just-count", repeat(1, duplicate), duplicate, duplicate, 2, 5, false),
        Arguments.of("the-same-event-should-just-count-even-if-more-than-aggregate", repeat(maxEvents, duplicate),
            duplicate, duplicate, maxEvents + 1, 30, false),
        Arguments.of("the-same-event-is-spam-if-happens-too-frequently", repeat(burst + 1, duplicate), duplicate,
            null, 0, 1, true),
        Arguments.of("create-many-unique-events", unique(30), uniqueEvent, uniqueEvent, 1, 5, false),
        Arguments.of("similar-events-should-aggregate-event", similar(maxEvents - 1, similarEvent,
            similarEvent.note()), similarEvent, aggregate, 1, 5, false),
        Arguments.of("similar-events-many-times-should-count-the-aggregate", similar(maxEvents, similarEvent,
            similarEvent.note()), similarEvent, aggregate, 2, 5, false),
        Arguments.of("events-from-different-containers-do-not-aggregate", repeat(1, otherContainer), similarEvent,
            similarEvent, 1, 5, false),
        Arguments.of("similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate",
            similar(maxEvents - 1, similarEvent, similarEvent.note()), similarEvent, similarEvent, 1,
            (int) EventCorrelator.DEFAULT_AGGREGATE_INTERVAL.toSeconds(), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("correlatorCases")
  void correlator(String scenario, List<Event> previous, Event newEvent, @Nullable Event expected, int count,
      int intervalSeconds, boolean skip) {
    Clock clock = new IntervalClock(START, Duration.ofSeconds(intervalSeconds));
    EventCorrelator c = EventCorrelator.create(clock);
    for (Event p : previous) {
      EventCorrelator.Result r = c.correlate(at(p, clock.instant()));
      if (!r.skip()) {
        c.updateState(r.event());
      }
    }
    EventCorrelator.Result r = c.correlate(at(newEvent, clock.instant()));
    assertThat(r.skip()).as(scenario).isEqualTo(skip);
    if (skip) {
      assertThat(r.event()).isNull();
      return;
    }
    validate(scenario, r.event(), expected, count);
  }

  /** upstream's {@code validateEvent}. */
  private static void validate(String scenario, Event actual, Event expected, int count) {
    assertThat(actual.count()).as(scenario + " count").isEqualTo(count);
    assertThat(actual.series() == null).as(scenario + ": a single occurrence has no series").isEqualTo(count == 1);
    if (count > 1) {
      assertThat(actual.series().lastObservedTime()).as(scenario + ": first and last differ")
          .isAfter(actual.eventTime());
    }
    assertThat(actual.reason()).as(scenario).isEqualTo(expected.reason());
    assertThat(actual.note()).as(scenario).isEqualTo(expected.note());
    assertThat(actual.regarding()).as(scenario).isEqualTo(expected.regarding());
    assertThat(actual.type()).as(scenario).isEqualTo(expected.type());
    assertThat(actual.reportingController()).as(scenario).isEqualTo(expected.reportingController());
    assertThat(actual.reportingInstance()).as(scenario).isEqualTo(expected.reportingInstance());
  }

  static Stream<Arguments> spamCases() {
    ObjectReference myPod = ref("Pod", "my-pod", "my-ns");
    Event differentReason = event("duplicate", "me again", myPod);
    Event spam = event("original", "me again", myPod);
    Function<Event, String> byObjectAndReason = e -> e.reportingController() + e.reportingInstance()
        + e.regarding().kind() + e.regarding().namespace() + e.regarding().name() + e.regarding().uid()
        + e.regarding().apiVersion() + e.reason();
    return Stream.of(
        Arguments.of("event should be reported as spam if object reference is the same for default spam filter",
            differentReason, true, null),
        Arguments.of("event should not be reported as spam if object reference is the same, but reason is different"
            + " for custom spam filter", differentReason, false, byObjectAndReason),
        Arguments.of("event should  be reported as spam if object reference and reason is the same, but message is"
            + " different for custom spam filter", spam, true, byObjectAndReason));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("spamCases")
  void spamFilter(String scenario, Event newEvent, boolean skip, @Nullable Function<Event, String> spamKey) {
    Event original = event("original", "i am first", ref("Pod", "my-pod", "my-ns"));
    EventCorrelator.Builder b = EventCorrelator.builder().clock(new IntervalClock(START, Duration.ofSeconds(1)))
        .burst(1);
    if (spamKey != null) {
      b.spamKey(spamKey);
    }
    EventCorrelator c = b.build();
    EventCorrelator.Result r = c.correlate(original);
    if (!r.skip()) {
      c.updateState(r.event());
    }
    r = c.correlate(newEvent);
    assertThat(r.skip()).as(scenario).isEqualTo(skip);
    if (!skip) {
      validate(scenario, r.event(), newEvent, 1);
    }
  }
}
