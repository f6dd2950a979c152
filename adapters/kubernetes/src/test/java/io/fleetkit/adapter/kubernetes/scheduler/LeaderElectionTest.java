package io.fleetkit.adapter.kubernetes.scheduler;

import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.await;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.fast;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two replicas elect a leader on a Lease; only the leader binds, and the other takes over when it leaves. */
final class LeaderElectionTest {
  private final MockCluster cluster = new MockCluster();

  @AfterEach
  void tearDown() {
    cluster.close();
  }

  static LeaderElection election(String identity) {
    return new LeaderElection("default", "fleetkit-scheduler", identity, Duration.ofSeconds(3),
        Duration.ofSeconds(2), Duration.ofMillis(200));
  }

  @Test
  void twoReplicas_onlyTheLeaderBinds_andTheOtherTakesOverWhenItLeaves() {
    cluster.node("n1", "8", "16Gi");
    KubernetesScheduler a = cluster.start(fast(cluster.taggedClient()).leaderElection(election("replica-a")));
    KubernetesScheduler b = cluster.start(fast(cluster.taggedClient()).leaderElection(election("replica-b")));
    await("a leader elected", () -> a.isLeader() || b.isLeader());
    KubernetesScheduler leader = a.isLeader() ? a : b;
    KubernetesScheduler follower = leader == a ? b : a;
    assertThat(follower.isLeader()).isFalse();

    for (String name : List.of("p0", "p1", "p2")) {
      cluster.create(pod(name, "100m", "fleetkit"));
    }
    await("all bound", () -> List.of("p0", "p1", "p2").stream().allMatch(p -> cluster.nodeOf(p) != null));
    assertThat(follower.bindingRequests()).isZero();
    assertThat(leader.bindingRequests()).isEqualTo(3);
    await("three Scheduled events", () -> cluster.events("Scheduled").size() == 3);
    assertThat(cluster.events("Scheduled")).extracting(Event::getReportingInstance).containsOnly(leader.identity());
    assertThat(cluster.client.leases().inNamespace("default").withName("fleetkit-scheduler").get().getSpec()
        .getHolderIdentity()).isEqualTo(leader.identity());

    leader.close();
    await("the follower takes over", follower::isLeader);
    cluster.create(pod("p3", "100m", "fleetkit"));
    await("p3 bound", () -> cluster.nodeOf("p3") != null);
    assertThat(follower.bindingRequests()).isEqualTo(1);
    assertThat(cluster.dispatcher.bindingRequests()).hasSize(4);
  }

  @Test
  void leaderElection_renewDeadlineNotBelowLease_rejected() {
    assertThatThrownBy(() -> new LeaderElection("ns", "l", "id", Duration.ofSeconds(2), Duration.ofSeconds(2),
        Duration.ofMillis(100)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("renewDeadline PT2S must be shorter than leaseDuration PT2S");
    assertThatThrownBy(() -> new LeaderElection("ns", "l", "id", Duration.ofSeconds(3), Duration.ofSeconds(1),
        Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1.2 x retryPeriod");
    assertThat(LeaderElection.of("kube-system", "me").leaseDuration()).isEqualTo(Duration.ofSeconds(15));
  }
}
