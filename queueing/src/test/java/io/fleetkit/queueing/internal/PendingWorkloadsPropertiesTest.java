package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.QueueingStrategy;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.StopPolicy;
import io.fleetkit.queueing.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link PendingWorkloads} under random sequences of what the scheduler does (submit, cycles that requeue, park or
 * admit heads, backoffs, deactivations, deletes, stopping and resuming a LocalQueue, removing and adding back a
 * ClusterQueue, each configuration change followed by a reroute): a workload is in at most one place, never lost, a
 * queued one is in exactly one queue (the one {@link QueueRegistry#route} gives) once, and the pending count is the
 * number of pending workloads.
 */
final class PendingWorkloadsPropertiesTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final int WORKLOADS = 6;

  /** One step: {@code kind} picks the operation, {@code w} a workload, {@code x} a time or a choice. */
  record Op(int kind, int w, int x) {}

  /** What the test knows of a workload: absent (never submitted, with quota, or deleted), pending or deactivated. */
  enum Known { PENDING, DEACTIVATED }

  @Provide
  Arbitrary<List<Op>> ops() {
    return Combinators.combine(Arbitraries.integers().between(0, 10), Arbitraries.integers().between(0, WORKLOADS - 1),
        Arbitraries.integers().between(0, 9)).as(Op::new).list().ofMaxSize(60);
  }

  private static Workload workload(int i) {
    // even workloads go to ClusterQueue a (BestEffortFIFO), odd ones to b (StrictFIFO)
    return Workload.builder("team", "w" + i).queueName(i % 2 == 0 ? "qa" : "qb").priority(i % 3)
        .creationTime(T0).request("cpu", "1").build();
  }

  @Property(tries = 300)
  void aWorkloadWaitsInAtMostOnePlace_andAQueuedOneInItsRoutedQueueOnce(@ForAll("ops") List<Op> ops) {
    PendingWorkloads[] holder = new PendingWorkloads[1];
    QueueRegistry registry = new QueueRegistry(List.of(), gone -> holder[0].drop(gone));
    registry.configure(List.of(ResourceFlavor.of("default")),
        List.of(PendingWorkloadsTest.cq("a", QueueingStrategy.BEST_EFFORT_FIFO),
            PendingWorkloadsTest.cq("b", QueueingStrategy.STRICT_FIFO)), List.of(),
        List.of(LocalQueue.of("team", "qa", "a"), LocalQueue.of("team", "qb", "b")));
    PendingWorkloads pending = new PendingWorkloads(registry);
    holder[0] = pending;
    Map<String, Known> known = new HashMap<>();
    Set<CqState> everyQueue = new LinkedHashSet<>(registry.queues());
    long sequence = 0;
    for (Op op : ops) {
      Workload wl = workload(op.w());
      String key = wl.key();
      Instant at = T0.plusSeconds(op.x());
      switch (op.kind()) {
        case 0, 1 -> { // submit, or queue again after losing quota
          if (!known.containsKey(key)) {
            pending.enqueue(new PendingWorkload(wl, sequence++), null);
            known.put(key, Known.PENDING);
          }
        }
        case 2 -> { // a cycle: pop every active queue's head, then requeue, park, requeue inadmissible or admit it
          List<PendingWorkload> heads = new ArrayList<>();
          for (CqState cq : registry.queues()) {
            PendingWorkload head = pending.popHead(cq);
            if (head != null) {
              heads.add(head);
              assertThat(pending.placeOf(head.key())).isEqualTo(PendingWorkloads.Place.HEAD);
            }
          }
          for (int i = 0; i < heads.size(); i++) {
            PendingWorkload head = heads.get(i);
            switch ((op.x() + i) % 4) {
              case 0 -> pending.requeue(head);
              case 1 -> pending.park(head);
              case 2 -> pending.requeueInadmissible(head);
              default -> {
                pending.admit(head);
                known.remove(head.key());
              }
            }
          }
        }
        case 3 -> { // evicted by a Retry check or the PodsReady timeout
          if (!known.containsKey(key)) {
            CqState routed = registry.queue(op.w() % 2 == 0 ? "a" : "b");
            pending.backoff(new PendingWorkload(wl, sequence++), routed != null ? routed : registry.requireQueue("a"),
                at);
            known.put(key, Known.PENDING);
          } else {
            pending.delayQueued(key, at);
          }
        }
        case 4 -> pending.releaseBackoff(at);
        case 5 -> { // a Rejected check, or reactivation
          if (!known.containsKey(key)) {
            pending.deactivate(wl, registry.queues().iterator().next(), "The workload is deactivated due to x");
            known.put(key, Known.DEACTIVATED);
          } else {
            PendingWorkloads.Deactivated d = pending.reactivate(key);
            if (d != null) {
              pending.enqueue(new PendingWorkload(d.workload(), sequence++), d.cq());
              known.put(key, Known.PENDING);
            }
          }
        }
        case 6 -> {
          assertThat(pending.remove(key)).isEqualTo(known.remove(key) != null);
        }
        case 7 -> {
          if (op.x() % 2 == 0) {
            pending.unpark(registry.queues().iterator().next());
          } else {
            pending.unparkAll();
          }
        }
        case 8 -> { // stop or resume LocalQueue qa
          StopPolicy policy = op.x() % 2 == 0 ? StopPolicy.HOLD : StopPolicy.NONE;
          registry.putLocalQueue(LocalQueue.of("team", "qa", "a").withStopPolicy(policy));
          pending.reroute();
        }
        case 9 -> { // remove ClusterQueue b, or add it back
          if (registry.queue("b") != null) {
            registry.removeClusterQueue("b");
          } else {
            registry.putClusterQueue(PendingWorkloadsTest.cq("b", QueueingStrategy.STRICT_FIFO));
          }
          everyQueue.addAll(registry.queues());
          pending.reroute();
        }
        default -> { // change b's strategy: the registry rebuilds its queue with every workload active
          ClusterQueue spec = registry.clusterQueue("b");
          if (spec != null) {
            registry.putClusterQueue(PendingWorkloadsTest.cq("b", op.x() % 2 == 0
                ? QueueingStrategy.BEST_EFFORT_FIFO : QueueingStrategy.STRICT_FIFO));
            pending.reroute();
          }
        }
      }
      check(pending, registry, everyQueue, known);
    }
  }

  private static void check(PendingWorkloads pending, QueueRegistry registry, Set<CqState> everyQueue,
      Map<String, Known> known) {
    Map<String, Integer> inQueues = new HashMap<>();
    for (CqState cq : everyQueue) {
      for (PendingWorkload p : cq.pending.snapshot()) {
        inQueues.merge(p.key(), 1, Integer::sum);
        assertThat(pending.queueOf(p.key())).as("queue of %s", p.key()).isSameAs(cq);
        assertThat(cq.pending.get(p.key())).as("%s by its key", p.key()).isSameAs(p);
      }
    }
    int pendingNow = 0;
    for (int i = 0; i < WORKLOADS; i++) {
      Workload wl = workload(i);
      String key = wl.key();
      PendingWorkloads.Place place = pending.placeOf(key);
      Known k = known.get(key);
      assertThat(place == null).as("%s is %s, known %s", key, place, k).isEqualTo(k == null);
      assertThat(place == PendingWorkloads.Place.DEACTIVATED).as(key).isEqualTo(k == Known.DEACTIVATED);
      assertThat(place).as("no head outlives its cycle").isNotEqualTo(PendingWorkloads.Place.HEAD);
      assertThat(inQueues.getOrDefault(key, 0)).as("queues holding %s (%s)", key, place)
          .isEqualTo(place == PendingWorkloads.Place.QUEUED ? 1 : 0);
      for (CqState other : everyQueue) {
        if (place != PendingWorkloads.Place.QUEUED || other != pending.queueOf(key)) {
          assertThat(other.pending.get(key)).as("%s found by key in a queue not holding it", key).isNull();
        }
      }
      CqState cq = pending.queueOf(key);
      switch (place == null ? PendingWorkloads.Place.HEAD : place) {
        case QUEUED -> assertThat(registry.route(wl, cq)).as("routed queue of %s", key).isSameAs(cq);
        case BACKOFF -> {
          assertThat(cq.removed).as("%s waits for a backoff in a dropped queue", key).isFalse();
          assertThat(pending.pendingKeys(cq)).as(key).containsOnlyOnce(key);
        }
        case UNROUTED -> {
          assertThat(cq).as(key).isNull();
          assertThat(registry.route(wl, null)).as("route of unrouted %s", key).isNull();
        }
        default -> assertThat(cq).as(key).isNull();
      }
      if (pending.isPending(key)) {
        pendingNow++;
        assertThat(pending.workload(key)).as(key).isEqualTo(wl);
      }
    }
    assertThat(pending.pendingCount()).isEqualTo(pendingNow);
  }
}
