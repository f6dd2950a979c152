package io.fleetkit.reconcile.rollouts;

import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.Measurement;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import io.fleetkit.api.text.GoFloats;
import io.fleetkit.reconcile.rollouts.internal.MetricConditions;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Argo Rollouts' Prometheus provider ({@code metricproviders/prometheus/prometheus.go}): an instant query
 * {@code GET <address>/api/v1/query?query=...&time=<now>} with the metric's timeout (default 30 s). The answer
 * {@code {"status":"success","data":{"resultType":...,"result":...}}} becomes {@code result}: a {@code scalar} is a
 * number, a {@code vector} a list of numbers (one per series, so conditions read {@code result[0]}), a
 * {@code matrix} all sample values flattened; {@code NaN} and {@code ±Inf} samples are kept as such. Any other
 * result type, an HTTP error or a {@code "status":"error"} answer is an Error measurement naming the cause.
 * Thread-safe.
 */
public final class PrometheusMeasurementProvider implements MeasurementProvider {
  /** The query timeout when the metric sets none. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /** The client given, or the one made at the first query; null until then. */
  private volatile @Nullable HttpClient http;

  /** Created on first use, so that a classpath without a matching jackson-annotations only fails when queried. */
  private static final class Json {
    static final JsonMapper MAPPER = JsonMapper.builder().build();
  }

  /**
   * A provider with a client of its own (HTTP/1.1), made at its first query: a client starts a selector thread, and
   * a JVM that exits while such a thread waits in native code waits about 0.3 s for it, so a program that never
   * queries Prometheus (a simulation without Prometheus metrics) should not have one.
   */
  public PrometheusMeasurementProvider() {
    this.http = null;
  }

  public PrometheusMeasurementProvider(HttpClient http) {
    this.http = Objects.requireNonNull(http, "http");
  }

  private HttpClient http() {
    HttpClient h = http;
    if (h == null) {
      synchronized (this) {
        h = http;
        if (h == null) {
          h = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
          http = h;
        }
      }
    }
    return h;
  }

  @Override
  public String type() {
    return "prometheus";
  }

  @Override
  public Measurement run(AnalysisRun run, Metric metric, Instant now) {
    MetricProvider.Prometheus p = (MetricProvider.Prometheus) metric.provider();
    String base = p.address().endsWith("/") ? p.address().substring(0, p.address().length() - 1) : p.address();
    String url = base + "/api/v1/query?query=" + URLEncoder.encode(p.query(), StandardCharsets.UTF_8) + "&time="
        + now.getEpochSecond();
    Duration timeout = p.timeout() != null ? p.timeout() : DEFAULT_TIMEOUT;
    String body;
    try {
      HttpResponse<String> resp = http().send(HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      body = resp.body();
      if (resp.statusCode() / 100 != 2 && !body.contains("\"status\"")) {
        return error(now, "prometheus " + base + " answered HTTP " + resp.statusCode());
      }
    } catch (IOException | IllegalArgumentException e) {
      return error(now, "prometheus " + base + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return error(now, "interrupted");
    }
    Object result;
    try {
      result = parse(body);
    } catch (IllegalStateException | JacksonException e) {
      return error(now, e.getMessage());
    }
    MetricConditions.Verdict v = MetricConditions.evaluate(result, metric);
    return Measurement.finished(v.phase(), String.valueOf(result), now, v.message());
  }

  private static Measurement error(Instant now, String message) {
    return Measurement.finished(AnalysisPhase.Error, "", now, message);
  }

  /**
   * The {@code result} value of a query API answer.
   *
   * @throws IllegalStateException for an error answer or an unsupported result type, naming it
   */
  @Nullable Object parse(String body) {
    JsonNode root = Json.MAPPER.readTree(body);
    String status = root.path("status").asString("");
    if (!status.equals("success")) {
      throw new IllegalStateException("prometheus query failed: " + root.path("errorType").asString("")
          + " " + root.path("error").asString(""));
    }
    JsonNode data = root.path("data");
    String type = data.path("resultType").asString("");
    JsonNode result = data.path("result");
    switch (type) {
      case "scalar" -> {
        return sample(result);
      }
      case "vector" -> {
        List<Object> values = new ArrayList<>();
        for (JsonNode series : result) {
          values.add(sample(series.path("value")));
        }
        return values;
      }
      case "matrix" -> {
        List<Object> values = new ArrayList<>();
        for (JsonNode series : result) {
          for (JsonNode v : series.path("values")) {
            values.add(sample(v));
          }
        }
        return values;
      }
      default -> throw new IllegalStateException("prometheus result type \"" + type + "\" is not supported");
    }
  }

  /** A {@code [timestamp, "value"]} pair's value. */
  private static Double sample(JsonNode pair) {
    String v = pair.path(1).asString("");
    try {
      return GoFloats.parseFloat(v); // the Go client's SampleValue: strconv.ParseFloat (NaN, +Inf, -Inf included)
    } catch (NumberFormatException e) {
      throw new IllegalStateException("prometheus sample \"" + v + "\" is not a number");
    }
  }
}
