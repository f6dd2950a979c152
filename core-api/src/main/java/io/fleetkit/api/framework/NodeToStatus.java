package io.fleetkit.api.framework;

import java.util.Map;

/**
 * Why each node rejected the pod in Filter. Nodes absent from the map were not evaluated (sampling) and count as
 * {@code absentCode}.
 */
public record NodeToStatus(Map<String, Status> statuses, Status.Code absentCode) {
  public NodeToStatus {
    statuses = Map.copyOf(statuses);
  }

  /** The status of {@code nodeName}; nodes that were never filtered get {@code absentCode}. */
  public Status.Code codeOf(String nodeName) {
    Status s = statuses.get(nodeName);
    return s == null ? absentCode : s.code();
  }
}
