package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.UncountedTerminatedPods;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A Job's {@code status.uncountedTerminatedPods} through the loader: read, dump, and left out when empty. */
final class JobUncountedPodsYamlTest {
  private static final String JOB = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: calc
      spec:
        template:
          spec:
            restartPolicy: Never
            containers:
            - name: main
              image: worker
      status:
        succeeded: 2
        uncountedTerminatedPods:
          succeeded: ["uid-a", "uid-c"]
          failed: ["uid-b"]
      """;

  private static Job parse(String yaml) {
    return (Job) KubernetesYaml.parse(yaml, "job.yaml").objects().get(0);
  }

  @Test
  void parse_uidLists_inTheirOrder() {
    Job j = parse(JOB);
    assertThat(j.status().uncountedTerminatedPods())
        .isEqualTo(new UncountedTerminatedPods(List.of("uid-a", "uid-c"), List.of("uid-b")));
    assertThat(parse(JOB.replace("  failed: [\"uid-b\"]\n", "")).status().uncountedTerminatedPods().failed())
        .isEmpty();
  }

  @Test
  void dump_roundTrips_andLeavesAnEmptyOneOut() {
    Job j = parse(JOB);
    String yaml = KubernetesYaml.dump(List.of(j));
    assertThat(yaml).contains("uncountedTerminatedPods").contains("uid-b");
    assertThat(parse(yaml).status()).isEqualTo(j.status());
    Job none = j.withStatus(j.status().withUncountedTerminatedPods(UncountedTerminatedPods.EMPTY));
    assertThat(KubernetesYaml.dump(List.of(none))).doesNotContain("uncountedTerminatedPods");
  }
}
