package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.store.etcd.EtcdStore;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Two {@code fleetkit replica} processes (separate JVMs: scheduler, Deployment and ReplicaSet controllers behind an
 * etcd lease election) against one etcd, named by {@code -Dfleetkit.etcd} (scripts/etcd-local.sh). Only the leader
 * writes; when the leader is killed with SIGKILL in the middle of work, the follower leads once etcd expires the
 * lease and finishes it; at the end every ReplicaSet has exactly its replicas, every pod was created once, bound once
 * (its node never changed) and never deleted. Lease 4 s, renew deadline 3 s, retry 1 s.
 *
 * <p>Every wait is for an event (a line a replica printed, a state in etcd), with a generous limit for a loaded
 * machine that starts JVMs slowly; the takeover is asserted within bounds that follow from the lease: not before
 * etcd can have expired it (lease &minus; retry period, the last renewal's age at most), and within twice the lease.
 */
@EnabledIfSystemProperty(named = "fleetkit.etcd", matches = ".+")
final class ReplicaCommandFailoverTest {
  private static final String ETCD = System.getProperty("fleetkit.etcd", "").trim();
  private static final Duration LEASE = Duration.ofSeconds(4);
  private static final Duration RETRY = Duration.ofSeconds(1);
  private static final PodSpec SPEC = PodSpec.builder()
      .container("c", "img", ResourceList.builder().put("cpu", "100m").put("memory", "64Mi").build()).build();

  private final String prefix = "/fleetkit-test/" + UUID.randomUUID();
  private final List<Replica> replicas = new ArrayList<>();

  /** A child JVM and the lines it printed, each with the time it was read. */
  private record Replica(String id, Process process, List<Line> lines) {
    boolean said(String text) {
      return lines.stream().anyMatch(l -> l.text().equals(text));
    }

    long when(String text) {
      return lines.stream().filter(l -> l.text().equals(text)).mapToLong(Line::nanos).findFirst().orElseThrow();
    }
  }

  private record Line(long nanos, String text) {}

  @AfterEach
  void killAll() {
    for (Replica r : replicas) {
      r.process().destroyForcibly();
    }
  }

  private Replica launch(String id) throws IOException {
    return launch(id, "--store", ETCD);
  }

  /** A replica with {@code storeArgs} ({@code --store} and the etcd connection's options). */
  private Replica launch(String id, String... storeArgs) throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    File log = Path.of("target", "replica-" + id + "-" + prefix.substring(prefix.lastIndexOf('/') + 1) + ".log")
        .toFile();
    List<String> command = new ArrayList<>(List.of(java, "-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", classPath, FleetKitCli.class.getName(), "replica"));
    command.addAll(List.of(storeArgs));
    command.addAll(List.of("--prefix", prefix, "--id", id, "--lease-duration", LEASE.toSeconds() + "s",
        "--renew-deadline", "3s", "--retry-period", RETRY.toSeconds() + "s", "--report-writes"));
    Process p = new ProcessBuilder(command).redirectError(log).start();
    List<Line> lines = new CopyOnWriteArrayList<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String l = in.readLine(); l != null; l = in.readLine()) {
          lines.add(new Line(System.nanoTime(), l));
        }
      } catch (IOException e) {
        // the process died
      }
    }, "replica-" + id + "-stdout");
    reader.setDaemon(true);
    reader.start();
    Replica r = new Replica(id, p, lines);
    replicas.add(r);
    return r;
  }

  private static final long T0 = System.nanoTime();

  private static void await(String what, Duration within, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for: %s", what).isLessThan(deadline);
      Thread.sleep(20);
    }
    System.err.printf("%6d ms: %s%n", (System.nanoTime() - T0) / 1_000_000, what);
  }

  private static ReplicaSet replicaSet(String name, int n) {
    return ReplicaSet.builder().namespace("ns").name(name).replicas(n).matchLabels(Map.of("app", name))
        .podSpec(SPEC).build();
  }

  private static long boundPods(ObjectStore store, String app) {
    return store.list(Pod.class, "ns").items().stream()
        .filter(p -> app.equals(p.metadata().labels().get("app")) && p.isBound()).count();
  }

  @Test
  void leaderKilled_followerTakesOverWithinTheLease_nothingLostOrDoubled() throws Exception {
    try (ObjectStore store = EtcdStore.builder(ETCD).prefix(prefix).build()) {
      for (int i = 0; i < 8; i++) {
        store.create(Node.builder().name("node-" + i).capacity(ResourceList.builder().put("cpu", "4")
            .put("memory", "8Gi").put("pods", "110").build()).ready().build());
      }
      // Every pod event from the start: creations, bindings, deletions.
      Map<String, List<String>> nodesOfPod = new ConcurrentHashMap<>();
      List<String> deleted = new CopyOnWriteArrayList<>();
      Watch watch = store.watch(Pod.class, store.resourceVersion(), e -> {
        String key = e.object().metadata().key();
        if (e.type() == WatchEventType.DELETED) {
          deleted.add(key);
          return;
        }
        List<String> seen = nodesOfPod.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>());
        String node = e.object().spec().nodeName();
        if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(node)) {
          seen.add(node);
        }
      });

      Replica a = launch("a");
      Replica b = launch("b");
      await("a leader", Duration.ofSeconds(60), () -> a.said("LEADING a") || b.said("LEADING b"));
      Replica leader = a.said("LEADING a") ? a : b;
      Replica follower = leader == a ? b : a;
      await("the follower sees the leader", Duration.ofSeconds(30),
          () -> follower.said("LEADER " + leader.id()));

      store.create(replicaSet("first", 12));
      await("first's 12 pods bound", Duration.ofSeconds(60), () -> boundPods(store, "first") == 12);

      // Kill the leader while it works on a second ReplicaSet: some of its pods created, few or none bound.
      store.create(replicaSet("second", 12));
      await("the leader starts on second", Duration.ofSeconds(30),
          () -> leader.lines().stream().anyMatch(l -> l.text().startsWith("WRITE create Pod ns/second-")));
      leader.process().destroyForcibly(); // SIGKILL: no release, no goodbye
      long killed = System.nanoTime();
      leader.process().waitFor(5, TimeUnit.SECONDS);

      await("the follower leads", LEASE.plusSeconds(30), () -> follower.said("LEADING " + follower.id()));
      Duration takeover = Duration.ofNanos(follower.when("LEADING " + follower.id()) - killed);
      assertThat(takeover).as("takeover after the kill: not before etcd may expire the lease")
          .isGreaterThanOrEqualTo(LEASE.minus(RETRY).minusMillis(200));
      assertThat(takeover).as("takeover after the kill: within twice the lease").isLessThan(LEASE.multipliedBy(2));

      store.create(replicaSet("third", 8));
      await("all pods bound", Duration.ofSeconds(60), () -> boundPods(store, "second") == 12
          && boundPods(store, "third") == 8);
      Thread.sleep(500); // time for a stray extra pod or rebinding to show

      // Only the leader acted: the follower wrote nothing before it led, and the dead leader nothing after death.
      List<Line> followerLines = follower.lines();
      int led = followerLines.indexOf(followerLines.stream()
          .filter(l -> l.text().equals("LEADING " + follower.id())).findFirst().orElseThrow());
      assertThat(followerLines.subList(0, led)).noneMatch(l -> l.text().startsWith("WRITE"));
      assertThat(leader.lines()).filteredOn(l -> l.text().startsWith("WRITE")).allMatch(l -> l.nanos() <= killed);
      assertThat(leader.lines()).anyMatch(l -> l.text().startsWith("WRITE update Pod"));
      assertThat(followerLines.subList(led, followerLines.size())).anyMatch(l -> l.text().startsWith("WRITE"));

      // Nothing lost or doubled.
      List<Pod> pods = store.list(Pod.class, "ns").items();
      Map<String, Long> perSet = pods.stream().collect(Collectors.groupingBy(
          p -> { OwnerReference o = p.metadata().controllerRef(); return o == null ? "-" : o.name(); },
          TreeMap::new, Collectors.counting()));
      assertThat(perSet).isEqualTo(Map.of("first", 12L, "second", 12L, "third", 8L));
      assertThat(pods).allMatch(Pod::isBound);
      assertThat(deleted).as("no pod deleted (an extra pod would be)").isEmpty();
      await("the watch saw every binding", Duration.ofSeconds(5), () -> nodesOfPod.size() == 32
          && nodesOfPod.values().stream().allMatch(s -> !s.get(s.size() - 1).isEmpty()));
      assertThat(nodesOfPod.keySet()).isEqualTo(pods.stream().map(p -> p.metadata().key())
          .collect(Collectors.toSet()));
      for (Map.Entry<String, List<String>> e : nodesOfPod.entrySet()) {
        List<String> nodes = e.getValue();
        List<String> bindings = nodes.stream().filter(n -> !n.isEmpty()).toList();
        assertThat(bindings).as("nodes of pod %s (bound exactly once)", e.getKey()).hasSize(1);
        assertThat(nodes.get(nodes.size() - 1)).isEqualTo(bindings.get(0));
      }
      assertThat(Set.copyOf(follower.lines().stream().map(Line::text).toList()))
          .doesNotContain("STOPPED " + follower.id());
      watch.close();
    }
  }

  /**
   * {@code fleetkit replica --store etcds://..} on the secured etcd of scripts/etcd-local.sh ({@code -Dfleetkit.etcd.tls}
   * and {@code -Dfleetkit.etcd.tls.dir}: TLS only, client certificates required, user authentication on): the replica
   * leads and its controllers and scheduler do their work through the fenced store over that connection.
   */
  @Test
  @EnabledIfSystemProperty(named = "fleetkit.etcd.tls", matches = ".+")
  void etcds_replicaWithCertificatesAndPassword_leadsAndRunsTheControlPlane() throws Exception {
    Path dir = Path.of(System.getProperty("fleetkit.etcd.tls.dir", ""));
    String endpoint = System.getProperty("fleetkit.etcd.tls", "").trim();
    String user = java.nio.file.Files.readString(dir.resolve("user")).trim();
    String password = java.nio.file.Files.readString(dir.resolve("password")).trim();
    try (ObjectStore store = EtcdStore.builder(endpoint).prefix(prefix)
        .trustedCertificates(dir.resolve("ca.crt"))
        .clientCertificate(dir.resolve("client.crt"), dir.resolve("client.key"))
        .credentials(user, password).build()) {
      store.create(Node.builder().name("node-0").capacity(ResourceList.builder().put("cpu", "4")
          .put("memory", "8Gi").put("pods", "110").build()).ready().build());

      Replica r = launch("tls", "--store", endpoint.replaceFirst("^https://", "etcds://"),
          "--etcd-ca", dir.resolve("ca.crt").toString(), "--etcd-cert", dir.resolve("client.crt").toString(),
          "--etcd-key", dir.resolve("client.key").toString(), "--etcd-user", user,
          "--etcd-password-file", dir.resolve("password").toString());
      await("the replica leads", Duration.ofSeconds(60), () -> r.said("LEADING tls"));
      store.create(replicaSet("secure", 3));
      await("secure's 3 pods bound", Duration.ofSeconds(60), () -> boundPods(store, "secure") == 3);

      assertThat(r.lines()).anyMatch(l -> l.text().equals("WRITE create Pod ns/" + store.list(Pod.class, "ns")
          .items().get(0).metadata().name()));
      assertThat(r.process().isAlive()).isTrue();
    }
  }
}
