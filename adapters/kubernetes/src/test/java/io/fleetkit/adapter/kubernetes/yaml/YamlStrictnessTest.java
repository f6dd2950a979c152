package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fleetkit.api.core.Pod;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * YAML aliases are expanded (never read as the anchor's name), with go-yaml's aliasing guard against billion-laughs
 * documents; unknown fields are refused with their path (kubectl's default field validation, Strict) unless the
 * caller asks for lenient loading; bytes that are not UTF-8 are named as such.
 */
final class YamlStrictnessTest {

  private static String problems(String yaml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "m.yaml"));
    assertThat(e).as("must fail").isNotNull();
    return e.problems().stream().map(ManifestProblem::toString).collect(Collectors.joining("\n"));
  }

  @Test
  void parse_scalarAlias_expandsToTheAnchoredValue() {
    Pod pod = KubernetesYaml.parse("""
        apiVersion: v1
        kind: Pod
        metadata: {name: web, annotations: {img: &img "nginx:1.27"}}
        spec:
          nodeSelector: {disk: &d ssd, other: *d}
          containers: [{name: c, image: *img}]
        """, "m.yaml").ofType(Pod.class).get(0);
    assertThat(pod.spec().containers().get(0).image()).isEqualTo("nginx:1.27");
    assertThat(pod.spec().nodeSelector()).containsEntry("disk", "ssd").containsEntry("other", "ssd");
  }

  @Test
  void parse_mapAliasAndMergeKey_expandLikeKubectl() {
    List<Pod> pods = KubernetesYaml.parse("""
        apiVersion: v1
        kind: Pod
        metadata: {name: a}
        spec:
          containers:
          - &c {name: c, image: img, resources: {requests: {cpu: 500m}}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: b}
        spec:
          containers:
          - {<<: {name: c, image: img, resources: {requests: {cpu: 500m}}}, image: other}
        """, "m.yaml").ofType(Pod.class);
    assertThat(pods.get(1).spec().containers().get(0).image()).isEqualTo("other");
    assertThat(pods.get(1).spec().containers().get(0).name()).isEqualTo("c");
    assertThat(pods.get(0).spec().containers().get(0).resources().requests().toString()).contains("500m");
  }

  @Test
  void parse_aliasWithoutAnchor_isAProblemNamingTheAlias() {
    assertThat(problems("""
        apiVersion: v1
        kind: Pod
        metadata: {name: web}
        spec:
          containers: [{name: c, image: *nowhere}]
        """)).contains("*nowhere").contains("no anchor");
  }

  @Test
  void parse_billionLaughs_refusedQuicklyAsExcessiveAliasing() {
    StringBuilder y = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (char c = 'b'; c <= 'i'; c++) {
      char p = (char) (c - 1);
      y.append(c).append(": &").append(c).append(" [*").append(p);
      for (int i = 0; i < 8; i++) {
        y.append(",*").append(p);
      }
      y.append("]\n");
    }
    String text = y.toString();
    String out = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> problems(text));
    assertThat(out).contains("excessive aliasing");
  }

  @Test
  void parse_unknownField_refusedWithItsPathAndASuggestion() {
    String out = problems("""
        apiVersion: v1
        kind: Pod
        metadata: {name: web, nmespace: prod}
        spec:
          containres: []
          containers:
          - name: c
            image: img
            resurces: {requests: {cpu: "1"}}
        """);
    assertThat(out).contains("Pod default/web: spec.containres unknown field (did you mean \"containers\"?)")
        .contains("metadata.nmespace unknown field (did you mean \"namespace\"?)")
        .contains("spec.containers[0].resurces unknown field (did you mean \"resources\"?) (at line 9)");
  }

  @Test
  void parse_unknownTopLevelFieldOfAGenericKind_refused() {
    assertThat(problems("""
        apiVersion: scheduling.x-k8s.io/v1alpha1
        kind: PodGroup
        metadata: {name: g, namespace: ns}
        spec: {minMember: 2}
        sepc: {minMember: 3}
        """)).contains("PodGroup ns/g: sepc unknown field");
  }

  @Test
  void parse_ignoreMode_dropsUnknownFieldsAsBefore() {
    LoadedObjects o = KubernetesYaml.parse("""
        apiVersion: v1
        kind: Pod
        metadata: {name: web}
        spec:
          containers: [{name: c, image: img, resurces: {}}]
        """, "m.yaml", FieldValidation.IGNORE);
    assertThat(o.ofType(Pod.class)).hasSize(1);
  }

  @Test
  void load_latin1File_saysNotUtf8WithTheLine(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("p.yaml");
    Files.write(f, "apiVersion: v1\nkind: Pod\nmetadata: {name: k\u00e4se}\n".getBytes(StandardCharsets.ISO_8859_1));
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.load(List.of(f)));
    assertThat(e.problems().get(0).toString()).contains(f.toString()).contains("is not UTF-8 text")
        .contains("line 3").doesNotContain("Input length");
  }

  @Test
  void load_binaryFile_saysNotUtf8(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("b.yaml");
    Files.write(f, new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 0x41, 0, 0x42});
    assertThatThrownBy(() -> KubernetesYaml.load(List.of(f))).isInstanceOf(ManifestException.class)
        .hasMessageContaining("is not UTF-8 text");
  }

  @Test
  void load_utf16File_namedAsUtf16(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("utf16.yaml");
    Files.write(f, "apiVersion: v1\nkind: Pod\n".getBytes(StandardCharsets.UTF_16)); // big-endian, with a BOM
    assertThatThrownBy(() -> KubernetesYaml.load(List.of(f))).isInstanceOf(ManifestException.class)
        .hasMessageContaining("is not UTF-8 text (it looks like UTF-16): byte 0xFE at line 1, column 1");
  }

  @Test
  void load_fileOverTheSizeBound_refusedUnread(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("huge.yaml");
    try (java.io.RandomAccessFile r = new java.io.RandomAccessFile(f.toFile(), "rw")) {
      r.setLength(KubernetesYaml.MAX_FILE_BYTES + 1); // sparse: no disk, and reading it would take the heap
    }
    ManifestException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.load(List.of(f))));
    assertThat(e).hasMessageContaining("huge.yaml")
        .hasMessageContaining("is larger than " + KubernetesYaml.MAX_FILE_BYTES + " bytes");
  }

  @Test
  void read_endlessDevice_stopsAtTheBound() throws Exception {
    Path zero = Path.of("/dev/zero");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(zero), "no /dev/zero here");
    // The same read KubernetesYaml does with MAX_FILE_BYTES, with a small bound: one byte past it, then refused.
    assertThatThrownBy(() -> assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> io.fleetkit.adapter.kubernetes.yaml.internal.Utf8Text.read(zero, 4096)))
        .isInstanceOf(java.io.IOException.class).hasMessage("is larger than 4096 bytes");
  }

  @Test
  void load_shippedExamples_passStrictFieldValidation() throws Exception {
    // Each example directory is one scenario (names repeat across them), so each is loaded on its own.
    List<Path> dirs;
    try (var list = Files.list(Path.of("..", "..", "examples"))) {
      dirs = list.filter(Files::isDirectory).filter(d -> !d.getFileName().toString().contains("bad")).sorted()
          .toList();
    }
    assertThat(dirs).isNotEmpty();
    for (Path d : dirs) {
      assertThat(KubernetesYaml.load(List.of(d)).size()).as(d.toString()).isPositive();
    }
  }

  @Test
  void load_directoryGivenAsSymlink_isRead(@TempDir Path dir) throws Exception {
    Path real = Files.createDirectory(dir.resolve("real"));
    Files.writeString(real.resolve("n.yaml"), "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n");
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);
    assertThat(KubernetesYaml.load(List.of(link)).size()).isEqualTo(1);
  }

  @Test
  void load_directoryWithoutYaml_isAProblemNotZeroObjects(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("notes.txt"), "x");
    assertThatThrownBy(() -> KubernetesYaml.load(List.of(dir))).isInstanceOf(ManifestException.class)
        .hasMessageContaining("without any .yaml or .yml file");
  }

  @Test
  void load_symlinkLoop_reportedNotWalkedForever(@TempDir Path dir) throws Exception {
    Path sub = Files.createDirectory(dir.resolve("sub"));
    Files.writeString(sub.resolve("n.yaml"), "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n");
    Files.createSymbolicLink(sub.resolve("loop"), dir);
    assertThatThrownBy(() -> assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> KubernetesYaml.load(List.of(dir)))).isInstanceOf(ManifestException.class).hasMessageContaining("could not be listed");
  }
}
