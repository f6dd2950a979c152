package io.fleetkit.adapter.kubernetes.scheduler;

import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Manual smoke test against a real cluster; excluded from the normal build. Run it with the {@code real-cluster}
 * profile and {@code -Dkubeconfig=PATH} (and optionally {@code -Dnamespace=NS}); see docs/kubernetes.md. It uses a
 * scheduler name of its own, so a FleetKit scheduler deployed in the cluster does not interfere, creates one pod,
 * checks that it is bound to a Ready node with a Scheduled event, and deletes the pod.
 */
final class RealClusterSmokeTest {

  @Test
  void realCluster_pendingPod_isBoundAndScheduledEventPosted() throws IOException {
    String kubeconfig = System.getProperty("fleetkit.kubeconfig", "");
    assumeTrue(!kubeconfig.isBlank() && Files.isRegularFile(Path.of(kubeconfig)),
        "no kubeconfig: run with -Preal-cluster -Dkubeconfig=PATH");
    String namespace = System.getProperty("fleetkit.namespace", "default");
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String schedulerName = "fleetkit-smoke-" + suffix;
    String podName = "fleetkit-smoke-" + suffix;
    Config config = Config.fromKubeconfig(Files.readString(Path.of(kubeconfig)));
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
         KubernetesScheduler scheduler = KubernetesScheduler.builder(client).schedulerName(schedulerName)
             .identity("smoke-" + suffix).build()) {
      scheduler.start();
      Pod pod = new PodBuilder()
          .withNewMetadata().withName(podName).withNamespace(namespace).endMetadata()
          .withNewSpec().withSchedulerName(schedulerName)
          .addNewContainer().withName("main").withImage("registry.k8s.io/pause:3.9")
          .withNewResources().addToRequests("cpu", new Quantity("10m")).addToRequests("memory", new Quantity("16Mi"))
          .endResources().endContainer().endSpec()
          .build();
      client.pods().inNamespace(namespace).resource(pod).create();
      try {
        await("pod bound", Duration.ofSeconds(60), () -> {
          Pod p = client.pods().inNamespace(namespace).withName(podName).get();
          return p != null && p.getSpec().getNodeName() != null;
        });
        String node = client.pods().inNamespace(namespace).withName(podName).get().getSpec().getNodeName();
        assertThat(client.nodes().withName(node).get()).isNotNull();
        await("Scheduled event", Duration.ofSeconds(30), () -> client.events().v1().events().inNamespace(namespace)
            .list().getItems().stream().anyMatch(e -> "Scheduled".equals(e.getReason())
                && podName.equals(e.getRegarding().getName())));
      } finally {
        client.pods().inNamespace(namespace).withName(podName).delete();
      }
    }
  }
}
