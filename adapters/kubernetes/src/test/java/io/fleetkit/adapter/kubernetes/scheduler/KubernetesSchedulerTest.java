package io.fleetkit.adapter.kubernetes.scheduler;

import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.await;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.fast;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.events.v1.Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class KubernetesSchedulerTest {
  private final MockCluster cluster = new MockCluster();

  @AfterEach
  void tearDown() {
    cluster.close();
  }

  @Test
  void start_pendingPodWithOurSchedulerName_isBoundAndScheduledEventPosted() {
    cluster.node("n1", "4", "8Gi");
    KubernetesScheduler s = cluster.start(fast(cluster.client));
    cluster.create(pod("web-0", "500m", "fleetkit"));

    await("web-0 bound", () -> cluster.nodeOf("web-0") != null);
    assertThat(cluster.nodeOf("web-0")).isEqualTo("n1");
    await("Scheduled event", () -> !cluster.events("Scheduled").isEmpty());
    Event e = cluster.events("Scheduled").get(0);
    assertThat(e.getNote()).isEqualTo("Successfully assigned default/web-0 to n1");
    assertThat(e.getRegarding().getName()).isEqualTo("web-0");
    assertThat(e.getReportingController()).isEqualTo("fleetkit");
    assertThat(s.isLeader()).isTrue();
  }
}
