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

/** {@code fleetkit simulate} on manifests with a v1 ReplicationController: its pods are made, scheduled and Ready. */
final class SimulateReplicationControllerTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @Test
  void simulate_replicationController_podsScheduledAndReady(@TempDir Path dir) throws Exception {
    Files.copy(CliHarness.example("simulate").resolve("nodes.yaml"), dir.resolve("nodes.yaml"));
    Files.writeString(dir.resolve("rc.yaml"), """
        apiVersion: v1
        kind: ReplicationController
        metadata: {name: frontend}
        spec:
          replicas: 3
          template:
            metadata: {labels: {app: frontend}}
            spec:
              tolerations: [{key: example.fleetkit.io/simulate, operator: Exists, effect: NoSchedule}]
              containers:
              - name: php
                image: gb-frontend:v4
                resources: {requests: {cpu: 100m, memory: 100Mi}}
        """);

    int code = CliHarness.run(out, err, "simulate", dir.toString(), "--duration", "2m", "--output", "json",
        "--seed", "1");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    List<String> scheduled = new ArrayList<>();
    List<String> status = new ArrayList<>();
    for (JsonNode e : root.get("timeline")) {
      String kind = e.get("kind").asString();
      if (kind.equals("PodScheduled") && e.get("object").asString().startsWith("Pod/default/frontend-")) {
        scheduled.add(e.get("object").asString());
      } else if (kind.equals("ReplicationControllerStatus")) {
        assertThat(e.get("object").asString()).isEqualTo("ReplicationController/default/frontend");
        status.add(e.get("message").asString());
      }
    }
    assertThat(scheduled).hasSize(3);
    assertThat(status).last().isEqualTo("3/3 ready");
  }
}
