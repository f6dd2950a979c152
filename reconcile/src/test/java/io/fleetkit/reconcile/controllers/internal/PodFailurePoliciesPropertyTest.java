package io.fleetkit.reconcile.controllers.internal;

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
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of {@link PodFailurePolicies#match}: the first matching rule decides (rules after it change nothing; with
 * none matching, an appended rule decides as it would alone; a FailJob message names the deciding rule's index), only
 * {@code Ignore} leaves a failure uncounted, only {@code FailJob} gives a job failure message, and no exit-code rule
 * matches a pod whose containers exited 0 or have not terminated.
 */
final class PodFailurePoliciesPropertyTest {

  private static final List<String> NAMES = List.of("a", "b");
  private static final List<String> TYPES = List.of(PodCondition.DISRUPTION_TARGET, "ResourceLimitExceeded");

  @Provide
  Arbitrary<PodFailurePolicyRule> rule() {
    Arbitrary<PodFailurePolicyAction> action = Arbitraries.of(PodFailurePolicyAction.values());
    Arbitrary<PodFailurePolicyRule> onCodes = Combinators.combine(action,
        Arbitraries.of(PodFailurePolicyOnExitCodesOperator.values()),
        Arbitraries.integers().between(0, 4).set().ofMinSize(1).ofMaxSize(3),
        Arbitraries.of("a", "b", "").injectNull(0.0)).as((a, op, values, name) -> PodFailurePolicyRule.onExitCodes(a,
            new PodFailurePolicyOnExitCodesRequirement(name.isEmpty() ? null : name, op,
                values.stream().sorted().toList())));
    Arbitrary<PodFailurePolicyRule> onConditions = Combinators.combine(action, Arbitraries.of(TYPES),
        Arbitraries.of(ConditionStatus.values())).as((a, type, status) -> PodFailurePolicyRule.onPodConditions(a,
            new PodFailurePolicyOnPodConditionsPattern(type, status)));
    return Arbitraries.oneOf(onCodes, onConditions);
  }

  @Provide
  Arbitrary<List<PodFailurePolicyRule>> rules() {
    return rule().list().ofMaxSize(5);
  }

  @Provide
  Arbitrary<Pod> failedPod() {
    Arbitrary<ContainerStatus> container = Combinators.combine(Arbitraries.of(NAMES),
        Arbitraries.integers().between(0, 4), Arbitraries.of(true, false)).as((name, code, terminated) ->
        new ContainerStatus(name, false, 0, terminated ? ContainerState.terminated(code, "", null)
            : ContainerState.running(null)));
    Arbitrary<PodCondition> condition = Combinators.combine(Arbitraries.of(TYPES),
        Arbitraries.of(ConditionStatus.values())).as((t, s) -> PodCondition.of(t, s, "", "", null));
    return Combinators.combine(container.list().ofMaxSize(2), container.list().ofMaxSize(1),
        condition.list().ofMaxSize(2)).as((cs, init, conds) -> {
          Pod p = Pod.of(ObjectMeta.builder().namespace("ns").name("p").build(),
              PodSpec.builder().container("a", "img", ResourceList.EMPTY).build());
          return p.withStatus(new PodStatus(PodPhase.Failed, conds, "", "", null, cs, "", "", List.of(), init));
        });
  }

  @Property
  void firstMatchingRuleDecides(@ForAll("rules") List<PodFailurePolicyRule> rules,
      @ForAll("rule") PodFailurePolicyRule extra, @ForAll("failedPod") Pod pod) {
    PodFailurePolicies.Match m = PodFailurePolicies.match(new PodFailurePolicy(rules), pod);
    List<PodFailurePolicyRule> more = new ArrayList<>(rules);
    more.add(extra);
    PodFailurePolicies.Match withMore = PodFailurePolicies.match(new PodFailurePolicy(more), pod);
    if (m.action() != null) {
      assertThat(withMore).as("a rule after the matching one changes nothing").isEqualTo(m);
    } else {
      PodFailurePolicies.Match alone = PodFailurePolicies.match(PodFailurePolicy.of(extra), pod);
      assertThat(withMore.action()).as("no earlier rule matched: the extra rule decides").isEqualTo(alone.action());
      assertThat(withMore.countFailed()).isEqualTo(alone.countFailed());
    }
  }

  @Property
  void onlyIgnoreUncounted_onlyFailJobHasMessage(@ForAll("rules") List<PodFailurePolicyRule> rules,
      @ForAll("failedPod") Pod pod) {
    PodFailurePolicies.Match m = PodFailurePolicies.match(new PodFailurePolicy(rules), pod);
    assertThat(m.countFailed()).isEqualTo(m.action() != PodFailurePolicyAction.Ignore);
    assertThat(m.jobFailureMessage() != null).isEqualTo(m.action() == PodFailurePolicyAction.FailJob);
    if (m.jobFailureMessage() != null) {
      assertThat(m.jobFailureMessage()).containsIgnoringCase("pod ns/p").endsWith("matching FailJob rule at index "
          + indexOfDecidingRule(rules, pod));
    }
  }

  @Property
  void exitCodeZeroAndRunningContainersNeverMatch(@ForAll("rules") List<PodFailurePolicyRule> rules,
      @ForAll("failedPod") Pod pod) {
    List<ContainerStatus> harmless = new ArrayList<>();
    for (ContainerStatus s : pod.status().containerStatuses()) {
      harmless.add(new ContainerStatus(s.name(), false, 0, s.state().exitCode() != null && s.state().exitCode() == 0
          ? s.state() : ContainerState.running(null)));
    }
    Pod noExitCodes = pod.withStatus(new PodStatus(PodPhase.Failed, List.of(), "", "", null, harmless, "", ""));
    assertThat(PodFailurePolicies.match(new PodFailurePolicy(rules), noExitCodes).action()).isNull();
  }

  /** The index of the first rule that matches alone. */
  private static int indexOfDecidingRule(List<PodFailurePolicyRule> rules, Pod pod) {
    for (int i = 0; i < rules.size(); i++) {
      if (PodFailurePolicies.match(PodFailurePolicy.of(rules.get(i)), pod).action() != null) {
        return i;
      }
    }
    return -1;
  }
}
