package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fleetkit simulate} with a quota: the manifests go through the admission chain, a Deployment larger than its
 * quota shows {@code FailedCreate} with the denial in the timeline and ends with fewer ready replicas, and the
 * workload of another namespace is untouched.
 */
final class SimulateTenancyTest {
  private static final String MANIFESTS = """
      apiVersion: v1
      kind: Node
      metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
      status:
        allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
        conditions: [{type: Ready, status: "True"}]
      ---
      apiVersion: v1
      kind: Namespace
      metadata: {name: team-a}
      ---
      apiVersion: v1
      kind: Namespace
      metadata: {name: team-b}
      ---
      apiVersion: v1
      kind: ResourceQuota
      metadata: {name: compute, namespace: team-a}
      spec:
        hard: {requests.cpu: "1"}
      ---
      apiVersion: v1
      kind: LimitRange
      metadata: {name: defaults, namespace: team-a}
      spec:
        limits:
        - type: Container
          defaultRequest: {cpu: 250m}
          default: {cpu: 500m}
      ---
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: team-a}
      spec:
        replicas: 6
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers: [{name: web, image: nginx:1.27}]
      ---
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: api, namespace: team-b}
      spec:
        replicas: 2
        selector: {matchLabels: {app: api}}
        template:
          metadata: {labels: {app: api}}
          spec:
            containers: [{name: api, image: nginx:1.27}]
      """;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  @Test
  void simulate_deploymentAboveItsQuotaAsJson_failedCreateWithTheDenialAndFourOfSixReady(@TempDir Path dir)
      throws Exception {
    Files.writeString(dir.resolve("tenancy.yaml"), MANIFESTS);
    int code = run("simulate", dir.toString(), "--duration", "3m", "--output", "json");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    List<JsonNode> failed = new ArrayList<>();
    for (JsonNode e : root.get("timeline")) {
      if (e.get("kind").asString().equals("FailedCreate")) {
        failed.add(e);
      }
    }
    assertThat(failed).hasSize(1);
    assertThat(failed.get(0).get("object").asString()).startsWith("ReplicaSet/team-a/web-");
    // 250m each from the LimitRange: four fit in 1 cpu
    assertThat(failed.get(0).get("message").asString()).contains(
        "exceeded quota: compute, requested: requests.cpu=250m, used: requests.cpu=1, limited: requests.cpu=1");
    JsonNode deployments = root.get("final").get("deployments");
    assertThat(deployments).hasSize(2);
    for (JsonNode d : deployments) {
      if (d.get("name").asString().equals("team-a/web")) {
        assertThat(d.get("ready").asInt()).isEqualTo(4);
        assertThat(d.get("replicas").asInt()).isEqualTo(6);
      } else {
        assertThat(d.get("name").asString()).isEqualTo("team-b/api");
        assertThat(d.get("ready").asInt()).isEqualTo(2);
      }
    }
  }
}
