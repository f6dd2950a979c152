package io.fleetkit.benchmarks.impl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The stand-in API server behind {@code KubernetesAdapterBenchmark}: its binding answers are the API server's (201,
 * 409 when already bound, 404 when missing), the counts the benchmark's "none lost, none bound twice" checks read, and
 * its watches over WebSocket (fabric8's default) and chunked HTTP stream the staged pods and their bindings.
 */
final class StubApiServerTest {

  @Test
  void binding_secondForTheSamePodAndMissingPod_answer409And404AndAreCounted() throws Exception {
    try (StubApiServer server = new StubApiServer()) {
      server.addPods(List.of(pod("p")));

      assertThat(bind(server, "p", "n1")).isEqualTo(201);
      assertThat(bind(server, "p", "n2")).isEqualTo(409);
      assertThat(bind(server, "missing", "n1")).isEqualTo(404);

      assertThat(server.bound()).isEqualTo(1);
      assertThat(server.secondBindings()).isEqualTo(1);
      assertThat(server.requests()).isEqualTo(3);
      assertThat(server.deletePods()).isEqualTo(1);
    }
  }

  @Test
  void watch_overWebSocket_streamsStagedPodsAndTheirBinding() throws Exception {
    try (StubApiServer server = new StubApiServer()) {
      assertThat(server.client().getConfiguration().isOnlyHttpWatches()).isFalse();
      watchStagedPodsAndBinding(server);
      assertThat(server.webSocketWatches()).isEqualTo(1);
    }
  }

  @Test
  void watch_overChunkedHttp_streamsStagedPodsAndTheirBinding() throws Exception {
    try (StubApiServer server = new StubApiServer()) {
      server.client().getConfiguration().setOnlyHttpWatches(true);
      watchStagedPodsAndBinding(server);
      assertThat(server.webSocketWatches()).isZero();
    }
  }

  @Test
  void addStaged_afterAnotherChange_refusesAsTheResourceVersionsWouldRunBackwards() {
    try (StubApiServer server = new StubApiServer()) {
      server.stagePods(List.of(pod("a")));
      server.addPods(List.of(pod("b")));

      assertThatThrownBy(server::addStaged).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("changed after the pods were staged");
    }
  }

  @Test
  void stagePodsLike_copiesOfTheTemplate_areWhatStagePodsStagesForTheSamePods() throws Exception {
    try (StubApiServer server = new StubApiServer()) {
      Pod template = pod("template");
      template.getMetadata().setLabels(java.util.Map.of("app", "web"));
      server.stagePodsLike(template, "default", List.of("a", "b"));
      server.addStaged();
      var listed = server.client().pods().inAnyNamespace().list().getItems();
      assertThat(listed).extracting(p -> p.getMetadata().getName()).containsExactly("a", "b");
      assertThat(listed).extracting(p -> p.getMetadata().getUid()).doesNotHaveDuplicates()
          .allSatisfy(uid -> assertThat(java.util.UUID.fromString(uid)).isNotNull());
      for (Pod p : listed) {
        Pod expected = pod(p.getMetadata().getName());
        expected.getMetadata().setLabels(java.util.Map.of("app", "web"));
        expected.getMetadata().setUid(p.getMetadata().getUid());
        expected.getMetadata().setResourceVersion(p.getMetadata().getResourceVersion());
        assertThat(p).isEqualTo(expected);
      }
      assertThat(listed.get(1).getMetadata().getResourceVersion()).isEqualTo(
          Long.toString(Long.parseLong(listed.get(0).getMetadata().getResourceVersion()) + 1));
      assertThatThrownBy(() -> server.stagePodsLike(template, "default", List.of("a")))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("default/a already exists");
    }
  }

  private static void watchStagedPodsAndBinding(StubApiServer server) throws Exception {
    BlockingQueue<String> seen = new LinkedBlockingQueue<>();
    try (var watch = server.client().pods().inAnyNamespace().watch(new Watcher<Pod>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        String node = pod.getSpec().getNodeName();
        seen.add(action + " " + pod.getMetadata().getName() + (node == null ? "" : " " + node));
      }

      @Override
      public void onClose(WatcherException cause) {}
    })) {
      server.stagePods(List.of(pod("a"), pod("b")));
      server.addStaged();
      assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo("ADDED a");
      assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo("ADDED b");

      assertThat(bind(server, "b", "n1")).isEqualTo(201);
      assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo("MODIFIED b n1");
    }
  }

  private static Pod pod(String name) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withNewSpec().addNewContainer().withName("c").withImage("pause").endContainer().endSpec().build();
  }

  private static int bind(StubApiServer server, String pod, String node) throws Exception {
    var http = server.client().getHttpClient();
    String base = server.client().getMasterUrl().toString();
    HttpRequest request = http.newHttpRequestBuilder()
        .uri(base + "api/v1/namespaces/default/pods/" + pod + "/binding")
        .post("application/json", "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"" + pod
            + "\"},\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"" + node + "\"}}")
        .build();
    HttpResponse<String> response = http.sendAsync(request, String.class).get(10, TimeUnit.SECONDS);
    return response.code();
  }
}
