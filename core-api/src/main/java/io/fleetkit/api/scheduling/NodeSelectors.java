package io.fleetkit.api.scheduling;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/** One-off node selector matching. Compile with {@link NodeSelectorMatcher} when matching many nodes. */
public final class NodeSelectors {
  private NodeSelectors() {}

  /**
   * Whether the node matches {@code selector} (component-helpers {@code MatchNodeSelectorTerms}): terms ORed, an
   * empty or invalid term matching nothing, a {@code null} selector matching nothing.
   */
  public static boolean matches(@Nullable NodeSelector selector, String nodeName, Map<String, String> nodeLabels) {
    return selector != null && NodeSelectorMatcher.lazy(selector).matches(nodeName, nodeLabels);
  }
}
