package io.fleetkit.api.batch;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Upstream's {@code validatePodFailurePolicy}, {@code validatePodReplacementPolicy} and the pod failure policy's
 * restartPolicy rule ({@code pkg/apis/batch/validation/validation.go}), with upstream's field paths and messages.
 */
final class JobPolicyChecks {
  private static final String ACTIONS = "valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]";
  private static final String OPERATORS = "valid values: [\"In\" \"NotIn\"]";
  private static final String STATUSES = "valid values: [\"False\" \"True\" \"Unknown\"]";

  private JobPolicyChecks() {}

  /** Checks {@code spec}'s pod failure and replacement policies; {@code path} is the spec's ({@code "spec"}). */
  static void check(JobSpec spec, String path, Violations v) {
    PodFailurePolicy policy = spec.podFailurePolicy();
    PodReplacementPolicy replacement = spec.podReplacementPolicy();
    if (policy != null && replacement != null && replacement != PodReplacementPolicy.Failed) {
      v.add(path + ".podReplacementPolicy", "Unsupported value: supported values: \"Failed\"", replacement);
    }
    if (policy == null) {
      return;
    }
    PodSpec pod = spec.template().spec();
    if (pod.restartPolicy() == RestartPolicy.OnFailure) {
      v.add(path + ".template.spec.restartPolicy", "only \"Never\" is supported when podFailurePolicy is specified",
          pod.restartPolicy());
    }
    String rulesPath = path + ".podFailurePolicy.rules";
    if (policy.rules().size() > PodFailurePolicy.MAX_RULES) {
      v.add(rulesPath, "must have at most " + PodFailurePolicy.MAX_RULES + " items", policy.rules().size());
    }
    Set<String> containerNames = new HashSet<>();
    for (Container c : pod.containers()) {
      containerNames.add(c.name());
    }
    for (Container c : pod.initContainers()) {
      containerNames.add(c.name());
    }
    for (int i = 0; i < policy.rules().size(); i++) {
      rule(policy.rules().get(i), rulesPath + "[" + i + "]", containerNames, v);
    }
  }

  private static void rule(PodFailurePolicyRule rule, String rulePath, Set<String> containerNames, Violations v) {
    PodFailurePolicyAction action = rule.action();
    if (action == null) {
      v.required(rulePath + ".action", ACTIONS);
    } else if (action == PodFailurePolicyAction.FailIndex) {
      // upstream accepts FailIndex with backoffLimitPerIndex, which FleetKit does not model
      v.add(rulePath + ".action", "requires the backoffLimitPerIndex to be set (FleetKit does not model "
          + "backoffLimitPerIndex)", action);
    }
    PodFailurePolicyOnExitCodesRequirement onExitCodes = rule.onExitCodes();
    if (onExitCodes != null) {
      exitCodes(onExitCodes, rulePath + ".onExitCodes", containerNames, v);
    }
    List<PodFailurePolicyOnPodConditionsPattern> patterns = rule.onPodConditions();
    if (!patterns.isEmpty()) {
      podConditions(patterns, rulePath + ".onPodConditions", v);
    }
    if (onExitCodes != null && !patterns.isEmpty()) {
      v.add(rulePath, "specifying both OnExitCodes and OnPodConditions is not supported", null);
    }
    if (onExitCodes == null && patterns.isEmpty()) {
      v.add(rulePath, "specifying one of OnExitCodes and OnPodConditions is required", null);
    }
  }

  private static void podConditions(List<PodFailurePolicyOnPodConditionsPattern> patterns, String path,
      Violations v) {
    if (patterns.size() > PodFailurePolicy.MAX_POD_CONDITION_PATTERNS) {
      v.add(path, "must have at most " + PodFailurePolicy.MAX_POD_CONDITION_PATTERNS + " items", patterns.size());
    }
    for (int j = 0; j < patterns.size(); j++) {
      PodFailurePolicyOnPodConditionsPattern p = patterns.get(j);
      String patternPath = path + "[" + j + "]";
      v.qualifiedName(patternPath + ".type", p.type());
      if (p.status() == null) {
        v.required(patternPath + ".status", STATUSES);
      }
    }
  }

  private static void exitCodes(PodFailurePolicyOnExitCodesRequirement r, String path, Set<String> containerNames,
      Violations v) {
    if (r.operator() == null) {
      v.required(path + ".operator", OPERATORS);
    }
    String name = r.containerName();
    if (name != null && !containerNames.contains(name)) {
      v.add(path + ".containerName", "must be one of the container or initContainer names in the pod template",
          name);
    }
    String valuesPath = path + ".values";
    List<Integer> values = r.values();
    if (values.isEmpty()) {
      v.add(valuesPath, "at least one value is required", values);
    } else if (values.size() > PodFailurePolicy.MAX_EXIT_CODE_VALUES) {
      v.add(valuesPath, "must have at most " + PodFailurePolicy.MAX_EXIT_CODE_VALUES + " items", values.size());
    }
    boolean ordered = true;
    Set<Integer> unique = new HashSet<>();
    for (int j = 0; j < values.size(); j++) {
      int value = values.get(j);
      String valuePath = valuesPath + "[" + j + "]";
      if (r.operator() == PodFailurePolicyOnExitCodesOperator.In && value == 0) {
        v.add(valuePath, "must not be 0 for the In operator", value);
      }
      if (!unique.add(value)) {
        v.add(valuePath, Violations.DUPLICATE, value);
      }
      if (j > 0 && values.get(j - 1) > value) {
        ordered = false;
      }
    }
    if (!ordered) {
      v.add(valuesPath, "must be ordered", values);
    }
  }
}
