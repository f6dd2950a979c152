package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.SuccessPolicyRule;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Job's backoffLimitPerIndex, maxFailedIndexes and successPolicy, and its status.failedIndexes, through the loader:
 * read, Kubernetes' defaults (backoffLimit MaxInt32 with a per-index limit), dump and errors.
 */
final class JobPerIndexYamlTest {
  private static final String JOB = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: shards
      spec:
        completionMode: Indexed
        completions: 10
        parallelism: 4
        backoffLimitPerIndex: 2
        maxFailedIndexes: 3
        successPolicy:
          rules:
          - succeededIndexes: "0,2-4"
            succeededCount: 2
          - succeededCount: 8
        template:
          spec:
            restartPolicy: Never
            containers:
            - name: main
              image: worker
      status:
        completedIndexes: "1"
        failedIndexes: "0,5"
      """;

  private static Job parse(String yaml) {
    return (Job) KubernetesYaml.parse(yaml, "job.yaml").objects().get(0);
  }

  @Test
  void parse_perIndexFieldsSuccessPolicyAndDefaults() {
    Job j = parse(JOB);
    assertThat(j.spec().completionMode()).isEqualTo(CompletionMode.Indexed);
    assertThat(j.spec().backoffLimitPerIndex()).isEqualTo(2);
    assertThat(j.spec().maxFailedIndexes()).isEqualTo(3);
    assertThat(j.spec().backoffLimit()).isEqualTo(JobSpec.DEFAULT_BACKOFF_LIMIT_PER_INDEX_JOB);
    assertThat(j.spec().successPolicy().rules()).containsExactly(new SuccessPolicyRule("0,2-4", 2),
        SuccessPolicyRule.count(8));
    assertThat(j.status().failedIndexes()).isEqualTo("0,5");
    assertThat(parse(JOB.replace("  backoffLimitPerIndex: 2\n  maxFailedIndexes: 3\n", "")).spec().backoffLimit())
        .isEqualTo(JobSpec.DEFAULT_BACKOFF_LIMIT);
  }

  @Test
  void dump_roundTripsAndLeavesTheDefaultBackoffLimitOut() {
    Job j = parse(JOB);
    String yaml = KubernetesYaml.dump(List.of(j));
    assertThat(yaml).contains("backoffLimitPerIndex: 2").contains("maxFailedIndexes: 3").contains("successPolicy")
        .contains("failedIndexes").doesNotContain("backoffLimit: ");
    Job again = parse(yaml);
    assertThat(again.spec()).isEqualTo(j.spec());
    assertThat(again.status()).isEqualTo(j.status());
    Job explicit = parse(JOB.replace("backoffLimitPerIndex: 2", "backoffLimitPerIndex: 2\n  backoffLimit: 6"));
    assertThat(explicit.spec().backoffLimit()).isEqualTo(6);
    assertThat(parse(KubernetesYaml.dump(List.of(explicit))).spec().backoffLimit()).isEqualTo(6);
  }

  @Test
  void parse_invalidRulesAndNonIndexed_errorsNameTheField() {
    ManifestException format = catchThrowableOfType(ManifestException.class, () -> parse(
        JOB.replace("\"0,2-4\"", "\"4-2\"")));
    assertThat(format.getMessage()).contains("spec.successPolicy.rules[0].succeededIndexes")
        .contains("error parsing succeededIndexes: non-increasing order, previous: 4, current: 2");
    ManifestException nonIndexed = catchThrowableOfType(ManifestException.class, () -> parse(
        JOB.replace("completionMode: Indexed", "completionMode: NonIndexed")));
    assertThat(nonIndexed.getMessage()).contains("spec.backoffLimitPerIndex").contains("requires indexed completion mode");
  }

  @Test
  void managedBy_readWrittenAndValidated() {
    Job j = parse(JOB.replace("  completionMode: Indexed\n", "  completionMode: Indexed\n  managedBy: kueue.x-k8s.io/multikueue\n"));
    assertThat(j.spec().managedBy()).isEqualTo("kueue.x-k8s.io/multikueue");
    String yaml = KubernetesYaml.dump(List.of(j));
    assertThat(yaml).contains("managedBy: \"kueue.x-k8s.io/multikueue\"");
    assertThat(parse(yaml).spec()).isEqualTo(j.spec());
    assertThat(parse(JOB).spec().managedBy()).isNull();
    assertThat(KubernetesYaml.dump(List.of(parse(JOB)))).doesNotContain("managedBy");
    ManifestException bad = catchThrowableOfType(ManifestException.class, () -> parse(
        JOB.replace("  completionMode: Indexed\n", "  completionMode: Indexed\n  managedBy: multikueue\n")));
    assertThat(bad.getMessage()).contains("spec.managedBy").contains("must be a domain-prefixed path");
  }
}
