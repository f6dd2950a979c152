package io.fleetkit.adapter.kubernetes.scheduler;

import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.await;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.fast;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The scheduler on a client whose JDK HTTP client runs on {@link BoundedJdkHttpClientFactory}'s fixed executor. */
final class BoundedJdkHttpClientFactoryTest {
  private static final String THREAD_PREFIX = "fleetkit-k8s-http-";
  private final MockCluster cluster = new MockCluster();
  private KubernetesClient client;

  @AfterEach
  void tearDown() {
    cluster.close();
    if (client != null) {
      client.close();
    }
  }

  @Test
  void constructor_noThreads_failsNamingTheValue() {
    assertThatThrownBy(() -> new BoundedJdkHttpClientFactory(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bounded JDK HTTP client factory: threads 0 must be at least 1");
    assertThat(new BoundedJdkHttpClientFactory().threads()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void schedule_slowBindingAnswersOnTwoExecutorThreads_bindingsStillOverlap() {
    // Every binding is answered after 1 s. The executor's tasks must not wait for answers: with two executor threads,
    // binding requests still go out while earlier ones are unanswered, and every pod is bound once with its event.
    Duration answerDelay = Duration.ofSeconds(1);
    cluster.dispatcher.bindingDelay(answerDelay);
    for (int i = 0; i < 4; i++) {
      cluster.node("n" + i, "4", "8Gi");
    }
    for (int i = 0; i < 10; i++) {
      cluster.create(pod("p-" + i, "100m", "fleetkit"));
    }
    client = new KubernetesClientBuilder().withConfig(cluster.client.getConfiguration())
        .withHttpClientFactory(new BoundedJdkHttpClientFactory(2)).build();
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
    // The exchanges ran on this factory's executor: at most two threads per client it built.
    Map<String, Long> threadsByClient = Thread.getAllStackTraces().keySet().stream()
        .map(Thread::getName).filter(n -> n.startsWith(THREAD_PREFIX))
        .collect(Collectors.groupingBy(n -> n.substring(0, n.lastIndexOf('-')), Collectors.counting()));
    assertThat(threadsByClient).isNotEmpty();
    assertThat(threadsByClient.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(2));
  }
}
