package io.fleetkit.api.events;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BestEffortEventRecorderTest {
  private static final ObjectReference POD = new ObjectReference("v1", "Pod", "ns", "web-0", "uid-1", "");

  @Test
  void passesEveryFieldThrough() {
    List<String> seen = new ArrayList<>();
    EventRecorder safe = EventRecorder.bestEffort((regarding, related, type, reason, action, note) ->
        seen.add(regarding + "|" + related + "|" + type + "|" + reason + "|" + action + "|" + note));
    ObjectReference node = new ObjectReference("v1", "Node", "", "n1", "", "");
    safe.event(POD, node, Event.WARNING, EventRecorder.FAILED_SCHEDULING, "Scheduling", "0/1 nodes are available");
    assertEquals(List.of("Pod ns/web-0|Node n1|Warning|FailedScheduling|Scheduling|0/1 nodes are available"), seen);
  }

  @Test
  void swallowsWhatTheDelegateThrows() {
    int[] calls = {0};
    EventRecorder throwing = (regarding, related, type, reason, action, note) -> {
      calls[0]++;
      throw new IllegalStateException("sink closed");
    };
    EventRecorder safe = EventRecorder.bestEffort(throwing);
    assertDoesNotThrow(() -> safe.event(POD, null, Event.NORMAL, EventRecorder.SCHEDULED, "Binding", "bound"));
    assertDoesNotThrow(() -> safe.event(POD, null, Event.NORMAL, EventRecorder.SCHEDULED, "Binding", "again"));
    assertEquals(2, calls[0], "each event still reaches the delegate");
  }

  @Test
  void errorsAreNotSwallowed() {
    EventRecorder safe = EventRecorder.bestEffort((regarding, related, type, reason, action, note) -> {
      throw new OutOfMemoryError("simulated");
    });
    assertThrows(OutOfMemoryError.class,
        () -> safe.event(POD, null, Event.NORMAL, EventRecorder.SCHEDULED, "Binding", "bound"));
  }

  @Test
  void noopAndWrappedRecordersAreReturnedAsGiven() {
    assertSame(EventRecorder.NOOP, EventRecorder.bestEffort(EventRecorder.NOOP));
    EventRecorder safe = EventRecorder.bestEffort((regarding, related, type, reason, action, note) -> { });
    assertSame(safe, EventRecorder.bestEffort(safe));
  }

  @Test
  void nullIsRefusedNamingTheParameter() {
    NullPointerException e = assertThrows(NullPointerException.class, () -> EventRecorder.bestEffort(null));
    assertEquals("recorder", e.getMessage());
  }
}
