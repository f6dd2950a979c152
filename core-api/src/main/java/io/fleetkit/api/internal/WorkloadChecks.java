package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;

/**
 * Checks shared by the workload kinds that own pods through a selector and a template, worded as Kubernetes'
 * {@code ValidateDeploymentSpec}, {@code ValidateReplicaSetSpec}, {@code ValidateStatefulSetSpec} and {@code ValidateDaemonSetSpec}.
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
}
