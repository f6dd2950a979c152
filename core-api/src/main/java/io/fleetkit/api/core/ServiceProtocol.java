package io.fleetkit.api.core;

/** The IP protocol of a Service port, spelled as in Kubernetes. Defaults to TCP. */
public enum ServiceProtocol {
  TCP,
  UDP,
  SCTP
}
