package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ManifestProblemTest {
  private static final Violation CPU = new Violation("Pod default/web",
      "spec.containers[0].resources.requests.cpu", "must be greater than or equal to 0", "-1");

  @Test
  void toString_withDocumentAndFieldLine_namesEverything() {
    assertThat(new ManifestProblem("examples/bad/pod.yaml", 2, 14, 22, CPU)).hasToString(
        "examples/bad/pod.yaml: document 2 (line 14): Pod default/web: spec.containers[0].resources.requests.cpu"
            + " \"-1\" must be greater than or equal to 0 (at line 22)");
  }

  @Test
  void toString_fieldOnDocumentLine_omitsTheFieldLine() {
    assertThat(new ManifestProblem("pod.yaml", 2, 14, 14, CPU).toString())
        .startsWith("pod.yaml: document 2 (line 14): Pod default/web:").doesNotContain("(at line");
  }

  @Test
  void toString_wholeSource_namesOnlyTheSource() {
    assertThat(new ManifestProblem("nope.yaml", 0, 0, 0, new Violation("", "file", "does not exist", null)))
        .hasToString("nope.yaml: file does not exist");
  }

  @Test
  void exception_listsEveryProblemAndIsAValidationException() {
    ManifestException e = new ManifestException(List.of(new ManifestProblem("a.yaml", 1, 1, 0, CPU),
        new ManifestProblem("b.yaml", 3, 9, 0, CPU)));

    assertThat(e).isInstanceOf(ValidationException.class);
    assertThat(e.violations()).hasSize(2);
    assertThat(e.getMessage()).startsWith("2 problems in manifests:\n  a.yaml: document 1 (line 1): Pod default/web")
        .contains("\n  b.yaml: document 3 (line 9): Pod default/web");
  }

  @Test
  void exception_withoutProblems_isRejected() {
    assertThatThrownBy(() -> new ManifestException(List.of())).isInstanceOf(IllegalArgumentException.class);
  }
}
