package io.fleetkit.adapter.kubernetes.yaml.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class YamlDocumentsTest {

  private static final String TWO_DOCS = """
      # comment
      apiVersion: v1
      kind: Pod
      metadata:
        name: a
      ---
      apiVersion: v1
      kind: Pod
      metadata:
        name: b
      spec:
        containers:
        - name: c
          resources:
            requests:
              cpu: 100m
      """;

  @Test
  void read_twoDocuments_recordsIndexStartLineAndFieldLines() {
    List<ManifestProblem> problems = new ArrayList<>();
    List<YamlDocument> docs = YamlDocuments.read(TWO_DOCS, "x.yaml", problems);

    assertThat(problems).isEmpty();
    assertThat(docs).hasSize(2);
    assertThat(docs.get(0).index()).isEqualTo(1);
    assertThat(docs.get(0).line()).isEqualTo(2);
    assertThat(docs.get(1).index()).isEqualTo(2);
    assertThat(docs.get(1).line()).isEqualTo(7);
    assertThat(docs.get(1).lineOf("metadata.name")).isEqualTo(10);
    assertThat(docs.get(1).lineOf("spec.containers[0]")).isEqualTo(13);
    assertThat(docs.get(1).lineOf("spec.containers[0].resources.requests.cpu")).isEqualTo(16);
    assertThat(docs.get(1).root().at("/spec/containers/0/resources/requests/cpu").asString()).isEqualTo("100m");
  }

  @Test
  void lineOf_unknownField_fallsBackToClosestAncestor() {
    List<YamlDocument> docs = YamlDocuments.read(TWO_DOCS, "x.yaml", new ArrayList<>());

    assertThat(docs.get(1).lineOf("spec.containers[0].resources.limits.memory")).isEqualTo(14);
    assertThat(docs.get(1).lineOf("status.phase")).isEqualTo(7);
  }

  @Test
  void read_emptyDocuments_areKeptAsNullRoots() {
    List<YamlDocument> docs = YamlDocuments.read("---\n---\na: 1\n---\n", "x.yaml", new ArrayList<>());

    assertThat(docs).extracting(YamlDocument::index).containsExactly(1, 2, 3);
    assertThat(docs.get(0).root()).isNull();
    assertThat(docs.get(1).root().get("a").asInt()).isEqualTo(1);
    assertThat(docs.get(2).root()).isNull();
  }

  @Test
  void read_duplicateKey_reportsBothLines() {
    List<ManifestProblem> problems = new ArrayList<>();
    YamlDocuments.read("a: 1\nb: 2\na: 3\n", "dup.yaml", problems);

    assertThat(problems).hasSize(1);
    assertThat(problems.get(0).line()).isEqualTo(3);
    assertThat(problems.get(0).toString()).isEqualTo(
        "dup.yaml: document 1 (line 1): a is a duplicate key (first at line 1) (at line 3)");
  }

  /**
   * Found by KubernetesYamlFuzzTest: {@code .nan} escaped as Jackson's NumberFormatException. The YAML reader takes
   * {@code .Inf} as a string, which the kinds then judge as any other string.
   */
  @Test
  void read_notFiniteFloats_areProblemsNamingTheField() {
    List<ManifestProblem> problems = new ArrayList<>();
    List<YamlDocument> docs = YamlDocuments.read("a:\n  b: .nan\nc: [-.inf, .Inf]\nd: 1.5\n", "nan.yaml", problems);

    assertThat(problems).extracting(ManifestProblem::toString).containsExactly(
        "nan.yaml: document 1 (line 1): a.b is .nan, which is not a finite number (JSON has no NaN or infinity) (at"
            + " line 2)",
        "nan.yaml: document 1 (line 1): c[0] is -.inf, which is not a finite number (JSON has no NaN or infinity) (at"
            + " line 3)");
    assertThat(docs.get(0).root().get("c").get(1).asString()).isEqualTo(".Inf");
    assertThat(docs.get(0).root().get("d").decimalValue()).isEqualByComparingTo("1.5");
  }

  @Test
  void read_syntaxError_reportsTheLineAndKeepsEarlierDocuments() {
    List<ManifestProblem> problems = new ArrayList<>();
    List<YamlDocument> docs = YamlDocuments.read("a: 1\n---\nb: [1, 2\nc: 3\n", "bad.yaml", problems);

    assertThat(docs).hasSize(1);
    assertThat(problems).hasSize(1);
    assertThat(problems.get(0).document()).isEqualTo(2);
    assertThat(problems.get(0).line()).isGreaterThanOrEqualTo(3);
    assertThat(problems.get(0).toString()).startsWith("bad.yaml: document 2").contains("YAML is not valid");
    assertThat(problems.get(0).toString()).doesNotContain("\n");
  }
}
