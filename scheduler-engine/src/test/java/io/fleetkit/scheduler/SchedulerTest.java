package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PermitResult;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PostFilterPlugin;
import io.fleetkit.api.framework.PostBindPlugin;
import io.fleetkit.api.framework.PostFilterResult;
import io.fleetkit.api.framework.PreBindPlugin;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import io.fleetkit.scheduler.testing.LambdaPlugins;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.testing.TestFitPlugin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

final class SchedulerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final InMemoryBinder binder = new InMemoryBinder();

  private static PluginRegistry registry() {
    return PluginRegistry.defaults().with(TestFitPlugin.NAME, h -> new TestFitPlugin());
  }

  private static SchedulerProfile.Builder profile(String name) {
    return SchedulerProfile.builder(name).plugin(PrioritySortPlugin.NAME).plugin(TestFitPlugin.NAME, 1);
  }

  private Scheduler scheduler(PluginRegistry registry, SchedulerProfile... profiles) {
    SchedulerBuilder b = Scheduler.builder().registry(registry).clock(clock).binder(binder).parallelism(2).seed(1);
    for (SchedulerProfile p : profiles) {
      b.profile(p);
    }
    return b.build();
  }

  private Scheduler scheduler() {
    return scheduler(registry(), profile("default-scheduler").build());
  }

  @Test
  void scheduleOne_podFits_bindsAndRecordsBinding() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("p1", 500, 512));
      ScheduleResult r = s.scheduleOne();
      assertThat(r).isNotNull();
      assertThat(r.isBound()).isTrue();
      assertThat(r.nodeName()).isEqualTo("n1");
      assertThat(binder.bindings()).containsEntry("default/p1", "n1");
      assertThat(s.nodeOf("default/p1")).contains("n1");
      assertThat(s.nodeInfo("n1").orElseThrow().requested().milliCpu()).isEqualTo(500);
      assertThat(s.pending()).isEmpty();
      assertThat(s.scheduleOne()).isNull();
    }
  }

  @Test
  void scheduleOne_noNodeFits_returnsKubeMessageAndParksPod() {
    try (Scheduler s = scheduler()) {
      for (int i = 0; i < 3; i++) {
        s.addNode(node("n" + i, 1000, 8192, 110));
      }
      s.addPod(pod("big", 2000, 512));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
      assertThat(r.nodeName()).isNull();
      assertThat(r.message()).isEqualTo("0/3 nodes are available: 3 Insufficient cpu.");
      assertThat(s.pending()).singleElement().satisfies(p -> {
        assertThat(p.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
        assertThat(p.message()).isEqualTo(r.message());
        assertThat(p.attempts()).isEqualTo(1);
      });
    }
  }

  @Test
  void scheduleOne_severalReasons_countsPerReasonSortedLikeKube() {
    String taintReason = "node(s) had untolerated taint {gpu: true}";
    PluginRegistry reg = registry().with("Taints", h -> LambdaPlugins.filter("Taints",
        (p, n) -> n.node().spec().taints().isEmpty() ? Status.success() : Status.unresolvable(taintReason)));
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("Taints").build())) {
      for (int i = 0; i < 2; i++) {
        s.addNode(node("small" + i, 1000, 8192, 110));
      }
      for (int i = 0; i < 3; i++) {
        s.addNode(node("gpu" + i, 8000, 8192, 110).toBuilder()
            .taint(Taint.of("gpu", "true", TaintEffect.NoSchedule)).build());
      }
      s.addPod(pod("p", 2000, 512));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.message())
          .isEqualTo("0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had untolerated taint {gpu: true}.");
      assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
    }
  }

  @Test
  void scheduleOne_allNodesUnresolvable_reportsUnresolvable() {
    PluginRegistry reg = registry().with("No", h -> LambdaPlugins.filter("No", (p, n) -> Status.unresolvable("nope")));
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("No").build())) {
      s.addNode(node("n1", 1000, 1024, 10));
      s.addPod(pod("p", 100, 100));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
      assertThat(r.message()).isEqualTo("0/1 nodes are available: 1 nope.");
    }
  }

  @Test
  void scheduleOne_noNodes_isUnschedulableUntilANodeArrives() {
    try (Scheduler s = scheduler()) {
      s.addPod(pod("p", 100, 100));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.message()).isEqualTo("no nodes available to schedule pods");
      s.addNode(node("n1", 1000, 1024, 10));
      // moved to backoff (attempted 1 s ago at most): nothing active yet
      assertThat(s.pending()).singleElement().extracting(PendingPod::queue).isEqualTo(PendingPod.Queue.BACKOFF);
      clock.advance(Duration.ofSeconds(1));
      assertThat(s.scheduleOne().nodeName()).isEqualTo("n1");
    }
  }

  @Test
  void profiles_podsChooseBySchedulerName_othersIgnored() {
    PluginRegistry reg = registry().with("RejectAll",
        h -> LambdaPlugins.filter("RejectAll", (p, n) -> Status.unschedulable("rejected by profile b")));
    try (Scheduler s = scheduler(reg, profile("a").build(), profile("b").plugin("RejectAll").build())) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("pa", 100, 100).toBuilder().schedulerName("a").build());
      s.addPod(pod("pb", 100, 100).toBuilder().schedulerName("b").build());
      s.addPod(pod("other", 100, 100).toBuilder().schedulerName("somebody-else").build());
      List<ScheduleResult> rs = s.runUntilIdle();
      assertThat(rs).hasSize(2);
      assertThat(rs).filteredOn(r -> r.podKey().equals("default/pa")).singleElement()
          .satisfies(r -> assertThat(r.nodeName()).isEqualTo("n1"));
      assertThat(rs).filteredOn(r -> r.podKey().equals("default/pb")).singleElement()
          .satisfies(r -> assertThat(r.message()).isEqualTo("0/1 nodes are available: 1 rejected by profile b."));
      assertThat(s.pending()).extracting(PendingPod::podKey).containsExactly("default/pb");
      assertThat(s.nodeOf("default/other")).isEmpty();
    }
  }

  @Test
  void queue_higherPriorityFirst_thenArrivalOrder() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("n1", 10000, 8192, 110));
      s.addPod(pod("low", 100, 10, 1));
      clock.advance(Duration.ofMillis(1));
      s.addPod(pod("high", 100, 10, 100));
      clock.advance(Duration.ofMillis(1));
      s.addPod(pod("low2", 100, 10, 1));
      clock.advance(Duration.ofMillis(1));
      s.addPod(pod("high2", 100, 10, 100));
      assertThat(s.runUntilIdle()).extracting(ScheduleResult::podKey)
          .containsExactly("default/high", "default/high2", "default/low", "default/low2");
    }
  }

  @Test
  void priority_isTheSpecsAsAdmissionResolvedIt_classesAreNotLookedUp() {
    // Priority admission (the store's chain) resolves priorityClassName into spec.priority, as kube's API server
    // does; the scheduler, like kube-scheduler, reads spec.priority and never looks a class up itself.
    try (Scheduler s = scheduler()) {
      s.addObject(PriorityClass.builder().name("high").value(1000).build());
      s.addObject(PriorityClass.builder().name("default").value(10).globalDefault(true).build());
      s.addNode(node("n1", 10000, 8192, 110));
      s.addPod(pod("explicit0", 100, 10, 0));
      s.addPod(pod("unadmitted", 100, 10).toBuilder().priorityClassName("high").build());
      s.addPod(pod("admitted", 100, 10, 1000).toBuilder().priorityClassName("high").build());
      assertThat(s.runUntilIdle()).extracting(ScheduleResult::podKey)
          .containsExactly("default/admitted", "default/explicit0", "default/unadmitted");
      assertThat(s.nodeInfo("n1").orElseThrow().pods()).filteredOn(p -> p.key().equals("default/unadmitted"))
          .singleElement().satisfies(p -> assertThat(p.priority()).isZero());
    }
  }

  @Test
  void backoff_eventMovesPodToBackoffThenActiveAfterOneSecond() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("p", 2000, 10));
      assertThat(s.scheduleOne().isBound()).isFalse();
      s.addNode(node("n2", 4000, 8192, 110));
      assertThat(s.pending()).singleElement().extracting(PendingPod::queue).isEqualTo(PendingPod.Queue.BACKOFF);
      clock.advance(Duration.ofMillis(999));
      assertThat(s.scheduleOne()).isNull();
      clock.advance(Duration.ofMillis(1));
      assertThat(s.scheduleOne().nodeName()).isEqualTo("n2");
    }
  }

  @Test
  void unschedulable_flushedAfterFiveMinutesWithoutEvents() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("p", 2000, 10));
      s.scheduleOne();
      clock.advance(Duration.ofMinutes(5).minusMillis(1));
      assertThat(s.scheduleOne()).isNull();
      assertThat(s.pending()).singleElement().extracting(PendingPod::queue)
          .isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
      clock.advance(Duration.ofMillis(1));
      ScheduleResult again = s.scheduleOne();
      assertThat(again).isNotNull();
      assertThat(s.pending()).singleElement().extracting(PendingPod::attempts).isEqualTo(2);
    }
  }

  @Test
  void throwingPlugin_becomesErrorNamingPlugin_podGoesToBackoff() {
    PluginRegistry reg = registry().with("Boom", h -> LambdaPlugins.filter("Boom", (p, n) -> {
      throw new IllegalStateException("kaput");
    }));
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("Boom").build())) {
      for (int i = 0; i < 200; i++) {
        s.addNode(node("n" + i, 1000, 8192, 110));
      }
      s.addPod(pod("p", 100, 10));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.code()).isEqualTo(Status.Code.ERROR);
      assertThat(r.message()).contains("Boom").contains("kaput");
      assertThat(s.pending()).singleElement().extracting(PendingPod::queue).isEqualTo(PendingPod.Queue.BACKOFF);
    }
  }

  @Test
  void permit_waitThenAllow_holdsReservationThenBinds() {
    PluginRegistry reg = registry().with("Gate",
        h -> LambdaPlugins.permit("Gate", (p, n) -> PermitResult.waitFor(Duration.ofSeconds(10))));
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("Gate").build())) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("p", 600, 10));
      s.addPod(pod("q", 600, 10));
      ScheduleResult first = s.scheduleOne();
      assertThat(first.code()).isEqualTo(Status.Code.WAIT);
      assertThat(first.nodeName()).isEqualTo("n1");
      assertThat(s.waitingPods().keys()).containsExactly("default/p");
      assertThat(s.pending()).filteredOn(p -> p.podKey().equals("default/p")).singleElement()
          .extracting(PendingPod::queue).isEqualTo(PendingPod.Queue.WAITING_ON_PERMIT);
      // the reservation holds: q does not fit next to p
      assertThat(s.scheduleOne().message()).isEqualTo("0/1 nodes are available: 1 Insufficient cpu.");
      assertThat(binder.bindings()).isEmpty();
      s.waitingPods().allow("default/p", "Gate");
      assertThat(binder.bindings()).containsEntry("default/p", "n1");
      assertThat(s.waitingPods().keys()).isEmpty();
      assertThat(s.nodeOf("default/p")).contains("n1");
    }
  }

  @Test
  void permit_timeout_unreservesAndRequeues() {
    PluginRegistry reg = registry().with("Gate",
        h -> LambdaPlugins.permit("Gate", (p, n) -> PermitResult.waitFor(Duration.ofSeconds(10))));
    List<ScheduleResult> seen = new ArrayList<>();
    SchedulerBuilder b = Scheduler.builder().registry(reg).clock(clock).binder(binder)
        .profile(profile("default-scheduler").plugin("Gate").build()).onResult(seen::add);
    try (Scheduler s = b.build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("p", 600, 10));
      clock.advance(Duration.ofSeconds(3)); // the wait starts at the cycle, not when the pod was queued
      assertThat(s.scheduleOne().code()).isEqualTo(Status.Code.WAIT);
      clock.advance(Duration.ofSeconds(9));
      s.runUntilIdle();
      assertThat(s.waitingPods().keys()).containsExactly("default/p");
      clock.advance(Duration.ofSeconds(1));
      s.runUntilIdle();
      assertThat(seen).last().satisfies(r -> {
        assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
        assertThat(r.message()).isEqualTo("rejected due to timeout after waiting 10s at plugin Gate");
      });
      assertThat(s.waitingPods().keys()).isEmpty();
      assertThat(s.nodeOf("default/p")).isEmpty();
      assertThat(s.nodeInfo("n1").orElseThrow().pods()).isEmpty();
      assertThat(s.pending()).singleElement().satisfies(p -> assertThat(p.queue())
          .isIn(PendingPod.Queue.BACKOFF, PendingPod.Queue.ACTIVE, PendingPod.Queue.UNSCHEDULABLE));
    }
  }

  @Test
  void permit_reject_requeuesWithReason() {
    PluginRegistry reg = registry().with("Gate",
        h -> LambdaPlugins.permit("Gate", (p, n) -> PermitResult.waitFor(Duration.ofSeconds(10))));
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("Gate").build())) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("p", 600, 10));
      s.scheduleOne();
      s.waitingPods().reject("default/p", "Gate", "gang incomplete");
      assertThat(s.nodeInfo("n1").orElseThrow().pods()).isEmpty();
      assertThat(s.pending()).singleElement().satisfies(p -> assertThat(p.message()).isEqualTo("gang incomplete"));
    }
  }

  @Test
  void permit_immediateReject_isWordedAsFitErrorForOneNode() {
    PluginRegistry reg = registry().with("Deny",
        h -> LambdaPlugins.permit("Deny", (p, n) -> PermitResult.reject(Status.unschedulable("denied"))));
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("Deny").build())) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("p", 600, 10));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.message()).isEqualTo("0/1 nodes are available: 1 denied.");
      assertThat(s.nodeInfo("n1").orElseThrow().pods()).isEmpty();
    }
  }

  /** A PostFilter that evicts every lower-priority pod on the first node and nominates it. */
  private static final class EvictAllPostFilter implements PostFilterPlugin {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public String name() {
      return "EvictAll";
    }

    @Override
    public PostFilterResult postFilter(CycleState state, PodInfo pod, Snapshot snapshot, NodeToStatus statuses) {
      calls.incrementAndGet();
      assertThat(state.isPreemptionDryRun()).isTrue();
      var node = snapshot.nodes().get(0);
      List<String> victims = new ArrayList<>();
      for (PodInfo p : node.pods()) {
        if (p.priority() < pod.priority()) {
          victims.add(p.key());
        }
      }
      if (victims.isEmpty()) {
        return PostFilterResult.of(Status.unschedulable("preemption: 0/" + snapshot.size()
            + " nodes are available: " + snapshot.size() + " Preemption is not helpful for scheduling."));
      }
      return new PostFilterResult(Status.success(), node.name(), victims);
    }
  }

  @Test
  void postFilter_success_evictsVictimsNominatesAndRetries() {
    EvictAllPostFilter pf = new EvictAllPostFilter();
    List<Pod> evicted = new ArrayList<>();
    PluginRegistry reg = registry().with("EvictAll", h -> pf);
    try (Scheduler s = Scheduler.builder().registry(reg).clock(clock).binder(binder).evictor(evicted::add)
        .profile(profile("default-scheduler").plugin("EvictAll").build()).build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("low", 800, 10, 0).toBuilder().nodeName("n1").build());
      s.addPod(pod("high", 800, 10, 100));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.isBound()).isFalse();
      assertThat(r.nominatedNodeName()).isEqualTo("n1");
      assertThat(r.victims()).containsExactly("default/low");
      assertThat(r.message()).isEqualTo("0/1 nodes are available: 1 Insufficient cpu.");
      assertThat(evicted).extracting(p -> p.metadata().key()).containsExactly("default/low");
      assertThat(s.nodeInfo("n1").orElseThrow().pods()).isEmpty();
      clock.advance(Duration.ofSeconds(1));
      ScheduleResult retry = s.scheduleOne();
      assertThat(retry.nodeName()).isEqualTo("n1");
    }
  }

  @Test
  void postFilter_success_evictorLearnsThePreemptorAndTheNode() {
    EvictAllPostFilter pf = new EvictAllPostFilter();
    List<String> calls = new ArrayList<>();
    Evictor evictor = new Evictor() {
      @Override
      public void evict(Pod victim) {
        calls.add(victim.metadata().key());
      }

      @Override
      public void evict(Pod victim, Pod preemptor, String nodeName) {
        calls.add(victim.metadata().key() + " for " + preemptor.metadata().key() + " on " + nodeName);
      }
    };
    PluginRegistry reg = registry().with("EvictAll", h -> pf);
    try (Scheduler s = Scheduler.builder().registry(reg).clock(clock).binder(binder).evictor(evictor)
        .profile(profile("default-scheduler").plugin("EvictAll").build()).build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("low", 800, 10, 0).toBuilder().nodeName("n1").build());
      s.addPod(pod("high", 800, 10, 100));
      s.scheduleOne();
      assertThat(calls).containsExactly("default/low for default/high on n1");
    }
  }

  @Test
  void fail_podNominatedEarlier_postFilterWithoutResult_resultReportsTheKeptNomination() {
    PluginRegistry reg = registry().with("EvictAll", h -> new EvictAllPostFilter());
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("EvictAll").build())) {
      s.addNode(node("n1", 1000, 8192, 110));
      Pod p = pod("big", 2000, 10, 100);
      s.addPod(p.withStatus(p.status().withNominatedNodeName("n1")));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.isBound()).isFalse();
      assertThat(r.nominatedNodeName()).as("PostFilter nominated nothing and cleared nothing: the nomination stands")
          .isEqualTo("n1");
      assertThat(r.victims()).isEmpty();
    }
  }

  @Test
  void fail_podNominatedEarlier_noPostFilterPlugins_nominationDropped() {
    // kube's schedulingCycle: "No PostFilter plugins are registered" answers clearNominatedNode
    try (Scheduler s = scheduler(registry(), profile("default-scheduler").build())) {
      s.addNode(node("n1", 1000, 8192, 110));
      Pod p = pod("big", 2000, 10, 100);
      s.addPod(p.withStatus(p.status().withNominatedNodeName("n1")));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.isBound()).isFalse();
      assertThat(r.nominatedNodeName()).isNull();
      assertThat(r.victims()).isEmpty();
    }
  }

  @Test
  void postFilter_failure_appendsPreemptionMessage() {
    EvictAllPostFilter pf = new EvictAllPostFilter();
    PluginRegistry reg = registry().with("EvictAll", h -> pf);
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("EvictAll").build())) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addNode(node("n2", 1000, 8192, 110));
      s.addPod(pod("p", 2000, 10));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.message()).isEqualTo("0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are "
          + "available: 2 Preemption is not helpful for scheduling.");
      assertThat(pf.calls).hasValue(1);
    }
  }

  @Test
  void postFilter_unschedulableWithEmptyNomination_clearsEarlierNomination() {
    PostFilterPlugin giveUp = new PostFilterPlugin() {
      @Override
      public String name() {
        return "GiveUp";
      }

      @Override
      public PostFilterResult postFilter(CycleState state, PodInfo pod, Snapshot snapshot, NodeToStatus statuses) {
        return new PostFilterResult(Status.unschedulable("preemption: nothing helps"), "", List.of());
      }
    };
    PluginRegistry reg = registry().with("GiveUp", h -> giveUp);
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("GiveUp").build())) {
      s.addNode(node("n1", 1000, 8192, 110));
      Pod big = pod("big", 2000, 10, 100);
      s.addPod(big.withStatus(big.status().withNominatedNodeName("n1")));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.message()).isEqualTo("0/1 nodes are available: 1 Insufficient cpu. preemption: nothing helps");
      s.addPod(pod("small", 800, 10, 1));
      // with big's nomination still counted, small (lower priority) would not fit n1
      assertThat(s.scheduleOne().nodeName()).isEqualTo("n1");
    }
  }

  /** kube's assume drops the nomination: a pod assumed off its nominated node no longer holds that node. */
  @Test
  void permit_podWaitingOffItsNominatedNode_noLongerHoldsIt() {
    PluginRegistry reg = registry()
        .with("NotN1", h -> LambdaPlugins.filter("NotN1", (p, n) -> p.priority() >= 100 && n.name().equals("n1")
            ? Status.unschedulable("not n1") : Status.success()))
        .with("Gate", h -> LambdaPlugins.permit("Gate", (p, n) -> p.priority() >= 100
            ? PermitResult.waitFor(Duration.ofSeconds(10)) : PermitResult.allow()));
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("NotN1").plugin("Gate").build())) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addNode(node("n2", 1000, 8192, 110));
      Pod nominated = pod("nom", 800, 10, 100);
      s.addPod(nominated.withStatus(nominated.status().withNominatedNodeName("n1")));
      ScheduleResult first = s.scheduleOne();
      assertThat(first.code()).isEqualTo(Status.Code.WAIT);
      assertThat(first.nodeName()).isEqualTo("n2");
      s.addPod(pod("low", 800, 10, 1));
      // were nom's nomination still counted on n1, low would fit nowhere
      assertThat(s.scheduleOne().nodeName()).isEqualTo("n1");
    }
  }

  /** kube's clearNominatedNode: a Permit rejection clears the pod's nomination. */
  @Test
  void permit_reject_clearsTheNomination() {
    PluginRegistry reg = registry().with("Deny",
        h -> LambdaPlugins.permit("Deny", (p, n) -> PermitResult.reject(Status.unschedulable("denied"))));
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("Deny").build())) {
      s.addNode(node("n1", 1000, 8192, 110));
      Pod p = pod("p", 600, 10, 100);
      s.addPod(p.withStatus(p.status().withNominatedNodeName("n1")));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
      assertThat(r.nominatedNodeName()).isNull();
    }
  }

  @Test
  void nominatedPod_reservesItsNodeForLowerPriorityPods() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("n1", 1000, 8192, 110));
      Pod nominated = pod("nom", 800, 10, 100);
      nominated = nominated.withStatus(nominated.status().withNominatedNodeName("n1"));
      s.addPod(nominated);
      s.addPod(pod("low", 800, 10, 1));
      // the nominated pod goes first (priority) and takes the node; the lower one no longer fits
      ScheduleResult first = s.scheduleOne();
      assertThat(first.podKey()).isEqualTo("default/nom");
      assertThat(first.nodeName()).isEqualTo("n1");
      ScheduleResult second = s.scheduleOne();
      assertThat(second.isBound()).isFalse();
    }
  }

  @Test
  void nominatedPod_countedOnNodeInFilterForLowerPriority() {
    // EvictAll finds no victim on the empty n1 and leaves the nomination (a profile without PostFilter would drop it)
    PluginRegistry reg = registry().with("OnlyLow", h -> LambdaPlugins.filter("OnlyLow",
        (p, n) -> p.priority() >= 100 ? Status.unschedulable("high waits") : Status.success()))
        .with("EvictAll", h -> new EvictAllPostFilter());
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("OnlyLow").plugin("EvictAll").build())) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addNode(node("n2", 1000, 8192, 110));
      Pod nominated = pod("nom", 800, 10, 100);
      s.addPod(nominated.withStatus(nominated.status().withNominatedNodeName("n1")));
      assertThat(s.scheduleOne().podKey()).isEqualTo("default/nom"); // rejected, stays nominated to n1
      s.addPod(pod("low", 800, 10, 1));
      ScheduleResult low = s.scheduleOne();
      assertThat(low.podKey()).isEqualTo("default/low");
      assertThat(low.nodeName()).isEqualTo("n2");
    }
  }

  @Test
  void removePod_boundPod_freesResourcesAndRequeuesParkedPods() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("a", 800, 10));
      assertThat(s.scheduleOne().isBound()).isTrue();
      s.addPod(pod("b", 800, 10));
      assertThat(s.scheduleOne().isBound()).isFalse();
      s.removePod("default/a");
      clock.advance(Duration.ofSeconds(1));
      assertThat(s.scheduleOne().nodeName()).isEqualTo("n1");
    }
  }

  @Test
  void addPod_boundElsewhere_confirmsAssumedPodAndLeavesQueue() {
    try (Scheduler s = Scheduler.builder().registry(registry()).clock(clock).binder(binder)
        .profile(profile("default-scheduler").build()).assumedPodTtl(Duration.ofSeconds(30)).build()) {
      Node n = node("n1", 1000, 8192, 110);
      s.addNode(n);
      Pod p = pod("p", 100, 10);
      s.addPod(p);
      assertThat(s.scheduleOne().isBound()).isTrue();
      s.updatePod(p.withNodeName("n1"));
      clock.advance(Duration.ofMinutes(1));
      s.scheduleOne();
      assertThat(s.nodeOf("default/p")).contains("n1"); // confirmed, so it did not expire
    }
  }

  @Test
  void assumedPod_notObserved_expiresAfterTtl() {
    try (Scheduler s = Scheduler.builder().registry(registry()).clock(clock).binder(binder)
        .profile(profile("default-scheduler").build()).assumedPodTtl(Duration.ofSeconds(30)).build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("p", 100, 10));
      assertThat(s.scheduleOne().isBound()).isTrue();
      clock.advance(Duration.ofSeconds(31));
      s.scheduleOne();
      assertThat(s.nodeOf("default/p")).isEmpty();
    }
  }

  // Ported from kubernetes/kubernetes pkg/scheduler/schedule_one_test.go, TestFairEvaluationForNodes: 500 nodes,
  // percentageOfNodesToScore 30 (so 500 % nodesToFind != 0); over more than two rounds of the node list each cycle
  // finds exactly nodesToFind nodes and the start index advances by nodesToFind (mod 500). Our start is seeded, so
  // the test checks the advance rather than absolute indexes.
  @Test
  void sampling_fairEvaluationForNodes() {
    List<List<String>> seenPerCycle = new ArrayList<>();
    PluginRegistry reg = registry().with("Spy", h -> LambdaPlugins.filter("Spy", (p, n) -> {
      seenPerCycle.get(seenPerCycle.size() - 1).add(n.name());
      return Status.success();
    }));
    SchedulerProfile p = SchedulerProfile.builder("default-scheduler").plugin(PrioritySortPlugin.NAME).plugin("Spy")
        .percentageOfNodesToScore(30).build();
    try (Scheduler s = Scheduler.builder().registry(reg).profile(p).clock(clock).parallelism(1).seed(5).build()) {
      int numAllNodes = 500;
      for (int i = 0; i < numAllNodes; i++) {
        s.addNode(node(String.valueOf(i), 100_000, 100_000, 1000));
      }
      int nodesToFind = 150;
      int cycles = 2 * (numAllNodes / nodesToFind + 1);
      for (int i = 0; i < cycles; i++) {
        s.addPod(pod("p" + i, 0, 0));
        seenPerCycle.add(new ArrayList<>());
        assertThat(s.scheduleOne().isBound()).isTrue();
      }
      int firstStart = Integer.parseInt(seenPerCycle.get(0).get(0));
      for (int i = 0; i < cycles; i++) {
        List<String> seen = seenPerCycle.get(i);
        assertThat(seen).hasSize(nodesToFind);
        assertThat(Integer.parseInt(seen.get(0))).isEqualTo((firstStart + i * nodesToFind) % numAllNodes);
      }
    }
  }

  /** Records Reserve/Unreserve calls; rejects when told to. */
  private static final class Recorder implements ReservePlugin, PreBindPlugin, PostBindPlugin {
    final String name;
    final List<String> calls;
    final boolean rejectReserve;
    final boolean failPreBind;

    Recorder(String name, List<String> calls, boolean rejectReserve, boolean failPreBind) {
      this.name = name;
      this.calls = calls;
      this.rejectReserve = rejectReserve;
      this.failPreBind = failPreBind;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
      calls.add(name + ".reserve");
      return rejectReserve ? Status.unschedulable("no room in " + name) : Status.success();
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
      calls.add(name + ".unreserve");
    }

    @Override
    public Status preBind(CycleState state, PodInfo pod, String nodeName) {
      calls.add(name + ".preBind");
      return failPreBind ? Status.error("volume not ready") : Status.success();
    }

    @Override
    public void postBind(CycleState state, PodInfo pod, String nodeName) {
      calls.add(name + ".postBind");
    }
  }

  @Test
  void reserve_rejection_unreservesAllInReverseOrderAndForgets() {
    List<String> calls = new ArrayList<>();
    PluginRegistry reg = registry().with("R1", h -> new Recorder("R1", calls, false, false))
        .with("R2", h -> new Recorder("R2", calls, true, false));
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("R1").plugin("R2").build())) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("p", 100, 10));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.message()).isEqualTo("0/1 nodes are available: 1 no room in R2.");
      assertThat(calls).containsExactly("R1.reserve", "R2.reserve", "R2.unreserve", "R1.unreserve");
      assertThat(s.nodeInfo("n1").orElseThrow().pods()).isEmpty();
    }
  }

  @Test
  void preBindFailure_unreservesAndBacksOff_successRunsPostBind() {
    List<String> calls = new ArrayList<>();
    PluginRegistry reg = registry().with("Vol", h -> new Recorder("Vol", calls, false, true))
        .with("Ok", h -> new Recorder("Ok", calls, false, false));
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("Vol").build());
        Scheduler ok = scheduler(reg, profile("default-scheduler").plugin("Ok").build())) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("p", 100, 10));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.code()).isEqualTo(Status.Code.ERROR);
      assertThat(r.message()).isEqualTo("volume not ready");
      assertThat(calls).containsExactly("Vol.reserve", "Vol.preBind", "Vol.unreserve");
      assertThat(s.pending()).singleElement().extracting(PendingPod::queue).isEqualTo(PendingPod.Queue.BACKOFF);
      calls.clear();
      ok.addNode(node("n1", 1000, 8192, 110));
      ok.addPod(pod("p", 100, 10));
      assertThat(ok.scheduleOne().isBound()).isTrue();
      assertThat(calls).containsExactly("Ok.reserve", "Ok.preBind", "Ok.postBind");
    }
  }

  @Test
  void binderFailure_forgetsPodAndBacksOff() {
    try (Scheduler s = Scheduler.builder().registry(registry()).clock(clock).profile(profile("default-scheduler")
        .build()).binder((pod, node) -> Status.error("api server down")).build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("p", 100, 10));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.code()).isEqualTo(Status.Code.ERROR);
      assertThat(r.message()).isEqualTo("api server down");
      assertThat(s.nodeOf("default/p")).isEmpty();
      assertThat(s.pending()).singleElement().extracting(PendingPod::queue).isEqualTo(PendingPod.Queue.BACKOFF);
    }
  }

  @Test
  void handle_listsAddedObjects() {
    List<FrameworkHandle> handles = new ArrayList<>();
    PluginRegistry reg = registry().with("Spy", h -> {
      handles.add(h);
      return LambdaPlugins.filter("Spy", (p, n) -> Status.success());
    });
    try (Scheduler s = scheduler(reg, profile("default-scheduler").plugin("Spy").build())) {
      PriorityClass pc = PriorityClass.of("x", 5);
      s.addObject(pc);
      assertThat(handles).singleElement().satisfies(h -> assertThat(h.list(PriorityClass.class)).containsExactly(pc));
      s.removeObject(pc);
      assertThat(handles.get(0).list(PriorityClass.class)).isEmpty();
    }
  }
}
