package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.HistogramCheckpoint;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpoint;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCheckpointStatus;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * VerticalPodAutoscalerCheckpoints as {@code kubectl get vpacheckpoints -o yaml} prints them: the histories read with
 * their bucket indexes (JSON keys) and weights, an empty status as a checkpoint not yet written, and each broken rule
 * named by path.
 */
final class VpaCheckpointYamlTest {
  private static final String FILE = "roundtrip/verticalpodautoscalercheckpoint.yaml";

  private static String problems(String yaml) {
    try {
      KubernetesYaml.parse(yaml, "checkpoint.yaml");
    } catch (ManifestException e) {
      return e.problems().toString();
    }
    throw new AssertionError("no problem reported for " + yaml);
  }

  @Test
  void checkpoint_readWithItsHistories() {
    var loaded = KubernetesYaml.parse(RoundTripTest.resource(FILE), FILE).ofType(VerticalPodAutoscalerCheckpoint.class);
    VerticalPodAutoscalerCheckpoint c = loaded.get(0);
    assertThat(c.metadata().namespace()).isEqualTo("default");
    assertThat(c.spec().vpaObjectName()).isEqualTo("hamster-vpa");
    assertThat(c.spec().containerName()).isEqualTo("hamster");
    VerticalPodAutoscalerCheckpointStatus s = c.status();
    assertThat(s.version()).isEqualTo("v3");
    assertThat(s.lastUpdateTime()).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
    assertThat(s.cpuHistogram()).isEqualTo(new HistogramCheckpoint(Instant.parse("2026-12-01T00:00:00Z"),
        Map.of(1, 10000, 2, 1245, 17, 3), 3.4));
    assertThat(s.memoryHistogram().bucketWeights()).containsExactly(Map.entry(30, 10000));
    assertThat(s.firstSampleStart()).isEqualTo(Instant.parse("2026-11-30T10:00:00Z"));
    assertThat(s.lastSampleStart()).isEqualTo(Instant.parse("2026-12-01T09:59:00Z"));
    assertThat(s.totalSamplesCount()).isEqualTo(1440);
    // no status: a checkpoint not yet written
    assertThat(loaded.get(1).status()).isEqualTo(VerticalPodAutoscalerCheckpointStatus.EMPTY);
    assertThat(loaded.get(1).metadata().namespace()).isEqualTo("default");
  }

  private static final String HEAD = """
      apiVersion: autoscaling.k8s.io/v1
      kind: VerticalPodAutoscalerCheckpoint
      metadata: {name: web-vpa-app}
      """;

  @Test
  void badCheckpoints_reportedWithThePath() {
    assertThat(problems(HEAD + "spec: {containerName: app}\n")).contains("spec.vpaObjectName", "Required value");
    assertThat(problems(HEAD + "spec: {vpaObjectName: web, container: app}\n"))
        .contains("spec.container", "is not a field");
    String status = "spec: {vpaObjectName: web, containerName: app}\nstatus:\n  cpuHistogram:\n";
    assertThat(problems(HEAD + status + "    bucketWeights: {first: 10000}\n"))
        .contains("status.cpuHistogram.bucketWeights[first]", "must be keyed by a bucket index");
    // encoding/json reads the key with strconv.ParseInt: Integer.parseInt read "\u0663" (Arabic-Indic 3) as bucket 3
    assertThat(problems(HEAD + status + "    bucketWeights: {\"\u0663\": 10000}\n"))
        .contains("status.cpuHistogram.bucketWeights[\u0663]", "must be keyed by a bucket index");
    assertThat(problems(HEAD + status + "    bucketWeights: {\"-1\": 10000}\n"))
        .contains("status.cpuHistogram.bucketWeights[-1]", "0 or more");
    assertThat(problems(HEAD + status + "    bucketWeights: {\"3\": -5}\n"))
        .contains("status.cpuHistogram.bucketWeights[3]");
    assertThat(problems(HEAD + status + "    bucketWeights: {\"3\": 10.5}\n"))
        .contains("status.cpuHistogram.bucketWeights[3]", "must be an integer");
    assertThat(problems(HEAD + status + "    totalWeight: lots\n")).contains("status.cpuHistogram.totalWeight");
    assertThat(problems(HEAD + status + "    referenceTimestamp: yesterday\n"))
        .contains("status.cpuHistogram.referenceTimestamp");
    assertThat(problems(HEAD + "spec: {vpaObjectName: web}\nstatus: {totalSamplesCount: -1}\n"))
        .contains("status.totalSamplesCount");
  }
}
