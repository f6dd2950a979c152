package io.fleetkit.api.gateway;

import io.fleetkit.api.labels.LabelSelector;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which routes may attach to a listener.
 *
 * @param from which namespaces (default {@link FromNamespaces#Same})
 * @param selector the namespace selector, set exactly when {@code from} is {@code Selector}
 * @param kinds route kinds (of group {@value Gateway#GROUP}) the listener accepts; empty for the protocol's default
 *     ({@code HTTPRoute} for HTTP and HTTPS)
 */
public record AllowedRoutes(FromNamespaces from, @Nullable LabelSelector selector, List<String> kinds) {
  /** The API's default: routes of the Gateway's namespace, of the protocol's default kinds. */
  public static final AllowedRoutes SAME_NAMESPACE = new AllowedRoutes(FromNamespaces.Same, null, List.of());

  public AllowedRoutes {
    Objects.requireNonNull(from, "from");
    kinds = List.copyOf(kinds);
  }
}
