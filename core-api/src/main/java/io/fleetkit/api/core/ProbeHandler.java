package io.fleetkit.api.core;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link Probe} does: Kubernetes' one-of {@code exec}, {@code httpGet}, {@code tcpSocket} and {@code grpc}.
 * Being a sealed type, a probe always has exactly one; field rules (a path for httpGet, a valid port, a command for
 * exec) are checked when the pod is validated, with Kubernetes' messages. {@code exec}, {@code httpGet} and
 * {@code tcpSocket} are also {@link LifecycleHandler}s, as Kubernetes' probe and lifecycle handlers share these
 * actions.
 */
public sealed interface ProbeHandler {
  /** The handler's field name in the manifest: {@code exec}, {@code httpGet}, {@code tcpSocket} or {@code grpc}. */
  String fieldName();

  /**
   * Runs {@code command} in the container; exit code 0 is success.
   *
   * @param command the argv; must not be empty
   */
  record Exec(List<String> command) implements ProbeHandler, LifecycleHandler {
    public Exec {
      command = List.copyOf(command);
    }

    @Override
    public String fieldName() {
      return "exec";
    }
  }

  /**
   * An HTTP GET; a status code from 200 to 399 is success (a redirect to another host counts as a warning, which
   * is a success).
   *
   * @param path the request path, e.g. {@code /healthz}; required
   * @param port the container port, by number or by name
   * @param host the host to connect to; empty means the pod IP
   * @param scheme {@code HTTP} (default) or {@code HTTPS}
   * @param headers extra request headers
   */
  record HttpGet(String path, ServiceTargetPort port, String host, String scheme, List<HttpHeader> headers)
      implements ProbeHandler, LifecycleHandler {
    public HttpGet {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(port, "port");
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(scheme, "scheme");
      if (scheme.isEmpty()) {
        scheme = "HTTP";
      }
      headers = List.copyOf(headers);
    }

    /** {@code GET http://<pod IP>:port path}. */
    public static HttpGet of(String path, int port) {
      return new HttpGet(path, ServiceTargetPort.of(port), "", "HTTP", List.of());
    }

    @Override
    public String fieldName() {
      return "httpGet";
    }
  }

  /**
   * Opens a TCP connection; success if it connects.
   *
   * @param host empty means the pod IP
   */
  record TcpSocket(ServiceTargetPort port, String host) implements ProbeHandler, LifecycleHandler {
    public TcpSocket {
      Objects.requireNonNull(port, "port");
      Objects.requireNonNull(host, "host");
    }

    public static TcpSocket of(int port) {
      return new TcpSocket(ServiceTargetPort.of(port), "");
    }

    @Override
    public String fieldName() {
      return "tcpSocket";
    }
  }

  /**
   * Calls the gRPC health checking protocol ({@code grpc.health.v1.Health/Check}); {@code SERVING} is success.
   *
   * @param port a port number (gRPC probes take no port names)
   * @param service the service name to ask about; empty for the server as a whole
   */
  record Grpc(int port, String service) implements ProbeHandler {
    public Grpc {
      Objects.requireNonNull(service, "service");
    }

    @Override
    public String fieldName() {
      return "grpc";
    }
  }

  /** One extra header of an HTTP probe. */
  record HttpHeader(String name, String value) {
    public HttpHeader {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
    }
  }
}
