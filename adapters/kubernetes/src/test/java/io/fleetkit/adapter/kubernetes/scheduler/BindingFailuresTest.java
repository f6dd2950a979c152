package io.fleetkit.adapter.kubernetes.scheduler;

import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.NS;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.await;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.fast;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.scheduler.PendingPod;
import java.time.Duration;
import java.util.Collections;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How the binder treats the API server's answers: transient failures retried, 409 and 404 final. */
final class BindingFailuresTest {
  private final MockCluster cluster = new MockCluster();

  @AfterEach
  void tearDown() {
    cluster.close();
  }

  @Test
  void bind_serverErrorsThenSuccess_retriedWithinOneAttempt() {
    cluster.node("n1", "4", "8Gi");
    cluster.dispatcher.failNextBindings(500, 503);
    KubernetesScheduler s = cluster.start(fast(cluster.noRetryClient()));
    cluster.create(pod("p", "100m", "fleetkit"));

    await("p bound", () -> cluster.nodeOf("p") != null);
    assertThat(cluster.dispatcher.bindingRequests()).containsExactly("default/p", "default/p", "default/p");
    assertThat(s.bindingRequests()).isEqualTo(3);
    assertThat(cluster.events("FailedScheduling")).isEmpty();
  }

  @Test
  void bind_serverErrorsExhaustRetries_podRequeuedWithFailedSchedulingThenBound() {
    cluster.node("n1", "4", "8Gi");
    cluster.dispatcher.failNextBindings(500, 500, 500, 500);
    cluster.start(fast(cluster.noRetryClient()));
    cluster.create(pod("p", "100m", "fleetkit"));

    await("p bound", () -> cluster.nodeOf("p") != null);
    assertThat(cluster.dispatcher.bindingRequests()).hasSize(5);
    await("FailedScheduling", () -> !cluster.events("FailedScheduling").isEmpty());
    assertThat(cluster.events("FailedScheduling").get(0).getNote())
        .contains("gave up after 4 attempts: HTTP 500: injected failure 500");
  }

  @Test
  void bind_conflict_podForgottenAndNotRetried() {
    cluster.node("n1", "4", "8Gi");
    cluster.dispatcher.failNextBindings(409);
    KubernetesScheduler s = cluster.start(fast(cluster.client));
    cluster.create(pod("p", "100m", "fleetkit"));

    await("one binding request", () -> cluster.dispatcher.bindingRequests().size() == 1);
    await("p forgotten", () -> s.scheduler().pending().stream().noneMatch(x -> x.podKey().equals("default/p")));
    // Pod backoff is 50-200 ms here: without the forget, the pod would have been retried several times by now.
    pause(Duration.ofMillis(600));
    assertThat(cluster.dispatcher.bindingRequests()).containsExactly("default/p");
    assertThat(cluster.events("FailedScheduling")).isEmpty();
    assertThat(s.scheduler().pending()).extracting(PendingPod::podKey).doesNotContain("default/p");
  }

  @Test
  void bind_notFound_podForgottenButANewPodOfTheSameNameIsScheduled() {
    cluster.node("n1", "4", "8Gi");
    cluster.dispatcher.failNextBindings(404);
    KubernetesScheduler s = cluster.start(fast(cluster.client));
    cluster.create(pod("p", "100m", "fleetkit"));

    await("one binding request", () -> cluster.dispatcher.bindingRequests().size() == 1);
    pause(Duration.ofMillis(600));
    assertThat(cluster.dispatcher.bindingRequests()).hasSize(1);
    assertThat(cluster.nodeOf("p")).isNull();

    cluster.client.pods().inNamespace(NS).withName("p").delete();
    await("p gone", () -> cluster.client.pods().inNamespace(NS).withName("p").get() == null);
    cluster.create(pod("p", "100m", "fleetkit"));
    await("the new p bound", () -> cluster.nodeOf("p") != null);
    assertThat(Collections.frequency(cluster.dispatcher.bindingRequests(), "default/p")).isEqualTo(2);
    assertThat(s.scheduler().pending()).isEmpty();
  }

  @Test
  void bind_clientRetriesOf5xx_stillBindOnce() {
    // fabric8's client retries 5xx answers itself (requestRetryBackoffLimit); the binder sees one success.
    cluster.node("n1", "4", "8Gi");
    cluster.dispatcher.failNextBindings(503);
    KubernetesScheduler s = cluster.start(fast(cluster.client));
    cluster.create(pod("p", "100m", "fleetkit"));

    await("p bound", () -> cluster.nodeOf("p") != null);
    assertThat(cluster.dispatcher.bindingRequests()).containsExactly("default/p", "default/p");
    assertThat(s.bindingRequests()).isEqualTo(1);
  }

  /** A short pause to show that something does NOT happen (a retry); never used to wait for progress. */
  private static void pause(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
