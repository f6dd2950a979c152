package io.fleetkit.adapter.kubernetes.scheduler;

import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.NS;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fleetkit.adapter.kubernetes.scheduler.internal.SchedulingEvents;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's events.k8s.io/v1 Events: posted off the caller's thread, repeats patched into a series, and at
 * most {@link SchedulingEvents#MAX_QUEUED} waiting (client-go's {@code maxQueuedEvents}) when the API server is slow.
 */
class SchedulingEventsTest {

  @Test
  void repeatedFailure_isOneEventWithASeries() {
    try (MockCluster cluster = new MockCluster();
        SchedulingEvents events = new SchedulingEvents(cluster.client, "fleetkit", "test", Clock.systemUTC())) {
      events.failed(NS, "p", "uid-p", "0/3 nodes are available: 3 Insufficient cpu.");
      await("the first FailedScheduling event", () -> cluster.events("FailedScheduling").size() == 1);
      events.failed(NS, "p", "uid-p", "0/3 nodes are available: 3 Insufficient cpu.");
      await("the repeat patched into the event's series", () -> {
        List<Event> stored = cluster.events("FailedScheduling");
        return stored.size() == 1 && stored.get(0).getSeries() != null;
      });
      Event e = cluster.events("FailedScheduling").get(0);
      assertThat(e.getSeries().getCount()).isEqualTo(2);
      assertThat(e.getRegarding().getName()).isEqualTo("p");
      assertThat(e.getRegarding().getUid()).isEqualTo("uid-p");
      assertThat(e.getReportingController()).isEqualTo("fleetkit");
      assertThat(e.getNote()).isEqualTo("0/3 nodes are available: 3 Insufficient cpu.");
      assertThat(events.dropped()).isZero();

    }
  }

  @Test
  void apiServerThatNeverAnswers_callerNeverWaits_andEventsBeyondTheQueueAreDropped() throws Exception {
    // A listening socket that is never read: every request hangs until its timeout.
    try (ServerSocket silent = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + silent.getLocalPort()).withRequestRetryBackoffLimit(0).build())
            .build()) {
      SchedulingEvents events = new SchedulingEvents(client, "fleetkit", "test", Clock.systemUTC());
      int sent = SchedulingEvents.MAX_QUEUED + SchedulingEvents.POSTERS + 84;
      for (int i = 0; i < sent; i++) {
        events.scheduled(NS, "p-" + i, "", "n1");
      }
      // POSTERS requests are in flight (hanging), MAX_QUEUED wait, the rest were dropped without blocking.
      assertThat(events.dropped()).isEqualTo(84);
      events.close();
    }
  }
}
