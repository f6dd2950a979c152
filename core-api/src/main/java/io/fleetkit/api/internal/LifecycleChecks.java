package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.ProbeHandler;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' lifecycle hook rules ({@code validateLifecycle}, {@code validateHandler} for a lifecycle handler and
 * {@code validateSleepAction} in {@code pkg/apis/core/validation/validation.go}, with
 * {@code PodLifecycleSleepActionAllowZero}, GA and locked on since Kubernetes 1.34) with Kubernetes' messages:
 * the handler's own fields as a probe's, a sleep from 0 to the pod's {@code terminationGracePeriodSeconds}, and no
 * hooks on a regular init container ({@code validateInitContainers}). Stateless.
 */
final class LifecycleChecks {
  private LifecycleChecks() {}

  /** Checks the hooks of container {@code c} at {@code path} (e.g. {@code spec.containers[0]}). */
  static void check(Container c, String path, boolean init, long gracePeriodSeconds, Violations v) {
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
