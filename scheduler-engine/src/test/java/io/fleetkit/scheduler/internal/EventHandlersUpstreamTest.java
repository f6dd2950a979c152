package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's {@code TestUpdatePod} and {@code TestDeletePod} ({@code pkg/scheduler/eventhandlers_test.go},
 * kubernetes/kubernetes commit 00cd67b7742e5af43e2eb841fde28de797344ed0): one pod ({@code ns1/pod1}) added to the
 * scheduler (or only assumed in its cache, as upstream's {@code Cache.AssumePod}), then updated or deleted through the
 * event handlers; checked: the object the queue holds (none) and the one the cache holds (none). FleetKit's handlers
 * take the new object only (an update is {@link EventHandlers#putPod}) and a deletion names the pod by key, so
 * upstream's {@code DeletedFinalStateUnknown} deletions (a possibly stale carried object) are the same removal as a
 * plain one. The profile is upstream's {@code supported-scheduler}.
 */
final class EventHandlersUpstreamTest {
  private static final String SUPPORTED = "supported-scheduler";
  private static final String OTHER = "other-scheduler";

  private static Pod pod(String scheduler, String node, boolean labelled, boolean terminating) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace("ns1").name("pod1").uid("pod1");
    if (labelled) { // upstream's updated objects: a label and resourceVersion 2
      m.label("foo", "bar").resourceVersion("2");
    }
    if (terminating) { // upstream's Terminating(): a deletionTimestamp, resourceVersion 2
      m.deletionTimestamp(Instant.parse("2026-01-01T00:00:00Z")).resourceVersion("2");
    }
    Pod.Builder b = Pod.builder().metadata(m.build()).schedulerName(scheduler)
        .container("c", "pause", ResourceList.ofCpuMemory(100, 1 << 20));
    if (!node.isEmpty()) {
      b.nodeName(node);
    }
    return b.build();
  }

  private static final Pod POD = pod(SUPPORTED, "", false, false);
  private static final Pod UPDATED_POD = pod(SUPPORTED, "", true, false);
  private static final Pod POD_WITH_DELETION_TIMESTAMP = pod(SUPPORTED, "", false, true);
  private static final Pod OTHER_POD = pod(OTHER, "", false, false);
  private static final Pod UPDATED_OTHER_POD = pod(OTHER, "", true, false);
  private static final Pod SCHEDULED_POD = pod(SUPPORTED, "node1", false, false);
  private static final Pod UPDATED_SCHEDULED_POD = pod(SUPPORTED, "node1", true, false);
  private static final Pod OTHER_SCHEDULED_POD = pod(OTHER, "node1", false, false);
  private static final Pod UPDATED_OTHER_SCHEDULED_POD = pod(OTHER, "node1", true, false);
  private static final Pod SCHEDULED_POD_OTHER_NODE = pod(SUPPORTED, "node2", false, false);

  /** The scheduler's structures for one case. */
  private static final class Engine {
    final SchedulerCache cache = new SchedulerCache(0);
    final SchedulingQueue queue;
    final EventHandlers handlers;

    Engine() {
      Framework fw = new Framework(SchedulerProfile.builder(SUPPORTED).plugin(PrioritySortPlugin.NAME).build(),
          PluginRegistry.defaults(), Clock.systemUTC(), new ClusterSnapshot(), WaitingPods.NONE, new ClusterObjects());
      queue = new SchedulingQueue(fw.queueSort, 1_000_000_000L, 10_000_000_000L, 300_000_000_000L);
      handlers = new EventHandlers(cache, queue, new Nominator(), new WaitingPodsImpl(new EngineLock(), () -> 0L),
          new ClusterObjects(), Map.of(SUPPORTED, fw), () -> 0L);
    }

    /** The pod as given to the scheduler first: upstream's {@code AssumePod}, or {@code addPod}. */
    void start(Pod pod, boolean assumed) {
      if (assumed) {
        cache.assume(EnginePodInfo.of(pod), pod.spec().nodeName());
      } else {
        handlers.putPod(pod);
      }
    }

    @Nullable Pod inQueue() {
      QueuedPod qp = queue.get("ns1/pod1");
      return qp == null ? null : qp.info.pod();
    }

    @Nullable Pod inCache() {
      PodInfo info = cache.podInfo("ns1/pod1");
      return info == null ? null : info.pod();
    }
  }

  record UpdateCase(String name, Pod oldPod, @Nullable Pod assumedPod, Pod newPod, @Nullable Pod expectInQueue,
      @Nullable Pod expectInCache) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<UpdateCase> upstreamTestUpdatePod() {
    return Stream.of(
        new UpdateCase("update unscheduled pod", POD, null, UPDATED_POD, UPDATED_POD, null),
        new UpdateCase("update unscheduled pod with other scheduler name", OTHER_POD, null, UPDATED_OTHER_POD, null,
            null),
        new UpdateCase("update assumed pod", POD, SCHEDULED_POD, UPDATED_POD, null, SCHEDULED_POD),
        new UpdateCase("update scheduled pod", SCHEDULED_POD, null, UPDATED_SCHEDULED_POD, null,
            UPDATED_SCHEDULED_POD),
        new UpdateCase("update scheduled pod with other scheduler name", OTHER_SCHEDULED_POD, null,
            UPDATED_OTHER_SCHEDULED_POD, null, UPDATED_OTHER_SCHEDULED_POD),
        new UpdateCase("bind unscheduled pod", POD, null, SCHEDULED_POD, null, SCHEDULED_POD),
        new UpdateCase("bind unscheduled pod with other scheduler name", POD, null, SCHEDULED_POD, null,
            SCHEDULED_POD),
        new UpdateCase("bind assumed pod", POD, SCHEDULED_POD, SCHEDULED_POD, null, SCHEDULED_POD),
        new UpdateCase("bind assumed pod to a different node", POD, SCHEDULED_POD, SCHEDULED_POD_OTHER_NODE, null,
            SCHEDULED_POD_OTHER_NODE),
        new UpdateCase("delete assumed pod with deletion timestamp", POD, SCHEDULED_POD, POD_WITH_DELETION_TIMESTAMP,
            null, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamTestUpdatePod")
  void updatePod_upstreamTable(UpdateCase c) {
    Engine e = new Engine();
    e.start(c.assumedPod() != null ? c.assumedPod() : c.oldPod(), c.assumedPod() != null);

    e.handlers.putPod(c.newPod());

    assertThat(e.inQueue()).as("in the scheduling queue").isEqualTo(c.expectInQueue());
    assertThat(e.inCache()).as("in the cache").isEqualTo(c.expectInCache());
  }

  record DeleteCase(String name, Pod initialPod, boolean assumed) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<DeleteCase> upstreamTestDeletePod() {
    return Stream.of(
        new DeleteCase("delete unscheduled pod", POD, false),
        new DeleteCase("delete unscheduled pod with other scheduler name", OTHER_POD, false),
        new DeleteCase("delete unscheduled pod with unknown state", POD, false),
        new DeleteCase("delete assumed pod", SCHEDULED_POD, true),
        new DeleteCase("delete scheduled pod", SCHEDULED_POD, false),
        new DeleteCase("delete scheduled pod with other scheduler name", OTHER_SCHEDULED_POD, false),
        new DeleteCase("delete scheduled pod with unknown state", SCHEDULED_POD, false),
        new DeleteCase("delete scheduled pod with unknown older state", SCHEDULED_POD, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamTestDeletePod")
  void deletePod_upstreamTable(DeleteCase c) {
    Engine e = new Engine();
    e.start(c.initialPod(), c.assumed());
    assertThat(e.inQueue() != null || e.inCache() != null || c.initialPod() == OTHER_POD)
        .as("the pod was taken in (a pod of another scheduler is ignored)").isTrue();

    e.handlers.removePod("ns1/pod1");

    assertThat(e.inCache()).as("in the cache after removal").isNull();
    assertThat(e.inQueue()).as("in the scheduling queue after removal").isNull();
  }
}
