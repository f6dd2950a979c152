package io.fleetkit.adapter.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceNames;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client against a scripted server: requests, error classification, retries, and token secrecy. */
final class SlurmClientTest {
  private static final String JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdW4iOiJyb290In0.c2VjcmV0LXNpZ25hdHVyZQ";

  private final FakeSlurmRestd server = new FakeSlurmRestd();
  private final List<Duration> sleeps = new ArrayList<>();

  @AfterEach
  void stop() {
    server.close();
  }

  private SlurmClient client(String url, SlurmRetry retry) {
    return SlurmClient.builder().baseUri(url).token(SlurmToken.of("root", JWT)).retry(retry)
        .sleeper(sleeps::add).requestTimeout(Duration.ofSeconds(5)).build();
  }

  private SlurmClient client() {
    return client(server.url(), SlurmRetry.DEFAULT);
  }

  @Test
  void ping_sendsAuthHeadersToVersionedPath() {
    server.answer(200, Samples.read("ping.json"));
    assertThat(client().ping()).extracting(SlurmPing::hostname).containsExactly("vm");
    FakeSlurmRestd.Request r = server.requests().get(0);
    assertThat(r.method()).isEqualTo("GET");
    assertThat(r.path()).isEqualTo("/slurm/v0.0.38/ping");
    assertThat(r.user()).isEqualTo("root");
    assertThat(r.token()).isEqualTo(JWT);
  }

  @Test
  void nodes_sample_mappedToFleetKitNodes() {
    server.answer(200, Samples.read("nodes.json"));
    List<Node> nodes = client().nodes();
    assertThat(nodes).extracting(Node::name).containsExactly("n1", "n2");
    Node n1 = nodes.get(0);
    assertThat(n1.status().capacity().milliCpu()).isEqualTo(2000);
    assertThat(n1.status().capacity().memoryBytes()).isEqualTo(2000L * 1024 * 1024);
    assertThat(n1.status().capacity().value(ResourceNames.NVIDIA_GPU)).isEqualTo(2);
    assertThat(n1.status().gpus()).hasSize(2);
    assertThat(n1.isReady()).isTrue();
    assertThat(n1.spec().unschedulable()).isFalse();
  }

  @Test
  void submit_postsBodyAndReturnsJobId() {
    server.answer(200, Samples.read("job-submit-response.json"));
    SlurmSubmission s = client().submit(SlurmJobSpec.builder().name("hello").script("#!/bin/sh\ntrue\n").build());
    assertThat(s.jobId()).isEqualTo(2);
    FakeSlurmRestd.Request r = server.requests().get(0);
    assertThat(r.method()).isEqualTo("POST");
    assertThat(r.path()).isEqualTo("/slurm/v0.0.38/job/submit");
    assertThat(r.body()).contains("\"name\":\"hello\"").contains("\"environment\":{\"PATH\"");
  }

  @Test
  void submit_badPartition_rejectedWithSlurmTextNotRetried() {
    server.answer(500, Samples.read("error-submit-bad-partition.json"));
    SlurmRejectedException e = catchThrowableOfType(SlurmRejectedException.class,
        () -> client().submit(SlurmJobSpec.builder().name("x").partition("nope").script("#!/bin/sh\n").build()));
    assertThat(e).isNotInstanceOf(SlurmAuthException.class);
    assertThat(e.httpStatus()).isEqualTo(500);
    assertThat(e.hasCode(SlurmError.INVALID_PARTITION_NAME)).isTrue();
    assertThat(e.getMessage()).isEqualTo(
        "slurm POST /slurm/v0.0.38/job/submit rejected (HTTP 500): Invalid partition name specified [2000]");
    assertThat(server.requests()).hasSize(1);
    assertThat(sleeps).isEmpty();
  }

  @Test
  void job_unknownId_jobNotFound() {
    server.answer(500, Samples.read("error-job-not-found.json"));
    assertThatThrownBy(() -> client().job(99999)).isInstanceOf(SlurmJobNotFoundException.class)
        .hasMessageContaining("Unable to find JobId=99999");
  }

