package io.fleetkit.adapter.kubernetes.scheduler;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Wraps fabric8's CRUD dispatcher with what it lacks (see the facts note on the mock server): the
 * {@code pods/NAME/binding} subresource with the API server's semantics (404 for a missing pod, 409 when it is already
 * bound or the uid differs, else {@code spec.nodeName} is set by a merge patch and 201 returned); injected failures
 * for binding calls; server-side closing of open watches; a 410 Gone answer to the next pod watch; and a log of the
 * requests made by a client tagged with {@link #CLIENT_HEADER}.
 */
final class BindingDispatcher extends Dispatcher {
  static final String CLIENT_HEADER = "X-FleetKit-Test-Client";
  private static final Pattern BINDING =
      Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)/binding(\\?.*)?$");

  /** One request seen from the tagged client. */
  record Call(String method, String path) {}

  private final Dispatcher delegate;
  private final KubernetesSerialization json = new KubernetesSerialization();
  private final Queue<Integer> bindingFaults = new ConcurrentLinkedQueue<>();
  private final Set<WebSocket> openWatches = ConcurrentHashMap.newKeySet();
  private final AtomicInteger podWatches = new AtomicInteger();
  private final AtomicInteger goneAnswers = new AtomicInteger();
  private volatile boolean goneOnNextPodWatch;
  private final List<Call> taggedCalls = new CopyOnWriteArrayList<>();
  private final List<String> bindings = new CopyOnWriteArrayList<>();

  BindingDispatcher(Dispatcher delegate) {
    this.delegate = delegate;
  }

  /** The next binding requests answer these codes (without touching the pod), in order. */
  void failNextBindings(Integer... codes) {
    bindingFaults.addAll(List.of(codes));
  }

  /** Closes every open watch from the server side, as an API server restart or a load balancer would. */
  void dropWatches() {
    for (WebSocket ws : new ArrayList<>(openWatches)) {
      ws.close(1000, "dropped by the test");
    }
    openWatches.clear();
  }

  /** The next watch request on pods is answered 410 Gone ("resource version too old"). */
  void goneOnNextPodWatch() {
    goneOnNextPodWatch = true;
  }

  /** Pod watches open now (a watch opens shortly after its informer has listed). */
  int openPodWatches() {
    return (int) openWatches.stream().filter(ws -> isPodWatch(ws.request().getPath())).count();
  }

  private static boolean isPodWatch(String path) {
    return path.startsWith("/api/v1/pods?") && path.contains("watch=true");
  }

  int podWatchRequests() {
    return podWatches.get();
  }

  int goneAnswers() {
    return goneAnswers.get();
  }

  /** {@code namespace/name} of every binding request, in order, injected failures included. */
  List<String> bindingRequests() {
    return List.copyOf(bindings);
  }

  List<Call> taggedCalls() {
    return List.copyOf(taggedCalls);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    String path = request.getPath();
    if (request.getHeader(CLIENT_HEADER) != null) {
      taggedCalls.add(new Call(request.getMethod(), path));
    }
    Matcher m = BINDING.matcher(path);
    if (request.method() == HttpMethod.POST && m.matches()) {
      return bind(m.group(1), m.group(2), request);
    }
    boolean podWatch = request.method() == HttpMethod.GET && isPodWatch(path);
    if (podWatch) {
      podWatches.incrementAndGet();
      if (goneOnNextPodWatch) {
        goneOnNextPodWatch = false;
        goneAnswers.incrementAndGet();
        return status(410, "Expired", "too old resource version");
      }
    }
    MockResponse response = delegate.dispatch(request);
    WebSocketListener listener = response.getWebSocketListener();
    if (listener != null) {
      response.withWebSocketUpgrade(new Tracking(listener));
    }
    return response;
  }

  private MockResponse bind(String ns, String name, RecordedRequest request) {
    bindings.add(ns + "/" + name);
    Integer fault = bindingFaults.poll();
    if (fault != null) {
      return status(fault, "Injected", "injected failure " + fault);
    }
    Binding binding = json.unmarshal(request.getUtf8Body(), Binding.class);
    String podPath = "/api/v1/namespaces/" + ns + "/pods/" + name;
    MockResponse current = delegate.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET, podPath,
        Headers.builder().build(), new Buffer()));
    if (current.code() == 404) {
      return status(404, "NotFound", "pods \"" + name + "\" not found");
    }
    Pod pod = json.unmarshal(current.getBody().readUtf8(), Pod.class);
    String uid = binding.getMetadata().getUid();
    if (uid != null && !uid.equals(pod.getMetadata().getUid())) {
      return status(409, "Conflict", "Operation cannot be fulfilled on pods/binding \"" + name
          + "\": precondition failed: UID in precondition: " + uid + ", UID in object meta: "
          + pod.getMetadata().getUid());
    }
    if (pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()) {
      return status(409, "Conflict", "Operation cannot be fulfilled on pods/binding \"" + name + "\": pod " + name
          + " is already assigned to node \"" + pod.getSpec().getNodeName() + "\"");
    }
    String patch = "{\"spec\":{\"nodeName\":\"" + binding.getTarget().getName() + "\"}}";
    MockResponse patched = delegate.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.PATCH, podPath,
        Headers.builder().add("Content-Type", "application/merge-patch+json").build(),
        new Buffer(patch.getBytes(StandardCharsets.UTF_8))));
    if (patched.code() >= 300) {
      return patched;
    }
    return new MockResponse().setResponseCode(201).setBody(json.asJson(binding));
  }

  private MockResponse status(int code, String reason, String message) {
    return new MockResponse().setResponseCode(code).setBody(json.asJson(new StatusBuilder().withStatus("Failure")
        .withCode(code).withReason(reason).withMessage(message).build()));
  }

  @Override
  public void shutdown() {
    delegate.shutdown();
  }

  @Override
  public void releaseResources() {
    delegate.releaseResources();
  }

  /** Remembers open watch sockets so that the test can close them. */
  private final class Tracking extends WebSocketListener {
    private final WebSocketListener inner;

    Tracking(WebSocketListener inner) {
      this.inner = inner;
    }

    @Override
    public void onBeforeAccept(WebSocket ws, Response r) {
      inner.onBeforeAccept(ws, r);
    }

    @Override
    public void onOpen(WebSocket ws, Response r) {
      openWatches.add(ws);
      inner.onOpen(ws, r);
    }

    @Override
    public void onMessage(WebSocket ws, String text) {
      inner.onMessage(ws, text);
    }

    @Override
    public void onMessage(WebSocket ws, byte[] bytes) {
      inner.onMessage(ws, bytes);
    }

    @Override
    public void onPing(WebSocket ws, byte[] bytes) {
      inner.onPing(ws, bytes);
    }

    @Override
    public void onClosing(WebSocket ws, int code, String reason) {
      openWatches.remove(ws);
      inner.onClosing(ws, code, reason);
    }

    @Override
    public void onClosed(WebSocket ws, int code, String reason) {
      openWatches.remove(ws);
      inner.onClosed(ws, code, reason);
    }

    @Override
    public void onFailure(WebSocket ws, Throwable t, Response r) {
      openWatches.remove(ws);
      inner.onFailure(ws, t, r);
    }
  }
}
