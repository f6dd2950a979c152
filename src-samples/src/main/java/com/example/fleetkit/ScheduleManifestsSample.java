package com.example.fleetkit;

import io.fleetkit.cluster.Cluster;
import io.fleetkit.cluster.ScheduleOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * From Kubernetes YAML to placements with the {@link Cluster} façade, as {@code fleetkit schedule} does: two nodes,
 * three pods, one too big for any node. Pass manifest files or directories as arguments to schedule your own.
 */
public final class ScheduleManifestsSample {
  private static final String MANIFESTS = """
      apiVersion: v1
      kind: Node
      metadata: {name: node-1}
      status:
        capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        conditions: [{type: Ready, status: "True"}]
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: node-2}
      status:
        capacity: {cpu: "2", memory: 8Gi, pods: "110"}
        conditions: [{type: Ready, status: "True"}]
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: api, namespace: default}
      spec:
        containers: [{name: api, image: example/api:1, resources: {requests: {cpu: "3", memory: 1Gi}}}]
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: worker, namespace: default}
      spec:
        containers: [{name: worker, image: example/worker:1, resources: {requests: {cpu: "1", memory: 1Gi}}}]
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: huge, namespace: default}
      spec:
        containers: [{name: huge, image: example/huge:1, resources: {requests: {cpu: "8", memory: 1Gi}}}]
      """;

  private ScheduleManifestsSample() {}

  public static void main(String[] args) {
    Cluster.Builder b = Cluster.builder().seed(1);
    if (args.length > 0) {
      for (String a : args) {
        b.manifests(Path.of(a));
      }
    } else {
      b.manifests(sampleFile());
    }
    ScheduleOutcome outcome = b.build().schedule();
    for (ScheduleOutcome.Placement p : outcome.placements()) {
      System.out.println(p.pod() + " -> " + p.node());
    }
    for (ScheduleOutcome.Unschedulable u : outcome.unschedulable()) {
      System.out.println(u.pod() + " -> " + u.message());
    }
  }

  private static Path sampleFile() {
    try {
      Path dir = Files.createTempDirectory("fleetkit-sample");
      Path file = dir.resolve("cluster.yaml");
      Files.writeString(file, MANIFESTS);
      file.toFile().deleteOnExit();
      dir.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
