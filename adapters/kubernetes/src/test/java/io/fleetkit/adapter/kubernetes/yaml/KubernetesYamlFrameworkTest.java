package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Problems that do not depend on any particular kind. */
final class KubernetesYamlFrameworkTest {

  @Test
  void parse_unknownKind_namesFileDocumentObjectAndField() {
    String yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\n"
        + "apiVersion: example.com/v1\nkind: Gizmo\nmetadata:\n  name: g\n  namespace: team\n";

    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "g.yaml"));

    ManifestProblem gizmo = e.problems().stream().filter(p -> p.document() == 2).findFirst().orElseThrow();
    assertThat(gizmo.toString()).startsWith("g.yaml: document 2 (line 5): Gizmo team/g: kind \"Gizmo\" is not a "
        + "supported kind").contains("(at line 6)");
  }

  @Test
  void parse_documentThatIsNotAMap_isReported() {
    ManifestException e = catchThrowableOfType(ManifestException.class,
        () -> KubernetesYaml.parse("- a\n- b\n", "list.yaml"));

    assertThat(e.problems()).singleElement().asString()
        .startsWith("list.yaml: document 1 (line 1): ").contains("must be a map");
  }

  @Test
  void parse_missingKindAndApiVersion_reportsBoth() {
    ManifestException e = catchThrowableOfType(ManifestException.class,
        () -> KubernetesYaml.parse("metadata: {name: x}\n", "k.yaml"));

    assertThat(e.problems()).extracting(p -> p.violation().field()).containsExactly("kind", "apiVersion");
  }

  @Test
  void parse_onlyEmptyDocumentsAndComments_loadsNothing() {
    LoadedObjects loaded = KubernetesYaml.parse("# nothing\n---\n---\n", "empty.yaml");

    assertThat(loaded.objects()).isEmpty();
    assertThat(loaded.summary()).isEqualTo("0 objects");
  }

  @Test
  void load_missingFile_isReportedWithOtherProblems(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("bad.yaml");
    java.nio.file.Files.writeString(bad, "apiVersion: v9\nkind: Nope\nmetadata: {name: n}\n");
    Path missing = dir.resolve("missing.yaml");

    ManifestException e = catchThrowableOfType(ManifestException.class,
        () -> KubernetesYaml.load(List.of(missing, bad)));

    assertThat(e.problems()).hasSize(2);
    assertThat(e.problems().get(0)).hasToString(missing + ": file does not exist");
    assertThat(e.problems().get(1).source()).isEqualTo(bad.toString());
  }

  @Test
  void parse_yamlSyntaxError_isAManifestExceptionNotAJacksonOne() {
    ManifestException e = catchThrowableOfType(ManifestException.class,
        () -> KubernetesYaml.parse("a: [1, 2\n", "syntax.yaml"));

    assertThat(e.problems()).singleElement().asString().startsWith("syntax.yaml: document 1")
        .contains("YAML is not valid");
  }
}
