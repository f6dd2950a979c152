package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fleetkit schedule examples/tenancy}: the manifests go through the admission chain first (LimitRange
 * defaults, a quota refusing the fifth web pod, reported under "rejected"), and the cache's pod affinity by
 * namespaceSelector is resolved against the Namespace objects.
 */
final class ScheduleTenancyTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  private static Path tenancy() {
    return CliHarness.example("tenancy");
  }

  @Test
  void schedule_tenancyAsJson_reportsTheRejectedPodAndPlacesTheCacheNextToTheFrontend() {
    int code = run("schedule", tenancy().toString(), "--output", "json");

    assertThat(code).isZero();
    assertThat(err.toString()).isEmpty();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.propertyNames()).containsExactly("placements", "unschedulable", "rejected");
    assertThat(root.get("rejected")).hasSize(1);
    assertThat(root.get("rejected").get(0).get("object").asString()).isEqualTo("Pod/team-a/web-4");
    assertThat(root.get("rejected").get(0).get("message").asString()).isEqualTo("Pod team-a/web-4 is forbidden:"
        + " exceeded quota: compute, requested: requests.cpu=250m, used: requests.cpu=1, limited: requests.cpu=1"
        + " (plugin ResourceQuota, field spec)");
    assertThat(root.get("placements")).hasSize(5);
    assertThat(root.get("unschedulable")).isEmpty();
    String cacheNode = node(root, "team-b/cache-0");
    String zone = cacheNode.substring(0, "node-a".length());
    assertThat(root.get("placements").valueStream().filter(p -> p.get("pod").asString().startsWith("team-a/"))
        .anyMatch(p -> p.get("node").asString().startsWith(zone))).isTrue();
  }

  @Test
  void schedule_tenancyTable_listsTheRejection() {
    int code = run("schedule", tenancy().toString());

    assertThat(code).isZero();
    assertThat(out.toString()).contains("rejected Pod/team-a/web-4: Pod team-a/web-4 is forbidden: exceeded quota:")
        .contains("5 placed, 0 unschedulable, 1 rejected by admission");
  }

  // as `fleetkit simulate`: every namespace has its default account, a pod naming a missing one is refused by
  // ServiceAccount admission, one naming an account of the manifests is admitted
  @Test
  void schedule_withTenancy_appliesServiceAccountAdmission(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    java.nio.file.Files.writeString(dir.resolve("all.yaml"), """
        apiVersion: v1
        kind: Namespace
        metadata: {name: team}
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status:
          capacity: {cpu: "4", memory: 8Gi, pods: "110"}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: plain, namespace: team}
        spec:
          containers: [{name: c, image: busybox}]
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: runner, namespace: team}
        spec:
          serviceAccountName: ci-runner
          containers: [{name: c, image: busybox}]
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: ghost, namespace: team}
        spec:
          serviceAccountName: nobody
          containers: [{name: c, image: busybox}]
        ---
        apiVersion: v1
        kind: ServiceAccount
        metadata: {name: ci-runner, namespace: team}
        """);
    assertThat(run("schedule", dir.toString(), "--output", "json")).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("placements")).hasSize(2);
    assertThat(root.get("rejected")).hasSize(1);
    assertThat(root.get("rejected").get(0).get("object").asString()).isEqualTo("Pod/team/ghost");
    assertThat(root.get("rejected").get(0).get("message").asString())
        .contains("error looking up service account team/nobody: serviceaccount \"nobody\" not found");
  }

  private static String node(JsonNode root, String pod) {
    for (JsonNode p : root.get("placements")) {
      if (p.get("pod").asString().equals(pod)) {
        return p.get("node").asString();
      }
    }
    throw new AssertionError(pod + " not placed: " + root);
  }
}
