package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.LifecycleBuilder;
import io.fabric8.kubernetes.api.model.LifecycleHandlerBuilder;
import io.fabric8.kubernetes.api.model.SleepActionBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.ProbeHandler;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A container's {@code lifecycle} ({@code postStart}, {@code preStop}, {@code stopSignal}) both ways; the stop
 * signal is carried as written and validated with the pod ({@code spec.os}). Each hook needs exactly one handler
 * ({@code exec}, {@code httpGet}, {@code tcpSocket}, {@code sleep}), with Kubernetes' messages; the actions are read
 * and written as a probe's ({@link Probes}).
 */
final class Lifecycles {
  private Lifecycles() {}

  static @Nullable Lifecycle toCore(io.fabric8.kubernetes.api.model.@Nullable Lifecycle l, String path,
      DocumentContext ctx) {
    if (l == null || (l.getPostStart() == null && l.getPreStop() == null && l.getStopSignal() == null)) {
      return null;
    }
    LifecycleHandler postStart = handler(l.getPostStart(), path + ".postStart", ctx);
    LifecycleHandler preStop = handler(l.getPreStop(), path + ".preStop", ctx);
    String stopSignal = l.getStopSignal();
    return postStart == null && preStop == null && stopSignal == null ? null
        : new Lifecycle(postStart, preStop, stopSignal);
  }

  private static @Nullable LifecycleHandler handler(io.fabric8.kubernetes.api.model.@Nullable LifecycleHandler h,
      String path, DocumentContext ctx) {
    if (h == null) {
      return null;
    }
    List<LifecycleHandler> handlers = new ArrayList<>(1);
    boolean any = false;
    if (h.getExec() != null) {
      any = true;
      handlers.add(Probes.exec(h.getExec(), path + ".exec", ctx));
    }
    if (h.getHttpGet() != null) {
      any = true;
      ProbeHandler.HttpGet g = Probes.httpGet(h.getHttpGet(), path + ".httpGet", ctx);
      if (g != null) {
        handlers.add(g);
      }
    }
    if (h.getTcpSocket() != null) {
      any = true;
      ProbeHandler.TcpSocket t = Probes.tcpSocket(h.getTcpSocket(), path + ".tcpSocket", ctx);
      if (t != null) {
        handlers.add(t);
      }
    }
    if (h.getSleep() != null) {
      any = true;
      if (h.getSleep().getSeconds() == null) {
        ctx.error(path + ".sleep.seconds", "Required value", null);
      } else {
        handlers.add(new LifecycleHandler.Sleep(h.getSleep().getSeconds()));
      }
    }
    if (!any) {
      ctx.error(path, "Required value: must specify a handler type", null);
      return null;
    }
    if (handlers.size() > 1) {
      ctx.error(path + "." + handlers.get(1).fieldName(), "Forbidden: may not specify more than 1 handler type",
          null);
      return null;
    }
    return handlers.isEmpty() ? null : handlers.get(0);
  }

  static io.fabric8.kubernetes.api.model.@Nullable Lifecycle toFabric8(@Nullable Lifecycle l) {
    if (l == null) {
      return null;
    }
    return new LifecycleBuilder().withPostStart(handler(l.postStart())).withPreStop(handler(l.preStop()))
        .withStopSignal(l.stopSignal()).build();
  }

  private static io.fabric8.kubernetes.api.model.@Nullable LifecycleHandler handler(@Nullable LifecycleHandler h) {
    if (h == null) {
      return null;
    }
    LifecycleHandlerBuilder b = new LifecycleHandlerBuilder();
    if (h instanceof ProbeHandler.Exec e) {
      b.withExec(Probes.exec(e));
    } else if (h instanceof ProbeHandler.HttpGet g) {
      b.withHttpGet(Probes.httpGet(g));
    } else if (h instanceof ProbeHandler.TcpSocket t) {
      b.withTcpSocket(Probes.tcpSocket(t));
    } else if (h instanceof LifecycleHandler.Sleep s) {
      b.withSleep(new SleepActionBuilder().withSeconds(s.seconds()).build());
    }
    return b.build();
  }
}
