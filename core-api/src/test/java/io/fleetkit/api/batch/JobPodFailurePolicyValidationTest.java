package io.fleetkit.api.batch;

import static io.fleetkit.api.batch.PodFailurePolicyAction.Count;
import static io.fleetkit.api.batch.PodFailurePolicyAction.FailIndex;
import static io.fleetkit.api.batch.PodFailurePolicyAction.FailJob;
import static io.fleetkit.api.batch.PodFailurePolicyAction.Ignore;
import static io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator.In;
import static io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator.NotIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
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
 * managedBy, successPolicy and podReplacementPolicy, Kubernetes 1.32+), {@code TestValidateJob}: its pod failure
 * policy and pod replacement policy cases, success and error. The upstream Job has a container {@code abc} and an
 * init container {@code def}, restartPolicy Never (OnFailure for the pod replacement success cases); as upstream,
 * an error case checks the first error's field and message.
 *
 * <p>"valid pod failure policy with FailIndex" is in {@code JobPerIndexValidationTest}, with the other
 * {@code backoffLimitPerIndex} cases; a FailIndex rule without it is refused
 * ({@link #failIndex_withoutBackoffLimitPerIndex_refused()}). Not ported: the error cases
 * with an unknown action ({@code "UnknownAction"}), operator ({@code "UnknownOperator"}), condition status
 * ({@code "UnknownStatus"}) or an empty podReplacementPolicy ({@code ""}): FleetKit's enums cannot hold them, the
 * manifest reader refuses them.
 */
final class JobPodFailurePolicyValidationTest {

  private static PodSpec pod(RestartPolicy restartPolicy) {
    return PodSpec.builder().restartPolicy(restartPolicy).container("abc", "image", ResourceList.EMPTY)
        .initContainer("def", "image", ResourceList.EMPTY).build();
  }

  private static Job.Builder job(RestartPolicy restartPolicy) {
    return Job.builder().namespace("default").name("myjob").templateLabels(Map.of("controller-uid", "1a2b3c"))
        .selector(LabelSelector.of(Map.of("controller-uid", "1a2b3c"))).podSpec(pod(restartPolicy));
  }

  private static Job.Builder withPolicy(PodFailurePolicyRule... rules) {
    return job(RestartPolicy.Never).podFailurePolicy(PodFailurePolicy.of(rules));
  }

  private static PodFailurePolicyRule exitCodes(@Nullable PodFailurePolicyAction action,
      @Nullable PodFailurePolicyOnExitCodesOperator op, Integer... values) {
    return new PodFailurePolicyRule(action, new PodFailurePolicyOnExitCodesRequirement(null, op, List.of(values)),
        List.of());
  }

  private static PodFailurePolicyRule conditions(PodFailurePolicyAction action,
      PodFailurePolicyOnPodConditionsPattern... patterns) {
    return PodFailurePolicyRule.onPodConditions(action, patterns);
  }

  @Test
  void validPodFailurePolicy_accepted() {
    // upstream: "valid pod failure policy"
    Job j = withPolicy(
        conditions(Ignore, PodFailurePolicyOnPodConditionsPattern.of("DisruptionTarget")),
        conditions(FailJob, new PodFailurePolicyOnPodConditionsPattern("CustomConditionType", ConditionStatus.False)),
        PodFailurePolicyRule.onExitCodes(Count, PodFailurePolicyOnExitCodesRequirement.of(In, 1, 2, 3)
            .forContainer("abc")),
        PodFailurePolicyRule.onExitCodes(Ignore, PodFailurePolicyOnExitCodesRequirement.of(In, 4)
            .forContainer("def")),
        PodFailurePolicyRule.onExitCodes(FailJob, PodFailurePolicyOnExitCodesRequirement.of(NotIn, 5, 6, 7)))
        .build();
    assertThat(j.spec().podFailurePolicy().rules()).hasSize(5);
    assertThat(j.spec().effectivePodReplacementPolicy()).isEqualTo(PodReplacementPolicy.Failed);
  }

  @Test
  void validPodReplacement_accepted() {
    // upstream: "valid pod replacement", "valid pod replacement with failed"
    for (PodReplacementPolicy p : PodReplacementPolicy.values()) {
      Job j = job(RestartPolicy.OnFailure).podReplacementPolicy(p).build();
      assertThat(j.spec().podReplacementPolicy()).isEqualTo(p);
      assertThat(j.spec().effectivePodReplacementPolicy()).isEqualTo(p);
    }
    assertThat(job(RestartPolicy.OnFailure).build().spec().effectivePodReplacementPolicy())
        .isEqualTo(PodReplacementPolicy.TerminatingOrFailed);
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
    List<Integer> tooManyValues = new ArrayList<>();
    for (int i = 0; i <= PodFailurePolicy.MAX_EXIT_CODE_VALUES; i++) {
      tooManyValues.add(i);
    }
    List<PodFailurePolicyRule> tooManyRules = new ArrayList<>();
    for (int i = 0; i <= PodFailurePolicy.MAX_RULES; i++) {
      tooManyRules.add(exitCodes(FailJob, In, i + 1));
    }
    List<PodFailurePolicyOnPodConditionsPattern> tooManyPatterns = new ArrayList<>();
    for (int i = 0; i <= PodFailurePolicy.MAX_POD_CONDITION_PATTERNS; i++) {
      tooManyPatterns.add(PodFailurePolicyOnPodConditionsPattern.of("CustomType_" + i));
    }
    String rule0 = "spec.podFailurePolicy.rules[0]";
    return Stream.of(
        c("rules[0]: specifying one of OnExitCodes and OnPodConditions is required",
            withPolicy(new PodFailurePolicyRule(FailJob, null, List.of())), rule0,
            "specifying one of OnExitCodes and OnPodConditions is required", null),
        c("values[1]: Duplicate value: 11", withPolicy(exitCodes(FailJob, In, 11, 11)),
            rule0 + ".onExitCodes.values[1]", "Duplicate value", "11"),
        c("values: Too many: 256: must have at most 255 items",
            job(RestartPolicy.Never).podFailurePolicy(PodFailurePolicy.of(new PodFailurePolicyRule(FailJob,
                new PodFailurePolicyOnExitCodesRequirement(null, In, tooManyValues), List.of()))),
            rule0 + ".onExitCodes.values", "must have at most 255 items", "256"),
        c("rules: Too many: 21: must have at most 20 items",
            job(RestartPolicy.Never).podFailurePolicy(new PodFailurePolicy(tooManyRules)),
            "spec.podFailurePolicy.rules", "must have at most 20 items", "21"),
        c("onPodConditions: Too many: 21: must have at most 20 items",
            job(RestartPolicy.Never).podFailurePolicy(PodFailurePolicy.of(
                new PodFailurePolicyRule(FailJob, null, tooManyPatterns))),
            rule0 + ".onPodConditions", "must have at most 20 items", "21"),
        c("values[2]: Duplicate value: 13", withPolicy(exitCodes(FailJob, In, 12, 13, 13, 13)),
            rule0 + ".onExitCodes.values[2]", "Duplicate value", "13"),
        c("values: Invalid value: []int32{19, 11}: must be ordered", withPolicy(exitCodes(FailJob, In, 19, 11)),
            rule0 + ".onExitCodes.values", "must be ordered", "[19, 11]"),
        c("values: Invalid value: []int32{}: at least one value is required", withPolicy(exitCodes(FailJob, In)),
            rule0 + ".onExitCodes.values", "at least one value is required", "[]"),
        c("rules[0].action: Required value", withPolicy(exitCodes(null, In, 1, 2, 3)), rule0 + ".action",
            "Required value: valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]", null),
        c("onExitCodes.operator: Required value", withPolicy(exitCodes(FailJob, null, 1, 2, 3)),
            rule0 + ".onExitCodes.operator", "Required value: valid values: [\"In\" \"NotIn\"]", null),
        c("rules[0]: specifying both OnExitCodes and OnPodConditions is not supported",
            withPolicy(new PodFailurePolicyRule(FailJob, PodFailurePolicyOnExitCodesRequirement.of(In, 1, 2, 3)
                .forContainer("abc"), List.of(PodFailurePolicyOnPodConditionsPattern.of("DisruptionTarget")))),
            rule0, "specifying both OnExitCodes and OnPodConditions is not supported", null),
        c("values[1]: Invalid value: 0: must not be 0 for the In operator", withPolicy(exitCodes(Ignore, In, 1, 0, 2)),
            rule0 + ".onExitCodes.values[1]", "must not be 0 for the In operator", "0"),
        c("rules[1].onExitCodes.containerName: Invalid value: \"xyz\"",
            withPolicy(PodFailurePolicyRule.onExitCodes(Ignore, PodFailurePolicyOnExitCodesRequirement.of(In, 1, 2, 3)
                .forContainer("abc")), PodFailurePolicyRule.onExitCodes(FailJob,
                PodFailurePolicyOnExitCodesRequirement.of(In, 5, 6, 7).forContainer("xyz"))),
            "spec.podFailurePolicy.rules[1].onExitCodes.containerName",
            "must be one of the container or initContainer names in the pod template", "xyz"),
        c("onPodConditions[0].status: Required value",
            withPolicy(conditions(Ignore, new PodFailurePolicyOnPodConditionsPattern("DisruptionTarget", null))),
            rule0 + ".onPodConditions[0].status", "Required value: valid values: [\"False\" \"True\" \"Unknown\"]",
            null),
        c("onPodConditions[0].type: Invalid value: \"\": name part must be non-empty",
            withPolicy(conditions(Ignore, PodFailurePolicyOnPodConditionsPattern.of(""))),
            rule0 + ".onPodConditions[0].type", "name part must be non-empty", ""),
        c("onPodConditions[0].type: Invalid value: \"Invalid Condition Type\"",
            withPolicy(conditions(Ignore, PodFailurePolicyOnPodConditionsPattern.of("Invalid Condition Type"))),
            rule0 + ".onPodConditions[0].type", "name part must consist of alphanumeric characters, '-', '_' or '.', "
                + "and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
                + "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            "Invalid Condition Type"),
        c("spec.podReplacementPolicy: Unsupported value: \"TerminatingOrFailed\": supported values: \"Failed\"",
            withPolicy(conditions(Ignore, PodFailurePolicyOnPodConditionsPattern.of("DisruptionTarget")))
                .podReplacementPolicy(PodReplacementPolicy.TerminatingOrFailed),
            "spec.podReplacementPolicy", "Unsupported value: supported values: \"Failed\"", "TerminatingOrFailed"),
        c("spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported",
            job(RestartPolicy.OnFailure).podFailurePolicy(new PodFailurePolicy(List.of())),
            "spec.template.spec.restartPolicy", "only \"Never\" is supported when podFailurePolicy is specified",
            "OnFailure"));
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
  void failIndex_withoutBackoffLimitPerIndex_refused() {
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> withPolicy(exitCodes(FailIndex, In, 10)).completionMode(CompletionMode.Indexed).completions(2)
            .build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly("spec.podFailurePolicy.rules[0].action");
    assertThat(e.getMessage()).contains("requires the backoffLimitPerIndex to be set");
  }

  @Test
  void cronJobTemplate_podFailurePolicyCheckedUnderJobTemplate() {
    JobSpec spec = job(RestartPolicy.OnFailure).selector(null).build().spec()
        .withPodFailurePolicy(PodFailurePolicy.of(exitCodes(FailJob, In, 0)));
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> CronJob.builder().name("c")
        .schedule("* * * * *").jobSpec(spec).build());
    assertThat(e.violations()).extracting(Violation::field).contains(
        "spec.jobTemplate.spec.template.spec.restartPolicy",
        "spec.jobTemplate.spec.podFailurePolicy.rules[0].onExitCodes.values[0]");
  }

  @Test
  void specWithers_keepThePolicies() {
    JobSpec s = withPolicy(exitCodes(FailJob, In, 1)).podReplacementPolicy(PodReplacementPolicy.Failed).build()
        .spec();
    for (JobSpec copy : List.of(s.withSuspend(true), s.withParallelism(3), s.withCompletions(4), s.withSelector(null),
        s.withTemplate(s.template()))) {
      assertThat(copy.podFailurePolicy()).isEqualTo(s.podFailurePolicy());
      assertThat(copy.podReplacementPolicy()).isEqualTo(PodReplacementPolicy.Failed);
    }
    assertThatCode(() -> s.withPodFailurePolicy(null).withPodReplacementPolicy(null)).doesNotThrowAnyException();
  }
}
