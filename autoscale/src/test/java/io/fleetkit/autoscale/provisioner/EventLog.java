package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A recorder that keeps every event as {@code "<type> <reason> <Kind>/<name>: <note>"}, checking action = reason. */
final class EventLog implements EventRecorder {
  final List<String> events = new ArrayList<>();

  @Override
  public void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
      String action, String note) {
    if (!action.equals(reason) || related != null) {
      throw new AssertionError("event " + reason + ": action " + action + ", related " + related);
    }
    String where = regarding.namespace().isEmpty() ? regarding.name() : regarding.namespace() + "/" + regarding.name();
    events.add(type + " " + reason + " " + regarding.kind() + "/" + where + ": " + note);
  }

  /** The events of {@code reason}. */
  List<String> of(String reason) {
    return events.stream().filter(e -> e.split(" ", 3)[1].equals(reason)).toList();
  }

  void clear() {
    events.clear();
  }
}
