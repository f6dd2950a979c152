package io.fleetkit.adapter.slurm;

import io.fleetkit.adapter.slurm.internal.SlurmJson;
import io.fleetkit.api.core.Node;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A client for slurmrestd's OpenAPI v0.0.38 (Slurm 22.05) on the JDK HTTP client: ping, nodes, partitions, and
 * submit/get/list/cancel jobs.
 *
 * <p>Authentication is a JWT ({@link SlurmToken}) sent as {@code X-SLURM-USER-TOKEN} with
 * {@code X-SLURM-USER-NAME}; the token never appears in logs, {@link #toString()} or exception messages.
 *
 * <p>Failures: Slurm's refusals become {@link SlurmRejectedException} (with {@link SlurmAuthException} for
 * credentials and {@link SlurmJobNotFoundException} for unknown job ids) carrying Slurm's error text, and are not
 * retried. Connection failures, timeouts, HTTP 502/503/504 and Slurm's "cannot reach slurmctld" errors are retried
 * per {@link SlurmRetry} (waiting through the injectable {@link Sleeper}); when attempts run out a
 * {@link SlurmUnavailableException} is thrown. Thread-safe.
 */
public final class SlurmClient {
  /** The OpenAPI version this client speaks. */
  public static final String API_VERSION = "v0.0.38";

  private static final Logger LOG = LoggerFactory.getLogger(SlurmClient.class);
  private static final String PREFIX = "/slurm/" + API_VERSION;

  private final URI baseUri;
  private final SlurmToken token;
  private final SlurmRetry retry;
  private final Sleeper sleeper;
  private final Duration requestTimeout;
  private final HttpClient http;

  private SlurmClient(Builder b) {
    this.baseUri = Objects.requireNonNull(b.baseUri, "slurm client: baseUri is required");
    this.token = Objects.requireNonNull(b.token, "slurm client: token is required");
    this.retry = b.retry;
    this.sleeper = b.sleeper;
    this.requestTimeout = b.requestTimeout;
    this.http = b.http != null ? b.http
        : HttpClient.newBuilder().connectTimeout(b.connectTimeout).version(HttpClient.Version.HTTP_1_1).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code GET /ping}: one entry per controller. */
  public List<SlurmPing> ping() {
    return SlurmJson.pings(call("GET", "/ping", null));
  }

  /** {@code GET /nodes}, as Slurm reports them. */
  public List<SlurmNode> slurmNodes() {
    return SlurmJson.nodes(call("GET", "/nodes", null));
  }

  /** {@code GET /nodes} as FleetKit nodes ({@link SlurmNode#toNode()}). */
  public List<Node> nodes() {
    return slurmNodes().stream().map(SlurmNode::toNode).toList();
  }

  /** {@code GET /partitions}. */
  public List<SlurmPartition> partitions() {
    return SlurmJson.partitions(call("GET", "/partitions", null));
  }

  /** {@code POST /job/submit}. */
  public SlurmSubmission submit(SlurmJobSpec spec) {
    Objects.requireNonNull(spec, "spec");
    SlurmSubmission s = SlurmJson.submission(call("POST", "/job/submit", SlurmJson.submitBody(spec)));
    LOG.debug("slurm job {} submitted as {}", spec.name(), s.jobId());
    return s;
  }

  /**
   * {@code GET /job/{id}}: the job with that id. For an array's master id Slurm answers with every task of the
   * array; this returns the entry whose id is {@code jobId} (see {@link #jobEntries} for all of them).
   *
   * @throws SlurmJobNotFoundException when Slurm does not know the id (or has forgotten it after MinJobAge)
   */
  public SlurmJob job(long jobId) {
    List<SlurmJob> all = jobEntries(jobId);
    for (SlurmJob j : all) {
      if (j.jobId() == jobId) {
        return j;
      }
    }
    if (all.isEmpty()) {
      throw new SlurmJobNotFoundException("GET " + PREFIX + "/job/" + jobId, 200,
          List.of(new SlurmError(SlurmError.INVALID_JOB_ID, "Invalid job id specified", "no job in the answer", "")));
    }
    return all.get(0);
  }

  /** {@code GET /job/{id}}: every entry Slurm returns (all tasks when {@code jobId} is an array's master id). */
  public List<SlurmJob> jobEntries(long jobId) {
    return SlurmJson.jobs(call("GET", "/job/" + positive(jobId), null));
  }

  /** {@code GET /jobs}: all jobs Slurm knows, including ones finished less than MinJobAge ago. */
  public List<SlurmJob> jobs() {
    return SlurmJson.jobs(call("GET", "/jobs", null));
  }

  /** {@code DELETE /job/{id}}: cancels the job (SIGTERM, then SIGKILL after KillWait); ok if already cancelled. */
  public void cancel(long jobId) {
    call("DELETE", "/job/" + positive(jobId), null);
    LOG.debug("slurm job {} cancelled", jobId);
  }

