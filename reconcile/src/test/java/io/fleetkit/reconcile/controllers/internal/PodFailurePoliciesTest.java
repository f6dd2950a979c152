package io.fleetkit.reconcile.controllers.internal;

import static io.fleetkit.api.batch.PodFailurePolicyAction.Count;
import static io.fleetkit.api.batch.PodFailurePolicyAction.FailIndex;
import static io.fleetkit.api.batch.PodFailurePolicyAction.FailJob;
import static io.fleetkit.api.batch.PodFailurePolicyAction.Ignore;
import static io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator.In;
import static io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator.NotIn;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.PodFailurePolicy;
import io.fleetkit.api.batch.PodFailurePolicyAction;
import io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator;
import io.fleetkit.api.batch.PodFailurePolicyOnExitCodesRequirement;
import io.fleetkit.api.batch.PodFailurePolicyOnPodConditionsPattern;
import io.fleetkit.api.batch.PodFailurePolicyRule;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/job/pod_failure_policy_test.go} (kubernetes commit
 * 1892e4deb967a2b39cfc2fea87a8bd49274449ef; matcher {@code pod_failure_policy.go} at
 * 95f08499d652a6211121d8af35f470609217c730), {@code TestMatchPodFailurePolicy}: 21 of its 23 cases, each comparing
 * the job failure message, whether the failure counts and the matched action, plus FleetKit's check that an init
 * container's exit code is matched when no container's is (upstream's {@code matchOnExitCodes}).
 *
 * <p>Upstream's "unknown action" and "unknown operator" rules (strings the API would refuse) are rules FleetKit's
 * enums cannot name; they are ported with a missing action or operator, the values FleetKit's model can hold and
 * Job validation refuses, which the matcher skips as upstream skips unknown ones. Not ported: "FailIndex rule matched for exit codes;
 * JobBackoffLimitPerIndex disabled" and "... for pod conditions; JobBackoffLimitPerIndex disabled": FleetKit has no
 * feature gates (the enabled variants are ported).
 */
final class PodFailurePoliciesTest {

  record Case(String name, @Nullable PodFailurePolicy policy, Pod failedPod, @Nullable String wantMessage,
      boolean wantCountFailed, @Nullable PodFailurePolicyAction wantAction) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Pod pod(List<ContainerStatus> containers, List<PodCondition> conditions) {
    Pod p = Pod.of(ObjectMeta.builder().namespace("default").name("mypod").build(), PodSpec.builder()
        .container("main-container", "image", io.fleetkit.api.resource.ResourceList.EMPTY).build());
    return p.withStatus(new PodStatus(PodPhase.Failed, conditions, "", "", null, containers, "", ""));
  }

  private static Pod exited(Object... nameAndCode) {
    List<ContainerStatus> cs = new java.util.ArrayList<>();
    for (int i = 0; i < nameAndCode.length; i += 2) {
      cs.add(new ContainerStatus((String) nameAndCode[i], false, 0,
          ContainerState.terminated((Integer) nameAndCode[i + 1], "", null)));
    }
    return pod(cs, List.of());
  }

  private static Pod withInit(Pod pod, String name, int exitCode) {
    return pod.withStatus(pod.status().withInitContainerStatuses(List.of(new ContainerStatus(name, false, 0,
        ContainerState.terminated(exitCode, "", null)))));
  }

  private static Pod withCondition(String type, ConditionStatus status) {
    return pod(List.of(), List.of(PodCondition.of(type, status, "", "", null)));
  }

  private static PodFailurePolicyRule codes(@Nullable PodFailurePolicyAction action,
      @Nullable PodFailurePolicyOnExitCodesOperator op, Integer... values) {
    return new PodFailurePolicyRule(action, new PodFailurePolicyOnExitCodesRequirement(null, op, List.of(values)),
        List.of());
  }

  private static PodFailurePolicyRule conds(@Nullable PodFailurePolicyAction action, String type,
      ConditionStatus status) {
    return new PodFailurePolicyRule(action, null,
        List.of(new PodFailurePolicyOnPodConditionsPattern(type, status)));
  }

  private static PodFailurePolicy policy(PodFailurePolicyRule... rules) {
    return PodFailurePolicy.of(rules);
  }

  private static final String DT = PodCondition.DISRUPTION_TARGET;
  private static final ConditionStatus T = ConditionStatus.True;
  private static final ConditionStatus F = ConditionStatus.False;
  private static final ConditionStatus U = ConditionStatus.Unknown;

  static Stream<Case> cases() {
    Pod main2 = exited("main-container", 2);
    Pod dtTrue = withCondition(DT, T);
    return Stream.of(
        new Case("unknown action for rule matching by exit codes - skip rule with unknown action",
            policy(codes(null, In, 1, 2), codes(FailJob, In, 2, 3)), main2,
            "Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 1",
            true, FailJob),
        new Case("unknown action for rule matching by pod conditions - skip rule with unknown action",
            policy(conds(null, DT, T), conds(Ignore, DT, T)), dtTrue, null, false, Ignore),
        new Case("unknown operator - rule with unknown action is skipped for onExitCodes",
            policy(codes(Ignore, null, 1, 2), codes(FailJob, In, 2, 3)), main2,
            "Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 1",
            true, FailJob),
        new Case("no policy rules", null, exited("", 2), null, true, null),
        new Case("ignore rule matched for exit codes", policy(codes(Ignore, In, 1, 2, 3)), exited("", 2), null, false,
            Ignore),
        new Case("FailJob rule matched for exit codes", policy(codes(FailJob, In, 1, 2, 3)), main2,
            "Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 0",
            true, FailJob),
        new Case("successful containers are skipped by the rules", policy(codes(FailJob, NotIn, 111)),
            withInit(exited("main-container", 111, "suppport-container", 0), "init-container", 0), null, true, null),
        new Case("FleetKit: init container exit code matched after the containers'", policy(codes(FailJob, In, 5)),
            withInit(exited("main-container", 143), "init-container", 5),
            "Container init-container for pod default/mypod failed with exit code 5 matching FailJob rule at index 0",
            true, FailJob),
        new Case("FailIndex rule matched for exit codes; JobBackoffLimitPerIndex enabled",
            policy(codes(FailIndex, In, 1, 2, 3)), exited("", 2), null, true, FailIndex),
        new Case("pod failure policy with NotIn operator and value 0", policy(codes(FailJob, NotIn, 0)),
            exited("main-container", 1, "suppport-container", 0),
            "Container main-container for pod default/mypod failed with exit code 1 matching FailJob rule at index 0",
            true, FailJob),
        new Case("second jobfail rule matched for exit codes",
            policy(codes(Count, In, 1, 2, 3), codes(FailJob, In, 4, 5, 6)), exited("main-container", 6),
            "Container main-container for pod default/mypod failed with exit code 6 matching FailJob rule at index 1",
            true, FailJob),
        new Case("count rule matched for exit codes", policy(codes(Count, In, 1, 2, 3)),
            pod(List.of(new ContainerStatus("foo", false, 0, ContainerState.WAITING),
                new ContainerStatus("bar", false, 0, ContainerState.terminated(2, "", null))), List.of()),
            null, true, Count),
        new Case("FailIndex rule matched for pod conditions; JobBackoffLimitPerIndex enabled",
            policy(conds(FailIndex, DT, T)), dtTrue, null, true, FailIndex),
        new Case("ignore rule matched for pod conditions", policy(conds(Ignore, DT, T)), dtTrue, null, false, Ignore),
        new Case("ignore rule matches by the status=False", policy(conds(Ignore, DT, F)), withCondition(DT, F), null,
            false, Ignore),
        new Case("ignore rule matches by the status=Unknown", policy(conds(Ignore, DT, U)), withCondition(DT, U),
            null, false, Ignore),
        new Case("ignore rule does not match when status for pattern is False, but actual True",
            policy(conds(Ignore, DT, F)), dtTrue, null, true, null),
        new Case("ignore rule does not match when status for pattern is True, but actual False",
            policy(conds(Ignore, DT, T)), withCondition(DT, F), null, true, null),
        new Case("default - do not match condition with status=False", policy(conds(Ignore, DT, T)),
            withCondition(DT, F), null, true, null),
        new Case("job fail rule matched for pod conditions", policy(conds(FailJob, DT, T)), dtTrue,
            "Pod default/mypod has condition DisruptionTarget matching FailJob rule at index 0", true, FailJob),
        new Case("count rule matched for pod conditions", policy(conds(Count, DT, T)), dtTrue, null, true, Count),
        new Case("no rule matched", policy(codes(Count, NotIn, 8), codes(Ignore, In, 1, 2, 3),
            codes(FailJob, NotIn, 5, 6, 7), conds(Count, "ResourceLimitExceeded", T), conds(Ignore, DT, T)),
            exited("", 32), null, true, Count));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchPodFailurePolicy_upstreamTable(Case tc) {
    PodFailurePolicies.Match m = PodFailurePolicies.match(tc.policy(), tc.failedPod());
    assertThat(m.jobFailureMessage()).as("job failure message").isEqualTo(tc.wantMessage());
    assertThat(m.countFailed()).as("count failed").isEqualTo(tc.wantCountFailed());
    assertThat(m.action()).as("action").isEqualTo(tc.wantAction());
  }
}
