package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ExecAction;
import io.fabric8.kubernetes.api.model.ExecActionBuilder;
import io.fabric8.kubernetes.api.model.GRPCActionBuilder;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HTTPGetActionBuilder;
import io.fabric8.kubernetes.api.model.HTTPHeaderBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.TCPSocketAction;
import io.fabric8.kubernetes.api.model.TCPSocketActionBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.ServiceTargetPort;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Container probes ({@code livenessProbe}, {@code readinessProbe}, {@code startupProbe}) both ways. Unset timing
 * fields take Kubernetes' defaults; exactly one handler ({@code exec}, {@code httpGet}, {@code tcpSocket},
 * {@code grpc}) is required, with Kubernetes' messages. Default values are left out on the way back. The
 * {@code exec}, {@code httpGet} and {@code tcpSocket} actions are shared with lifecycle hooks ({@link Lifecycles}).
 */
final class Probes {
  private Probes() {}

  static @Nullable Probe toCore(io.fabric8.kubernetes.api.model.@Nullable Probe p, String path, DocumentContext ctx) {
    if (p == null) {
      return null;
    }
    List<ProbeHandler> handlers = new ArrayList<>(1);
    if (p.getExec() != null) {
      handlers.add(exec(p.getExec(), path + ".exec", ctx));
    }
    if (p.getHttpGet() != null) {
      ProbeHandler.HttpGet g = httpGet(p.getHttpGet(), path + ".httpGet", ctx);
      if (g != null) {
        handlers.add(g);
      }
    }
    if (p.getTcpSocket() != null) {
      ProbeHandler.TcpSocket t = tcpSocket(p.getTcpSocket(), path + ".tcpSocket", ctx);
      if (t != null) {
        handlers.add(t);
      }
    }
    if (p.getGrpc() != null) {
      if (p.getGrpc().getPort() == null) {
        ctx.error(path + ".grpc.port", "is required", null);
      } else {
        handlers.add(new ProbeHandler.Grpc(p.getGrpc().getPort(), Values.orEmpty(p.getGrpc().getService())));
      }
    }
    if (handlers.isEmpty()) {
      if (p.getExec() == null && p.getHttpGet() == null && p.getTcpSocket() == null && p.getGrpc() == null) {
        ctx.error(path, "Required value: must specify a handler type", null);
      }
      return null;
    }
    if (handlers.size() > 1) {
      ctx.error(path + "." + handlers.get(1).fieldName(), "Forbidden: may not specify more than 1 handler type",
          null);
      return null;
    }
    return ctx.build(path, () -> new Probe(handlers.get(0), Values.intOr(p.getInitialDelaySeconds(), 0),
        Values.intOr(p.getPeriodSeconds(), 0), Values.intOr(p.getTimeoutSeconds(), 0),
        Values.intOr(p.getSuccessThreshold(), 0), Values.intOr(p.getFailureThreshold(), 0),
        p.getTerminationGracePeriodSeconds()));
  }

  /** An {@code exec} action at {@code path}, of a probe or a lifecycle hook. */
  static ProbeHandler.Exec exec(ExecAction e, String path, DocumentContext ctx) {
    return new ProbeHandler.Exec(Values.stringList(e.getCommand(), path + ".command", ctx));
  }

  /** An {@code httpGet} action at {@code path}, of a probe or a lifecycle hook; {@code null} without a port. */
  static ProbeHandler.@Nullable HttpGet httpGet(HTTPGetAction g, String path, DocumentContext ctx) {
    ServiceTargetPort port = port(g.getPort(), path + ".port", ctx);
    List<ProbeHandler.HttpHeader> headers = Fabric8Scheduling.list(g.getHttpHeaders(), path + ".httpHeaders",
        ctx, (h, hp, cx) -> new ProbeHandler.HttpHeader(Values.orEmpty(h.getName()), Values.orEmpty(h.getValue())));
    return port == null ? null : new ProbeHandler.HttpGet(Values.orEmpty(g.getPath()), port,
        Values.orEmpty(g.getHost()), Values.orEmpty(g.getScheme()), headers);
  }

  /** A {@code tcpSocket} action at {@code path}, of a probe or a lifecycle hook; {@code null} without a port. */
  static ProbeHandler.@Nullable TcpSocket tcpSocket(TCPSocketAction t, String path, DocumentContext ctx) {
    ServiceTargetPort port = port(t.getPort(), path + ".port", ctx);
    return port == null ? null : new ProbeHandler.TcpSocket(port, Values.orEmpty(t.getHost()));
  }

  private static @Nullable ServiceTargetPort port(@Nullable IntOrString port, String path, DocumentContext ctx) {
    if (port == null || (port.getIntVal() == null && Values.orEmpty(port.getStrVal()).isEmpty())) {
      ctx.error(path, "Required value", null);
      return null;
    }
    return port.getIntVal() != null ? ServiceTargetPort.of(port.getIntVal()) : ServiceTargetPort.parse(
        port.getStrVal());
  }

  static io.fabric8.kubernetes.api.model.@Nullable Probe toFabric8(@Nullable Probe p) {
    if (p == null) {
      return null;
    }
    ProbeBuilder b = new ProbeBuilder()
        .withInitialDelaySeconds(p.initialDelaySeconds() == 0 ? null : p.initialDelaySeconds())
        .withPeriodSeconds(p.periodSeconds() == Probe.DEFAULT_PERIOD_SECONDS ? null : p.periodSeconds())
        .withTimeoutSeconds(p.timeoutSeconds() == Probe.DEFAULT_TIMEOUT_SECONDS ? null : p.timeoutSeconds())
        .withSuccessThreshold(p.successThreshold() == Probe.DEFAULT_SUCCESS_THRESHOLD ? null : p.successThreshold())
        .withFailureThreshold(p.failureThreshold() == Probe.DEFAULT_FAILURE_THRESHOLD ? null : p.failureThreshold())
        .withTerminationGracePeriodSeconds(p.terminationGracePeriodSeconds());
    ProbeHandler h = p.handler();
    if (h instanceof ProbeHandler.Exec e) {
      b.withExec(exec(e));
    } else if (h instanceof ProbeHandler.HttpGet g) {
      b.withHttpGet(httpGet(g));
    } else if (h instanceof ProbeHandler.TcpSocket t) {
      b.withTcpSocket(tcpSocket(t));
    } else if (h instanceof ProbeHandler.Grpc g) {
      b.withGrpc(new GRPCActionBuilder().withPort(g.port()).withService(Values.emptyToNull(g.service())).build());
    }
    return b.build();
  }

  static ExecAction exec(ProbeHandler.Exec e) {
    return new ExecActionBuilder().withCommand(e.command()).build();
  }

  static HTTPGetAction httpGet(ProbeHandler.HttpGet g) {
    return new HTTPGetActionBuilder().withPath(g.path()).withPort(port(g.port()))
        .withHost(Values.emptyToNull(g.host())).withScheme(g.scheme().equals("HTTP") ? null : g.scheme())
        .withHttpHeaders(Fabric8Scheduling.out(g.headers(), x -> new HTTPHeaderBuilder().withName(x.name())
            .withValue(x.value()).build()))
        .build();
  }

  static TCPSocketAction tcpSocket(ProbeHandler.TcpSocket t) {
    return new TCPSocketActionBuilder().withPort(port(t.port())).withHost(Values.emptyToNull(t.host())).build();
  }

  private static IntOrString port(ServiceTargetPort p) {
    return p.isNamed() ? new IntOrString(p.name()) : new IntOrString(p.number());
  }
}