  private static long positive(long jobId) {
    if (jobId <= 0) {
      throw new IllegalArgumentException("slurm job id " + jobId + " must be positive");
    }
    return jobId;
  }

  private JsonNode call(String method, String path, @Nullable String body) {
    String what = method + " " + PREFIX + path;
    URI uri = baseUri.resolve(PREFIX + path);
    Exception last = null;
    for (int attempt = 1; ; attempt++) {
      String jwt = token.jwt();
      try {
        HttpRequest.Builder rb = HttpRequest.newBuilder(uri).timeout(requestTimeout)
            .header("Accept", "application/json")
            .header("X-SLURM-USER-NAME", token.userName())
            .header("X-SLURM-USER-TOKEN", jwt);
        if (body != null) {
          rb.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
          rb.method(method, HttpRequest.BodyPublishers.noBody());
        }
        long t0 = System.nanoTime();
        HttpResponse<String> resp = http.send(rb.build(), HttpResponse.BodyHandlers.ofString());
        LOG.debug("slurm {} -> HTTP {} in {} ms (attempt {})", what, resp.statusCode(),
            (System.nanoTime() - t0) / 1_000_000, attempt);
        return interpret(what, resp.statusCode(), resp.body(), jwt);
      } catch (RetryableAnswer e) {
        last = e;
      } catch (IOException e) {
        last = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SlurmException("slurm " + what + ": interrupted", e);
      }
      String reason = describe(last, jwt);
      if (attempt >= retry.maxAttempts()) {
        throw new SlurmUnavailableException("slurm " + what + " to " + baseUri + " failed after " + attempt
            + " attempt(s): " + reason, attempt, last instanceof RetryableAnswer ? null : last);
      }
      Duration wait = retry.backoffAfter(attempt);
      LOG.debug("slurm {} failed (attempt {} of {}): {}; retrying in {} ms", what, attempt, retry.maxAttempts(),
          reason, wait.toMillis());
      try {
        sleeper.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SlurmException("slurm " + what + ": interrupted while waiting to retry after: " + reason, e);
      }
    }
  }

  private static String describe(Exception e, String jwt) {
    String m = e.getMessage();
    String s = e.getClass().getSimpleName() + (m == null || m.isEmpty() ? "" : ": " + m);
    return redact(s, jwt);
  }

  static String redact(String s, String jwt) {
    return jwt.isEmpty() ? s : s.replace(jwt, "<redacted>");
  }

  private static JsonNode interpret(String what, int status, String body, String jwt) throws RetryableAnswer {
    if (status == 502 || status == 503 || status == 504) {
      throw new RetryableAnswer("HTTP " + status);
    }
    JsonNode root;
    try {
      root = SlurmJson.parse(body);
    } catch (JacksonException e) {
      root = null;
    }
    if (root == null || !root.isObject()) {
      // slurmrestd answers a request without usable auth headers with a plain-text 401 "Authentication failure"
      String text = redact(body.strip(), jwt);
      text = text.length() > 200 ? text.substring(0, 200) + "..." : text;
      List<SlurmError> errs = List.of(new SlurmError(0, text.isEmpty() ? "empty body" : text, "", ""));
      if (status == 401 || status == 403) {
        throw new SlurmAuthException(what, status, errs);
      }
      if (status >= 200 && status < 300) {
        throw new SlurmException("slurm " + what + ": HTTP " + status + " with a body that is not a JSON object: "
            + text);
      }
      throw new SlurmRejectedException(what, status, errs);
    }
    List<SlurmError> errors = SlurmJson.errors(root).stream()
        .map(e -> new SlurmError(e.code(), redact(e.error(), jwt), redact(e.description(), jwt), e.source()))
        .toList();
    if (errors.isEmpty() && status >= 200 && status < 300) {
      return root;
    }
    if (!errors.isEmpty() && errors.stream().allMatch(e -> isControllerUnreachable(e.code()))) {
      throw new RetryableAnswer(errors.get(0).text());
    }
    if (status == 401 || status == 403 || isAuthFailure(errors)) {
      throw new SlurmAuthException(what, status, errors);
    }
    if (errors.stream().anyMatch(e -> e.code() == SlurmError.INVALID_JOB_ID)) {
      throw new SlurmJobNotFoundException(what, status, errors);
    }
    throw new SlurmRejectedException(what, status, errors);
  }

  /** Slurm's communication errors between slurmrestd and slurmctld (slurm_errno.h): transient, retried. */
  private static boolean isControllerUnreachable(int code) {
    return (code >= 1001 && code <= 1004) || (code >= 1800 && code <= 1803) || code == 5004;
  }