  @Test
  void cancel_unknownId_jobNotFound() {
    server.answer(500, Samples.read("error-delete-not-found.json"));
    assertThatThrownBy(() -> client().cancel(99999)).isInstanceOf(SlurmJobNotFoundException.class)
        .hasMessageContaining("unable to kill JobId=99999");
    assertThat(server.requests().get(0).method()).isEqualTo("DELETE");
  }

  @Test
  void cancel_ok_deleteSent() {
    server.answer(200, Samples.read("job-delete-response.json"));
    client().cancel(42);
    assertThat(server.requests().get(0).path()).isEqualTo("/slurm/v0.0.38/job/42");
  }

  @Test
  void anyCall_plain401_authException() {
    server.answer(401, "Authentication failure");
    SlurmAuthException e = catchThrowableOfType(SlurmAuthException.class, () -> client().ping());
    assertThat(e.httpStatus()).isEqualTo(401);
    assertThat(e.getMessage()).contains("Authentication failure").doesNotContain(JWT);
    assertThat(sleeps).isEmpty();
  }

  @Test
  void anyCall_badTokenShape_authException() {
    server.answer(500, Samples.read("error-bad-token.json"));
    assertThatThrownBy(() -> client().ping()).isInstanceOf(SlurmAuthException.class)
        .hasMessageContaining("slurmctld config is unable to load");
  }

  @Test
  void submit_zeroBytesWithForgedToken_authException() {
    server.answer(500, "{\"errors\":[{\"error_code\":5005,\"error\":\"Zero Bytes were transmitted or received\"}]}");
    assertThatThrownBy(() -> client().submit(SlurmJobSpec.builder().name("x").script("#!/bin/sh\n").build()))
        .isInstanceOf(SlurmAuthException.class);
  }

  @Test
  void errorEchoingToken_redactedInMessage() {
    server.answer(500, "{\"errors\":[{\"error\":\"bad token " + JWT + "\",\"error_code\":2}]}");
    SlurmRejectedException e = catchThrowableOfType(SlurmRejectedException.class, () -> client().ping());
    assertThat(e.getMessage()).doesNotContain(JWT).contains("<redacted>");
    assertThat(e.errors().get(0).error()).doesNotContain(JWT);
  }

  @Test
  void gateway503_retriedWithBackoffThenSucceeds() {
    server.answer(503, "").answer(503, "").answer(200, Samples.read("ping.json"));
    assertThat(client().ping()).hasSize(1);
    assertThat(server.requests()).hasSize(3);
    assertThat(sleeps).containsExactly(Duration.ofMillis(200), Duration.ofMillis(400));
  }

  @Test
  void controllerUnreachable_retried() {
    String down = "{\"errors\":[{\"error_number\":1800,\"error\":\"Unable to contact slurm controller\"}]}";
    server.answer(500, down).answer(200, Samples.read("ping.json"));
    assertThat(client().ping()).hasSize(1);
    assertThat(sleeps).hasSize(1);
  }

  @Test
  void connectionRefused_retriedThenUnavailable() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // closed again: connections are refused
    }
    SlurmClient c = client("http://127.0.0.1:" + port, new SlurmRetry(4, Duration.ofMillis(100),
        Duration.ofMillis(250)));
    SlurmUnavailableException e = catchThrowableOfType(SlurmUnavailableException.class, c::ping);
    assertThat(e.attempts()).isEqualTo(4);
    assertThat(e.getMessage()).contains("failed after 4 attempt(s)").doesNotContain(JWT);
    assertThat(sleeps).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(250));
  }

  @Test
  void toString_namesServerAndUserNotToken() {
    assertThat(client().toString()).contains(server.url()).contains("root").doesNotContain(JWT);
  }

  @Test
  void retry_backoff_doublesUpToMax() {
    SlurmRetry r = new SlurmRetry(10, Duration.ofMillis(100), Duration.ofMillis(500));
    assertThat(List.of(r.backoffAfter(1), r.backoffAfter(2), r.backoffAfter(3), r.backoffAfter(4)))
        .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
            Duration.ofMillis(500));
    assertThatThrownBy(() -> new SlurmRetry(0, Duration.ZERO, Duration.ZERO))
        .hasMessageContaining("maxAttempts 0 must be at least 1");
  }
}
