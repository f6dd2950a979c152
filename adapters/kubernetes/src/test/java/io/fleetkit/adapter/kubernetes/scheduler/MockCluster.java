package io.fleetkit.adapter.kubernetes.scheduler;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/** fabric8's in-process CRUD API server with {@link BindingDispatcher}, plus helpers to make nodes and pods. */
final class MockCluster implements AutoCloseable {
  static final String NS = "default";

  final BindingDispatcher dispatcher;
  final KubernetesMockServer server;
  /** The test's own client (untagged). */
  final KubernetesClient client;
  private final List<KubernetesClient> extraClients = new ArrayList<>();
  private final List<AutoCloseable> closeables = new ArrayList<>();

  MockCluster() {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    dispatcher = new BindingDispatcher(new KubernetesMixedDispatcher(responses));
    server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, dispatcher, false);
    server.init();
    server.expectCustomResource(new CustomResourceDefinitionContext.Builder()
        .withGroup("scheduling.x-k8s.io").withVersion("v1alpha1").withKind("PodGroup").withPlural("podgroups")
        .withScope("Namespaced").withStatusSubresource(true).build());
    client = server.createClient();
  }

  /** A client whose requests the dispatcher logs (header {@link BindingDispatcher#CLIENT_HEADER}). */
  KubernetesClient taggedClient() {
    Config c = new ConfigBuilder(client.getConfiguration())
        .withCustomHeaders(Map.of(BindingDispatcher.CLIENT_HEADER, "scheduler"))
        .build();
    KubernetesClient k = new KubernetesClientBuilder().withConfig(c).build();
    extraClients.add(k);
    return k;
  }

  /** A client without fabric8's own retries of 5xx answers, so that the binder's retries can be observed. */
  KubernetesClient noRetryClient() {
    Config c = new ConfigBuilder(client.getConfiguration()).withRequestRetryBackoffLimit(0).build();
    KubernetesClient k = new KubernetesClientBuilder().withConfig(c).build();
    extraClients.add(k);
    return k;
  }

  /** A started scheduler with fast test timings, closed with the cluster. */
  KubernetesScheduler start(KubernetesScheduler.Builder b) {
    KubernetesScheduler s = b.build();
    closeables.add(s);
    return s.start();
  }

  static KubernetesScheduler.Builder fast(KubernetesClient client) {
    return KubernetesScheduler.builder(client)
        .bindRetry(4, Duration.ofMillis(10), Duration.ofMillis(50))
        .requestTimeout(Duration.ofSeconds(5))
        .syncTimeout(Duration.ofSeconds(20))
        .loopPeriod(Duration.ofMillis(20))
        .podBackoff(Duration.ofMillis(50), Duration.ofMillis(200));
  }

  void node(String name, String cpu, String memory, Taint... taints) {
    client.nodes().resource(new NodeBuilder()
        .withNewMetadata().withName(name).addToLabels("kubernetes.io/hostname", name).endMetadata()
        .withNewSpec().withTaints(taints).endSpec()
        .withNewStatus()
        .withCapacity(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory), "pods", new Quantity("110")))
        .withAllocatable(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory),
            "pods", new Quantity("110")))
        .endStatus()
        .build()).create();
  }

  static PodBuilder pod(String name, String cpu, @Nullable String schedulerName) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(NS).endMetadata()
        .withNewSpec()
        .withSchedulerName(schedulerName)
        .addNewContainer().withName("main").withImage("busybox")
        .withNewResources().addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity("64Mi"))
        .endResources()
        .endContainer()
        .endSpec();
  }

  Pod create(PodBuilder pod) {
    return client.pods().inNamespace(NS).resource(pod.build()).create();
  }

  static Toleration tolerate(String key) {
    return new io.fabric8.kubernetes.api.model.TolerationBuilder().withKey(key).withOperator("Exists")
        .withEffect("NoSchedule").build();
  }

  static Taint taint(String key, String value) {
    return new io.fabric8.kubernetes.api.model.TaintBuilder().withKey(key).withValue(value).withEffect("NoSchedule")
        .build();
  }

  void podGroup(String name, int minMember, int timeoutSeconds) {
    GenericKubernetesResource pg = new GenericKubernetesResourceBuilder()
        .withApiVersion("scheduling.x-k8s.io/v1alpha1").withKind("PodGroup")
        .withNewMetadata().withName(name).withNamespace(NS).endMetadata()
        .addToAdditionalProperties("spec", Map.of("minMember", minMember, "scheduleTimeoutSeconds", timeoutSeconds))
        .build();
    client.genericKubernetesResources("scheduling.x-k8s.io/v1alpha1", "PodGroup").inNamespace(NS).resource(pg)
        .create();
  }

  /** The pod's node as the API server has it, or {@code null}. */
  @Nullable String nodeOf(String pod) {
    Pod p = client.pods().inNamespace(NS).withName(pod).get();
    return p == null || p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isEmpty() ? null
        : p.getSpec().getNodeName();
  }

  List<Event> events(String reason) {
    return client.events().v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> reason.equals(e.getReason())).toList();
  }

  /** Polls {@code condition} every 20 ms until it holds, failing after {@code timeout}. */
  static void await(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for: " + what, e);
      }
    }
  }

  static void await(String what, BooleanSupplier condition) {
    await(what, Duration.ofSeconds(30), condition);
  }

  @Override
  public void close() {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      try {
        closeables.get(i).close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    extraClients.forEach(KubernetesClient::close);
    client.close();
    try {
      server.destroy();
    } catch (IllegalStateException e) {
      // fabric8's MockWebServer gives its shutdown a fixed 10 s; on a loaded machine a just-dropped watch can still
      // hold it then. The test's assertions have passed; a server left to the JVM's exit is harmless.
      if (!(e.getCause() instanceof java.util.concurrent.TimeoutException)) {
        throw e;
      }
    }
  }
}
