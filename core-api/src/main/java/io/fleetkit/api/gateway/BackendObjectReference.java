package io.fleetkit.api.gateway;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A reference to a backend without a weight, as a {@code RequestMirror} filter names where it copies requests to.
 *
 * @param group empty for the core group (Services)
 * @param kind empty for {@code Service}
 * @param namespace empty for the route's namespace
 * @param port the Service port; required for a Service (the API's rule {@code Must have port for Service reference})
 */
public record BackendObjectReference(String group, String kind, String name, String namespace,
    @Nullable Integer port) {
  public BackendObjectReference {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
  }

  /** A Service in {@code namespace} (empty: the route's) on {@code port}. */
  public static BackendObjectReference service(String name, String namespace, int port) {
    return new BackendObjectReference("", "", name, namespace, port);
  }

  /** Whether this refers to a core Service (group and kind unset, or {@code ""}/{@code Service}). */
  public boolean isService() {
    return group.isEmpty() && (kind.isEmpty() || kind.equals("Service"));
  }
}
