package io.fleetkit.reconcile.node;

import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import java.util.ArrayList;
import java.util.List;

/**
 * What kube's {@code DefaultTolerationSeconds} admission plugin adds to every pod: tolerations of
 * {@value NodeLifecycleController#TAINT_NOT_READY} and {@value NodeLifecycleController#TAINT_UNREACHABLE}
 * (NoExecute) for {@value #DEFAULT_SECONDS} seconds, each unless the pod already tolerates that taint (a toleration
 * with that key or an empty key, and effect NoExecute or none). The embedded store has no admission chain, so the
 * {@link TaintEvictionController} applies this when it reads a pod's tolerations. Stateless.
 */
public final class DefaultTolerations {
  /** kube's {@code --default-not-ready-toleration-seconds} and {@code --default-unreachable-toleration-seconds}. */
  public static final long DEFAULT_SECONDS = 300;

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
    boolean notReady = false;
    boolean unreachable = false;
    for (Toleration t : tolerations) {
      boolean noExecute = t.effect() == null || t.effect() == TaintEffect.NoExecute;
      if (noExecute && (t.key().isEmpty() || t.key().equals(NodeLifecycleController.TAINT_NOT_READY))) {
        notReady = true;
      }
      if (noExecute && (t.key().isEmpty() || t.key().equals(NodeLifecycleController.TAINT_UNREACHABLE))) {
        unreachable = true;
      }
    }
    if (notReady && unreachable) {
      return tolerations;
    }
    List<Toleration> out = new ArrayList<>(tolerations.size() + 2);
    out.addAll(tolerations);
    if (!notReady) {
      out.add(new Toleration(NodeLifecycleController.TAINT_NOT_READY, TolerationOperator.Exists, "",
          TaintEffect.NoExecute, notReadySeconds));
    }
    if (!unreachable) {
      out.add(new Toleration(NodeLifecycleController.TAINT_UNREACHABLE, TolerationOperator.Exists, "",
          TaintEffect.NoExecute, unreachableSeconds));
    }
    return List.copyOf(out);
  }
}
