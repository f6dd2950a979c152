package io.fleetkit.networking.routing;

import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.SAME;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.get;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.map;
import static io.fleetkit.networking.routing.GatewayFilterConformanceTest.sameNamespaceRoute;
import static io.fleetkit.networking.routing.GatewayFixtures.attach;
import static io.fleetkit.networking.routing.GatewayFixtures.backend;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.gateway.HTTPRouteRetry;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteTimeouts;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** {@link RouteResult#exchange}: a rule's retry policy and timeouts played against a backend's answers. */
final class ExchangeTest {
  private static final BackendAnswer OK = BackendAnswer.status(200);

  private static RouteResult route(@Nullable HTTPRouteRetry retry, @Nullable HTTPRouteTimeouts timeouts) {
    HTTPRouteRule rule = GatewayFixtures.rule("/", backend("infra-backend-v1")).withRetry(retry)
        .withTimeouts(timeouts);
    RouteResult r = get(attach(List.of(), sameNamespaceRoute("r", rule)), "/", map());
    assertThat(r.forwarded()).as(r.message()).isNotNull();
    assertThat(r.retry()).isEqualTo(retry);
    return r;
  }

  private static Duration ms(long n) {
    return Duration.ofMillis(n);
  }

  @Test
  void withoutRetry_oneTry_theBackendsStatus() {
    RouteResult r = route(null, null);
    assertThat(r.exchange(i -> BackendAnswer.status(500, ms(30)))).isEqualTo(new Exchange(500, 1, ms(30)));
    assertThat(r.exchange(i -> BackendAnswer.connectionError(ms(5)))).isEqualTo(new Exchange(503, 1, ms(5)));
  }

  @Test
  void unsetAttemptsAndBackoff_oneRetryAfter25ms() {
    RouteResult r = route(new HTTPRouteRetry(List.of(500), null, null), null);
    assertThat(r.exchange(i -> BackendAnswer.status(500, ms(10)))).isEqualTo(new Exchange(500, 2, ms(45)));
    assertThat(r.exchange(i -> i == 0 ? BackendAnswer.status(500, ms(10)) : OK))
        .isEqualTo(new Exchange(200, 2, ms(35)));
  }

  @Test
  void backoffIsWaitedBetweenTries_andAStatusNotListedIsNotRetried() {
    RouteResult r = route(new HTTPRouteRetry(List.of(503), 4, "1s"), null);
    assertThat(r.exchange(i -> i < 2 ? BackendAnswer.status(503) : OK)).isEqualTo(new Exchange(200, 3, ms(2000)));
    assertThat(r.exchange(i -> BackendAnswer.status(502))).isEqualTo(new Exchange(502, 1, Duration.ZERO));
    assertThat(r.exchange(i -> BackendAnswer.status(404))).isEqualTo(new Exchange(404, 1, Duration.ZERO));
  }

  @Test
  void perTryTimeout_withoutRetry_is504AtTheTimeout() {
    RouteResult r = route(null, new HTTPRouteTimeouts(null, "200ms"));
    assertThat(r.exchange(i -> BackendAnswer.status(200, ms(300)))).isEqualTo(new Exchange(504, 1, ms(200)));
    assertThat(r.exchange(i -> BackendAnswer.status(200, ms(200)))).as("an answer exactly at the timeout is in time")
        .isEqualTo(new Exchange(200, 1, ms(200)));
  }

  @Test
  void requestTimeout_endsTheExchangeDuringABackoff() {
    RouteResult r = route(new HTTPRouteRetry(List.of(500), 3, "300ms"), new HTTPRouteTimeouts("500ms", null));
    // try 1 ends at 100 ms, the backoff would end at 400, try 2 at 500 (in time), the next backoff passes 500.
    assertThat(r.exchange(i -> BackendAnswer.status(500, ms(100)))).isEqualTo(new Exchange(504, 2, ms(500)));
  }

  @Test
  void notForwarded_noBackendRequest() {
    RouteResult r = RouteResult.notFound("nothing");
    assertThat(r.exchange(i -> OK)).isEqualTo(new Exchange(404, 0, Duration.ZERO));
    assertThat(r.statusWhenBackendTakes(ms(1))).isEqualTo(404);
  }

  @Test
  void badAnswers_refused() {
    assertThatThrownBy(() -> BackendAnswer.status(700)).hasMessageContaining("status must be an HTTP status");
    assertThatThrownBy(() -> BackendAnswer.connectionError(ms(-1))).hasMessageContaining("latency must not be");
  }

  /**
   * Whatever the backend answers: the backend gets at most 1 + attempts requests; the client never waits longer than
   * the request timeout; a try is repeated only after a retriable outcome; the status is the last outcome's or 504.
   */
  @Property(tries = 300)
  void exchange_invariants(@ForAll @Size(min = 1, max = 8) List<@IntRange(min = 0, max = 7) Integer> kinds,
      @ForAll @IntRange(min = 1, max = 5) int attempts, @ForAll @IntRange(min = 0, max = 200) int backoffMs,
      @ForAll @IntRange(min = 0, max = 600) int requestMs, @ForAll @IntRange(min = 0, max = 300) int perTryMs) {
    HTTPRouteTimeouts timeouts = new HTTPRouteTimeouts(requestMs + "ms",
        perTryMs <= requestMs || requestMs == 0 ? perTryMs + "ms" : requestMs + "ms");
    RouteResult r = route(new HTTPRouteRetry(List.of(500, 503), attempts, backoffMs + "ms"), timeouts);
    int[] statuses = {200, 500, 503, 502, 404, BackendAnswer.CONNECTION_ERROR, 500, 200};
    List<BackendAnswer> answers = kinds.stream().map(k -> new BackendAnswer(statuses[k], ms(40L * k))).toList();
    Exchange e = r.exchange(i -> answers.get(Math.min(i, answers.size() - 1)));
    assertThat(e.backendRequests()).isBetween(1, 1 + attempts);
    Duration request = timeouts.requestTimeout();
    if (request != null) {
      assertThat(e.elapsed()).isLessThanOrEqualTo(request);
    }
    for (int i = 0; i < e.backendRequests() - 1; i++) {
      BackendAnswer a = answers.get(Math.min(i, answers.size() - 1));
      Duration perTry = timeouts.backendRequestTimeout();
      boolean timedOut = perTry != null && a.latency().compareTo(perTry) > 0;
      assertThat(timedOut || a.isConnectionError() || a.status() == 500 || a.status() == 503)
          .as("try %d was retried", i).isTrue();
    }
    BackendAnswer last = answers.get(Math.min(e.backendRequests() - 1, answers.size() - 1));
    int lastStatus = last.isConnectionError() ? 503 : last.status();
    assertThat(e.status()).isIn(lastStatus, 504);
  }
}
