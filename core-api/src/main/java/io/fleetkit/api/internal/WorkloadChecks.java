package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Checks shared by the workload kinds that own pods through a selector and a template, worded as Kubernetes'
 * {@code ValidateDeploymentSpec}, {@code ValidateReplicaSetSpec}, {@code ValidateStatefulSetSpec}, {@code ValidateDaemonSetSpec}
 * and {@code ValidateReplicationControllerSpec}.
 */
public final class WorkloadChecks {
  private WorkloadChecks() {}

  /**
   * The selector is non-empty and matches the template's labels; the template is a valid pod spec whose restart
   * policy is {@code Always} and which has no {@code activeDeadlineSeconds}.
   *
   * @param kindWord how Kubernetes names the kind in messages, e.g. {@code deployment}
   */
  public static void selectorAndTemplate(LabelSelector selector, PodTemplateSpec template, String kindWord,
      Violations v) {
    boolean empty = selector.matchLabels().isEmpty() && selector.matchExpressions().isEmpty();
    if (empty) {
      v.add("spec.selector", "empty selector is invalid for " + kindWord, selector);
    } else if (!selector.matches(template.metadata().labels())) {
      v.add("spec.template.metadata.labels", "`selector` does not match template `labels`",
          template.metadata().labels());
    }
    template(template, v);
    PodSpecChecks.restartPolicyIn(template.spec(), "spec.template.spec", v, RestartPolicy.Always);
    if (template.spec().activeDeadlineSeconds() != null && kindWord.equals("daemonset")) {
      // upstream's ValidateDaemonSetSpec words it as an invalid value, not Forbidden
      v.add("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in DaemonSet is not Supported",
          template.spec().activeDeadlineSeconds());
    } else if (template.spec().activeDeadlineSeconds() != null) {
      v.add("spec.template.spec.activeDeadlineSeconds", "Forbidden: activeDeadlineSeconds in "
          + (kindWord.equals("statefulset") ? "StatefulSet" : "ReplicaSet") + " is not Supported", template.spec().activeDeadlineSeconds());
    }
  }

  /** A pod template under {@code spec.template}: its labels and its pod spec. */
  public static void template(PodTemplateSpec template, Violations v) {
    v.labels("spec.template.metadata.labels", template.metadata().labels());
    PodSpecChecks.check(template.spec(), "spec.template.spec", v);
  }

  /**
   * Kubernetes' {@code ValidateReplicationControllerSpec} with {@code ValidatePodTemplateSpecForRC}: minReadySeconds
   * and replicas non-negative, the equality selector non-empty, the template required, matched by the selector, a
   * valid pod spec whose restart policy is {@code Always} and which has no {@code activeDeadlineSeconds}.
   */
  public static void replicationControllerSpec(int replicas, int minReadySeconds, Map<String, String> selector,
      @Nullable PodTemplateSpec template, Violations v) {
    v.nonNegative("spec.minReadySeconds", minReadySeconds);
    if (selector.isEmpty()) {
      v.required("spec.selector");
    }
    v.nonNegative("spec.replicas", replicas);
    if (template == null) {
      v.required("spec.template");
      return;
    }
    if (!selector.isEmpty() && !LabelSelector.of(selector).matches(template.metadata().labels())) {
      v.add("spec.template.metadata.labels", "`selector` does not match template `labels`",
          template.metadata().labels());
    }
    template(template, v);
    PodSpecChecks.restartPolicyIn(template.spec(), "spec.template.spec", v, RestartPolicy.Always);
    if (template.spec().activeDeadlineSeconds() != null) {
      v.add("spec.template.spec.activeDeadlineSeconds", "must not be specified",
          template.spec().activeDeadlineSeconds());
    }
  }

  /**
   * Kubernetes' {@code ValidateReplicationControllerStatus} (worded as {@code ValidateReplicaSetStatus}): every count
   * and the generation non-negative, no count above {@code replicas}, no more available than ready replicas.
   */
  public static void replicaStatus(int replicas, int fullyLabeled, int ready, int available, long observedGeneration,
      Violations v) {
    v.nonNegative("status.replicas", replicas);
    v.nonNegative("status.fullyLabeledReplicas", fullyLabeled);
    v.nonNegative("status.readyReplicas", ready);
    v.nonNegative("status.availableReplicas", available);
    v.nonNegative("status.observedGeneration", observedGeneration);
    String aboveReplicas = "cannot be greater than status.replicas";
    if (fullyLabeled > replicas) {
      v.add("status.fullyLabeledReplicas", aboveReplicas, fullyLabeled);
    }
    if (ready > replicas) {
      v.add("status.readyReplicas", aboveReplicas, ready);
    }
    if (available > replicas) {
      v.add("status.availableReplicas", aboveReplicas, available);
    }
    if (available > ready) {
      v.add("status.availableReplicas", "cannot be greater than readyReplicas", available);
    }
  }
}
