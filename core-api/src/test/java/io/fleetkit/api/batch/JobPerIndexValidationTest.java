package io.fleetkit.api.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/apis/batch/validation/validation_test.go} (kubernetes, the stored version with
 * managedBy, successPolicy and podReplacementPolicy, Kubernetes 1.32+, the one {@code JobPodFailurePolicyValidationTest}
 * ports; rules from {@code validation.go} of the same generation), {@code TestValidateJob}: its
 * {@code backoffLimitPerIndex}, {@code maxFailedIndexes} and {@code successPolicy} cases, success and error. As
 * upstream, an error case checks the first error's field and message (here also its value). The upstream Job has
 * a container {@code abc} and an init container {@code def}, restartPolicy OnFailure (Never where upstream uses
 * {@code validPodTemplateSpecForGeneratedRestartPolicyNever}). Upstream's Job without {@code parallelism} is
 * defaulted to 1 by {@link Job#builder()}, which none of these rules looks at.
 */
final class JobPerIndexValidationTest {

  private static Job.Builder job(RestartPolicy restartPolicy) {
    return Job.builder().namespace("default").name("myjob").templateLabels(Map.of("controller-uid", "1a2b3c"))
        .selector(LabelSelector.of(Map.of("controller-uid", "1a2b3c")))
        .podSpec(PodSpec.builder().restartPolicy(restartPolicy).container("abc", "image", ResourceList.EMPTY)
            .initContainer("def", "image", ResourceList.EMPTY).build());
  }

  private static Job.Builder indexed(RestartPolicy restartPolicy, @Nullable Integer completions) {
    return job(restartPolicy).completionMode(CompletionMode.Indexed).completions(completions);
  }

  @Test
  void validSuccessPolicy_accepted() {
    // upstream: "valid success policy"
    Job j = indexed(RestartPolicy.Never, 10).successPolicy(SuccessPolicy.of(
        new SuccessPolicyRule("0,2,4", 1), SuccessPolicyRule.indexes("1,3,5-9"))).build();
    assertThat(j.spec().successPolicy().rules()).hasSize(2);
  }

  @Test
  void validPodFailurePolicyWithFailIndex_accepted() {
    // upstream: "valid pod failure policy with FailIndex"
    Job j = indexed(RestartPolicy.Never, 2).backoffLimitPerIndex(1).podFailurePolicy(PodFailurePolicy.of(
        PodFailurePolicyRule.onExitCodes(PodFailurePolicyAction.FailIndex,
            PodFailurePolicyOnExitCodesRequirement.of(PodFailurePolicyOnExitCodesOperator.In, 10)))).build();
    assertThat(j.spec().backoffLimitPerIndex()).isEqualTo(1);
    // upstream's SetDefaults_Job: backoffLimit MaxInt32 when only backoffLimitPerIndex is given
    assertThat(j.spec().backoffLimit()).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void validHighCompletionsWithBackoffLimitPerIndex_accepted() {
    // upstream: "valid parallelism and maxFailedIndexes for high completions when backoffLimitPerIndex is used"
    assertThatCode(() -> indexed(RestartPolicy.OnFailure, 100_000).parallelism(100_000).maxFailedIndexes(100_000)
        .backoffLimitPerIndex(1).build()).doesNotThrowAnyException();
    // upstream: "valid parallelism and maxFailedIndexes for unlimited completions when backoffLimitPerIndex is used"
    assertThatCode(() -> indexed(RestartPolicy.OnFailure, 1_000_000_000).parallelism(10_000)
        .maxFailedIndexes(10_000).backoffLimitPerIndex(1).build()).doesNotThrowAnyException();
  }

  record Case(String name, Job.Builder job, String field, String rule, @Nullable String value) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case c(String name, Job.Builder job, String field, String rule, @Nullable String value) {
    return new Case(name, job, field, rule, value);
  }

  static Stream<Case> errors() {
    List<SuccessPolicyRule> tooManyRules = new ArrayList<>();
    for (int i = 0; i < 21; i++) {
      tooManyRules.add(SuccessPolicyRule.count(5));
    }
    String rule0 = "spec.successPolicy.rules[0]";
    return Stream.of(
        c("spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{}}: requires "
            + "indexed completion mode", job(RestartPolicy.Never).successPolicy(new SuccessPolicy(List.of())),
            "spec.successPolicy", "requires indexed completion mode", "SuccessPolicy[rules=[]]"),
        c("spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy "
            + "is specified", indexed(RestartPolicy.Never, 5).successPolicy(new SuccessPolicy(List.of())),
            "spec.successPolicy.rules", "Required value: at least one rules must be specified when the "
                + "successPolicy is specified", null),
        c("spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be "
            + "specified", indexed(RestartPolicy.Never, 5).successPolicy(SuccessPolicy.of(
                new SuccessPolicyRule(null, null))),
            rule0, "Required value: at least one of succeededCount or succeededIndexes must be specified", null),
        c("spec.successPolicy.rules[0].succeededIndexes: Invalid value: \"invalid-format\": error parsing "
            + "succeededIndexes: cannot convert string to integer for index: \"invalid\"",
            indexed(RestartPolicy.Never, 5).successPolicy(SuccessPolicy.of(
                SuccessPolicyRule.indexes("invalid-format"))),
            rule0 + ".succeededIndexes", "error parsing succeededIndexes: cannot convert string to integer for "
                + "index: \"invalid\"", "invalid-format"),
        c("spec.successPolicy.rules[0].succeededIndexes: Too long: must have at most 65536 bytes",
            indexed(RestartPolicy.Never, 5).successPolicy(SuccessPolicy.of(
                SuccessPolicyRule.indexes("1".repeat(SuccessPolicy.MAX_SUCCEEDED_INDEXES_LENGTH + 1)))),
            rule0 + ".succeededIndexes", "Too long: must have at most 65536 bytes", "65537"),
        c("spec.successPolicy.rules[0].succeededCount: must be greater than or equal to 0",
            indexed(RestartPolicy.Never, 5).successPolicy(SuccessPolicy.of(SuccessPolicyRule.count(-1))),
            rule0 + ".succeededCount", "must be greater than or equal to 0", "-1"),
        c("spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 5 (the "
            + "number of specified completions)",
            indexed(RestartPolicy.Never, 5).successPolicy(SuccessPolicy.of(SuccessPolicyRule.count(6))),
            rule0 + ".succeededCount", "must be less than or equal to 5 (the number of specified completions)",
            "6"),
        c("spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 (the "
            + "number of indexes in the specified succeededIndexes field)",
            indexed(RestartPolicy.Never, 5).successPolicy(SuccessPolicy.of(new SuccessPolicyRule("0-2", 4))),
            rule0 + ".succeededCount", "must be less than or equal to 3 (the number of indexes in the specified "
                + "succeededIndexes field)", "4"),
        c("spec.successPolicy.rules: Too many: 21: must have at most 20 items",
            indexed(RestartPolicy.Never, 5).successPolicy(new SuccessPolicy(tooManyRules)),
            "spec.successPolicy.rules", "must have at most 20 items", "21"),
        c("spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode",
            job(RestartPolicy.OnFailure).backoffLimitPerIndex(1),
            "spec.backoffLimitPerIndex", "requires indexed completion mode", "1"),
        c("spec.backoffLimitPerIndex:must be greater than or equal to 0",
            indexed(RestartPolicy.OnFailure, null).backoffLimitPerIndex(-1),
            "spec.backoffLimitPerIndex", "must be greater than or equal to 0", "-1"),
        c("spec.maxFailedIndexes: Invalid value: 11: must be less than or equal to completions",
            indexed(RestartPolicy.OnFailure, 10).maxFailedIndexes(11).backoffLimitPerIndex(1),
            "spec.maxFailedIndexes", "must be less than or equal to completions", "11"),
        c("spec.maxFailedIndexes: Required value: must be specified when completions is above 100000",
            indexed(RestartPolicy.OnFailure, 100_001).backoffLimitPerIndex(1),
            "spec.maxFailedIndexes", "Required value: must be specified when completions is above 100000", null),
        c("spec.parallelism: Invalid value: 50000: must be less than or equal to 10000 when completions are above "
            + "100000 and used with backoff limit per index",
            indexed(RestartPolicy.OnFailure, 100_001).parallelism(50_000).backoffLimitPerIndex(1)
                .maxFailedIndexes(1),
            "spec.parallelism", "must be less than or equal to 10000 when completions are above 100000 and used "
                + "with backoff limit per index", "50000"),
        c("spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 100000",
            indexed(RestartPolicy.OnFailure, 100_001).backoffLimitPerIndex(1).maxFailedIndexes(100_001),
            "spec.maxFailedIndexes", "must be less than or equal to 100000", "100001"),
        c("spec.maxFailedIndexes: Invalid value: 50000: must be less than or equal to 10000 when completions are "
            + "above 100000 and used with backoff limit per index",
            indexed(RestartPolicy.OnFailure, 100_001).backoffLimitPerIndex(1).maxFailedIndexes(50_000),
            "spec.maxFailedIndexes", "must be less than or equal to 10000 when completions are above 100000 and "
                + "used with backoff limit per index", "50000"),
        c("spec.maxFailedIndexes:must be greater than or equal to 0",
            indexed(RestartPolicy.OnFailure, null).backoffLimitPerIndex(1).maxFailedIndexes(-1),
            "spec.maxFailedIndexes", "must be greater than or equal to 0", "-1"),
        c("spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified",
            indexed(RestartPolicy.OnFailure, null).maxFailedIndexes(1),
            "spec.backoffLimitPerIndex", "Required value: when maxFailedIndexes is specified", null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void validateJob_upstreamErrorCases(Case tc) {
    ValidationException e = catchThrowableOfType(ValidationException.class, tc.job()::build);
    assertThat(e).as("refused").isNotNull();
    Violation first = e.violations().get(0);
    assertThat(first.object()).isEqualTo("Job default/myjob");
    assertThat(first.field()).isEqualTo(tc.field());
    assertThat(first.rule()).isEqualTo(tc.rule());
    assertThat(first.value()).isEqualTo(tc.value());
  }

  @Test
  void succeededIndexesFormat_upstreamParseErrors() {
    // validateIndexesFormat / parseIndexInterval messages (the validation of the rule's succeededIndexes)
    assertThat(JobPolicyChecks.indexesTotal("", 5)).isZero();
    assertThat(JobPolicyChecks.indexesTotal("0,2-4", 5)).isEqualTo(4);
    assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> JobPolicyChecks.indexesTotal("1-2-3", 5)))
        .hasMessage("the fragment \"1-2-3\" violates the requirement that an index interval can have at most two "
            + "parts separated by '-'");
    assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> JobPolicyChecks.indexesTotal("5", 5)))
        .hasMessage("too large index: \"5\"");
    assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> JobPolicyChecks.indexesTotal("3-1", 5)))
        .hasMessage("non-increasing order, previous: 3, current: 1");
    assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> JobPolicyChecks.indexesTotal("2,1", 5)))
        .hasMessage("non-increasing order, previous: 2, current: 1");
  }

  /** Atoi reads ASCII digits only; Long.parseLong read "\u0663" (Arabic-Indic three) as index 3. */
  @Test
  void succeededIndexesFormat_digitOfAnotherScript_cannotConvert() {
    assertThat(catchThrowableOfType(IllegalArgumentException.class,
        () -> JobPolicyChecks.indexesTotal("0,\u0663", 5)))
        .hasMessage("cannot convert string to integer for index: \"\u0663\"");
    assertThat(catchThrowableOfType(IllegalArgumentException.class,
        () -> JobPolicyChecks.indexesTotal("1-\uff14", 5)))
        .hasMessage("cannot convert string to integer for index: \"\uff14\"");
    assertThat(JobPolicyChecks.indexesTotal("0,+3", 5)).as("Atoi takes a sign").isEqualTo(2);
  }

  @Test
  void builder_keepsAnExplicitBackoffLimitWithPerIndex() {
    Job j = indexed(RestartPolicy.Never, 3).backoffLimitPerIndex(2).backoffLimit(4).build();
    assertThat(j.spec().backoffLimit()).isEqualTo(4);
    assertThat(job(RestartPolicy.Never).build().spec().backoffLimit()).isEqualTo(JobSpec.DEFAULT_BACKOFF_LIMIT);
  }

  @Test
  void specWithers_keepThePerIndexFieldsAndSuccessPolicy() {
    JobSpec s = indexed(RestartPolicy.Never, 4).backoffLimitPerIndex(1).maxFailedIndexes(2)
        .successPolicy(SuccessPolicy.of(SuccessPolicyRule.count(2))).build().spec();
    for (JobSpec copy : List.of(s.withSuspend(true), s.withParallelism(3), s.withCompletions(4), s.withSelector(null),
        s.withTemplate(s.template()), s.withPodFailurePolicy(null), s.withPodReplacementPolicy(null))) {
      assertThat(copy.backoffLimitPerIndex()).isEqualTo(1);
      assertThat(copy.maxFailedIndexes()).isEqualTo(2);
      assertThat(copy.successPolicy()).isEqualTo(s.successPolicy());
    }
    JobStatus st = JobStatus.EMPTY.withFailedIndexes("0,2");
    assertThat(st.withConditions(List.of()).withStartTime(null).failedIndexes()).isEqualTo("0,2");
  }
}
