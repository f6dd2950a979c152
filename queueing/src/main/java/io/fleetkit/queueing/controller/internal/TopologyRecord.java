package io.fleetkit.queueing.controller.internal;

import io.fleetkit.api.text.GoIntegers;
import io.fleetkit.queueing.TopologyAssignment;
import io.fleetkit.queueing.controller.QueueLabels;
import java.util.ArrayList;
import java.util.List;

/**
 * A Job's topology assignment as stored in its {@value QueueLabels#TOPOLOGY_ASSIGNMENT} annotation (Kueue keeps it in
 * the Workload's {@code status.admission}): {@code LEVEL,LEVEL|VALUE,VALUE=COUNT;VALUE,VALUE=COUNT}, e.g. {@code
 * kubernetes.io/hostname|h1=2;h2=1}. Label keys and values hold none of {@code | ; = ,}.
 */
final class TopologyRecord {
  private TopologyRecord() {}

  /** The annotation value of {@code assignment}. */
  static String format(TopologyAssignment assignment) {
    StringBuilder b = new StringBuilder(String.join(",", assignment.levels())).append('|');
    String sep = "";
    for (TopologyAssignment.Domain d : assignment.domains()) {
      b.append(sep).append(String.join(",", d.values())).append('=').append(d.count());
      sep = ";";
    }
    return b.toString();
  }

  /**
   * Parses an annotation value.
   *
   * @throws IllegalArgumentException if it is not {@code LEVEL,...|VALUE,...=COUNT;...} with one value per level and
   *     non-negative counts
   */
  static TopologyAssignment parse(String value) {
    int bar = value.indexOf('|');
    if (bar <= 0) {
      throw bad(value, "must be LEVEL,...|VALUE,...=COUNT;...");
    }
    List<String> levels = List.of(value.substring(0, bar).split(",", -1));
    List<TopologyAssignment.Domain> domains = new ArrayList<>();
    String rest = value.substring(bar + 1);
    if (!rest.isEmpty()) {
      for (String entry : rest.split(";", -1)) {
        int eq = entry.lastIndexOf('=');
        if (eq <= 0 || eq == entry.length() - 1) {
          throw bad(value, "entry \"" + entry + "\" must be VALUE,...=COUNT");
        }
        int count;
        try {
          count = GoIntegers.parseInt32(entry.substring(eq + 1)); // ASCII digits only
        } catch (NumberFormatException e) {
          throw bad(value, "entry \"" + entry + "\" must end with a pod count");
        }
        List<String> values = List.of(entry.substring(0, eq).split(",", -1));
        if (values.size() != levels.size() || count < 0) {
          throw bad(value, "entry \"" + entry + "\" must have " + levels.size()
              + " value(s) and a count of at least 0");
        }
        domains.add(new TopologyAssignment.Domain(values, count));
      }
    }
    return new TopologyAssignment(levels, domains);
  }

  private static IllegalArgumentException bad(String value, String rule) {
    return new IllegalArgumentException("annotation " + QueueLabels.TOPOLOGY_ASSIGNMENT + " \"" + value + "\": "
        + rule);
  }
}
