package io.fleetkit.api.batch;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.text.GoIntegers;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Upstream's {@code validatePodFailurePolicy}, {@code validatePodReplacementPolicy}, {@code validateSuccessPolicy},
 * the pod failure policy's restartPolicy rule and the completion-mode rules of {@code validateJobSpec} (Indexed
 * parallelism, {@code backoffLimitPerIndex}, {@code maxFailedIndexes}) ({@code pkg/apis/batch/validation/
 * validation.go}), with upstream's field paths and messages.
 */
final class JobPolicyChecks {
  /** Upstream's {@code maxFailedIndexesForIndexedJob}. */
  static final int MAX_FAILED_INDEXES = 100_000;
  /** Upstream's {@code completionsSoftLimit}. */
  static final int COMPLETIONS_SOFT_LIMIT = 100_000;
  /** Upstream's {@code parallelismLimitForHighCompletions}. */
  static final int PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
  /** Upstream's {@code maxFailedIndexesLimitForHighCompletions}. */
  static final int MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
  private static final String REQUIRES_INDEXED = "requires indexed completion mode";
  private static final String ACTIONS = "valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]";
  private static final String OPERATORS = "valid values: [\"In\" \"NotIn\"]";
  private static final String STATUSES = "valid values: [\"False\" \"True\" \"Unknown\"]";

  private JobPolicyChecks() {}

  /**
   * The completion-mode part of upstream's {@code validateJobSpec}, in its order: {@code backoffLimitPerIndex} and
   * {@code maxFailedIndexes} not negative, the latter only with the former; for Indexed Jobs completions required,
   * parallelism and maxFailedIndexes capped (lower caps above 100000 completions with per-index backoff); for
   * NonIndexed Jobs no per-index fields.
   */
  static void perIndex(JobSpec spec, String path, Violations v) {
    Integer perIndex = spec.backoffLimitPerIndex();
    Integer maxFailed = spec.maxFailedIndexes();
    v.nonNegative(path + ".backoffLimitPerIndex", perIndex);
    if (maxFailed != null) {
      v.nonNegative(path + ".maxFailedIndexes", maxFailed);
      if (perIndex == null) {
        v.required(path + ".backoffLimitPerIndex", "when maxFailedIndexes is specified");
      }
    }
    Integer completions = spec.completions();
    if (spec.completionMode() == CompletionMode.Indexed) {
      if (completions == null) {
        v.add(path + ".completions", "Required value: when completion mode is Indexed", null);
      }
      if (spec.parallelism() > Job.MAX_INDEXED_PARALLELISM) {
        v.add(path + ".parallelism", "must be less than or equal to " + Job.MAX_INDEXED_PARALLELISM
            + " when completion mode is Indexed", spec.parallelism());
      }
      if (completions != null && maxFailed != null && maxFailed > completions) {
        v.add(path + ".maxFailedIndexes", "must be less than or equal to completions", maxFailed);
      }
      if (maxFailed != null && maxFailed > MAX_FAILED_INDEXES) {
        v.add(path + ".maxFailedIndexes", "must be less than or equal to " + MAX_FAILED_INDEXES, maxFailed);
      }
      if (completions != null && completions > COMPLETIONS_SOFT_LIMIT && perIndex != null) {
        String high = " when completions are above " + COMPLETIONS_SOFT_LIMIT + " and used with backoff limit per index";
        if (maxFailed == null) {
          v.required(path + ".maxFailedIndexes", "must be specified when completions is above "
              + COMPLETIONS_SOFT_LIMIT);
        }
        if (spec.parallelism() > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
          v.add(path + ".parallelism", "must be less than or equal to " + PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS
              + high, spec.parallelism());
        }
        if (maxFailed != null && maxFailed > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS) {
          v.add(path + ".maxFailedIndexes", "must be less than or equal to "
              + MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS + high, maxFailed);
        }
      }
    } else {
      if (perIndex != null) {
        v.add(path + ".backoffLimitPerIndex", REQUIRES_INDEXED, perIndex);
      }
      if (maxFailed != null) {
        v.add(path + ".maxFailedIndexes", REQUIRES_INDEXED, maxFailed);
      }
    }
  }

