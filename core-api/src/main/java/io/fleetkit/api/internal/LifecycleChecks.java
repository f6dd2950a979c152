package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.PodOS;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.Signal;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' lifecycle hook rules ({@code validateLifecycle}, {@code validateHandler} for a lifecycle handler and
 * {@code validateSleepAction} in {@code pkg/apis/core/validation/validation.go}, with
 * {@code PodLifecycleSleepActionAllowZero}, GA and locked on since Kubernetes 1.34) with Kubernetes' messages:
 * the handler's own fields as a probe's, a sleep from 0 to the pod's {@code terminationGracePeriodSeconds}, and no
 * hooks on a regular init container ({@code validateInitContainers}); and the stop signal ({@code validateStopSignal},
 * KEP-4960, with {@code ContainerStopSignals} on as FleetKit has no feature gates): only with the pod's
 * {@code spec.os}, one of {@code supportedStopSignalsLinux} on Linux, {@code SIGKILL} or {@code SIGTERM} on Windows.
 * Stateless.
 */
final class LifecycleChecks {
  private LifecycleChecks() {}

  /** Upstream's {@code sets.List(supportedStopSignalsLinux)}: every signal name, sorted. */
  private static final List<String> LINUX_SIGNALS =
      Arrays.stream(Signal.values()).map(Signal::signalName).sorted().toList();
  private static final List<String> WINDOWS_SIGNALS =
      Signal.WINDOWS.stream().map(Signal::signalName).sorted().toList();

  /**
   * Checks the hooks and stop signal of container {@code c} at {@code path} (e.g. {@code spec.containers[0]}) of a
   * pod whose {@code spec.os} is {@code os}.
   */
  static void check(Container c, String path, boolean init, long gracePeriodSeconds, @Nullable PodOS os,
      Violations v) {
    Lifecycle l = c.lifecycle();
    if (l == null) {
      return;
    }
    String at = path + ".lifecycle";
    if (init && !c.isRestartable()) {
      v.add(at, "Forbidden: may not be set for init containers without restartPolicy=Always", null);
      return;
    }
    handler(l.postStart(), at + ".postStart", gracePeriodSeconds, v);
    handler(l.preStop(), at + ".preStop", gracePeriodSeconds, v);
    if (l.stopSignal() != null) {
      stopSignal(l.stopSignal(), at + ".stopSignal", os, v);
    }
  }

  /** Upstream's {@code validateStopSignal}; an OS other than linux and windows is reported on {@code spec.os}. */
  private static void stopSignal(String name, String field, @Nullable PodOS os, Violations v) {
    if (os == null) {
      v.add(field, "Forbidden: may not be set for containers with empty `spec.os.name`", null);
      return;
    }
    Signal s = Signal.of(name);
    if (os.isWindows() && (s == null || !Signal.WINDOWS.contains(s))) {
      v.add(field, unsupported(WINDOWS_SIGNALS), name);
    } else if (os.isLinux() && s == null) {
      v.add(field, unsupported(LINUX_SIGNALS), name);
    }
  }

  /** {@code Unsupported value: supported values: "a", "b"} (the value itself is the violation's). */
  static String unsupported(List<String> supported) {
    StringBuilder sb = new StringBuilder("Unsupported value: supported values: ");
    for (int i = 0; i < supported.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(FieldErrors.quote(supported.get(i)));
    }
    return sb.toString();
  }

  private static void handler(@Nullable LifecycleHandler h, String at, long grace, Violations v) {
    if (h == null) {
      return;
    }
    String field = at + "." + h.fieldName();
    if (h instanceof ProbeHandler.Exec e) {
      ProbeChecks.exec(e, field, v);
    } else if (h instanceof ProbeHandler.HttpGet g) {
      ProbeChecks.httpGet(g, field, v);
    } else if (h instanceof ProbeHandler.TcpSocket t) {
      ProbeChecks.tcpSocket(t, field, v);
    } else if (h instanceof LifecycleHandler.Sleep s && (s.seconds() < 0 || s.seconds() > grace)) {
      v.add(field, "must be non-negative and less than terminationGracePeriodSeconds (" + grace + ")", s.seconds());
    }
  }
}