  /**
   * slurmrestd 22.05 does not say "unauthorized" when slurmctld refuses a JWT: every call fails with errno -1
   * ("Unspecified error"), or 5005 ("Zero Bytes were transmitted or received") for a submit (measured against
   * 22.05.8 with a forged token). An explicit SLURM_PROTOCOL_AUTHENTICATION_ERROR or an ESLURM_AUTH_* (6000-6099)
   * code counts too.
   */
  private static boolean isAuthFailure(List<SlurmError> errors) {
    if (errors.isEmpty()) {
      return false;
    }
    if (errors.stream().anyMatch(e -> e.code() == SlurmError.PROTOCOL_AUTHENTICATION_ERROR
        || (e.code() >= 6000 && e.code() < 6100))) {
      return true;
    }
    return errors.stream().allMatch(e -> e.code() == -1 || e.code() == 5005);
  }

  @Override
  public String toString() {
    return "SlurmClient[" + baseUri + PREFIX + ", " + token + "]";
  }

  /** A response that means "try again" (slurmctld unreachable, gateway errors). */
  private static final class RetryableAnswer extends Exception {
    RetryableAnswer(String message) {
      super(message, null, false, false);
    }
  }

  /** Builder; {@link #baseUri} and {@link #token} are required. Not thread-safe. */
  public static final class Builder {
    private @Nullable URI baseUri;
    private @Nullable SlurmToken token;
    private SlurmRetry retry = SlurmRetry.DEFAULT;
    private Sleeper sleeper = Sleeper.SYSTEM;
    private Duration requestTimeout = Duration.ofSeconds(30);
    private Duration connectTimeout = Duration.ofSeconds(5);
    private @Nullable HttpClient http;
    private boolean allowPlainHttpToRemote;

    private Builder() {}

    /** slurmrestd's address, e.g. {@code http://127.0.0.1:6820} (the {@code /slurm/v0.0.38} prefix is added). */
    public Builder baseUri(URI v) {
      Objects.requireNonNull(v, "baseUri");
      if (!"http".equals(v.getScheme()) && !"https".equals(v.getScheme())) {
        throw new IllegalArgumentException("slurm client: baseUri \"" + v + "\" must be http or https");
      }
      baseUri = v;
      return this;
    }

    public Builder baseUri(String v) {
      return baseUri(URI.create(v));
    }

    public Builder token(SlurmToken v) { token = Objects.requireNonNull(v, "token"); return this; }
    public Builder retry(SlurmRetry v) { retry = Objects.requireNonNull(v, "retry"); return this; }
    public Builder sleeper(Sleeper v) { sleeper = Objects.requireNonNull(v, "sleeper"); return this; }

    /** Per-request timeout (default 30 s); a timeout is retried like a connection failure. */
    public Builder requestTimeout(Duration v) { requestTimeout = positive(v, "requestTimeout"); return this; }

    /** Connect timeout of the HTTP client this builder makes (default 5 s); ignored with {@link #httpClient}. */
    public Builder connectTimeout(Duration v) { connectTimeout = positive(v, "connectTimeout"); return this; }

    /** Use this HTTP client instead of a new one. */
    public Builder httpClient(HttpClient v) { http = Objects.requireNonNull(v, "httpClient"); return this; }

    /**
     * Allows an {@code http://} base URI naming a host other than loopback (default: refused, since every request
     * carries the JWT in clear text). Only for a network where eavesdropping is ruled out otherwise.
     */
    public Builder allowPlainHttpToRemote(boolean v) { allowPlainHttpToRemote = v; return this; }

    private static Duration positive(Duration v, String field) {
      Objects.requireNonNull(v, field);
      if (v.isNegative() || v.isZero()) {
        throw new IllegalArgumentException("slurm client: " + field + " " + v + " must be positive");
      }
      return v;
    }

    /**
     * @throws NullPointerException when the base URI or token is missing
     * @throws IllegalStateException when the base URI is {@code http://} to a host that is not loopback and
     *     {@link #allowPlainHttpToRemote} was not set
     */
    public SlurmClient build() {
      if (baseUri != null && "http".equals(baseUri.getScheme()) && !allowPlainHttpToRemote
          && !isLoopback(baseUri.getHost())) {
        throw new IllegalStateException("slurm client: baseUri \"" + baseUri + "\" is plain http to a host that is"
            + " not loopback, so the token would cross the network in clear text; use https, or"
            + " allowPlainHttpToRemote(true) where the network is trusted");
      }
      return new SlurmClient(this);
    }

    /** Loopback by name or address literal; other names are not resolved (a lookup must not decide safety). */
    static boolean isLoopback(@Nullable String host) {
      if (host == null) {
        return false;
      }
      String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
      if (h.equalsIgnoreCase("localhost")) {
        return true;
      }
      if (h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")) {
        return true;
      }
      return h.equals("::1") || h.equals("0:0:0:0:0:0:0:1");
    }
  }
}
