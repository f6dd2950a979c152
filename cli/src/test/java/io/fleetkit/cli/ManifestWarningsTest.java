package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command that loads manifests prints the fields FleetKit does not model as {@code Warning:} lines on stderr,
 * one line per field however many objects carry it; {@code validate} still exits 0 and counts them; {@code --quiet}
 * silences them.
 */
final class ManifestWarningsTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  private static final String DEPLOYMENT = """
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers:
            - name: c
              image: nginx
              imagePullPolicy: Always
              securityContext: {runAsUser: 1000}
              resources: {requests: {cpu: 100m}}
      """;

  /** {@code n} pods with the same field not modelled, and a node for them. */
  private static String pods(int n) {
    StringBuilder sb = new StringBuilder("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
        + "status: {capacity: {cpu: \"64\", memory: 64Gi, pods: \"110\"}}\n");
    for (int i = 0; i < n; i++) {
      sb.append("---\napiVersion: v1\nkind: Pod\nmetadata: {name: p").append(i).append("}\nspec:\n")
          .append("  containers: [{name: c, image: i, workingDir: /w, resources: {requests: {cpu: 10m}}}]\n");
    }
    return sb.toString();
  }

  @Test
  void validate_fieldsNotModelled_warnedOnStderrCountedInTheSummaryAndExitZero(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("dep.yaml"), DEPLOYMENT);

    assertThat(run("validate", f.toString())).isZero();

    assertThat(out.toString().strip()).isEqualTo("OK: 1 object (1 Deployment); 2 fields not modelled by FleetKit"
        + " ignored (see the warnings)");
    assertThat(err.toString().lines()).containsExactly(
        "Warning: " + f + ":12: Deployment default/web: spec.template.spec.containers[0].imagePullPolicy: not"
            + " modelled by FleetKit; ignored",
        "Warning: " + f + ":13: Deployment default/web: spec.template.spec.containers[0].securityContext: not"
            + " modelled by FleetKit; ignored");
  }

  @Test
  void validate_sameFieldInAThousandPods_oneLineWithTheCountAndTheFirstThree(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("pods.yaml"), pods(1000));

    assertThat(run("validate", f.toString())).isZero();

    assertThat(err.toString().lines()).containsExactly("Warning: spec.containers[0].workingDir: not modelled by"
        + " FleetKit; ignored in 1000 objects: Pod default/p0 (" + f + ":10), Pod default/p1 (" + f + ":16), Pod"
        + " default/p2 (" + f + ":22) and 997 more");
    assertThat(out.toString()).contains("1000 fields not modelled by FleetKit ignored");
  }

  /**
   * An Endpoints address with leading zeros loads with the API server's warning: printed with the others, counted
   * apart from the ignored fields.
   */
  @Test
  void validate_apiServerWarning_printedAndCountedApartFromIgnoredFields(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("eps.yaml"), """
        apiVersion: v1
        kind: Endpoints
        metadata: {name: db, namespace: default}
        subsets:
        - addresses: [{ip: 010.0.0.2}]
          ports: [{port: 5432}]
        """);

    assertThat(run("validate", f.toString())).isZero();

    assertThat(out.toString().strip()).isEqualTo("OK: 1 object (1 Endpoints); 1 API server warning (see the"
        + " warnings)");
    assertThat(err.toString().lines()).containsExactly("Warning: " + f + ":5: Endpoints default/db:"
        + " subsets[0].addresses[0].ip: non-standard IP address \"010.0.0.2\" will be considered invalid in a future"
        + " Kubernetes release: use \"10.0.0.2\"");
  }

  @Test
  void validate_noFieldIgnored_summaryAndStderrUnchanged(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("n.yaml"), "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n");

    assertThat(run("validate", f.toString())).isZero();

    assertThat(out.toString().strip()).isEqualTo("OK: 1 object (1 Node)");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void schedule_fieldsNotModelled_warnedAndScheduled(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("pods.yaml"), pods(2));

    assertThat(run("schedule", f.toString())).isZero();

    assertThat(err.toString().lines()).containsExactly("Warning: spec.containers[0].workingDir: not modelled by"
        + " FleetKit; ignored in 2 objects: Pod default/p0 (" + f + ":10), Pod default/p1 (" + f + ":16)");
    assertThat(out.toString()).contains("p0").contains("n1");
  }

  @Test
  void simulate_warnsUnlessQuiet(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("pods.yaml"), pods(1));
    String warning = "Warning: " + f + ":10: Pod default/p0: spec.containers[0].workingDir: not modelled by"
        + " FleetKit; ignored";

    assertThat(run("simulate", f.toString(), "--duration", "1m")).isZero();
    assertThat(err.toString().lines()).contains(warning);

    err.getBuffer().setLength(0);
    assertThat(run("simulate", f.toString(), "--duration", "1m", "--quiet")).isZero();
    assertThat(err.toString()).doesNotContain("Warning:");
  }

  @Test
  void simulate_appliedFile_warnedToo(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("pods.yaml"), pods(1));
    Path later = Files.writeString(dir.resolve("later.yaml"), DEPLOYMENT);

    assertThat(run("simulate", f.toString(), "--duration", "1m", "--apply", later + "@00:30")).isZero();

    assertThat(err.toString()).contains("Warning: " + later + ":13: Deployment default/web: spec.template.spec"
        + ".containers[0].securityContext: not modelled by FleetKit; ignored");
  }

  @Test
  void routeAndDns_fieldsNotModelled_warned(@TempDir Path dir) throws Exception {
    try (Stream<Path> files = Files.list(CliHarness.example("networking"))) {
      for (Path p : files.toList()) {
        Files.copy(p, dir.resolve(p.getFileName()));
      }
    }
    Files.writeString(dir.resolve("extra.yaml"), DEPLOYMENT);
    String warning = "Warning: " + dir.resolve("extra.yaml") + ":13: Deployment default/web: spec.template.spec"
        + ".containers[0].securityContext: not modelled by FleetKit; ignored";

    assertThat(run("route", dir.toString(), "--host", "www.example.com", "--output", "json")).isZero();
    assertThat(err.toString().lines()).contains(warning);

    err.getBuffer().setLength(0);
    assertThat(run("dns", dir.toString(), "db-0.db.net.svc.cluster.local", "--output", "json")).isZero();
    assertThat(err.toString().lines()).contains(warning);
  }
}