  /** Checks {@code spec}'s pod failure and replacement policies; {@code path} is the spec's ({@code "spec"}). */
  static void check(JobSpec spec, String path, Violations v) {
    PodFailurePolicy policy = spec.podFailurePolicy();
    PodReplacementPolicy replacement = spec.podReplacementPolicy();
    if (policy != null && replacement != null && replacement != PodReplacementPolicy.Failed) {
      v.add(path + ".podReplacementPolicy", "Unsupported value: supported values: \"Failed\"", replacement);
    }
    successPolicy(spec, path, v);
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
      rule(policy.rules().get(i), rulesPath + "[" + i + "]", containerNames, spec.backoffLimitPerIndex() != null, v);
    }
  }

  /** Upstream's {@code validateSuccessPolicy} and {@code validateSuccessPolicyRule}. */
  private static void successPolicy(JobSpec spec, String path, Violations v) {
    SuccessPolicy policy = spec.successPolicy();
    if (policy == null) {
      return;
    }
    String policyPath = path + ".successPolicy";
    if (spec.completionMode() != CompletionMode.Indexed) {
      v.add(policyPath, REQUIRES_INDEXED, policy);
      return;
    }
    Integer completions = spec.completions();
    if (completions == null) {
      return; // "completions: Required value" is reported; the rules cannot be checked against it
    }
    String rulesPath = policyPath + ".rules";
    if (policy.rules().isEmpty()) {
      v.required(rulesPath, "at least one rules must be specified when the successPolicy is specified");
    }
    if (policy.rules().size() > SuccessPolicy.MAX_RULES) {
      v.add(rulesPath, "must have at most " + SuccessPolicy.MAX_RULES
          + " items", policy.rules().size());
    }
    for (int i = 0; i < policy.rules().size(); i++) {
      successPolicyRule(policy.rules().get(i), rulesPath + "[" + i + "]", completions, v);
    }
  }

  private static void successPolicyRule(SuccessPolicyRule rule, String rulePath, int completions, Violations v) {
    String indexes = rule.succeededIndexes();
    Integer count = rule.succeededCount();
    if (indexes == null && count == null) {
      v.required(rulePath, "at least one of succeededCount or succeededIndexes must be specified");
    }
    long totalIndexes = 0;
    if (indexes != null) {
      String indexesPath = rulePath + ".succeededIndexes";
      if (indexes.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
          > SuccessPolicy.MAX_SUCCEEDED_INDEXES_LENGTH) {
        v.add(indexesPath, "Too long: must have at most " + SuccessPolicy.MAX_SUCCEEDED_INDEXES_LENGTH + " bytes",
            indexes.length());
      }
      try {
        totalIndexes = indexesTotal(indexes, completions);
      } catch (IllegalArgumentException e) {
        v.add(indexesPath, "error parsing succeededIndexes: " + e.getMessage(), indexes);
      }
    }
    if (count != null) {
      String countPath = rulePath + ".succeededCount";
      v.nonNegative(countPath, count);
      if (count > completions) {
        v.add(countPath, "must be less than or equal to " + completions + " (the number of specified completions)",
            count);
      }
      if (indexes != null && count > totalIndexes) {
        v.add(countPath, "must be less than or equal to " + totalIndexes
            + " (the number of indexes in the specified succeededIndexes field)", count);
      }
    }
  }

  /**
   * Upstream's {@code validateIndexesFormat}: how many indexes {@code indexes} ({@code "1,3-5"}) names, each below
   * {@code completions}, intervals increasing; {@code ""} names none.
   *
   * @throws IllegalArgumentException with upstream's message when the text is not in that form
   */
  static long indexesTotal(String indexes, int completions) {
    if (indexes.isEmpty()) {
      return 0;
    }
    Long last = null;
    long total = 0;
    for (String interval : indexes.split(",", -1)) {
      long[] xy = interval(interval, completions);
      if (last != null && last >= xy[0]) {
        throw new IllegalArgumentException("non-increasing order, previous: " + last + ", current: " + xy[0]);
      }
      total += xy[1] - xy[0] + 1;
      last = xy[1];
    }
    return total;
  }

  /** Upstream's {@code parseIndexInterval}. */
  private static long[] interval(String interval, int completions) {
    String[] limits = interval.split("-", -1);
    if (limits.length > 2) {
      throw new IllegalArgumentException("the fragment \"" + interval + "\" violates the requirement that an index "
          + "interval can have at most two parts separated by '-'");
    }
    long x = parseIndex(limits[0], completions);
    if (limits.length == 1) {
      return new long[] {x, x};
    }
    long y = parseIndex(limits[1], completions);
    if (x >= y) {
      throw new IllegalArgumentException("non-increasing order, previous: " + x + ", current: " + y);
    }
    return new long[] {x, y};
  }

  private static long parseIndex(String text, int completions) {
    long value;
    try {
      value = GoIntegers.atoi(text); // ASCII digits: Long.parseLong would read other scripts' digits too
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("cannot convert string to integer for index: \"" + text + "\"");
    }
    if (value >= completions) {
      throw new IllegalArgumentException("too large index: \"" + text + "\"");
    }
    return value;
  }

  private static void rule(PodFailurePolicyRule rule, String rulePath, Set<String> containerNames,
      boolean perIndexBackoff, Violations v) {
    PodFailurePolicyAction action = rule.action();
    if (action == null) {
      v.required(rulePath + ".action", ACTIONS);
    } else if (action == PodFailurePolicyAction.FailIndex && !perIndexBackoff) {
      v.add(rulePath + ".action", "requires the backoffLimitPerIndex to be set", action);
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
