package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.batch.PodFailurePolicy;
import io.fleetkit.api.batch.PodFailurePolicyAction;
import io.fleetkit.api.batch.PodFailurePolicyOnExitCodesRequirement;
import io.fleetkit.api.batch.PodFailurePolicyOnPodConditionsPattern;
import io.fleetkit.api.batch.PodFailurePolicyRule;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Upstream's {@code pkg/controller/job/pod_failure_policy.go}: matching a failed pod against a Job's
 * {@link PodFailurePolicy}. Stateless and thread-safe.
 */
public final class PodFailurePolicies {

  /**
   * What the policy says about one failed pod.
   *
   * @param jobFailureMessage set when a {@code FailJob} rule matched: upstream's message for the Job's condition
   * @param countFailed whether the failure counts towards {@code backoffLimit} (false only for {@code Ignore})
   * @param action the matched rule's action, {@code null} when no rule matched
   */
  public record Match(@Nullable String jobFailureMessage, boolean countFailed, @Nullable PodFailurePolicyAction action) {
    static final Match DEFAULT = new Match(null, true, null);
  }

  private PodFailurePolicies() {}

  /**
   * Upstream's {@code matchPodFailurePolicy}: the first rule (in order) whose requirement the pod meets decides. A
   * rule without an action (refused by Job validation) is skipped, as upstream skips unknown actions.
   */
  public static Match match(@Nullable PodFailurePolicy policy, Pod failedPod) {
    if (policy == null) {
      return Match.DEFAULT;
    }
    List<PodFailurePolicyRule> rules = policy.rules();
    for (int index = 0; index < rules.size(); index++) {
      PodFailurePolicyRule rule = rules.get(index);
      PodFailurePolicyAction action = rule.action();
      if (rule.onExitCodes() != null) {
        ContainerStatus status = matchOnExitCodes(failedPod, rule.onExitCodes());
        if (status != null && action != null) {
          return switch (action) {
            case Ignore -> new Match(null, false, action);
            case Count, FailIndex -> new Match(null, true, action);
            case FailJob -> new Match("Container " + status.name() + " for pod " + podKey(failedPod)
                + " failed with exit code " + status.state().exitCode() + " matching " + action + " rule at index "
                + index, true, action);
          };
        }
      } else if (!rule.onPodConditions().isEmpty()) {
        PodCondition condition = matchOnPodConditions(failedPod, rule.onPodConditions());
        if (condition != null && action != null) {
          return switch (action) {
            case Ignore -> new Match(null, false, action);
            case Count, FailIndex -> new Match(null, true, action);
            case FailJob -> new Match("Pod " + podKey(failedPod) + " has condition " + condition.type()
                + " matching " + action + " rule at index " + index, true, action);
          };
        }
      }
    }
    return Match.DEFAULT;
  }

  /**
   * Upstream's {@code matchOnExitCodes}: the first matching container status, else the first matching init
   * container status.
   */
  static @Nullable ContainerStatus matchOnExitCodes(Pod pod, PodFailurePolicyOnExitCodesRequirement requirement) {
    ContainerStatus s = matching(pod.status().containerStatuses(), requirement);
    return s != null ? s : matching(pod.status().initContainerStatuses(), requirement);
  }

  /**
   * Upstream's {@code getMatchingContainerFromList}: the first terminated container with a non-zero exit code that
   * the requirement's container name (if any) and operator accept.
   */
  private static @Nullable ContainerStatus matching(List<ContainerStatus> statuses,
      PodFailurePolicyOnExitCodesRequirement requirement) {
    for (ContainerStatus s : statuses) {
      Integer exitCode = s.state().exitCode();
      if (s.state().type() != ContainerStateType.Terminated || exitCode == null) {
        continue; // still terminating: no exit code to match
      }
      String name = requirement.containerName();
      if ((name == null || name.equals(s.name())) && exitCode != 0 && requirement.matches(exitCode)) {
        return s;
      }
    }
    return null;
  }

  /** Upstream's {@code matchOnPodConditions}: the first of the pod's conditions that some pattern matches. */
  static @Nullable PodCondition matchOnPodConditions(Pod pod, List<PodFailurePolicyOnPodConditionsPattern> patterns) {
    for (PodCondition c : pod.status().conditions()) {
      for (PodFailurePolicyOnPodConditionsPattern p : patterns) {
        if (c.type().equals(p.type()) && c.status() == p.status()) {
          return c;
        }
      }
    }
    return null;
  }

  private static String podKey(Pod pod) {
    return pod.metadata().namespace() + "/" + pod.metadata().name();
  }
}
