package io.fleetkit.queueing.controller.internal;

import io.fleetkit.queueing.controller.QueueLabels;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.PodSetAssignment;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A Job's admission as stored in its {@value QueueLabels#ADMISSION} annotation:
 * {@code CLUSTERQUEUE/RESOURCE=FLAVOR,...}, resources in name order.
 *
 * @param clusterQueue the ClusterQueue whose quota the Job holds
 * @param flavors resource name to flavor name
 */
record AdmissionRecord(String clusterQueue, Map<String, String> flavors) {
  AdmissionRecord {
    Objects.requireNonNull(clusterQueue, "clusterQueue");
    flavors = Map.copyOf(flavors);
  }

  /** The record of the engine's admission (its pod sets' flavors merged; a Job has one pod set). */
  static AdmissionRecord of(QuotaReservation admission) {
    Map<String, String> flavors = new TreeMap<>();
    for (PodSetAssignment p : admission.podSets()) {
      flavors.putAll(p.flavors());
    }
    return new AdmissionRecord(admission.clusterQueue(), flavors);
  }

  /**
   * Parses an annotation value.
   *
   * @throws IllegalArgumentException if it is not {@code CLUSTERQUEUE/RESOURCE=FLAVOR,...}
   */
  static AdmissionRecord parse(String value) {
    int slash = value.indexOf('/');
    if (slash <= 0) {
      throw new IllegalArgumentException("annotation " + QueueLabels.ADMISSION + " \"" + value
          + "\" must be CLUSTERQUEUE/RESOURCE=FLAVOR,...");
    }
    Map<String, String> flavors = new TreeMap<>();
    String rest = value.substring(slash + 1);
    if (!rest.isEmpty()) {
      for (String pair : rest.split(",", -1)) {
        int eq = pair.lastIndexOf('=');
        if (eq <= 0 || eq == pair.length() - 1) {
          throw new IllegalArgumentException("annotation " + QueueLabels.ADMISSION + " \"" + value
              + "\": entry \"" + pair + "\" must be RESOURCE=FLAVOR");
        }
        flavors.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    return new AdmissionRecord(value.substring(0, slash), flavors);
  }

  /** The annotation value. */
  String format() {
    StringBuilder b = new StringBuilder(clusterQueue).append('/');
    String sep = "";
    for (Map.Entry<String, String> e : new TreeMap<>(flavors).entrySet()) {
      b.append(sep).append(e.getKey()).append('=').append(e.getValue());
      sep = ",";
    }
    return b.toString();
  }
}
