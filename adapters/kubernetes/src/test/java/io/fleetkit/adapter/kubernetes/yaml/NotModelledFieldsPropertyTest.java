package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of the not-modelled-field warnings: a Deployment whose fields FleetKit models, each left out, written
 * with its default or with another value, in any of its equivalent forms, loads without a warning, and so does what
 * FleetKit writes of it; adding one field FleetKit does not model gives exactly one warning, at that field.
 */
final class NotModelledFieldsPropertyTest {

  /** Fields FleetKit does not model, as they would appear in a container, and the path warned of. */
  private static final List<List<String>> NOT_MODELLED = List.of(
      List.of("imagePullPolicy: Always", "imagePullPolicy"),
      List.of("workingDir: /srv", "workingDir"),
      List.of("securityContext: {runAsUser: 1000, capabilities: {drop: [ALL]}}", "securityContext"),
      List.of("stdin: true", "stdin"),
      List.of("command: [sh, -c, sleep 1]", "command"));

  @Property(tries = 60)
  void modelledFieldsInAnyForm_noWarning_andTheirDumpNone(@ForAll("deployments") String yaml) {
    LoadedObjects loaded = KubernetesYaml.parse(yaml, "d.yaml");
    assertThat(loaded.warnings()).as(yaml).isEmpty();
    assertThat(KubernetesYaml.parse(KubernetesYaml.dump(loaded.objects()), "dump.yaml").warnings()).isEmpty();
  }

  @Property(tries = 40)
  void oneFieldNotModelled_exactlyOneWarningAtIt(@ForAll("deployments") String yaml,
      @ForAll("notModelled") List<String> field) {
    String withField = yaml.replace("      - name: c\n", "      - name: c\n        " + field.get(0) + "\n");
    assertThat(KubernetesYaml.parse(withField, "d.yaml").warnings()).as(withField)
        .extracting(w -> w.violation().field())
        .containsExactly("spec.template.spec.containers[0]." + field.get(1));
  }

  @Provide
  Arbitrary<List<String>> notModelled() {
    return Arbitraries.of(NOT_MODELLED);
  }

  /** An optional line: absent, the default written out, or another value. */
  private static Arbitrary<String> line(String indent, String key, String defaultValue, String other) {
    return Arbitraries.of("", indent + key + ": " + defaultValue + "\n", indent + key + ": " + other + "\n");
  }

  @Provide
  Arbitrary<String> deployments() {
    Arbitrary<String> cpu = Arbitraries.of("1", "1000m", "\"1\"", "500m", "0.5", "2");
    Arbitrary<String> memory = Arbitraries.of("1Gi", "1024Mi", "\"1073741824\"", "64Mi");
    Arbitrary<String> spec = Combinators.combine(
        line("  ", "replicas", "1", "3"),
        line("  ", "revisionHistoryLimit", "10", "2"),
        line("  ", "progressDeadlineSeconds", "600", "120"),
        line("  ", "minReadySeconds", "0", "5"),
        line("  ", "paused", "false", "true"),
        line("  ", "strategy", "{type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}",
            "{type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}"))
        .as((a, b, c, d, e, f) -> a + b + c + d + e + f);
    Arbitrary<String> pod = Combinators.combine(
        line("      ", "restartPolicy", "Always", "Always"),
        line("      ", "terminationGracePeriodSeconds", "30", "5"),
        line("      ", "schedulerName", "default-scheduler", "other"),
        line("      ", "priority", "0", "0"))
        .as((a, b, c, d) -> a + b + c + d);
    Arbitrary<String> port = Arbitraries.of("", "        ports: [{name: http, containerPort: 8080}]\n",
        "        ports: [{name: http, containerPort: 8080, protocol: TCP}]\n");
    return Combinators.combine(spec, pod, port, cpu, memory).as((s, p, pt, c, m) -> "apiVersion: apps/v1\n"
        + "kind: Deployment\n"
        + "metadata: {name: web}\n"
        + "spec:\n" + s
        + "  selector: {matchLabels: {app: web}}\n"
        + "  template:\n"
        + "    metadata: {labels: {app: web}}\n"
        + "    spec:\n" + p
        + "      containers:\n"
        + "      - name: c\n"
        + "        image: nginx\n" + pt
        + "        resources: {requests: {cpu: " + c + ", memory: " + m + "}}\n");
  }
}
