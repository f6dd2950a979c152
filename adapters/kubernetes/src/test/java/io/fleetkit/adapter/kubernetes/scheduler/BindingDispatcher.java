package io.fleetkit.adapter.kubernetes.scheduler;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
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
import java.util.Map;
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
 * for binding calls and pod deletes; pod deletes with a uid precondition and {@code pods/status} patches with the
 * API server's semantics (409 on a uid mismatch, conditions merged by type); a log of every pod write; server-side
 * closing of open watches; a 410 Gone answer to the next pod watch; and a log of the
 * requests made by a client tagged with {@link #CLIENT_HEADER}.
 */
final class BindingDispatcher extends Dispatcher {
  static final String CLIENT_HEADER = "X-FleetKit-Test-Client";
  private static final Pattern BINDING =
      Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)/binding(\\?.*)?$");
  private static final Pattern POD =
      Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)(/status)?(\\?.*)?$");

  /** One request seen from the tagged client. */
  record Call(String method, String path) {}

  /**
   * A write to a pod (binding, status patch, delete) by any client, in arrival order.
   *
   * @param client the {@link #CLIENT_HEADER} value, or {@code ""}
   * @param target {@code name}, {@code name/status} or {@code name/binding}
   */
  record Write(String client, String method, String target, String body) {}

  private final Dispatcher delegate;
  private final KubernetesSerialization json = new KubernetesSerialization();
  private final Queue<Integer> bindingFaults = new ConcurrentLinkedQueue<>();
  private final Set<WebSocket> openWatches = ConcurrentHashMap.newKeySet();
  private final AtomicInteger podWatches = new AtomicInteger();
  private final AtomicInteger goneAnswers = new AtomicInteger();
  private volatile boolean goneOnNextPodWatch;
  private final List<Call> taggedCalls = new CopyOnWriteArrayList<>();
  private final List<String> bindings = new CopyOnWriteArrayList<>();
  private final List<Long> bindingArrivalNanos = new CopyOnWriteArrayList<>();
  private volatile java.time.Duration bindingDelay = java.time.Duration.ZERO;
  private final List<Write> podWrites = new CopyOnWriteArrayList<>();
  private final Queue<Integer> deleteFaults = new ConcurrentLinkedQueue<>();
  private final List<Pod> deletedPods = new CopyOnWriteArrayList<>();

  BindingDispatcher(Dispatcher delegate) {
    this.delegate = delegate;
  }

  /** Successful binding answers are sent after {@code delay} (a timer on the server; requests still overlap). */
  void bindingDelay(java.time.Duration delay) {
    this.bindingDelay = delay;
  }

  /** {@link System#nanoTime()} at the arrival of each binding request, in order. */
  List<Long> bindingArrivals() {
    return List.copyOf(bindingArrivalNanos);
  }

  /** The next binding requests answer these codes (without touching the pod), in order. */
  void failNextBindings(Integer... codes) {
    bindingFaults.addAll(List.of(codes));
  }

  /** The next pod deletes answer these codes (without touching the pod), in order. */
  void failNextPodDeletes(Integer... codes) {
    deleteFaults.addAll(List.of(codes));
  }

  /** Every write to a pod (bindings, status patches, deletes) by any client, in order. */
  List<Write> podWrites() {
    return List.copyOf(podWrites);
  }

  /** The pods deleted through the API, as they were stored just before (their last status included). */
  List<Pod> deletedPods() {
    return List.copyOf(deletedPods);
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
      String body = request.getUtf8Body(); // reading consumes the body: read it once
      podWrites.add(new Write(client(request), "POST", m.group(2) + "/binding", body));
      return bind(m.group(1), m.group(2), body);
    }
    Matcher p = POD.matcher(path);
    if (p.matches() && (request.method() == HttpMethod.PATCH || request.method() == HttpMethod.DELETE
        || request.method() == HttpMethod.PUT)) {
      boolean status = p.group(3) != null;
      String body = request.getUtf8Body(); // reading consumes the body: read it once
      podWrites.add(new Write(client(request), request.getMethod(), p.group(2) + (status ? "/status" : ""), body));
      if (request.method() == HttpMethod.DELETE && !status) {
        return delete(p.group(1), p.group(2), request, body);
      }
      if (request.method() == HttpMethod.PATCH && status) {
        return patchStatus(p.group(1), p.group(2), body);
      }
      return delegate.dispatch(new RecordedRequest(request.getHttpVersion(), request.method(), path,
          request.getHeaders(), new Buffer(body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
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

  private MockResponse bind(String ns, String name, String body) {
    bindings.add(ns + "/" + name);
    bindingArrivalNanos.add(System.nanoTime());
    Integer fault = bindingFaults.poll();
    if (fault != null) {
      return status(fault, "Injected", "injected failure " + fault);
    }
    Binding binding = json.unmarshal(body, Binding.class);
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
    MockResponse ok = new MockResponse().setResponseCode(201).setBody(json.asJson(binding));
    java.time.Duration d = bindingDelay;
    return d.isZero() ? ok : ok.setBodyDelay(d);
  }

  private static String client(RecordedRequest request) {
    String c = request.getHeader(CLIENT_HEADER);
    return c == null ? "" : c;
  }

  private @org.jspecify.annotations.Nullable Pod stored(String ns, String name) {
    MockResponse current = delegate.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET,
        "/api/v1/namespaces/" + ns + "/pods/" + name, Headers.builder().build(), new Buffer()));
    return current.code() == 404 ? null : json.unmarshal(current.getBody().readUtf8(), Pod.class);
  }

  private MockResponse notFound(String name) {
    return status(404, "NotFound", "pods \"" + name + "\" not found");
  }

  private MockResponse uidConflict(String name, String uid, Pod pod) {
    return status(409, "Conflict", "Operation cannot be fulfilled on pods \"" + name
        + "\": Precondition failed: UID in precondition: " + uid + ", UID in object meta: "
        + pod.getMetadata().getUid());
  }

  /** DELETE with {@code DeleteOptions.preconditions.uid} checked, as the API server does (the mock ignores it). */
  private MockResponse delete(String ns, String name, RecordedRequest request, String body) {
    Integer fault = deleteFaults.poll();
    if (fault != null) {
      return status(fault, "Injected", "injected failure " + fault);
    }
    Pod pod = stored(ns, name);
    if (pod == null) {
      return notFound(name);
    }
    if (body != null && !body.isBlank()) {
      DeleteOptions options = json.unmarshal(body, DeleteOptions.class);
      if (options.getPreconditions() != null && options.getPreconditions().getUid() != null
          && !options.getPreconditions().getUid().equals(pod.getMetadata().getUid())) {
        return uidConflict(name, options.getPreconditions().getUid(), pod);
      }
    }
    deletedPods.add(pod);
    return delegate.dispatch(new RecordedRequest(request.getHttpVersion(), HttpMethod.DELETE, request.getPath(),
        request.getHeaders(), new Buffer()));
  }

  /**
   * A {@code pods/status} patch: the uid in the patch's metadata is checked (the API server refuses a patch that
   * would change it), then the patch is applied to the status only. The mock has no strategic merge patch; the
   * scheduler's patches only set fields and list one condition each, so merging conditions by type here gives the
   * API server's result.
   */
  @SuppressWarnings("unchecked")
  private MockResponse patchStatus(String ns, String name, String body) {
    Pod pod = stored(ns, name);
    if (pod == null) {
      return notFound(name);
    }
    Map<String, Object> patch = json.unmarshal(body, Map.class);
    Object meta = patch.get("metadata");
    if (meta instanceof Map<?, ?> m && m.get("uid") instanceof String uid
        && !uid.equals(pod.getMetadata().getUid())) {
      return uidConflict(name, uid, pod);
    }
    Map<String, Object> status = (Map<String, Object>) patch.getOrDefault("status", Map.of());
    PodStatus current = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
    List<PodCondition> conditions = new ArrayList<>(current.getConditions() == null ? List.of()
        : current.getConditions());
    for (Object c : (List<Object>) status.getOrDefault("conditions", List.of())) {
      PodCondition pc = json.convertValue(c, PodCondition.class);
      conditions.removeIf(x -> x.getType().equals(pc.getType()));
      conditions.add(pc);
    }
    current.setConditions(conditions);
    if (status.containsKey("nominatedNodeName")) {
      String n = (String) status.get("nominatedNodeName");
      current.setNominatedNodeName(n == null || n.isEmpty() ? null : n);
    }
    pod.setStatus(current);
    MockResponse updated = delegate.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.PUT,
        "/api/v1/namespaces/" + ns + "/pods/" + name + "/status",
        Headers.builder().add("Content-Type", "application/json").build(),
        new Buffer(json.asJson(pod).getBytes(StandardCharsets.UTF_8))));
    return updated;
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
