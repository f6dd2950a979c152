package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.MutatingAdmissionPlugin;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;

/**
 * Kubernetes' DefaultTolerationSeconds ({@code plugin/pkg/admission/defaulttolerationseconds/admission.go}): on pod
 * create and update, adds tolerations of {@value #NOT_READY} and {@value #UNREACHABLE} (NoExecute) for
 * {@value #DEFAULT_SECONDS} seconds, each unless the pod already tolerates that taint (a toleration with that key or
 * an empty key, and effect NoExecute or none).
 */
public final class DefaultTolerationSecondsPlugin implements MutatingAdmissionPlugin {
  public static final String NAME = "DefaultTolerationSeconds";
  /** The taint the node lifecycle controller puts on a node that is not ready. */
  public static final String NOT_READY = "node.kubernetes.io/not-ready";
  /** The taint the node lifecycle controller puts on a node whose kubelet stopped reporting. */
  public static final String UNREACHABLE = "node.kubernetes.io/unreachable";
  /** kube's {@code --default-not-ready-toleration-seconds} and {@code --default-unreachable-toleration-seconds}. */
  public static final long DEFAULT_SECONDS = 300;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public AdmissionVerdict mutate(AdmissionRequest request, ObjectStore store) {
    if (request.operation() == AdmissionOperation.DELETE || !(request.object() instanceof Pod pod)) {
      return AdmissionVerdict.allow();
    }
    List<Toleration> with = withDefaults(pod.spec().tolerations(), DEFAULT_SECONDS, DEFAULT_SECONDS);
    if (with == pod.spec().tolerations()) {
      return AdmissionVerdict.allow();
    }
    return AdmissionVerdict.mutate(pod.withTolerations(with));
  }

  /**
   * {@code tolerations} with a not-ready toleration of {@code notReadySeconds} and an unreachable toleration of
   * {@code unreachableSeconds} appended (in that order) where the pod does not tolerate those taints already.
   * Returns the same list when nothing is added.
   */
  public static List<Toleration> withDefaults(List<Toleration> tolerations, long notReadySeconds,
      long unreachableSeconds) {
    boolean notReady = false;
    boolean unreachable = false;
    for (Toleration t : tolerations) {
      boolean noExecute = t.effect() == null || t.effect() == TaintEffect.NoExecute;
      if (noExecute && (t.key().isEmpty() || t.key().equals(NOT_READY))) {
        notReady = true;
      }
      if (noExecute && (t.key().isEmpty() || t.key().equals(UNREACHABLE))) {
        unreachable = true;
      }
    }
    if (notReady && unreachable) {
      return tolerations;
    }
    if (tolerations.isEmpty() && notReadySeconds == DEFAULT_SECONDS && unreachableSeconds == DEFAULT_SECONDS) {
      return DEFAULTS; // the common case: one shared list
    }
    List<Toleration> out = new ArrayList<>(tolerations.size() + 2);
    out.addAll(tolerations);
    if (!notReady) {
      out.add(notReadySeconds == DEFAULT_SECONDS ? NOT_READY_DEFAULT
          : new Toleration(NOT_READY, TolerationOperator.Exists, "", TaintEffect.NoExecute, notReadySeconds));
    }
    if (!unreachable) {
      out.add(unreachableSeconds == DEFAULT_SECONDS ? UNREACHABLE_DEFAULT
          : new Toleration(UNREACHABLE, TolerationOperator.Exists, "", TaintEffect.NoExecute, unreachableSeconds));
    }
    return List.copyOf(out);
  }

  private static final Toleration NOT_READY_DEFAULT = new Toleration(NOT_READY, TolerationOperator.Exists, "",
      TaintEffect.NoExecute, DEFAULT_SECONDS);
  private static final Toleration UNREACHABLE_DEFAULT = new Toleration(UNREACHABLE, TolerationOperator.Exists, "",
      TaintEffect.NoExecute, DEFAULT_SECONDS);
  private static final List<Toleration> DEFAULTS = List.of(NOT_READY_DEFAULT, UNREACHABLE_DEFAULT);
}
