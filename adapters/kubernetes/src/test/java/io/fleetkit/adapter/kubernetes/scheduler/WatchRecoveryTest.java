package io.fleetkit.adapter.kubernetes.scheduler;

import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.await;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.fast;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.pod;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Watches that the server drops are re-established; a 410 Gone answer makes the informer relist. */
final class WatchRecoveryTest {
  private final MockCluster cluster = new MockCluster();

  @AfterEach
  void tearDown() {
    cluster.close();
  }

  @Test
  void watch_droppedByTheServer_reconnectsAndLaterPodsAreBound() {
    cluster.node("n1", "4", "8Gi");
    cluster.start(fast(cluster.client));
    cluster.create(pod("before", "100m", "fleetkit"));
    await("before bound", () -> cluster.nodeOf("before") != null);
    await("pod watch open", () -> cluster.dispatcher.openPodWatches() == 1);
    int watches = cluster.dispatcher.podWatchRequests();

    cluster.dispatcher.dropWatches();
    await("pod watch re-established", () -> cluster.dispatcher.podWatchRequests() > watches
        && cluster.dispatcher.openPodWatches() == 1);
    cluster.create(pod("after", "100m", "fleetkit"));

    await("after bound", () -> cluster.nodeOf("after") != null);
    assertThat(cluster.dispatcher.bindingRequests()).containsExactly("default/before", "default/after");
  }

  @Test
  void watch_resourceVersionTooOld_relistsAndSeesPodsCreatedMeanwhile() {
    cluster.node("n1", "4", "8Gi");
    cluster.start(fast(cluster.client));
    await("pod watch open", () -> cluster.dispatcher.openPodWatches() == 1);
    cluster.dispatcher.goneOnNextPodWatch();
    cluster.dispatcher.dropWatches();
    // Created while no pod watch is open: only a relist can show it.
    cluster.create(pod("meanwhile", "100m", "fleetkit"));

    await("410 answered", () -> cluster.dispatcher.goneAnswers() == 1);
    await("meanwhile bound", () -> cluster.nodeOf("meanwhile") != null);
    assertThat(cluster.nodeOf("meanwhile")).isEqualTo("n1");
  }
}
