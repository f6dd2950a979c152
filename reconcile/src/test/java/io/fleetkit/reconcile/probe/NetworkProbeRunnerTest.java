package io.fleetkit.reconcile.probe;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.ProbeType;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.ServiceTargetPort;
import io.fleetkit.api.resource.ResourceList;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Real HTTP and TCP checks against a server on 127.0.0.1. */
final class NetworkProbeRunnerTest {
  private final NetworkProbeRunner runner = new NetworkProbeRunner();
  private final Map<String, String> seenHeaders = new ConcurrentHashMap<>();
  private final CountDownLatch release = new CountDownLatch(1);
  private HttpServer server;
  private int port;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/healthz", ex -> {
      seenHeaders.put("User-Agent", String.valueOf(ex.getRequestHeaders().getFirst("User-Agent")));
      seenHeaders.put("X-Custom", String.valueOf(ex.getRequestHeaders().getFirst("X-Custom")));
      ex.sendResponseHeaders(200, -1);
      ex.close();
    });
    server.createContext("/broken", ex -> {
      ex.sendResponseHeaders(503, -1);
      ex.close();
    });
    server.createContext("/moved", ex -> {
      ex.getResponseHeaders().add("Location", "http://elsewhere.invalid/");
      ex.sendResponseHeaders(302, -1);
      ex.close();
    });
    server.createContext("/slow", ex -> {
      try {
        release.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      ex.sendResponseHeaders(200, -1);
      ex.close();
    });
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    server.start();
    port = server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    release.countDown();
    server.stop(0);
  }

  /** A generous timeout, so that a busy build machine does not turn a success into a timeout. */
  private static Probe patient(ProbeHandler h) {
    return Probe.builder(h).timeoutSeconds(10).build();
  }

  private ProbeOutcome get(String path, ProbeTarget target) {
    return runner.run(ProbeType.Readiness, patient(ProbeHandler.HttpGet.of(path, port)), target);
  }

  private static ProbeTarget local() {
    return ProbeTarget.of("127.0.0.1");
  }

  @Test
  void httpGet_200_isSuccess_withKubeProbeUserAgent() {
    ProbeOutcome o = get("/healthz", local());
    assertThat(o.kind()).isEqualTo(ProbeOutcome.Kind.Success);
    assertThat(seenHeaders).containsEntry("User-Agent", NetworkProbeRunner.USER_AGENT);
  }

  @Test
  void httpGet_customHeaders_areSent() {
    Probe p = patient(new ProbeHandler.HttpGet("/healthz", ServiceTargetPort.of(port), "", "HTTP",
        List.of(new ProbeHandler.HttpHeader("X-Custom", "yes"))));
    assertThat(runner.run(ProbeType.Liveness, p, local()).kind()).isEqualTo(ProbeOutcome.Kind.Success);
    assertThat(seenHeaders).containsEntry("X-Custom", "yes");
  }

  @Test
  void httpGet_503_isFailureNamingTheStatus() {
    ProbeOutcome o = get("/broken", local());
    assertThat(o.kind()).isEqualTo(ProbeOutcome.Kind.Failure);
    assertThat(o.output()).contains("503");
    assertThat(o.result()).isEqualTo(ProbeResult.Failure);
  }

  @Test
  void httpGet_redirect_isWarningWhichCountsAsSuccess() {
    ProbeOutcome o = get("/moved", local());
    assertThat(o.kind()).isEqualTo(ProbeOutcome.Kind.Warning);
    assertThat(o.result()).isEqualTo(ProbeResult.Success);
  }

  @Test
  void httpGet_slowerThanTimeout_isFailure() {
    long start = System.nanoTime();
    ProbeOutcome o = runner.run(ProbeType.Readiness, Probe.of(ProbeHandler.HttpGet.of("/slow", port)), local());
    long tookMillis = (System.nanoTime() - start) / 1_000_000;
    assertThat(o.kind()).isEqualTo(ProbeOutcome.Kind.Failure);
    assertThat(o.output()).contains("deadline");
    assertThat(tookMillis).isLessThan(9_000); // the server holds the answer for 10 s; the probe gives up after 1 s
  }

  @Test
  void httpGet_namedPort_resolvesFromContainer() {
    Container c = new Container("web", "img", ResourceRequirements.ofRequests(ResourceList.EMPTY),
        List.of(ContainerPort.of("http", port)), List.<EnvVar>of(), null);
    Probe p = patient(new ProbeHandler.HttpGet("/healthz", ServiceTargetPort.named("http"), "", "HTTP",
        List.of()));
    assertThat(runner.run(ProbeType.Readiness, p, ProbeTarget.of("127.0.0.1", c)).kind())
        .isEqualTo(ProbeOutcome.Kind.Success);
    Probe missing = Probe.of(new ProbeHandler.HttpGet("/healthz", ServiceTargetPort.named("admin"), "", "HTTP",
        List.of()));
    ProbeOutcome o = runner.run(ProbeType.Readiness, missing, ProbeTarget.of("127.0.0.1", c));
    assertThat(o.kind()).isEqualTo(ProbeOutcome.Kind.Failure);
    assertThat(o.output()).contains("admin");
  }

  @Test
  void tcpSocket_openPort_isSuccess_closedPort_isFailure() throws IOException {
    assertThat(runner.run(ProbeType.Liveness, patient(ProbeHandler.TcpSocket.of(port)), local()).kind())
        .isEqualTo(ProbeOutcome.Kind.Success);
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    ProbeOutcome o = runner.run(ProbeType.Liveness, Probe.of(ProbeHandler.TcpSocket.of(closed)), local());
    assertThat(o.kind()).isEqualTo(ProbeOutcome.Kind.Failure);
    assertThat(o.output()).contains("127.0.0.1:" + closed);
  }

  @Test
  void execAndGrpc_areProberErrors() {
    assertThat(runner.run(ProbeType.Liveness, Probe.of(new ProbeHandler.Exec(List.of("true"))), local()).kind())
        .isEqualTo(ProbeOutcome.Kind.Error);
    assertThat(runner.run(ProbeType.Liveness, Probe.of(new ProbeHandler.Grpc(port, "")), local()).result())
        .isNull();
  }

  @Test
  void workerWithRealRunner_turnsUnreadyWhenServerStops() {
    ContainerProbes probes = new ContainerProbes(Container.of("c", "img", ResourceList.EMPTY)
        .withProbes(null, Probe.builder(ProbeHandler.HttpGet.of("/healthz", port)).failureThreshold(1)
            .timeoutSeconds(10).build(), null), java.time.Instant.EPOCH);
    ContainerView view = ContainerView.running("id", java.time.Instant.EPOCH, true);
    probes.tick(java.time.Instant.EPOCH, view, runner, local());
    assertThat(probes.ready(io.fleetkit.api.core.ContainerStateType.Running, "id")).isTrue();
    server.stop(0);
    probes.tick(probes.nextTick(), view, runner, local());
    assertThat(probes.ready(io.fleetkit.api.core.ContainerStateType.Running, "id")).isFalse();
  }
}
