package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.AnalysisRunSpec;
import io.fleetkit.api.rollouts.AnalysisRunStatus;
import io.fleetkit.api.rollouts.Measurement;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus provider against a local stub of the query API on 127.0.0.1. Answers follow the shapes of
 * argoproj/argo-rollouts {@code metricproviders/prometheus/prometheus_test.go} (TestProcessScalarResponse,
 * TestProcessVectorResponse, TestProcessNaNResponse, TestProcessInfResponse, TestProcessInvalidResponse).
 */
final class PrometheusMeasurementProviderTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private final AtomicReference<String> answer = new AtomicReference<>();
  private final AtomicReference<String> lastQuery = new AtomicReference<>();
  private final AtomicReference<Integer> status = new AtomicReference<>(200);
  private HttpServer server;
  private String address;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/api/v1/query", ex -> {
      lastQuery.set(URLDecoder.decode(ex.getRequestURI().getRawQuery(), StandardCharsets.UTF_8));
      byte[] body = answer.get().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(status.get(), body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    server.start();
    address = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private Measurement measure(String success, String failure) {
    Metric m = Metric.of("success-rate", new MetricProvider.Prometheus(address, "sum(rate(http_ok[5m]))",
        Duration.ofSeconds(2))).withConditions(success, failure);
    AnalysisRun run = new AnalysisRun(ObjectMeta.of("default", "run"), new AnalysisRunSpec(List.of(m), List.of(),
        false), AnalysisRunStatus.EMPTY);
    return new PrometheusMeasurementProvider().run(run, m, NOW);
  }

  /** The live threads that HTTP clients started (a selector each, and workers), by identity. */
  private static java.util.Set<Thread> httpClientThreads() {
    java.util.Set<Thread> out = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("HttpClient-")) {
        out.add(t);
      }
    }
    return out;
  }

  @Test
  void aProviderMakesItsClientAtTheFirstQuery_soOneNeverQueriedStartsNoThread() {
    java.util.Set<Thread> before = httpClientThreads();
    PrometheusMeasurementProvider provider = new PrometheusMeasurementProvider();
    java.util.Set<Thread> made = httpClientThreads();
    made.removeAll(before);
    assertThat(made).as("threads started by a provider that was never queried").isEmpty();

    answer.set("{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1700000000,\"1\"]}}");
    Metric m = Metric.of("up", new MetricProvider.Prometheus(address, "up", Duration.ofSeconds(2)))
        .withConditions("result == 1", "");
    AnalysisRun run = new AnalysisRun(ObjectMeta.of("default", "run"), new AnalysisRunSpec(List.of(m), List.of(),
        false), AnalysisRunStatus.EMPTY);
    assertThat(provider.run(run, m, NOW).phase()).isEqualTo(AnalysisPhase.Successful);
    assertThat(provider.run(run, m, NOW).phase()).as("the second query, on the same client").isEqualTo(
        AnalysisPhase.Successful);
    java.util.Set<Thread> afterQueries = httpClientThreads();
    afterQueries.removeAll(before);
    assertThat(afterQueries).as("the client made at the first query, one for both queries")
        .filteredOn(t -> t.getName().endsWith("-SelectorManager")).hasSize(1);
  }

  @Test
  void scalar_isANumber_andTheQueryCarriesTime() {
    answer.set("{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1700000000,\"0.97\"]}}");
    Measurement m = measure("result >= 0.95", "");
    assertThat(m.phase()).isEqualTo(AnalysisPhase.Successful);
    assertThat(m.value()).isEqualTo("0.97");
    assertThat(lastQuery.get()).contains("query=sum(rate(http_ok[5m]))").contains("time=" + NOW.getEpochSecond());
  }

  @Test
  void vector_isAListOfNumbers() {
    answer.set("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
        + "{\"metric\":{\"pod\":\"a\"},\"value\":[1700000000,\"0.9\"]},"
        + "{\"metric\":{\"pod\":\"b\"},\"value\":[1700000000,\"0.99\"]}]}}");
    assertThat(measure("result[0] >= 0.95", "").phase()).isEqualTo(AnalysisPhase.Failed);
    assertThat(measure("all(result, {# >= 0.8})", "").phase()).isEqualTo(AnalysisPhase.Successful);
    assertThat(measure("result[1] >= 0.95", "result[0] < 0.5").phase()).isEqualTo(AnalysisPhase.Successful);
  }

  @Test
  void nanAndInf_areKept() {
    answer.set("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
        + "{\"metric\":{},\"value\":[1700000000,\"NaN\"]}]}}");
    assertThat(measure("isNaN(result[0])", "").phase()).isEqualTo(AnalysisPhase.Successful);
    answer.set("{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1700000000,\"+Inf\"]}}");
    assertThat(measure("isInf(result)", "").phase()).isEqualTo(AnalysisPhase.Successful);
  }

  @Test
  void emptyVector_isAnErrorSayingNoData() {
    answer.set("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}");
    Measurement m = measure("result[0] >= 0.95", "");
    assertThat(m.phase()).isEqualTo(AnalysisPhase.Error);
    assertThat(m.message()).contains("no data returned from the metric provider");
  }

  @Test
  void invalidAnswers_areErrorsNamingTheCause() {
    answer.set("{\"status\":\"success\",\"data\":{\"resultType\":\"string\",\"result\":[1,\"x\"]}}");
    assertThat(measure("true", "").message()).contains("result type \"string\" is not supported");
    answer.set("{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error at char 3\"}");
    status.set(400);
    Measurement m = measure("true", "");
    assertThat(m.phase()).isEqualTo(AnalysisPhase.Error);
    assertThat(m.message()).contains("bad_data").contains("parse error");
    answer.set("not json");
    status.set(200);
    assertThat(measure("true", "").phase()).isEqualTo(AnalysisPhase.Error);
  }

  /** Samples are read as the Go client reads them (strconv.ParseFloat): "+Inf" is a value, "1d" and " 1" are not. */
  @Test
  void sampleText_goFloatGrammar() {
    answer.set("{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1700000000,\"+Inf\"]}}");
    assertThat(measure("isInf(result)", "").phase()).isEqualTo(AnalysisPhase.Successful);
    for (String bad : List.of("1d", " 1", "0x1", "\u0661")) {
      answer.set("{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1700000000,\""
          + bad + "\"]}}");
      Measurement m = measure("true", "");
      assertThat(m.phase()).as(bad).isEqualTo(AnalysisPhase.Error);
      assertThat(m.message()).as(bad).contains("prometheus sample \"" + bad + "\" is not a number");
    }
  }

  @Test
  void unreachableServer_isAnError() {
    server.stop(0);
    Measurement m = measure("true", "");
    assertThat(m.phase()).isEqualTo(AnalysisPhase.Error);
    assertThat(m.message()).contains("prometheus");
  }
}
