package io.fleetkit.reconcile.node;

import io.fleetkit.admission.DefaultTolerationSecondsPlugin;
import io.fleetkit.api.scheduling.Toleration;
import java.util.List;

/**
 * What kube's {@code DefaultTolerationSeconds} admission plugin adds to every pod: tolerations of
 * {@value NodeLifecycleController#TAINT_NOT_READY} and {@value NodeLifecycleController#TAINT_UNREACHABLE}
 * (NoExecute) for {@value #DEFAULT_SECONDS} seconds, each unless the pod already tolerates that taint (a toleration
 * with that key or an empty key, and effect NoExecute or none). The rule is {@link DefaultTolerationSecondsPlugin}'s;
 * a store without that plugin in its admission chain stores pods without these tolerations, so the
 * {@link TaintEvictionController} applies this when it reads a pod's tolerations (a no-op for admitted pods).
 * Stateless.
 */
public final class DefaultTolerations {
  /** kube's {@code --default-not-ready-toleration-seconds} and {@code --default-unreachable-toleration-seconds}. */
  public static final long DEFAULT_SECONDS = DefaultTolerationSecondsPlugin.DEFAULT_SECONDS;

  private DefaultTolerations() {}

  /** {@code tolerations} with the defaults of {@value #DEFAULT_SECONDS} seconds added where missing. */
  public static List<Toleration> apply(List<Toleration> tolerations) {
    return apply(tolerations, DEFAULT_SECONDS, DEFAULT_SECONDS);
  }

  /**
   * {@code tolerations} with a not-ready toleration of {@code notReadySeconds} and an unreachable toleration of
   * {@code unreachableSeconds} appended (in that order) where the pod does not tolerate those taints already.
   * Returns the same list when nothing is added.
   */
  public static List<Toleration> apply(List<Toleration> tolerations, long notReadySeconds,
      long unreachableSeconds) {
    return DefaultTolerationSecondsPlugin.withDefaults(tolerations, notReadySeconds, unreachableSeconds);
  }
}
