package io.fleetkit.api.networking;

import java.util.Objects;

/** One path of an Ingress rule. */
public record HTTPIngressPath(String path, PathType pathType, IngressBackend backend) {
  public HTTPIngressPath {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(pathType, "pathType");
    Objects.requireNonNull(backend, "backend");
  }
}
