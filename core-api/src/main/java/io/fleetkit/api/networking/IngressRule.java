package io.fleetkit.api.networking;

import java.util.List;
import java.util.Objects;

/**
 * One host rule of an Ingress.
 *
 * @param host empty for every host; an exact name, or {@code *.domain} matching exactly one more label
 */
public record IngressRule(String host, List<HTTPIngressPath> paths) {
  public IngressRule {
    Objects.requireNonNull(host, "host");
    paths = List.copyOf(paths);
  }
}
