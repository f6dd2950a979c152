package io.fleetkit.benchmarks.impl;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small local stand-in for a Kubernetes API server, just enough for the Kubernetes adapter's scheduler: lists and
 * watches of nodes and pods (WebSocket, fabric8's default, or chunked HTTP); pod creation (and, directly, creation and
 * deletion of many pods at once); the {@code pods/NAME/binding} subresource with the API server's rules (404 for a
 * missing pod, 409 when it is already bound); empty lists and idle watches for every other kind the scheduler informs
 * on; Events accepted and dropped. Every request except the watch streams is answered after a fixed latency, on its
 * connection's own thread, so requests in flight overlap as they do against a real API server. (fabric8's mock server
 * was tried first: its CRUD dispatcher scans every stored object on each request and answers on one event loop, so it
 * stalls long before 2,000 pods/s.)
 *
 * <p>Its transport ({@link StubHttp}) is HTTP/1.1 with persistent connections and {@code TCP_NODELAY}, as a real API
 * server's (Go's net package sets it on every TCP connection): with Nagle's algorithm on, every answer waited about
 * 40 ms for the client's delayed ACK. The client sends every request and reads every answer in full, and the watches
 * stream the objects' JSON, as against a real API server; this stand-in's own work per request is kept small because it
 * shares the machine with the scheduler it measures.
 *
 * <p>It counts the bindings it accepted and those refused because the pod was already bound (the benchmark's "no pod
 * bound twice, none lost"), and the Events created. Thread-safe.
 */
public final class StubApiServer implements AutoCloseable {
  private static final String EVENTS_PREFIX = "/apis/events.k8s.io/";
  private static final Pattern POD_CREATE = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods$");
  private static final Pattern BINDING = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding$");
  private static final Pattern BINDING_TARGET = Pattern.compile("\"target\"\\s*:\\s*\\{[^}]*\"name\"\\s*:\\s*\"([^\"]+)\"");
  private static final Pattern RESOURCE_VERSION = Pattern.compile("\"resourceVersion\":\"\\d+\"");
  private static final Pattern SPEC = Pattern.compile(Pattern.quote("\"spec\":{"));

  /** One watch event, kept in order so that a watch starting at a resource version replays what it missed. */
  private record Event(long rv, String kind, String json) {}

  /**
   * What the watches of one kind wait on: the resource version of the newest event of that kind. A binding then wakes
   * the pod watches only, not the idle watches of the other kinds the scheduler informs on (which would each wake,
   * scan and sleep again for every pod bound).
   */
  private static final class Signal {
    volatile long latest;
  }

  /** By watched kind: "Pod", "Node", and "" for every other kind (which never has events). */
  private final Map<String, Signal> signals = Map.of("Pod", new Signal(), "Node", new Signal(), "", new Signal());

  private final KubernetesSerialization json = new KubernetesSerialization();
  private final StubHttp http;
  private final KubernetesClient client;
  private final Object lock = new Object();
  private final Map<String, Pod> pods = new LinkedHashMap<>();
  private final Map<String, String> podJson = new java.util.HashMap<>();
  private final Map<String, Node> nodes = new LinkedHashMap<>();
  /** Watch events from absolute position {@code eventsBase} on; older ones every watch has sent are dropped. */
  private final List<Event> events = new ArrayList<>();
  private long eventsBase;
  /** The next absolute event position of every open watch. */
  private final List<long[]> watchCursors = new ArrayList<>();
  private long resourceVersion = 1;
  private volatile boolean closed;
  private final AtomicInteger bound = new AtomicInteger();
  private final AtomicInteger secondBindings = new AtomicInteger();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong eventsCreated = new AtomicLong();
  private volatile long latencyNanos;
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
  private final LongAdder serverCpuNanos = new LongAdder();
  private final LongAdder loadCpuNanos = new LongAdder();
  /** The names of this server's threads (the acceptor and one per connection). */
  public static final List<String> THREAD_NAMES = List.of(StubHttp.THREAD_NAME);
  /** Pods put in by {@link #stagePods}, with their watch events, waiting for {@link #addStaged}. */
  private final List<Pod> staged = new ArrayList<>();
  private final List<String> stagedJson = new ArrayList<>();
  private long stagedFrom = -1;
  /** Batches staged by {@link #stagePodsLike} (the high half of their pods' uids). */
  private long batches;
  private static final String NAME_SLOT = "@@name@@";
  private static final String UID_SLOT = "@@uid@@";
  private static final String RV_SLOT = "@@resourceVersion@@";

  /** A server whose client is built with fabric8's defaults (the JDK HTTP client on cached threads). */
  public StubApiServer() {
    this(b -> {});
  }

  /**
   * A server whose client's builder (configured for this server) is passed through {@code clientSettings} before it
   * builds the client, e.g. to set the scheduler's {@code BoundedJdkHttpClientFactory}.
   */
  public StubApiServer(java.util.function.Consumer<KubernetesClientBuilder> clientSettings) {
    http = new StubHttp(this::handle);
    Config config = new ConfigBuilder()
        .withMasterUrl("http://127.0.0.1:" + http.port())
        // A bearer token, as every real client has (in a cluster, the service account's): without credentials
        // fabric8's TokenRefreshInterceptor re-reads the whole configuration (environment, kubeconfig files) before
        // every request, which would make the client's cost per request several times what it is against an API
        // server. This stand-in does not check it.
        .withOauthToken("stand-in")
        .withNamespace("default")
        // Watches over WebSocket (one event per frame): fabric8's default, left as it is.
        .withMaxConcurrentRequests(1024)
        .withMaxConcurrentRequestsPerHost(1024)
        .build();
    KubernetesClientBuilder builder = new KubernetesClientBuilder().withConfig(config);
    clientSettings.accept(builder);
    client = builder.build();
  }

  /** A client of this server (closed with it). */
  public KubernetesClient client() {
    return client;
  }

  /** Answers every request (but watch streams) from now on after {@code latency}. */
  public void latency(Duration latency) {
    this.latencyNanos = latency.toNanos();
  }

  /** Adds a node directly (no latency). */
  public void addNode(Node node) {
    synchronized (lock) {
      stamp(node);
      nodes.put(node.getMetadata().getName(), node);
      publish("ADDED", "Node", node);
    }
  }

  /**
   * Adds pending pods directly, as other clients' creations would arrive (no latency, no HTTP): the load generator
   * then costs the machine nothing the scheduler would not face against a real API server. The server takes the pods
   * over (it sets their uid and resourceVersion and changes them when binding): the caller must not use them again.
   */
  public void addPods(List<Pod> created) {
    long cpu0 = CPU.getCurrentThreadCpuTime();
    try {
      putPods(created);
    } finally {
      long used = CPU.getCurrentThreadCpuTime() - cpu0;
      serverCpuNanos.add(used);
      loadCpuNanos.add(used);
    }
  }

  private void putPods(List<Pod> created) {
    synchronized (lock) {
      for (Pod p : created) {
        String key = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
        if (pods.containsKey(key)) {
          throw new IllegalArgumentException("stub API server: pod " + key + " already exists");
        }
        p.getMetadata().setUid(UUID.randomUUID().toString());
        stamp(p);
        pods.put(key, p);
        podJson.put(key, publish("ADDED", "Pod", p));
      }
    }
  }

  /**
   * Prepares pending pods for {@link #addStaged}, outside a measurement: sets their uid and resourceVersion (the next
   * ones) and writes their JSON, the part of a creation that the load generator, not the scheduler, would pay for. The
   * server takes the pods over. Nothing else may change in the server until {@link #addStaged}.
   *
   * @throws IllegalStateException if pods are staged already
   * @throws IllegalArgumentException if a pod exists already
   */
  public void stagePods(List<Pod> created) {
    synchronized (lock) {
      if (stagedFrom >= 0) {
        throw new IllegalStateException("stub API server: " + staged.size() + " pods are staged already");
      }
      long rv = resourceVersion;
      for (Pod p : created) {
        String key = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
        if (pods.containsKey(key)) {
          throw new IllegalArgumentException("stub API server: pod " + key + " already exists");
        }
        p.getMetadata().setUid(UUID.randomUUID().toString());
        p.getMetadata().setResourceVersion(Long.toString(++rv));
        staged.add(p);
        stagedJson.add(json.asJson(p));
      }
      stagedFrom = resourceVersion;
    }
  }

  /**
   * Prepares pending pods for {@link #addStaged} as {@link #stagePods} does, each a copy of {@code template} named
   * {@code names[i]} in {@code namespace}: the template is written as JSON once and each pod's JSON is that text with
   * its name, uid and resourceVersion put in (the text {@link #stagePods} would write for the same pod), and the stored
   * pod is read back from it. A burst of thousands of pods is then staged without building and serialising each one,
   * work whose code the JIT compiler would otherwise still be compiling while the scheduler's measured burst runs.
   *
   * @throws IllegalStateException if pods are staged already
   * @throws IllegalArgumentException if a pod exists already
   */
  public void stagePodsLike(Pod template, String namespace, List<String> names) {
    synchronized (lock) {
      if (stagedFrom >= 0) {
        throw new IllegalStateException("stub API server: " + staged.size() + " pods are staged already");
      }
      Pod t = json.clone(template);
      t.getMetadata().setName(NAME_SLOT);
      t.getMetadata().setNamespace(namespace);
      t.getMetadata().setUid(UID_SLOT);
      t.getMetadata().setResourceVersion(RV_SLOT);
      String text = json.asJson(t);
      long rv = resourceVersion;
      long batch = ++batches;
      for (int i = 0; i < names.size(); i++) {
        String name = names.get(i);
        if (pods.containsKey(namespace + "/" + name)) {
          throw new IllegalArgumentException("stub API server: pod " + namespace + "/" + name + " already exists");
        }
        String podJson = text.replace(NAME_SLOT, name).replace(UID_SLOT, new UUID(batch, i).toString())
            .replace(RV_SLOT, Long.toString(++rv));
        staged.add(json.unmarshal(podJson, Pod.class));
        stagedJson.add(podJson);
      }
      stagedFrom = resourceVersion;
    }
  }

  /**
   * Adds the pods {@link #stagePods} prepared at once, as other clients' creations would arrive (no latency, no HTTP):
   * each goes out as an {@code ADDED} watch event.
   *
   * @throws IllegalStateException if none are staged, or the server changed since they were
   */
  public void addStaged() {
    long cpu0 = CPU.getCurrentThreadCpuTime();
    try {
      synchronized (lock) {
        if (stagedFrom < 0 || stagedFrom != resourceVersion) {
          throw new IllegalStateException("stub API server: " + (stagedFrom < 0 ? "no pods staged"
              : "the server changed after the pods were staged (resourceVersion " + stagedFrom + ", now "
                  + resourceVersion + ")"));
        }
        for (int i = 0; i < staged.size(); i++) {
          Pod p = staged.get(i);
          String key = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
          String objectJson = stagedJson.get(i);
          resourceVersion++;
          pods.put(key, p);
          podJson.put(key, objectJson);
          append(new Event(resourceVersion, "Pod", "{\"type\":\"ADDED\",\"object\":" + objectJson + "}"));
        }
        staged.clear();
        stagedJson.clear();
        stagedFrom = -1;
        wake("Pod");
      }
    } finally {
      long used = CPU.getCurrentThreadCpuTime() - cpu0;
      serverCpuNanos.add(used);
      loadCpuNanos.add(used);
    }
  }

  /**
   * Deletes every pod directly (no latency, no HTTP), as other clients' deletions would arrive: each goes out as a
   * {@code DELETED} watch event. Watch events that every open watch has already sent are dropped, so that a long run
   * does not keep every event it ever streamed. Returns how many pods were deleted.
   */
  public int deletePods() {
    long cpu0 = CPU.getCurrentThreadCpuTime();
    try {
      synchronized (lock) {
        trimEvents();
        int n = pods.size();
        for (Map.Entry<String, Pod> e : pods.entrySet()) {
          stamp(e.getValue());
          String json = RESOURCE_VERSION.matcher(podJson.get(e.getKey()))
              .replaceFirst("\"resourceVersion\":\"" + resourceVersion + "\"");
          append(new Event(resourceVersion, "Pod", "{\"type\":\"DELETED\",\"object\":" + json + "}"));
        }
        pods.clear();
        podJson.clear();
        wake("Pod");
        return n;
      }
    } finally {
      serverCpuNanos.add(CPU.getCurrentThreadCpuTime() - cpu0);
    }
  }

  /** Holding {@code lock}: drops the events every open watch has sent. */
  private void trimEvents() {
    long min = eventsBase + events.size();
    for (long[] c : watchCursors) {
      min = Math.min(min, c[0]);
    }
    int drop = (int) (min - eventsBase);
    if (drop > 0) {
      events.subList(0, drop).clear();
      eventsBase = min;
    }
  }

  /** Pods this server bound. */
  public int bound() {
    return bound.get();
  }

  /** Binding requests for pods that were already bound (each would be a pod bound twice). */
  public int secondBindings() {
    return secondBindings.get();
  }

  /**
   * CPU time this server's threads spent answering requests and streaming watch events, ns (the sleep that stands
   * for the latency is not CPU); with {@link #addPods}' own, the share of the process's CPU that a real API server
   * would spend on another machine.
   */
  public long cpuNanos() {
    return serverCpuNanos.sum();
  }

  /** CPU time of {@link #addPods} (on the caller's thread), ns: the load generator's part of {@link #cpuNanos}. */
  public long loadCpuNanos() {
    return loadCpuNanos.sum();
  }

  /** Watches streamed over WebSocket so far (the others went over chunked HTTP). */
  public int webSocketWatches() {
    return http.webSockets();
  }

  /** events.k8s.io Events created (POSTed) so far. */
  public long eventsCreated() {
    return eventsCreated.get();
  }

  /** Requests answered. */
  public long requests() {
    return requests.get();
  }

  @Override
  public void close() {
    closed = true;
    signals.keySet().forEach(this::wake);
    client.close();
    http.close();
  }

  // ----------------------------------------------------------------------------------------------- handling

  private void handle(StubHttp.Request r, StubHttp.Exchange ex) throws IOException {
    requests.incrementAndGet();
    if ("GET".equals(r.method()) && r.query().contains("watch=true")) {
      watch(ex, r.path(), r.query()); // counts its own CPU, batch by batch
      return;
    }
    long cpu0 = CPU.getCurrentThreadCpuTime();
    try {
      long l = latencyNanos;
      if (l > 0) {
        Thread.sleep(l / 1_000_000, (int) (l % 1_000_000));
      }
      answer(ex, r);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      ex.respond(500, status(500, "InternalError", String.valueOf(e)));
    } finally {
      serverCpuNanos.add(CPU.getCurrentThreadCpuTime() - cpu0); // a sleeping thread uses no CPU
    }
  }

  private void answer(StubHttp.Exchange ex, StubHttp.Request r) throws IOException {
    Matcher m;
    String path = r.path();
    String method = r.method();
    if ("GET".equals(method)) {
      list(ex, path);
    } else if ("POST".equals(method) && (m = POD_CREATE.matcher(path)).matches()) {
      create(ex, m.group(1), r.body());
    } else if ("POST".equals(method) && (m = BINDING.matcher(path)).matches()) {
      bind(ex, m.group(1), m.group(2), r.body());
    } else {
      // Events and anything else the scheduler writes: accepted as sent.
      if ("POST".equals(method) && path.startsWith(EVENTS_PREFIX)) {
        eventsCreated.incrementAndGet();
      }
      ex.respond("POST".equals(method) ? 201 : 200, r.body().length == 0 ? "{}"
          : new String(r.body(), StandardCharsets.UTF_8));
    }
  }

  private void list(StubHttp.Exchange ex, String path) throws IOException {
    String body;
    synchronized (lock) {
      List<HasMetadata> items = new ArrayList<>();
      if ("/api/v1/pods".equals(path)) {
        items.addAll(pods.values());
      } else if ("/api/v1/nodes".equals(path)) {
        items.addAll(nodes.values());
      }
      Map<String, Object> list = new LinkedHashMap<>();
      if (path.endsWith("/pods") || path.endsWith("/nodes")) {
        list.put("apiVersion", "v1");
        list.put("kind", path.endsWith("/pods") ? "PodList" : "NodeList");
      }
      list.put("metadata", Map.of("resourceVersion", Long.toString(resourceVersion)));
      list.put("items", items);
      body = json.asJson(list);
    }
    ex.respond(200, body);
  }

  private void watch(StubHttp.Exchange ex, String path, String query) throws IOException {
    String kind = "/api/v1/pods".equals(path) ? "Pod" : "/api/v1/nodes".equals(path) ? "Node" : "";
    Matcher rv = Pattern.compile("(?:^|&)resourceVersion=(\\d+)").matcher(query);
    long from = rv.find() ? Long.parseLong(rv.group(1)) : 0;
    Signal signal = signals.get(kind);
    ex.stream(stream -> {
      long[] cursor = new long[1];
      long seen = -1; // the newest event of this kind when the events were last scanned
      synchronized (lock) {
        cursor[0] = eventsBase; // older events were sent to every watch open then; a new one starts later
        watchCursors.add(cursor);
      }
      try {
        while (!closed) {
          synchronized (signal) {
            // At least once a second the cursor moves on past other kinds' events, so that they can be dropped.
            if (!closed && signal.latest == seen) {
              try {
                signal.wait(1000);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
              }
            }
          }
          List<Event> batch = new ArrayList<>();
          synchronized (lock) {
            seen = signal.latest;
            for (long end = eventsBase + events.size(); cursor[0] < end; cursor[0]++) {
              Event e = events.get((int) (cursor[0] - eventsBase));
              if (e.kind().equals(kind) && e.rv() > from) {
                batch.add(e);
              }
            }
          }
          if (!batch.isEmpty()) {
            long cpu0 = CPU.getCurrentThreadCpuTime();
            StringBuilder sb = new StringBuilder();
            for (Event e : batch) {
              sb.append(e.json()).append('\n');
            }
            stream.send(sb.toString());
            serverCpuNanos.add(CPU.getCurrentThreadCpuTime() - cpu0);
          }
        }
      } finally {
        synchronized (lock) {
          watchCursors.remove(cursor);
        }
      }
    });
  }

  private void create(StubHttp.Exchange ex, String ns, byte[] requestBody) throws IOException {
    Pod pod = json.unmarshal(new String(requestBody, StandardCharsets.UTF_8), Pod.class);
    pod.getMetadata().setNamespace(ns);
    String key = ns + "/" + pod.getMetadata().getName();
    String body;
    synchronized (lock) {
      if (pods.containsKey(key)) {
        ex.respond(409, status(409, "AlreadyExists", "pods \"" + pod.getMetadata().getName()
            + "\" already exists"));
        return;
      }
      pod.getMetadata().setUid(UUID.randomUUID().toString());
      stamp(pod);
      pods.put(key, pod);
      body = publish("ADDED", "Pod", pod);
      podJson.put(key, body);
    }
    ex.respond(201, body);
  }

  private void bind(StubHttp.Exchange ex, String ns, String name, byte[] requestBody) throws IOException {
    String body = new String(requestBody, StandardCharsets.UTF_8);
    Matcher target = BINDING_TARGET.matcher(body);
    if (!target.find()) {
      ex.respond(400, status(400, "BadRequest", "binding without target.name: " + body));
      return;
    }
    String key = ns + "/" + name;
    int code = 201;
    String answer = "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Success\",\"code\":201}";
    synchronized (lock) {
      Pod pod = pods.get(key);
      if (pod == null) {
        code = 404;
        answer = status(404, "NotFound", "pods \"" + name + "\" not found");
      } else if (pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()) {
        String node = pod.getSpec().getNodeName();
        secondBindings.incrementAndGet();
        code = 409;
        answer = status(409, "Conflict", "Operation cannot be fulfilled on pods/binding \"" + name
            + "\": pod " + name + " is already assigned to node \"" + node + "\"");
      } else {
        // The stored pod is changed in place (what was sent of it before went out as text), and its watch event is
        // the stored JSON with spec.nodeName and the new resourceVersion spliced in: serialising the whole pod again
        // would make this stand-in, which a real API server would not be, the largest CPU cost in the process.
        pod.getSpec().setNodeName(target.group(1));
        stamp(pod);
        String json = SPEC.matcher(RESOURCE_VERSION.matcher(podJson.get(key))
            .replaceFirst("\"resourceVersion\":\"" + resourceVersion + "\""))
            .replaceFirst(Matcher.quoteReplacement("\"spec\":{\"nodeName\":\"" + target.group(1) + "\","));
        podJson.put(key, json);
        append(new Event(resourceVersion, "Pod", "{\"type\":\"MODIFIED\",\"object\":" + json + "}"));
        wake("Pod");
        bound.incrementAndGet();
      }
    }
    ex.respond(code, answer); // outside the lock: a slow client must not hold up the other requests
  }

  /** Holding {@code lock}: appends a watch event (its watches are woken by {@link #wake}). */
  private void append(Event e) {
    events.add(e);
    signals.get(e.kind()).latest = e.rv();
  }

  /** Wakes the watches of {@code kind} (with or without {@code lock}: a signal's monitor is taken last). */
  private void wake(String kind) {
    Signal s = signals.get(kind);
    synchronized (s) {
      s.notifyAll();
    }
  }

  /** Holding {@code lock}: a new resource version for {@code o}. */
  private void stamp(HasMetadata o) {
    o.getMetadata().setResourceVersion(Long.toString(++resourceVersion));
  }

  /** Holding {@code lock}: appends a watch event and wakes the watches; returns the object's JSON. */
  private String publish(String type, String kind, HasMetadata o) {
    String objectJson = json.asJson(o);
    append(new Event(resourceVersion, kind, "{\"type\":\"" + type + "\",\"object\":" + objectJson + "}"));
    wake(kind);
    return objectJson;
  }

  private static String status(int code, String reason, String message) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":" + code + ",\"reason\":\""
        + reason + "\",\"message\":\"" + message.replace("\"", "\\\"") + "\"}";
  }

}
