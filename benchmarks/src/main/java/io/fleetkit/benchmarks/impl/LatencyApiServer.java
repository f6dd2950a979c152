package io.fleetkit.benchmarks.impl;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local stand-in for a Kubernetes API server: fabric8's in-process CRUD mock server (lists and watches for the
 * informers) plus the {@code pods/NAME/binding} subresource with the API server's rules (404 for a missing pod, 409
 * when it is already bound), answering every request after a fixed latency. The latency is a timer on the server's
 * event loop (the mock's body delay), so requests in flight overlap as they do against a real API server; watch
 * streams are not delayed.
 *
 * <p>It counts, per pod, the bindings it accepted and refused as already bound: the benchmark's "no pod bound twice,
 * none lost". Thread-safe.
 */
public final class LatencyApiServer implements AutoCloseable {
  private static final Pattern BINDING =
      Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)/binding(\\?.*)?$");

  private final KubernetesMockServer server;
  private final KubernetesClient client;
  private final Map<String, String> boundTo = new ConcurrentHashMap<>();
  private final AtomicInteger secondBindings = new AtomicInteger();
  private final AtomicLong requests = new AtomicLong();
  private volatile Duration latency = Duration.ZERO;

  public LatencyApiServer() {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    KubernetesMixedDispatcher crud = new KubernetesMixedDispatcher(responses);
    server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, new Latency(crud), false);
    server.init();
    client = server.createClient();
  }

  /** A client of this server (closed with it). */
  public KubernetesClient client() {
    return client;
  }

  /** Answers every request from now on after {@code latency}. */
  public void latency(Duration latency) {
    this.latency = latency;
  }

  /** Pods this server bound. */
  public int bound() {
    return boundTo.size();
  }

  /** Binding requests for pods that were already bound (each would be a pod bound twice). */
  public int secondBindings() {
    return secondBindings.get();
  }

  /** Requests answered. */
  public long requests() {
    return requests.get();
  }

  @Override
  public void close() {
    client.close();
    server.destroy();
  }

  /** The CRUD dispatcher behind the binding subresource and the latency. */
  private final class Latency extends Dispatcher {
    private final Dispatcher crud;
    private final KubernetesSerialization json = new KubernetesSerialization();

    Latency(Dispatcher crud) {
      this.crud = crud;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      requests.incrementAndGet();
      Matcher m = BINDING.matcher(request.getPath());
      MockResponse r = request.method() == HttpMethod.POST && m.matches()
          ? bind(m.group(1), m.group(2), request.getUtf8Body())
          : crud.dispatch(request);
      Duration d = latency;
      if (!d.isZero() && r.getWebSocketListener() == null) {
        r.setBodyDelay(d);
      }
      return r;
    }

    private MockResponse bind(String ns, String name, String body) {
      Binding binding = json.unmarshal(body, Binding.class);
      String node = binding.getTarget().getName();
      String podPath = "/api/v1/namespaces/" + ns + "/pods/" + name;
      MockResponse current = crud.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET, podPath,
          Headers.builder().build(), new Buffer()));
      if (current.code() == 404) {
        return status(404, "NotFound", "pods \"" + name + "\" not found");
      }
      Pod pod = json.unmarshal(current.getBody().readUtf8(), Pod.class);
      String already = pod.getSpec().getNodeName();
      if ((already != null && !already.isEmpty()) || boundTo.putIfAbsent(ns + "/" + name, node) != null) {
        secondBindings.incrementAndGet();
        return status(409, "Conflict", "Operation cannot be fulfilled on pods/binding \"" + name + "\": pod "
            + name + " is already assigned to a node");
      }
      String patch = "{\"spec\":{\"nodeName\":\"" + node + "\"}}";
      MockResponse patched = crud.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.PATCH, podPath,
          Headers.builder().add("Content-Type", "application/merge-patch+json").build(),
          new Buffer(patch.getBytes(StandardCharsets.UTF_8))));
      if (patched.code() >= 300) {
        return patched;
      }
      return new MockResponse().setResponseCode(201).setBody(json.asJson(binding));
    }

    private MockResponse status(int code, String reason, String message) {
      String body = "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":" + code
          + ",\"reason\":\"" + reason + "\",\"message\":\"" + message.replace("\"", "\\\"") + "\"}";
      return new MockResponse().setResponseCode(code).setBody(body);
    }
  }
}
