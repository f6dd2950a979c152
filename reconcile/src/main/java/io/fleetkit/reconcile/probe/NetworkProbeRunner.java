package io.fleetkit.reconcile.probe;

import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.ProbeType;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Runs {@code httpGet} and {@code tcpSocket} probes for real, as the kubelet's HTTP and TCP probers do: an HTTP GET
 * whose status 200 to 399 is success (redirects are not followed; a redirect counts as success, as the kubelet
 * counts one to another host as a warning), anything else or no answer within {@code timeoutSeconds} a failure; a
 * TCP connect that succeeds within the timeout. Requests carry {@code User-Agent: kube-probe/fleetkit} and
 * {@code Accept: *}{@code /*} unless the probe sets them. {@code exec} and {@code grpc} probes give
 * {@link ProbeOutcome#error} (discarded by the worker): supply a runner that can reach the container's runtime or
 * speak gRPC for those. A named port the target does not have is a failure, as in the kubelet.
 *
 * <p>Thread-safe; one instance may serve every worker.
 */
public final class NetworkProbeRunner implements ProbeRunner {
  static final String USER_AGENT = "kube-probe/fleetkit";

  private final HttpClient http;

  /** A runner with its own HTTP client (HTTP/1.1, no redirects). */
  public NetworkProbeRunner() {
    this(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER)
        .build());
  }

  /** A runner using {@code http} (e.g. one configured with an SSLContext for HTTPS probes). */
  public NetworkProbeRunner(HttpClient http) {
    this.http = Objects.requireNonNull(http, "http");
  }

  @Override
  public ProbeOutcome run(ProbeType type, Probe probe, ProbeTarget target) {
    ProbeHandler h = probe.handler();
    if (h instanceof ProbeHandler.HttpGet g) {
      return httpGet(g, probe.timeout(), target);
    }
    if (h instanceof ProbeHandler.TcpSocket t) {
      OptionalInt port = target.resolve(t.port());
      if (port.isEmpty()) {
        return ProbeOutcome.failure("port \"" + t.port() + "\" is not a named port of the container");
      }
      return tcp(t.host().isEmpty() ? target.host() : t.host(), port.getAsInt(), probe.timeout());
    }
    return ProbeOutcome.error(h.fieldName() + " probes are not supported by NetworkProbeRunner");
  }

  private ProbeOutcome httpGet(ProbeHandler.HttpGet g, Duration timeout, ProbeTarget target) {
    OptionalInt port = target.resolve(g.port());
    if (port.isEmpty()) {
      return ProbeOutcome.failure("port \"" + g.port() + "\" is not a named port of the container");
    }
    String host = g.host().isEmpty() ? target.host() : g.host();
    URI uri;
    try {
      String path = g.path().startsWith("/") ? g.path() : "/" + g.path();
      uri = new URI(g.scheme().toLowerCase(java.util.Locale.ROOT) + "://" + hostForUri(host) + ":"
          + port.getAsInt() + path);
    } catch (URISyntaxException e) {
      return ProbeOutcome.failure("invalid probe URL: " + e.getMessage());
    }
    HttpRequest.Builder req = HttpRequest.newBuilder(uri).timeout(timeout).GET();
    boolean agent = false;
    boolean accept = false;
    for (ProbeHandler.HttpHeader header : g.headers()) {
      agent |= header.name().equalsIgnoreCase("User-Agent");
      accept |= header.name().equalsIgnoreCase("Accept");
      if (header.name().equalsIgnoreCase("Host")) {
        continue; // restricted in the JDK client
      }
      req.header(header.name(), header.value());
    }
    if (!agent) {
      req.header("User-Agent", USER_AGENT);
    }
    if (!accept) {
      req.header("Accept", "*/*");
    }
    try {
      HttpResponse<Void> resp = http.send(req.build(), HttpResponse.BodyHandlers.discarding());
      int code = resp.statusCode();
      if (code >= 200 && code < 400) {
        return code >= 300 ? ProbeOutcome.warning("HTTP probe got redirect " + code) : ProbeOutcome.success();
      }
      return ProbeOutcome.failure("HTTP probe failed with statuscode: " + code);
    } catch (HttpTimeoutException e) {
      return ProbeOutcome.failure("Get \"" + uri + "\": context deadline exceeded (timeout " + timeout + ")");
    } catch (IOException e) {
      return ProbeOutcome.failure("Get \"" + uri + "\": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ProbeOutcome.error("interrupted");
    }
  }

  private static ProbeOutcome tcp(String host, int port, Duration timeout) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
      return ProbeOutcome.success();
    } catch (IOException e) {
      return ProbeOutcome.failure("dial tcp " + host + ":" + port + ": " + e.getMessage());
    }
  }

  private static String hostForUri(String host) {
    return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
  }
}
