package io.fleetkit.benchmarks.impl;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The stand-in API server behind {@code KubernetesAdapterBenchmark}: its binding answers are the API server's (201,
 * 409 when already bound, 404 when missing), the counts the benchmark's "none lost, none bound twice" checks read,
 * and its sockets' {@code TCP_NODELAY}.
 */
final class StubApiServerTest {

  @Test
  void construction_leavesTheJdkServersNoDelaySwitchOn() {
    try (StubApiServer server = new StubApiServer()) {
      assertThat(System.getProperty(StubApiServer.NODELAY)).isEqualTo("true");
      assertThat(server.requests()).isZero();
    }
  }

  @Test
  void binding_secondForTheSamePodAndMissingPod_answer409And404AndAreCounted() throws Exception {
    try (StubApiServer server = new StubApiServer()) {
      Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("default").endMetadata()
          .withNewSpec().addNewContainer().withName("c").withImage("pause").endContainer().endSpec().build();
      server.addPods(List.of(pod));

      assertThat(bind(server, "p", "n1")).isEqualTo(201);
      assertThat(bind(server, "p", "n2")).isEqualTo(409);
      assertThat(bind(server, "missing", "n1")).isEqualTo(404);

      assertThat(server.bound()).isEqualTo(1);
      assertThat(server.secondBindings()).isEqualTo(1);
      assertThat(server.deletePods()).isEqualTo(1);
    }
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
