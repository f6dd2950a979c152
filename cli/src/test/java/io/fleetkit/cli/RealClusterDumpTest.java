package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code examples/real-cluster-dump}, a cluster's dump as {@code kubectl get ... -A -o yaml} prints it (one
 * {@code kind: List} document, server fields, the service account volume, kinds FleetKit does not model): scheduled
 * and simulated as it is, its unmodelled kinds and fields listed as warnings.
 */
final class RealClusterDumpTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  private static String dump() {
    return CliHarness.example("real-cluster-dump").toString();
  }

  @Test
  void schedule_dumpWithAPendingPod_placesItBesideTheRunningOnes(@TempDir Path dir) throws Exception {
    Path pending = dir.resolve("pending.yaml");
    Files.writeString(pending, """
        apiVersion: v1
        kind: Pod
        metadata: {name: batch-0, namespace: storefront}
        spec:
          nodeSelector: {topology.kubernetes.io/zone: zone-c}
          containers: [{name: c, image: busybox, resources: {requests: {cpu: "7", memory: 1Gi}}}]
        """);

    int code = run("schedule", dump(), pending.toString());

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("storefront/batch-0").contains("worker-3").contains("1 placed, 0 unschedulable (2 pods were on a node already)");
    assertThat(err.toString())
        .doesNotContain("Endpoints storefront/web")
        .contains("kind: Lease (coordination.k8s.io/v1) is not modelled by FleetKit; ignored")
        .doesNotContain("volumeMounts") // the containers' mounts of the kube-api-access-* volumes are modelled
        .doesNotContain("spec.volumes").doesNotContain("Warning: status:");
  }

  @Test
  void validate_dump_countsTheFieldsAndTheObjectsLeftOut() {
    int code = run("validate", dump());

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).startsWith("OK: 11 objects (1 Deployment, 1 EndpointSlice, 1 Endpoints, 1 Namespace,"
        + " 3 Node, 2 Pod, 1 ReplicaSet, 1 Service); ").contains(" fields and 4 objects not modelled by FleetKit ignored");
  }

  @Test
  void simulate_dump_keepsTheDumpedPodsAndServesTheService() {
    int code = run("simulate", dump(), "--duration", "10m");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("Deployment  storefront/web  2/2 ready")
        .contains("Service storefront/web  10.96.12.34  2/2 endpoints ready")
        .contains("Pod/storefront/web-5d9c8f7b6c-abcde").contains("Pod/storefront/web-5d9c8f7b6c-fghij")
        .doesNotContain("Rejected")
        // the namespace has its kube-root-ca.crt, which the pods' kube-api-access volumes read, from the start
        .doesNotContain("FailedMount").doesNotContain("PodNotReady");
    assertThat(out.toString().lines().filter(l -> l.contains("PodCreated")).count()).isEqualTo(2);
  }
}
