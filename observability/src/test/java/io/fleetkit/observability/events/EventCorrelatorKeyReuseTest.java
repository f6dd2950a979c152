package io.fleetkit.observability.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * {@link EventCorrelator#updateState} reuses the key {@link EventCorrelator#correlate} built when it is handed the
 * event that call returned: for any sequence of events (a few objects, reasons and notes, so that repeats, aggregation
 * and the spam filter all occur), with the server's copies stored back, the results are those of a correlator that
 * is handed equal copies instead (never the same object, so that it builds every key from scratch).
 */
final class EventCorrelatorKeyReuseTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  /** One recorded event: which object, reason and note, and the seconds since the previous one. */
  record Step(int object, int reason, int note, int gapSeconds, boolean storedWithNewVersion) {}

  @Property(tries = 300)
  void updateState_sameEventAsCorrelated_sameResultsAsKeysBuiltFromScratch(@ForAll("steps") List<Step> steps) {
    MutableClock clock = new MutableClock();
    EventCorrelator reusing = EventCorrelator.builder().clock(clock).maxEvents(2).burst(25).build();
    EventCorrelator scratch = EventCorrelator.builder().clock(clock).maxEvents(2).burst(25).build();
    int version = 0;
    for (Step s : steps) {
      clock.now = clock.now.plusSeconds(s.gapSeconds());
      Event e = event(s, clock.now);
      EventCorrelator.Result a = reusing.correlate(e);
      EventCorrelator.Result b = scratch.correlate(e);
      assertThat(a).isEqualTo(b);
      if (a.event() != null) {
        Event stored = a.event();
        if (s.storedWithNewVersion()) {
          stored = stored.withMetadata(stored.metadata().toBuilder().resourceVersion("" + ++version).build());
        }
        reusing.updateState(stored);
        scratch.updateState(stored.withMetadata(stored.metadata().toBuilder().build()));
      }
    }
  }

  private static Event event(Step s, Instant now) {
    ObjectReference pod = new ObjectReference("v1", "Pod", "ns", "pod-" + s.object(), "uid-" + s.object(), "");
    return new Event(ObjectMeta.of("ns", "pod-" + s.object() + "." + now.toEpochMilli()), now, null, "scheduler",
        "replica", "Scheduling", "reason-" + s.reason(), pod, null, "note-" + s.note(), Event.WARNING, 0, null, null);
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Step> step = Combinators.combine(Arbitraries.integers().between(0, 1),
        Arbitraries.integers().between(0, 1), Arbitraries.integers().between(0, 4),
        Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.just(0)),
            Tuple.of(1, Arbitraries.integers().between(1, 900))),
        Arbitraries.of(true, false)).as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(60);
  }

  /** A clock the test moves. */
  private static final class MutableClock extends Clock {
    Instant now = START;

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
