package io.fleetkit.networking.routing;

import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.SAME;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.assertAccepted;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.get;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.map;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.sameNamespaceRoute;
import static io.fleetkit.networking.routing.GatewayFixtures.INFRA;
import static io.fleetkit.networking.routing.GatewayFixtures.attach;
import static io.fleetkit.networking.routing.GatewayFixtures.backend;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.gateway.HTTPRouteRetry;
import io.fleetkit.api.gateway.HTTPRouteTimeouts;
import io.fleetkit.networking.gateway.GatewayAttachment;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The retry cases of kubernetes-sigs/gateway-api {@code conformance/tests} (commit 4564255a):
 * {@code httproute-retry}, {@code httproute-retry-with-timeouts} and {@code httproute-retry-connection-error}, each
 * nested class naming its {@code .go} and {@code .yaml} file. Upstream's backend is echo-basic's retry simulation
 * (gateway-api commit 08eb09d6, {@code conformance/echo-basic/echo-basic.go}, {@code retrySimulationHandler}): for one
 * request id, its first {@code succeedAfter} requests fail, each after {@code delayRetry}, with {@code responseCode}
 * or, without it, by resetting the connection; the next ones are answered 200. {@link #echoRetrySimulation} plays it
 * from the request the Gateway forwards, and {@link RouteResult#exchange} plays the rule's retry policy and timeouts
 * against it. The requests, their query parameters and the expected statuses are upstream's.
 */
final class GatewayRetryConformanceTest {
  private static final String V3 = "infra-backend-v3";

  /** echo-basic's retry simulation for the request the Gateway forwards. */
  static IntFunction<BackendAnswer> echoRetrySimulation(RouteResult r) {
    HttpRequest fwd = r.forwarded();
    assertThat(fwd).as(r.message()).isNotNull();
    assertThat(fwd.queryParam("uuid")).as("echo-basic requires a uuid").isNotNull();
    int succeedAfter = Integer.parseInt(fwd.queryParam("succeedAfter"));
    String code = fwd.queryParam("responseCode");
    String delay = fwd.queryParam("delayRetry");
    Duration latency = delay == null ? Duration.ZERO : HTTPRouteTimeouts.parse(delay);
    assertThat(latency).as("delayRetry " + delay).isNotNull();
    return i -> i >= succeedAfter ? BackendAnswer.status(200)
        : code == null ? BackendAnswer.connectionError(latency)
        : BackendAnswer.status(Integer.parseInt(code), latency);
  }

  /** Upstream's request: the path and the retry simulation's query, with a request id. */
  private static Exchange send(GatewayAttachment a, String path, String query) {
    RouteResult r = get(a, path + "?" + query + "&uuid=6a1e2d4c-0b6b-4f43-9a45-0f3d6b7f1a11", map());
    assertThat(r.service()).as(r.message()).isEqualTo(INFRA + "/" + V3);
    return r.exchange(echoRetrySimulation(r));
  }

  private static HTTPRouteRetry retry(List<Integer> codes, int attempts) {
    return new HTTPRouteRetry(codes, attempts, null);
  }

  /** httproute-retry.go / .yaml. */
  @Nested
  final class Retry {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("retries",
        GatewayFixtures.rule("/retry/code-500-attempts-3", backend(V3)).withRetry(retry(List.of(500), 3)),
        GatewayFixtures.rule("/retry/code-all-attempts-2", backend(V3))
            .withRetry(retry(List.of(500, 502, 503, 504), 2))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "retries");
    }

    @ParameterizedTest(name = "{0}?responseCode={1}&succeedAfter={2} -> {3}")
    @CsvSource({
        // succeeds after 2 retries when retry is configured for status code 500 and max attempts is 3
        "/retry/code-500-attempts-3, 500, 2, 200, 3",
        // fails when required retries on 500 exceed max attempts
        "/retry/code-500-attempts-3, 500, 4, 500, 4",
        // does not retry on 503 when retry is only configured for status code 500
        "/retry/code-500-attempts-3, 503, 2, 503, 1",
        // succeeds after 1 retry on 500 when retry is configured for all status code and max attempts is 2
        "/retry/code-all-attempts-2, 500, 1, 200, 2",
        // fails when required retries on 500 exceed max attempts
        "/retry/code-all-attempts-2, 500, 3, 500, 3",
        // succeeds after 1 retry on 502 ...; fails when required retries on 502 exceed max attempts
        "/retry/code-all-attempts-2, 502, 1, 200, 2",
        "/retry/code-all-attempts-2, 502, 3, 502, 3",
        // ... 503
        "/retry/code-all-attempts-2, 503, 1, 200, 2",
        "/retry/code-all-attempts-2, 503, 3, 503, 3",
        // ... 504
        "/retry/code-all-attempts-2, 504, 1, 200, 2",
        "/retry/code-all-attempts-2, 504, 3, 504, 3"})
    void status(String path, int responseCode, int succeedAfter, int expected, int backendRequests) {
      Exchange e = send(A, path, "responseCode=" + responseCode + "&succeedAfter=" + succeedAfter);
      assertThat(e.status()).isEqualTo(expected);
      assertThat(e.backendRequests()).as("requests the backend received").isEqualTo(backendRequests);
    }
  }

  /** httproute-retry-with-timeouts.go / .yaml. */
  @Nested
  final class RetryWithTimeouts {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("retries-with-timeouts",
        GatewayFixtures.rule("/retry/backend-request-timeout-200ms", backend(V3))
            .withRetry(new HTTPRouteRetry(List.of(), 2, null)).withTimeouts(new HTTPRouteTimeouts(null, "200ms")),
        GatewayFixtures.rule("/retry/request-timeout-200ms", backend(V3))
            .withRetry(retry(List.of(500), 5)).withTimeouts(new HTTPRouteTimeouts("400ms", "200ms"))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "retries-with-timeouts");
    }

    @ParameterizedTest(name = "{0}?{1} -> {2}")
    @CsvSource({
        // succeeds after 2 retries on backend timeout with max attempts is 3
        "/retry/backend-request-timeout-200ms, responseCode=500&succeedAfter=2&delayRetry=300ms, 200",
        // fails when required retries on backend timeout exceed max attempts
        "/retry/backend-request-timeout-200ms, responseCode=500&succeedAfter=3&delayRetry=300ms, 504",
        // succeeds when retries complete within the request timeout
        "/retry/request-timeout-200ms, responseCode=500&succeedAfter=1, 200",
        // fails with 504 when retry delays exceed the request timeout
        "/retry/request-timeout-200ms, responseCode=500&succeedAfter=4&delayRetry=100ms, 504"})
    void status(String path, String query, int expected) {
      assertThat(send(A, path, query).status()).isEqualTo(expected);
    }

    @Test
    void theRequestTimeoutEndsTheWholeExchangeAtItsInstant() {
      Exchange e = send(A, "/retry/request-timeout-200ms", "responseCode=500&succeedAfter=4&delayRetry=100ms");
      // 100 ms, 25 ms backoff, 100, 25, 100, 25: the fourth try would end at 475 ms.
      assertThat(e.elapsed()).isEqualTo(Duration.ofMillis(400));
      assertThat(e.backendRequests()).isEqualTo(4);
    }
  }

  /** httproute-retry-connection-error.go / .yaml. */
  @Nested
  final class RetryConnectionError {
    private static final GatewayAttachment A = attach(List.of(), sameNamespaceRoute("retries-connection-error",
        GatewayFixtures.rule("/retry/no-status-code-attempts-3", backend(V3))
            .withRetry(new HTTPRouteRetry(List.of(), 3, null))));

    @Test
    void accepted() {
      assertAccepted(A, SAME, "retries-connection-error");
    }

    @Test
    void succeedsAfter2RetriesOnConnectionErrors() {
      Exchange e = send(A, "/retry/no-status-code-attempts-3", "succeedAfter=2");
      assertThat(e.status()).isEqualTo(200);
      assertThat(e.backendRequests()).isEqualTo(3);
    }

    @Test
    void failsWhenRequiredRetriesOnConnectionErrorsExceedMaxAttempts() {
      // Upstream accepts 500 or 503.
      assertThat(send(A, "/retry/no-status-code-attempts-3", "succeedAfter=4").status()).isIn(500, 503);
    }
  }
}
