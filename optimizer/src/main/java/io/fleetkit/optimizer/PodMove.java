package io.fleetkit.optimizer;

import java.util.Objects;

/**
 * One planned move of a running pod.
 *
 * @param pod {@code namespace/name}
 * @param fromNode where it runs now
 * @param toNode where it should run
 */
public record PodMove(String pod, String fromNode, String toNode) {
  public PodMove {
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(fromNode, "fromNode");
    Objects.requireNonNull(toNode, "toNode");
    if (fromNode.equals(toNode)) {
      throw new IllegalArgumentException("pod move " + pod + ": toNode must differ from fromNode, got " + toNode);
    }
  }
}
