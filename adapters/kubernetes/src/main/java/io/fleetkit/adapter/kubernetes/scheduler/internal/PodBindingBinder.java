package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.scheduler.Binder;
import io.fleetkit.api.scheduler.Status;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds through the {@code pods/binding} subresource ({@code POST /api/v1/namespaces/NS/pods/NAME/binding}), as
 * kube-scheduler's DefaultBinder does; fabric8 has no typed call for it, so the request goes through the client's
 * authenticated HTTP client.
 *
 * <p>Outcomes: 2xx is success. 409 (already bound, or the uid precondition failed because the pod was replaced) and
 * 404 (the pod is gone) are final: the pod is recorded in {@link ForgottenPods} and not retried. 429, 5xx, timeouts
 * and connection failures are retried with exponential backoff up to {@code attempts}; any other answer is returned
 * as an error (the engine re-queues the pod with its own backoff). A replica that is not the leader never posts.
 * These retries come on top of the fabric8 client's own (its {@code requestRetryBackoffLimit}, which also retries
 * 5xx answers), so that a binding survives an API server restart even with the client's retries turned off.
 *
 * <p>Thread-safe; calls block the scheduling thread for at most {@code attempts} requests and backoffs.
 */
public final class PodBindingBinder implements Binder {
  private static final Logger LOG = LoggerFactory.getLogger(PodBindingBinder.class);
  private static final String FLEETKIT_ANNOTATION_PREFIX = "fleetkit.io/";

  private final KubernetesClient client;
  private final ForgottenPods forgotten;
  private final BooleanSupplier leading;
  private final int attempts;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Duration requestTimeout;
  private final AtomicLong posted = new AtomicLong();

  public PodBindingBinder(KubernetesClient client, ForgottenPods forgotten, BooleanSupplier leading, int attempts,
      Duration initialBackoff, Duration maxBackoff, Duration requestTimeout) {
    this.client = Objects.requireNonNull(client, "client");
    this.forgotten = Objects.requireNonNull(forgotten, "forgotten");
    this.leading = Objects.requireNonNull(leading, "leading");
    if (attempts < 1) {
      throw new IllegalArgumentException("pod binder: attempts " + attempts + " must be at least 1");
    }
    this.attempts = attempts;
    this.initialBackoff = Objects.requireNonNull(initialBackoff, "initialBackoff");
    this.maxBackoff = Objects.requireNonNull(maxBackoff, "maxBackoff");
    this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
  }

  /** How many binding requests this binder has sent (for tests and metrics). */
  public long postedRequests() {
    return posted.get();
  }

  @Override
  public Status bind(Pod pod, String nodeName) {
    String key = pod.metadata().key();
    String what = "binding pod " + key + " to node " + nodeName;
    if (forgotten.isForgotten(key, pod.metadata().uid())) {
      // The server already answered 409 or 404 for this pod; the scheduling loop removes it after this pass.
      return Status.error(what + ": the API server refused it for good earlier; not retrying");
    }
    String body = client.getKubernetesSerialization().asJson(binding(pod, nodeName));
    String uri = bindingUri(pod);
    Duration backoff = initialBackoff;
    String last = "";
    for (int attempt = 1; attempt <= attempts; attempt++) {
      if (!leading.getAsBoolean()) {
        return Status.error(what + ": this replica is not the leader; not binding");
      }
      HttpRequest request = client.getHttpClient().newHttpRequestBuilder()
          .uri(uri)
          .timeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
          .post("application/json", body)
          .build();
      int code;
      String answer;
      try {
        posted.incrementAndGet();
        HttpResponse<String> response = client.getHttpClient().sendAsync(request, String.class)
            .get(requestTimeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        code = response.code();
        answer = message(response.body());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Status.error(what + ": interrupted");
      } catch (ExecutionException | TimeoutException e) {
        code = -1;
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        answer = cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
      }
      if (code >= 200 && code < 300) {
        LOG.debug("{}: bound", what);
        return Status.success();
      }
      if (code == 409 || code == 404) {
        forgotten.add(key, pod.metadata().uid());
        String why = code == 409 ? "conflict (409): " : "not found (404): ";
        LOG.info("{}: {}{}; forgetting the pod", what, why, answer);
        return Status.error(what + ": " + why + answer + "; not retrying");
      }
      last = (code < 0 ? "" : "HTTP " + code + ": ") + answer;
      boolean transientFailure = code < 0 || code == 429 || code >= 500;
      if (!transientFailure) {
        LOG.warn("{}: rejected: {}", what, last);
        return Status.error(what + ": rejected: " + last);
      }
      if (attempt < attempts) {
        LOG.debug("{}: attempt {} failed ({}); retrying in {}", what, attempt, last, backoff);
        try {
          Thread.sleep(backoff.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return Status.error(what + ": interrupted");
        }
        backoff = backoff.multipliedBy(2).compareTo(maxBackoff) > 0 ? maxBackoff : backoff.multipliedBy(2);
      }
    }
    LOG.warn("{}: gave up after {} attempts: {}", what, attempts, last);
    return Status.error(what + ": gave up after " + attempts + " attempts: " + last);
  }

  static Binding binding(Pod pod, String nodeName) {
    BindingBuilder b = new BindingBuilder()
        .withNewMetadata()
        .withName(pod.metadata().name())
        .withNamespace(pod.metadata().namespace())
        .withUid(pod.metadata().uid().isEmpty() ? null : pod.metadata().uid())
        .endMetadata()
        .withNewTarget().withApiVersion("v1").withKind("Node").withName(nodeName).endTarget();
    // FleetKit's annotations on the pod (e.g. the GPU ids the GPU plugins chose) travel with the Binding, whose
    // annotations the API server copies onto the pod.
    Map<String, String> annotations = new java.util.TreeMap<>();
    pod.metadata().annotations().forEach((k, v) -> {
      if (k.startsWith(FLEETKIT_ANNOTATION_PREFIX)) {
        annotations.put(k, v);
      }
    });
    if (!annotations.isEmpty()) {
      b.editMetadata().withAnnotations(annotations).endMetadata();
    }
    return b.build();
  }

  private String bindingUri(Pod pod) {
    String base = client.getMasterUrl().toString();
    if (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return base + "/api/v1/namespaces/" + enc(pod.metadata().namespace()) + "/pods/" + enc(pod.metadata().name())
        + "/binding";
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
