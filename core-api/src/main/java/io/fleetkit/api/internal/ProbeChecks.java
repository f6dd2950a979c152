package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.ProbeType;
import io.fleetkit.api.core.ServiceTargetPort;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Kubernetes' probe rules ({@code validateLivenessProbe}, {@code validateReadinessProbe},
 * {@code validateStartupProbe}, {@code validateProbe}, {@code validateHandler} in
 * {@code pkg/apis/core/validation/validation.go}) with Kubernetes' messages. Stateless.
 */
final class ProbeChecks {
  private static final Pattern HEADER_NAME = Pattern.compile("[-A-Za-z0-9]+");
  private static final List<String> SCHEMES = List.of("HTTP", "HTTPS");

  private ProbeChecks() {}

  /** Checks the probes of container {@code c} at {@code path} (e.g. {@code spec.containers[0]}). */
  static void check(Container c, String path, boolean init, Violations v) {
    for (ProbeType type : ProbeType.values()) {
      Probe p = c.probe(type);
      if (p == null) {
        continue;
      }
      String at = path + "." + type.fieldName();
      if (init && !c.isRestartable()) {
        v.add(at, "Forbidden: may not be set for init containers without restartPolicy=Always", null);
        continue;
      }
      probe(p, at, v);
      if (type == ProbeType.Readiness && p.terminationGracePeriodSeconds() != null) {
        v.add(at + ".terminationGracePeriodSeconds", "must not be set for readinessProbes",
            p.terminationGracePeriodSeconds());
      }
      if (type != ProbeType.Readiness && p.successThreshold() != 1) {
        v.add(at + ".successThreshold", "must be 1", p.successThreshold());
      }
    }
  }

  private static void probe(Probe p, String at, Violations v) {
    handler(p.handler(), at + "." + p.handler().fieldName(), v);
    v.nonNegative(at + ".initialDelaySeconds", p.initialDelaySeconds());
    v.nonNegative(at + ".timeoutSeconds", p.timeoutSeconds());
    v.nonNegative(at + ".periodSeconds", p.periodSeconds());
    v.nonNegative(at + ".successThreshold", p.successThreshold());
    v.nonNegative(at + ".failureThreshold", p.failureThreshold());
    Long grace = p.terminationGracePeriodSeconds();
    if (grace != null && grace <= 0) {
      v.add(at + ".terminationGracePeriodSeconds", "must be greater than 0", grace);
    }
  }

  private static void handler(ProbeHandler h, String at, Violations v) {
    if (h instanceof ProbeHandler.Exec e) {
      exec(e, at, v);
    } else if (h instanceof ProbeHandler.HttpGet g) {
      httpGet(g, at, v);
    } else if (h instanceof ProbeHandler.TcpSocket t) {
      tcpSocket(t, at, v);
    } else if (h instanceof ProbeHandler.Grpc g) {
      v.portNumber(at + ".port", g.port());
    }
  }

  /** {@code validateExecAction}, for a probe's or a lifecycle hook's {@code exec} at {@code at}. */
  static void exec(ProbeHandler.Exec e, String at, Violations v) {
    if (e.command().isEmpty()) {
      v.required(at + ".command");
    }
  }

  /** {@code validateHTTPGetAction}, for a probe's or a lifecycle hook's {@code httpGet} at {@code at}. */
  static void httpGet(ProbeHandler.HttpGet g, String at, Violations v) {
    if (g.path().isEmpty()) {
      v.required(at + ".path");
    }
    port(g.port(), at + ".port", v);
    if (!SCHEMES.contains(g.scheme())) {
      v.add(at + ".scheme", "Unsupported value: supported values: \"HTTP\", \"HTTPS\"", g.scheme());
    }
    for (ProbeHandler.HttpHeader header : g.headers()) {
      if (!HEADER_NAME.matcher(header.name()).matches()) {
        v.add(at + ".httpHeaders", "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. "
            + "'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')", header.name());
      }
    }
  }

  /** {@code validateTCPSocketAction}, for a probe's or a lifecycle hook's {@code tcpSocket} at {@code at}. */
  static void tcpSocket(ProbeHandler.TcpSocket t, String at, Violations v) {
    port(t.port(), at + ".port", v);
  }

  /** Kubernetes' {@code ValidatePortNumOrName}. */
  private static void port(ServiceTargetPort port, String at, Violations v) {
    if (port.isNamed()) {
      v.portName(at, port.name());
    } else {
      v.portNumber(at, port.number());
    }
  }
}
