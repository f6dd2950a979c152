package io.fleetkit.api.framework;

import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What PreFilter returned: a status and, optionally, the only nodes worth filtering (e.g. from NodeAffinity's
 * {@code matchFields metadata.name}). {@code null} node names means all nodes.
 */
public record PreFilterResult(Status status, @Nullable Set<String> nodeNames) {
  private static final PreFilterResult SUCCESS = new PreFilterResult(Status.success(), null);
  private static final PreFilterResult SKIP = new PreFilterResult(Status.skip(), null);

  public PreFilterResult {
    nodeNames = nodeNames == null ? null : Set.copyOf(nodeNames);
  }

  public static PreFilterResult success() {
    return SUCCESS;
  }

  public static PreFilterResult skip() {
    return SKIP;
  }

  public static PreFilterResult of(Status status) {
    return status.isSuccess() ? SUCCESS : new PreFilterResult(status, null);
  }

  public static PreFilterResult onlyNodes(Set<String> nodeNames) {
    return new PreFilterResult(Status.success(), nodeNames);
  }
}
