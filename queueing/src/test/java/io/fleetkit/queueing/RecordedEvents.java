package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The events an engine recorded, as the ports compare Kueue's {@code wantEvents} ({@code utiltesting.EventRecord}:
 * the workload's key, the type, the reason and the message). Checks on the way that every event regards a Workload,
 * has no related object and uses its reason as the action, as Kueue's recorder calls do.
 */
final class RecordedEvents implements EventRecorder {
  private final List<String> full = new ArrayList<>();
  private final List<String> withoutNotes = new ArrayList<>();

  @Override
  public synchronized void event(ObjectReference regarding, @Nullable ObjectReference related, String type,
      String reason, String action, String note) {
    assertThat(regarding.kind()).isEqualTo(Workload.KIND);
    assertThat(related).isNull();
    assertThat(action).isEqualTo(reason);
    String head = regarding.namespace() + "/" + regarding.name() + " " + type + " " + reason;
    withoutNotes.add(head);
    full.add(head + ": " + note);
  }

  /** {@code ns/name Type Reason: note}, in recording order. */
  synchronized List<String> all() {
    return List.copyOf(full);
  }

  /** {@code ns/name Type Reason}, in recording order (upstream's {@code ignoreEventMessageCmpOpts}). */
  synchronized List<String> withoutNotes() {
    return List.copyOf(withoutNotes);
  }

  synchronized void clear() {
    full.clear();
    withoutNotes.clear();
  }
}
