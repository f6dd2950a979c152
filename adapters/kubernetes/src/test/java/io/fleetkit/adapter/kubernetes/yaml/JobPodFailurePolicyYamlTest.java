package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.PodFailurePolicyAction;
import io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator;
import io.fleetkit.api.batch.PodFailurePolicyRule;
import io.fleetkit.api.batch.PodReplacementPolicy;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.meta.ConditionStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Job's podFailurePolicy and podReplacementPolicy through the loader: read, defaults, dump, errors; and a pod's
 * initContainerStatuses, whose exit codes the policy matches.
 */
final class JobPodFailurePolicyYamlTest {
  private static final String JOB = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: train
      spec:
        podReplacementPolicy: Failed
        podFailurePolicy:
          rules:
          - action: FailJob
            onExitCodes:
              containerName: main
              operator: In
              values: [42]
          - action: Ignore
            onPodConditions:
            - type: DisruptionTarget
        template:
          spec:
            restartPolicy: Never
            containers:
            - name: main
              image: trainer
      """;

  private static Job parse(String yaml) {
    return (Job) KubernetesYaml.parse(yaml, "job.yaml").objects().get(0);
  }

  @Test
  void parse_rulesAndDefaults() {
    Job j = parse(JOB);
    List<PodFailurePolicyRule> rules = j.spec().podFailurePolicy().rules();
    assertThat(rules).hasSize(2);
    assertThat(rules.get(0).action()).isEqualTo(PodFailurePolicyAction.FailJob);
    assertThat(rules.get(0).onExitCodes().containerName()).isEqualTo("main");
    assertThat(rules.get(0).onExitCodes().operator()).isEqualTo(PodFailurePolicyOnExitCodesOperator.In);
    assertThat(rules.get(0).onExitCodes().values()).containsExactly(42);
    assertThat(rules.get(1).onPodConditions()).singleElement().satisfies(p -> {
      assertThat(p.type()).isEqualTo(PodCondition.DISRUPTION_TARGET);
      assertThat(p.status()).as("Kubernetes' default").isEqualTo(ConditionStatus.True);
    });
    assertThat(j.spec().podReplacementPolicy()).isEqualTo(PodReplacementPolicy.Failed);
  }

  @Test
  void dump_roundTrips() {
    Job j = parse(JOB);
    String yaml = KubernetesYaml.dump(List.of(j));
    assertThat(yaml).contains("podFailurePolicy").contains("DisruptionTarget").contains("podReplacementPolicy");
    Job again = parse(yaml);
    assertThat(again.spec()).isEqualTo(j.spec());
  }

  @Test
  void parse_unknownActionAndInvalidRule_errorsNameTheField() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> parse(
        JOB.replace("action: Ignore", "action: Retry")));
    assertThat(e.getMessage()).contains("spec.podFailurePolicy.rules[1].action").contains("Retry");

    ManifestException zero = catchThrowableOfType(ManifestException.class, () -> parse(
        JOB.replace("values: [42]", "values: [0, 42]")));
    assertThat(zero.getMessage()).contains("spec.podFailurePolicy.rules[0].onExitCodes.values[0]")
        .contains("must not be 0 for the In operator");
  }

  @Test
  void pod_initContainerStatuses_readAndDumped() {
    io.fleetkit.api.core.Pod p = (io.fleetkit.api.core.Pod) KubernetesYaml.parse("""
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
        spec:
          restartPolicy: Never
          initContainers:
          - name: setup
            image: busybox
          containers:
          - name: main
            image: trainer
        status:
          phase: Failed
          initContainerStatuses:
          - name: setup
            ready: false
            restartCount: 0
            state:
              terminated:
                exitCode: 5
        """, "pod.yaml").objects().get(0);
    assertThat(p.status().initContainerStatuses()).singleElement().satisfies(s -> {
      assertThat(s.name()).isEqualTo("setup");
      assertThat(s.state().exitCode()).isEqualTo(5);
    });
    io.fleetkit.api.core.Pod again = (io.fleetkit.api.core.Pod) KubernetesYaml.parse(KubernetesYaml.dump(List.of(p)),
        "dumped").objects().get(0);
    assertThat(again.status().initContainerStatuses()).isEqualTo(p.status().initContainerStatuses());
  }
}
