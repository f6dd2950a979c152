package io.fleetkit.adapter.kubernetes.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.prometheus.Exposition;
import io.fleetkit.scheduler.Scheduler;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Scrapes the scheduler's endpoints over HTTP on the loopback address and parses the exposition. */
final class MetricsServerTest {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private HttpResponse<String> get(MetricsServer server, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void metricsHealthzReadyz_servedOverHttp() throws Exception {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    AtomicBoolean ready = new AtomicBoolean(false);
    try (Scheduler s = Scheduler.builder().metrics(MicrometerMetrics.of(prometheus)).build();
        MetricsServer server = MetricsServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            prometheus::scrape, () -> true, ready::get)) {
      s.addNode(Node.builder().name("n1").capacity(ResourceList.builder().put("cpu", Quantity.ofMilli(2000))
          .put("memory", Quantity.ofBytes(4L << 30)).put("pods", Quantity.of(110)).build()).ready().build());
      s.addPod(Pod.builder().name("web").container("app", "nginx", ResourceList.ofCpuMemory(100, 1 << 20))
          .build());
      assertThat(s.scheduleOne().isBound()).isTrue();

      HttpResponse<String> metrics = get(server, "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.headers().firstValue("Content-Type")).contains(MetricsServer.CONTENT_TYPE_004);
      Exposition e = Exposition.parse(metrics.body());
      assertThat(e.types()).containsEntry("scheduler_schedule_attempts_total", "counter")
          .containsEntry("scheduler_scheduling_attempt_duration_seconds", "histogram")
          .containsEntry("scheduler_pending_pods", "gauge");
      assertThat(e.value("scheduler_schedule_attempts_total",
          Map.of("result", "scheduled", "profile", "default-scheduler"))).contains(1.0);

      assertThat(get(server, "/healthz").statusCode()).isEqualTo(200);
      HttpResponse<String> notReady = get(server, "/readyz");
      assertThat(notReady.statusCode()).isEqualTo(503);
      assertThat(notReady.body()).contains("readyz");
      ready.set(true);
      assertThat(get(server, "/readyz").body()).isEqualTo("ok");
      assertThat(get(server, "/nope").statusCode()).isEqualTo(404);
    }
  }

  /** A check that changes between two reads gave a 503 saying "ok" (the status and the body each read it). */
  @Test
  void readyz_checkFlipping_statusAndBodyAgree() throws Exception {
    java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
    try (MetricsServer server = MetricsServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        () -> "", () -> true, () -> reads.getAndIncrement() % 2 == 0)) {
      for (int i = 0; i < 4; i++) {
        HttpResponse<String> r = get(server, "/readyz");
        assertThat(r.body()).isEqualTo(r.statusCode() == 200 ? "ok" : "readyz check failed");
      }
    }
  }

  @Test
  void readyz_withConfigurationWarnings_staysReadyAndListsThem() throws Exception {
    io.fabric8.kubernetes.client.Config insecure = new io.fabric8.kubernetes.client.ConfigBuilder()
        .withMasterUrl("https://10.0.0.1:6443").withTrustCerts(true).build();
    java.util.List<String> warnings = TransportSecurity.weaknesses(insecure);
    AtomicBoolean ready = new AtomicBoolean(true);
    try (MetricsServer server = MetricsServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        () -> "", () -> true, ready::get, warnings)) {
      HttpResponse<String> r = get(server, "/readyz");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).startsWith("ok\nwarning: TLS certificate verification of the API server"
          + " https://10.0.0.1:6443");
      ready.set(false);
      HttpResponse<String> notReady = get(server, "/readyz");
      assertThat(notReady.statusCode()).isEqualTo(503);
      assertThat(notReady.body()).startsWith("readyz check failed\nwarning: TLS certificate verification");
      assertThat(get(server, "/healthz").body()).isEqualTo("ok");
    }
  }

  @Test
  void metricsPort_fromEnvironment_validated() {
    assertThat(KubernetesSchedulerMain.metricsPort(Map.of())).isEqualTo(MetricsServer.DEFAULT_PORT);
    assertThat(KubernetesSchedulerMain.metricsPort(Map.of("FLEETKIT_METRICS_PORT", "9090"))).isEqualTo(9090);
    assertThat(KubernetesSchedulerMain.metricsPort(Map.of("FLEETKIT_METRICS_PORT", "0"))).isZero();
    assertThatThrownBy(() -> KubernetesSchedulerMain.metricsPort(Map.of("FLEETKIT_METRICS_PORT", "http")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("FLEETKIT_METRICS_PORT")
        .hasMessageContaining("\"http\"");
  }

  /** Integer.parseInt read "\u0669\u0660\u0669\u0660" (Arabic-Indic 9090) as port 9090. */
  @Test
  void metricsPort_digitsOfAnotherScript_refused() {
    assertThatThrownBy(() -> KubernetesSchedulerMain.metricsPort(Map.of("FLEETKIT_METRICS_PORT",
        "\u0669\u0660\u0669\u0660"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FLEETKIT_METRICS_PORT \"\u0669\u0660\u0669\u0660\" must be a port number 0..65535");
  }
}
