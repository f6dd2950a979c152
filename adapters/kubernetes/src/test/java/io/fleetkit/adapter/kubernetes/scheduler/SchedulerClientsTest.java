package io.fleetkit.adapter.kubernetes.scheduler;

import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.await;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.fast;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fleetkit.adapter.kubernetes.scheduler.internal.WatchEventSerialization;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler on a client with {@link SchedulerClients}' settings: the JDK HTTP client on
 * {@link BoundedJdkHttpClientFactory}'s fixed executor and fabric8's tasks (informers, watches) on a fixed pool.
 */
final class SchedulerClientsTest {
  private final MockCluster cluster = new MockCluster();
  private final List<KubernetesClient> clients = new java.util.ArrayList<>();

  @AfterEach
  void tearDown() {
    cluster.close();
    clients.forEach(KubernetesClient::close);
  }

  private KubernetesClient schedulerClient() {
    KubernetesClient c = SchedulerClients.configure(new KubernetesClientBuilder()
        .withConfig(cluster.client.getConfiguration())).build();
    clients.add(c);
    return c;
  }

  @Test
  void constructor_noThreads_failsNamingTheValue() {
    assertThatThrownBy(() -> new BoundedJdkHttpClientFactory(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bounded JDK HTTP client factory: threads 0 must be at least 1");
    assertThat(new BoundedJdkHttpClientFactory().threads()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void schedule_slowBindingAnswersOnFixedThreads_bindingsStillOverlapAndEveryPodIsBoundOnce() {
    // Every binding is answered after 1 s. The executors' tasks must not wait for answers: with a few fixed threads,
    // binding requests still go out while earlier ones are unanswered, the informers deliver every pod and its
    // binding, and every pod is bound once with its event.
    Duration answerDelay = Duration.ofSeconds(1);
    cluster.dispatcher.bindingDelay(answerDelay);
    for (int i = 0; i < 4; i++) {
      cluster.node("n" + i, "4", "8Gi");
    }
    for (int i = 0; i < 10; i++) {
      cluster.create(pod("p-" + i, "100m", "fleetkit"));
    }
    KubernetesClient client = schedulerClient();
    // Watch events are read in one pass (WatchEventSerialization; its property test compares it with fabric8's read).
    assertThat(client.getKubernetesSerialization()).isInstanceOf(WatchEventSerialization.class);
    cluster.start(fast(client));

    for (int i = 0; i < 10; i++) {
      String name = "p-" + i;
      await(name + " bound", () -> cluster.nodeOf(name) != null);
    }
    await("ten Scheduled events", () -> cluster.events("Scheduled").size() == 10);
    List<Long> sorted = cluster.dispatcher.bindingArrivals().stream().sorted().toList();
    assertThat(sorted).hasSize(10);
    long overlapping = java.util.stream.IntStream.range(1, sorted.size())
        .filter(i -> sorted.get(i) - sorted.get(i - 1) < answerDelay.toNanos()).count();
    assertThat(overlapping).as("binding requests sent while the one before was still unanswered").isGreaterThan(0);
    assertThat(cluster.dispatcher.bindingRequests()).doesNotHaveDuplicates();
    // The exchanges and fabric8's tasks ran on the fixed pools: at most one thread per CPU (at least two) per client.
    long limit = Math.max(2, Runtime.getRuntime().availableProcessors());
    for (String prefix : List.of("fleetkit-k8s-http-", "fleetkit-k8s-tasks-")) {
      Map<String, Long> threadsByClient = Thread.getAllStackTraces().keySet().stream()
          .map(Thread::getName).filter(n -> n.startsWith(prefix))
          .collect(Collectors.groupingBy(n -> n.substring(0, n.lastIndexOf('-')), Collectors.counting()));
      assertThat(threadsByClient).as(prefix).isNotEmpty();
      assertThat(threadsByClient.values()).as(prefix).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(limit));
    }
  }

  @Test
  void leaderElection_twoReplicasOnFixedThreads_theLeaderBindsAndTheOtherTakesOver() {
    // KubernetesSchedulerMain's set-up: leader election (its Lease calls block a task thread while they are answered)
    // and informers on the same few task threads.
    cluster.node("n1", "8", "16Gi");
    KubernetesScheduler a = cluster.start(fast(schedulerClient())
        .leaderElection(LeaderElectionTest.election("replica-a")));
    KubernetesScheduler b = cluster.start(fast(schedulerClient())
        .leaderElection(LeaderElectionTest.election("replica-b")));
    await("a leader elected", () -> a.isLeader() || b.isLeader());
    KubernetesScheduler leader = a.isLeader() ? a : b;
    KubernetesScheduler follower = leader == a ? b : a;
    for (String name : List.of("p0", "p1", "p2")) {
      cluster.create(pod(name, "100m", "fleetkit"));
    }
    await("all bound", () -> List.of("p0", "p1", "p2").stream().allMatch(p -> cluster.nodeOf(p) != null));
    assertThat(leader.bindingRequests()).isEqualTo(3);
    assertThat(follower.bindingRequests()).isZero();

    leader.close();
    await("the follower takes over", follower::isLeader);
    cluster.create(pod("p3", "100m", "fleetkit"));
    await("p3 bound", () -> cluster.nodeOf("p3") != null);
    assertThat(follower.bindingRequests()).isEqualTo(1);
    assertThat(cluster.dispatcher.bindingRequests()).hasSize(4).doesNotHaveDuplicates();
  }
}
