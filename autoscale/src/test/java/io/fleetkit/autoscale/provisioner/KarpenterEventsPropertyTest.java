package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Karpenter's deduplication as a model: over any sequence of clock steps and {@code Unconsolidatable} publications
 * about a few nodes, an event is recorded exactly when the node's last recorded one is more than the 15-minute timeout
 * ago (or there is none), so two recorded events about a node are always more than the timeout apart.
 */
final class KarpenterEventsPropertyTest {
  @Property(tries = 300)
  void recorded_iffTheLastRecordedIsOlderThanTheTimeout(
      @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 0, max = 3) Integer> nodes,
      @ForAll @Size(min = 60, max = 60) List<@IntRange(min = 0, max = 600) Integer> stepSeconds) {
    ManualClock clock = ManualClock.atEpoch2026();
    EventLog log = new EventLog();
    KarpenterEvents events = new KarpenterEvents(log, clock);
    Duration timeout = KarpenterEvents.UNCONSOLIDATABLE_DEDUPE_TIMEOUT;
    Map<Integer, Instant> last = new HashMap<>();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      clock.advance(Duration.ofSeconds(stepSeconds.get(i)));
      int n = nodes.get(i);
      Instant now = clock.instant();
      Instant prev = last.get(n);
      if (prev == null || now.isAfter(prev.plus(timeout))) {
        last.put(n, now);
        expected.add("Normal Unconsolidatable Node/n" + n + ": step " + i);
      }
      events.unconsolidatable(Node.builder().name("n" + n).uid("uid-" + n).build(), "step " + i);
    }
    assertThat(log.events).containsExactlyElementsOf(expected);
  }
}
