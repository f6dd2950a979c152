package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the scheduler's writes (binding, pod status patches, pod deletes) through the client's authenticated HTTP
 * client with one retry policy: 429, 5xx, timeouts and connection failures are retried with exponential backoff up
 * to {@code attempts} requests; every other answer is returned at once. A replica that is not the leader sends
 * nothing (checked before every attempt). These retries come on top of the fabric8 client's own (its
 * {@code requestRetryBackoffLimit}, which also retries 5xx answers).
 *
 * <p>Thread-safe. {@link #send} blocks for at most {@code attempts} requests and backoffs; {@link #sendAsync} blocks
 * for none (the posting of Events, which kube-scheduler's event broadcaster does on a goroutine per Event).
 */
public final class ApiRequests {
  private static final Logger LOG = LoggerFactory.getLogger(ApiRequests.class);

  /** How a request ended. */
  public enum Kind {
    /** A 2xx answer. */
    OK,
    /** Any other HTTP answer that is not retried (e.g. 404, 409, 403, 422); see {@link Outcome#code()}. */
    REFUSED,
    /** Transient failures until the attempts ran out. */
    GAVE_UP,
    /** This replica is not the leader; nothing (more) was sent. */
    NOT_LEADER,
    /** The calling thread was interrupted. */
    INTERRUPTED
  }

  /**
   * The end of a request.
   *
   * @param code the last HTTP status, or -1 when there was none (timeout, connection failure, not sent)
   * @param detail empty for {@link Kind#OK}; else the {@code message} of the server's Status, the body, or the
   *     failure; prefixed with
   *     {@code HTTP <code>: } for {@link Kind#GAVE_UP} and {@link Kind#REFUSED} answers other than 404 and 409
   */
  public record Outcome(Kind kind, int code, String detail) {
    public Outcome {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(detail, "detail");
    }

    public boolean ok() {
      return kind == Kind.OK;
    }
  }

  private final KubernetesClient client;
  private final BooleanSupplier leading;
  private final int attempts;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Duration requestTimeout;
  private final AtomicLong sent = new AtomicLong();
  /** The master URL without a trailing slash. */
  private final String base;

  public ApiRequests(KubernetesClient client, BooleanSupplier leading, int attempts, Duration initialBackoff,
      Duration maxBackoff, Duration requestTimeout) {
    this.client = Objects.requireNonNull(client, "client");
    this.leading = Objects.requireNonNull(leading, "leading");
    if (attempts < 1) {
      throw new IllegalArgumentException("api requests: attempts " + attempts + " must be at least 1");
    }
    this.attempts = attempts;
    this.initialBackoff = Objects.requireNonNull(initialBackoff, "initialBackoff");
    this.maxBackoff = Objects.requireNonNull(maxBackoff, "maxBackoff");
    this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
    String master = client.getMasterUrl().toString();
    this.base = master.endsWith("/") ? master.substring(0, master.length() - 1) : master;
  }

  /** Whether this replica may write now. */
  public boolean leading() {
    return leading.getAsBoolean();
  }

  /** How many requests went out, retries included. */
  public long sent() {
    return sent.get();
  }

  public int attempts() {
    return attempts;
  }

  public KubernetesClient client() {
    return client;
  }

  /**
   * Sends the request {@code method} builds (on a builder with the uri and timeout set), retrying transient failures;
   * blocks the calling thread until the outcome ({@link #sendAsync}'s, waited for).
   *
   * @param what the request in words, for the log (e.g. {@code binding pod ns/p to node n1})
   * @param path the path under the master URL, starting with {@code /}
   */
  public Outcome send(String what, String path, Consumer<HttpRequest.Builder> method) {
    CompletableFuture<Outcome> outcome = sendAsync(what, path, method);
    // A guard only: every attempt ends within its timeout, and the backoffs are bounded.
    long guardMillis = attempts * (requestTimeout.toMillis() + maxBackoff.toMillis() + 1000);
    try {
      return outcome.get(guardMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      Outcome gaveUp = new Outcome(Kind.GAVE_UP, -1, "no outcome after " + guardMillis + " ms");
      outcome.complete(gaveUp);
      return outcome.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      Outcome interrupted = new Outcome(Kind.INTERRUPTED, -1, "interrupted");
      outcome.complete(interrupted); // no further attempt starts
      return interrupted;
    } catch (ExecutionException e) {
      // sendAsync's future only completes normally; kept for a failure in this class's own code
      throw new IllegalStateException(what + ": " + e.getCause(), e.getCause());
    }
  }

  /**
   * Sends the request {@code method} builds without blocking: the first attempt starts on the calling thread, the
   * answer is handled on the HTTP client's completion thread, and a retry starts after its backoff on the JDK's
   * common pool. The future always completes normally, with the outcome; completing it (e.g. with
   * {@link Kind#INTERRUPTED}) stops further attempts. {@code method} may run more than once, once per attempt.
   */
  public CompletableFuture<Outcome> sendAsync(String what, String path, Consumer<HttpRequest.Builder> method) {
    CompletableFuture<Outcome> result = new CompletableFuture<>();
    attempt(what, url(path), method, 1, initialBackoff, result);
    return result;
  }

  private void attempt(String what, String uri, Consumer<HttpRequest.Builder> method, int attempt, Duration backoff,
      CompletableFuture<Outcome> result) {
    if (result.isDone()) {
      return;
    }
    if (!leading.getAsBoolean()) {
      result.complete(new Outcome(Kind.NOT_LEADER, -1, "this replica is not the leader"));
      return;
    }
    CompletableFuture<HttpResponse<String>> response;
    try {
      HttpRequest.Builder b = client.getHttpClient().newHttpRequestBuilder()
          .uri(uri)
          .timeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
      method.accept(b);
      sent.incrementAndGet();
      // The client fails the request after requestTimeout (fabric8's timer and the JDK client's own).
      response = client.getHttpClient().sendAsync(b.build(), String.class);
    } catch (RuntimeException e) {
      response = CompletableFuture.failedFuture(e);
    }
    response.whenComplete((r, failure) -> {
      int code;
      String answer;
      if (failure == null) {
        code = r.code();
        // A success's body (the object written, or a Status) is not read: parsing it costs more than the request.
        answer = code >= 200 && code < 300 ? "" : message(r.body());
      } else {
        code = -1;
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        answer = cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
      }
      Outcome done = outcome(code, answer, attempt);
      if (done != null) {
        result.complete(done);
        return;
      }
      LOG.debug("{}: attempt {} failed ({}); retrying in {}", what, attempt, detail(code, answer), backoff);
      Duration next = backoff.multipliedBy(2).compareTo(maxBackoff) > 0 ? maxBackoff : backoff.multipliedBy(2);
      CompletableFuture.delayedExecutor(backoff.toMillis(), TimeUnit.MILLISECONDS)
          .execute(() -> attempt(what, uri, method, attempt + 1, next, result));
    });
  }

  /**
   * The outcome of attempt number {@code attempt} answered {@code code} ({@code -1}: no answer), or {@code null} when
   * the failure is transient and attempts are left (retry).
   */
  private @Nullable Outcome outcome(int code, String answer, int attempt) {
    if (code >= 200 && code < 300) {
      return new Outcome(Kind.OK, code, answer);
    }
    if (code == 404 || code == 409) {
      return new Outcome(Kind.REFUSED, code, answer);
    }
    boolean transientFailure = code < 0 || code == 429 || code >= 500;
    if (!transientFailure) {
      return new Outcome(Kind.REFUSED, code, detail(code, answer));
    }
    return attempt < attempts ? null : new Outcome(Kind.GAVE_UP, code, detail(code, answer));
  }

  private static String detail(int code, String answer) {
    return (code < 0 ? "" : "HTTP " + code + ": ") + answer;
  }

  /** The path of a pod, or of one of its subresources when {@code subresource} is not empty. */
  public static String podPath(String namespace, String name, String subresource) {
    return "/api/v1/namespaces/" + enc(namespace) + "/pods/" + enc(name)
        + (subresource.isEmpty() ? "" : "/" + subresource);
  }

  private String url(String path) {
    return base + path;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** The {@code message} of a Status body, else the body itself (shortened). */
  private String message(String body) {
    if (body == null || body.isBlank()) {
      return "(no body)";
    }
    try {
      io.fabric8.kubernetes.api.model.Status s = client.getKubernetesSerialization().unmarshal(body,
          io.fabric8.kubernetes.api.model.Status.class);
      if (s != null && s.getMessage() != null) {
        return s.getMessage();
      }
    } catch (RuntimeException e) {
      // not a Status: fall through
    }
    return body.length() > 300 ? body.substring(0, 300) + "..." : body;
  }
}
