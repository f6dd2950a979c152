package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.Status;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds through the {@code pods/binding} subresource ({@code POST /api/v1/namespaces/NS/pods/NAME/binding}), as
 * kube-scheduler's DefaultBinder does; fabric8 has no typed call for it, so the request goes through the client's
 * authenticated HTTP client.
 *
 * <p>Outcomes: 2xx is success. 409 (already bound, or the uid precondition failed because the pod was replaced) and
 * 404 (the pod is gone) are final: the pod is recorded in {@link ForgottenPods} and not retried. 429, 5xx, timeouts
 * and connection failures are retried by {@link ApiRequests} with exponential backoff; any other answer is returned
 * as an error (the engine re-queues the pod with its own backoff). A replica that is not the leader never posts.
 * These retries come on top of the fabric8 client's own, so that a binding survives an API server restart even with
 * the client's retries turned off.
 *
 * <p>Thread-safe; a call blocks its caller (one of the engine's binding threads, so the scheduling thread goes on
 * with the next pod) for at most {@code attempts} requests and backoffs.
 */
public final class PodBindingBinder implements Binder {
  private static final Logger LOG = LoggerFactory.getLogger(PodBindingBinder.class);

  private final ApiRequests api;
  private final ForgottenPods forgotten;
  private final AtomicLong posted = new AtomicLong();

  public PodBindingBinder(ApiRequests api, ForgottenPods forgotten) {
    this.api = Objects.requireNonNull(api, "api");
    this.forgotten = Objects.requireNonNull(forgotten, "forgotten");
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
    String body = RequestBodies.binding(pod, nodeName);
    ApiRequests.Outcome out = api.send(what,
        ApiRequests.podPath(pod.metadata().namespace(), pod.metadata().name(), "binding"), b -> {
          posted.incrementAndGet();
          b.post("application/json", body);
        });
    switch (out.kind()) {
      case OK -> {
        LOG.debug("{}: bound", what);
        return Status.success();
      }
      case NOT_LEADER -> {
        return Status.error(what + ": this replica is not the leader; not binding");
      }
      case INTERRUPTED -> {
        return Status.error(what + ": interrupted");
      }
      case GAVE_UP -> {
        LOG.warn("{}: gave up after {} attempts: {}", what, api.attempts(), out.detail());
        return Status.error(what + ": gave up after " + api.attempts() + " attempts: " + out.detail());
      }
      default -> {
        if (out.code() == 409 || out.code() == 404) {
          forgotten.add(key, pod.metadata().uid());
          String why = out.code() == 409 ? "conflict (409): " : "not found (404): ";
          LOG.info("{}: {}{}; forgetting the pod", what, why, out.detail());
          return Status.error(what + ": " + why + out.detail() + "; not retrying");
        }
        LOG.warn("{}: rejected: {}", what, out.detail());
        return Status.error(what + ": rejected: " + out.detail());
      }
    }
  }
}
