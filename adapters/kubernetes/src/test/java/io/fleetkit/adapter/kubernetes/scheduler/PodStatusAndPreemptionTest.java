package io.fleetkit.adapter.kubernetes.scheduler;

import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.NS;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.await;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.fast;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fleetkit.adapter.kubernetes.scheduler.BindingDispatcher.Write;
import io.fleetkit.adapter.kubernetes.scheduler.internal.ApiRequests;
import io.fleetkit.adapter.kubernetes.scheduler.internal.EvictedPods;
import io.fleetkit.adapter.kubernetes.scheduler.internal.LiveConverter;
import io.fleetkit.adapter.kubernetes.scheduler.internal.PodStatusWriter;
import io.fleetkit.adapter.kubernetes.scheduler.internal.PreemptionEvictor;
import io.fleetkit.adapter.kubernetes.scheduler.internal.SchedulingEvents;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What kube-scheduler writes besides bindings: {@code PodScheduled=False} and {@code nominatedNodeName} on pods it
 * cannot place, and preemption (victims marked {@code DisruptionTarget} then deleted with a uid precondition).
 */
final class PodStatusAndPreemptionTest {
  private final MockCluster cluster = new MockCluster();
  private final KubernetesSerialization json = new KubernetesSerialization();

  @AfterEach
  void tearDown() {
    cluster.close();
  }

  private @Nullable Pod get(String name) {
    return cluster.client.pods().inNamespace(NS).withName(name).get();
  }

  private static @Nullable PodCondition condition(@Nullable Pod pod, String type) {
    if (pod == null || pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return null;
    }
    return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
  }

  private List<Write> writes(String target, String method) {
    return cluster.dispatcher.podWrites().stream()
        .filter(w -> w.target().equals(target) && w.method().equals(method)).toList();
  }

  @Test
  void unschedulable_podScheduledFalseWithTheDiagnosis_writtenOnceAcrossRetries() {
    cluster.node("n1", "1", "8Gi");
    cluster.node("n2", "1", "8Gi");
    KubernetesScheduler s = cluster.start(fast(cluster.client));
    cluster.create(pod("huge", "3", "fleetkit"));

    await("PodScheduled=False on huge", () -> condition(get("huge"), "PodScheduled") != null);
    PodCondition c = condition(get("huge"), "PodScheduled");
    assertThat(c.getStatus()).isEqualTo("False");
    assertThat(c.getReason()).isEqualTo("Unschedulable");
    await("FailedScheduling", () -> !cluster.events("FailedScheduling").isEmpty());
    assertThat(c.getMessage()).as("the FailedScheduling event's diagnosis")
        .isEqualTo(cluster.events("FailedScheduling").get(0).getNote())
        .isEqualTo("0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: "
            + "2 Preemption is not helpful for scheduling.");
    assertThat(c.getLastTransitionTime()).isNotEmpty();
    assertThat(get("huge").getStatus().getNominatedNodeName()).isNull();

    // The deletion of a bound pod re-queues it (NodeResourcesFit's queueing hint, upstream's
    // isSchedulableAfterPodEvent: any scheduled pod's deletion may free room; a node label change would not). Each
    // retry fails with the same diagnosis and must not write again.
    for (int i = 0; i < 3; i++) {
      String filler = "filler-" + i;
      cluster.create(pod(filler, "100m", "default-scheduler").editSpec().withNodeName("n" + (1 + i % 2)).endSpec());
      int attemptsBefore = attempts(s, "default/huge");
      cluster.client.pods().inNamespace(NS).withName(filler).delete();
      await("retry " + i, () -> attempts(s, "default/huge") > attemptsBefore);
    }
    assertThat(attempts(s, "default/huge")).isGreaterThanOrEqualTo(4);
    assertThat(writes("huge/status", "PATCH")).as("one status write for one diagnosis").hasSize(1);
    assertThat(s.statusPatches()).isEqualTo(1);
    assertThat(writes("huge/status", "PATCH").get(0).body())
        .contains("\"uid\":\"" + get("huge").getMetadata().getUid() + "\"");
    assertThat(condition(get("huge"), "PodScheduled").getLastTransitionTime()).isEqualTo(c.getLastTransitionTime());
  }

  @Test
  void unschedulable_diagnosisChanges_conditionRewritten() {
    cluster.node("n1", "1", "8Gi");
    KubernetesScheduler s = cluster.start(fast(cluster.client));
    cluster.create(pod("big", "2", "fleetkit"));
    await("first condition", () -> condition(get("big"), "PodScheduled") != null);
    assertThat(condition(get("big"), "PodScheduled").getMessage()).startsWith("0/1 nodes are available");

    // A node with room for the pod re-queues it (NodeResourcesFit's hint; a node without room would not), and its
    // taint makes the new diagnosis.
    cluster.node("n2", "2", "8Gi", MockCluster.taint("dedicated", "x"));
    await("the new diagnosis", () -> condition(get("big"), "PodScheduled").getMessage()
        .startsWith("0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: x}."));
    assertThat(writes("big/status", "PATCH")).hasSize(2);
    assertThat(s.statusPatches()).isEqualTo(2);
  }

  @Test
  void podBeingDeleted_skipped_failedSchedulingEventOnly_noStatusWrite_notBound() {
    cluster.node("n1", "1", "8Gi");
    KubernetesScheduler s = cluster.start(fast(cluster.client));
    cluster.create(pod("going", "3", "fleetkit").editMetadata().withFinalizers("example.com/keep").endMetadata());
    await("PodScheduled=False", () -> condition(get("going"), "PodScheduled") != null);

    // marked for deletion (kept by the finalizer): the mark is an update no plugin registered, so, as in kube's queue,
    // the pod stays parked; a later update of it that NodeResourcesFit registered (a request lowered, still too big;
    // the same watch delivers it after the mark) re-queues it, and it is skipped
    cluster.client.pods().inNamespace(NS).withName("going").delete();
    await("marked", () -> get("going") != null && get("going").getMetadata().getDeletionTimestamp() != null);
    cluster.client.pods().inNamespace(NS).withName("going").edit(p -> new io.fabric8.kubernetes.api.model
        .PodBuilder(p).editSpec().editFirstContainer().editResources()
        .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("2")).endResources().endContainer()
        .endSpec().build());
    String skipped = "skip schedule deleting pod: " + NS + "/going"; // kube's skipPodSchedule
    await("the skip's FailedScheduling", () -> cluster.events("FailedScheduling").stream()
        .anyMatch(e -> skipped.equals(e.getNote())));
    assertThat(get("going").getSpec().getNodeName()).isNull();
    assertThat(writes("going/binding", "POST")).isEmpty();
    assertThat(writes("going/status", "PATCH")).as("the first attempt's condition only; none for the skip")
        .hasSize(1);
    assertThat(s.statusPatches()).isEqualTo(1);
    assertThat(condition(get("going"), "PodScheduled").getMessage()).isNotEqualTo(skipped);
  }

  /** A bound low-priority pod fills n1; a high-priority fleetkit pod needs its room. */
  private void preemptionScenario() {
    cluster.node("n1", "1", "8Gi");
    cluster.create(pod("low", "800m", "default-scheduler").editSpec().withNodeName("n1").withPriority(0)
        .endSpec());
  }

  @Test
  void preemption_victimMarkedDisruptionTargetThenDeletedWithItsUid_thenThePreemptorBinds() {
    preemptionScenario();
    String lowUid = get("low").getMetadata().getUid();
    KubernetesScheduler s = cluster.start(fast(cluster.client));
    cluster.create(pod("high", "800m", "fleetkit").editSpec().withPriority(1000).endSpec());

    await("high bound", () -> cluster.nodeOf("high") != null);
    assertThat(cluster.nodeOf("high")).isEqualTo("n1");
    assertThat(get("low")).as("the victim is gone").isNull();

    // The victim's last state before deletion carries the condition kube's preemption sets.
    assertThat(cluster.dispatcher.deletedPods()).extracting(p -> p.getMetadata().getName()).containsExactly("low");
    PodCondition target = condition(cluster.dispatcher.deletedPods().get(0), "DisruptionTarget");
    assertThat(target).isNotNull();
    assertThat(target.getStatus()).isEqualTo("True");
    assertThat(target.getReason()).isEqualTo("PreemptionByScheduler");
    assertThat(target.getMessage())
        .isEqualTo("fleetkit: preempting to accommodate a higher priority pod default/high on node n1");

    // Order: mark the victim, delete it (uid precondition), and only then bind the preemptor.
    List<Write> w = cluster.dispatcher.podWrites();
    int mark = indexOf(w, "low/status", "PATCH");
    int delete = indexOf(w, "low", "DELETE");
    int bind = indexOf(w, "high/binding", "POST");
    assertThat(mark).isGreaterThanOrEqualTo(0);
    assertThat(delete).isGreaterThan(mark);
    assertThat(bind).isGreaterThan(delete);
    DeleteOptions options = json.unmarshal(w.get(delete).body(), DeleteOptions.class);
    assertThat(options.getPreconditions().getUid()).isEqualTo(lowUid);
    assertThat(writes("low", "DELETE")).as("deleted once").hasSize(1);
    assertThat(s.preemptionDeletes()).isEqualTo(1);

    // The preemptor was nominated to n1 while it waited (status.nominatedNodeName), with PodScheduled=False.
    assertThat(writes("high/status", "PATCH")).isNotEmpty();
    assertThat(writes("high/status", "PATCH").get(0).body()).contains("\"nominatedNodeName\":\"n1\"")
        .contains("\"reason\":\"Unschedulable\"");
    await("Preempted event on the victim", () -> !cluster.events("Preempted").isEmpty());
    assertThat(cluster.events("Preempted").get(0).getNote()).isEqualTo("Preempted by pod default/high on node n1");
    assertThat(cluster.events("Preempted").get(0).getRegarding().getName()).isEqualTo("low");
  }

  @Test
  void preemption_deleteAnswered503_retriedAndTheVictimDeleted() {
    preemptionScenario();
    cluster.dispatcher.failNextPodDeletes(503, 503);
    cluster.start(fast(cluster.noRetryClient()));
    cluster.create(pod("high", "800m", "fleetkit").editSpec().withPriority(1000).endSpec());

    await("high bound", () -> cluster.nodeOf("high") != null);
    assertThat(get("low")).isNull();
    assertThat(writes("low", "DELETE")).as("two 503s, then the delete").hasSize(3);
  }

  @Test
  void preemption_deleteRefused_victimCountedAgainAndPreemptedAnew() {
    preemptionScenario();
    cluster.dispatcher.failNextPodDeletes(403);
    KubernetesScheduler s = cluster.start(fast(cluster.client));
    cluster.create(pod("high", "800m", "fleetkit").editSpec().withPriority(1000).endSpec());

    await("a second preemption attempt deletes the victim", () -> get("low") == null);
    await("high bound", () -> cluster.nodeOf("high") != null);
    assertThat(writes("low", "DELETE")).as("403, then the retry by a new preemption").hasSize(2);
    List<Write> w = cluster.dispatcher.podWrites();
    int lastDelete = w.lastIndexOf(writes("low", "DELETE").get(1));
    assertThat(indexOf(w, "high/binding", "POST")).as("not bound while the victim stayed").isGreaterThan(lastDelete);
    assertThat(writes("low/status", "PATCH")).as("the second preemption finds the victim marked already").hasSize(1);
    assertThat(cluster.dispatcher.deletedPods()).hasSize(1);
    assertThat(s.preemptionDeletes()).isEqualTo(1);
  }

  @Test
  void notLeader_neitherStatusWritesNorEvictionsNorBindings() {
    // Another replica holds the Lease for an hour: this one never leads.
    ZonedDateTime now = ZonedDateTime.now(java.time.ZoneOffset.UTC);
    cluster.client.leases().inNamespace(NS).resource(new LeaseBuilder()
        .withNewMetadata().withName("fleetkit-scheduler").withNamespace(NS).endMetadata()
        .withNewSpec().withHolderIdentity("someone-else").withLeaseDurationSeconds(3600)
        .withAcquireTime(now).withRenewTime(now).endSpec()
        .build()).create();
    preemptionScenario();
    KubernetesClient tagged = cluster.taggedClient();
    KubernetesScheduler s = cluster.start(fast(tagged).leaderElection(LeaderElectionTest.election("follower")));
    cluster.create(pod("high", "800m", "fleetkit").editSpec().withPriority(1000).endSpec());
    cluster.create(pod("huge", "3", "fleetkit"));

    await("both pods queued by the follower", () -> s.scheduler().pending().stream()
        .map(p -> p.podKey()).toList().containsAll(List.of("default/high", "default/huge")));
    await("the follower has tried for the lease", () -> cluster.dispatcher.taggedCalls().stream()
        .anyMatch(c -> c.path().contains("/leases/fleetkit-scheduler")));
    try {
      Thread.sleep(600); // a leader would have preempted, bound and written status within this time
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    assertThat(s.isLeader()).isFalse();
    assertThat(cluster.dispatcher.podWrites()).as("no pod writes from the follower")
        .noneMatch(w -> w.client().equals("scheduler"));
    assertThat(get("low")).isNotNull();
    assertThat(condition(get("low"), "DisruptionTarget")).isNull();
    assertThat(condition(get("huge"), "PodScheduled")).isNull();
    assertThat(s.statusPatches()).isZero();
    assertThat(s.preemptionDeletes()).isZero();
  }

  @Test
  void evict_victimReplacedUnderTheSameName_theNewPodIsNotTouched() {
    cluster.node("n1", "1", "8Gi");
    Pod low = cluster.create(pod("low", "800m", "default-scheduler").editSpec().withNodeName("n1").endSpec());
    Pod olderLow = new io.fabric8.kubernetes.api.model.PodBuilder(low).editMetadata().withUid("uid-of-an-older-pod")
        .endMetadata().build();
    Pod high = cluster.create(pod("high", "800m", "fleetkit"));
    ApiRequests api = new ApiRequests(cluster.client, () -> true, 3, Duration.ofMillis(10), Duration.ofMillis(50),
        Duration.ofSeconds(5));
    EvictedPods evicted = new EvictedPods();
    try (SchedulingEvents events = new SchedulingEvents(cluster.client, "fleetkit", "test", Clock.systemUTC())) {
      PreemptionEvictor evictor = new PreemptionEvictor(api, new PodStatusWriter(api, Clock.systemUTC()), evicted,
          events, "fleetkit", key -> null);
      evictor.evict(LiveConverter.toCore(io.fleetkit.api.core.Pod.KIND, olderLow),
          LiveConverter.toCore(io.fleetkit.api.core.Pod.KIND, high), "n1");
      assertThat(evictor.deleted()).as("the victim itself is gone: that is success").isEqualTo(1);
    }
    assertThat(writes("low/status", "PATCH")).as("refused with 409 by the uid precondition").hasSize(1);
    assertThat(writes("low", "DELETE")).isEmpty();
    assertThat(get("low")).isNotNull();
    assertThat(condition(get("low"), "DisruptionTarget")).isNull();
    assertThat(evicted.drainResyncs()).isEmpty();
  }

  @Test
  void evictAndStatus_notLeading_sendNothingAndUndoTheEviction() {
    cluster.node("n1", "1", "8Gi");
    Pod low = cluster.create(pod("low", "800m", "default-scheduler").editSpec().withNodeName("n1").endSpec());
    Pod high = cluster.create(pod("high", "800m", "fleetkit"));
    ApiRequests api = new ApiRequests(cluster.client, () -> false, 3, Duration.ofMillis(10), Duration.ofMillis(50),
        Duration.ofSeconds(5));
    EvictedPods evicted = new EvictedPods();
    PodStatusWriter status = new PodStatusWriter(api, Clock.systemUTC());
    try (SchedulingEvents events = new SchedulingEvents(cluster.client, "fleetkit", "test", Clock.systemUTC())) {
      PreemptionEvictor evictor = new PreemptionEvictor(api, status, evicted, events, "fleetkit", key -> null);
      evictor.evict(LiveConverter.toCore(io.fleetkit.api.core.Pod.KIND, low),
          LiveConverter.toCore(io.fleetkit.api.core.Pod.KIND, high), "n1");
      status.schedulingFailed(high, "Unschedulable", "0/1 nodes are available: 1 Insufficient cpu.", "n1");
      assertThat(evictor.deleted()).isZero();
    }
    assertThat(api.sent()).isZero();
    assertThat(cluster.dispatcher.podWrites()).isEmpty();
    assertThat(evicted.drainResyncs()).as("the engine must count the victim again").containsExactly("default/low");
  }

  /**
   * kube's {@code prepareCandidate} clears the nomination of the lower-priority pods nominated to the node it takes
   * ({@code util.ClearNominatedNodeName}, upstream's {@code TestRemoveNominatedNodeName}: a patch when there is a
   * nomination, none when it is already cleared); a pod recreated under the same name, or a replica that does not
   * lead, is not written.
   */
  @Test
  void clearNominatedNodeName_patchesTheNominationAwayOnce() {
    cluster.node("n1", "1", "8Gi");
    cluster.create(pod("mid", "500m", "other-scheduler").editSpec().withPriority(500).endSpec());
    Pod high = cluster.create(pod("high", "800m", "fleetkit").editSpec().withPriority(1000).endSpec());
    ApiRequests api = new ApiRequests(cluster.client, () -> true, 3, Duration.ofMillis(10), Duration.ofMillis(50),
        Duration.ofSeconds(5));
    PodStatusWriter status = new PodStatusWriter(api, Clock.systemUTC());
    status.schedulingFailed(get("mid"), "Unschedulable", "0/1 nodes are available: 1 Insufficient cpu.", "n1");
    Pod nominated = get("mid");
    assertThat(nominated.getStatus().getNominatedNodeName()).isEqualTo("n1");
    io.fleetkit.api.core.Pod engineCopy = LiveConverter.toCore(io.fleetkit.api.core.Pod.KIND, nominated);
    io.fleetkit.api.core.Pod preemptor = LiveConverter.toCore(io.fleetkit.api.core.Pod.KIND, high);
    try (SchedulingEvents events = new SchedulingEvents(cluster.client, "fleetkit", "test", Clock.systemUTC())) {
      PreemptionEvictor notLeading = new PreemptionEvictor(new ApiRequests(cluster.client, () -> false, 3,
          Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofSeconds(5)), status, new EvictedPods(), events,
          "fleetkit", key -> get("mid"));
      notLeading.clearNominatedNodeName(engineCopy, preemptor, "n1");
      assertThat(writes("mid/status", "PATCH")).as("not the leader").hasSize(1);

      PreemptionEvictor evictor = new PreemptionEvictor(api, status, new EvictedPods(), events, "fleetkit",
          key -> get("mid"));
      io.fleetkit.api.core.Pod older = engineCopy.withMetadata(engineCopy.metadata().toBuilder()
          .uid("uid-of-an-older-pod").build());
      evictor.clearNominatedNodeName(older, preemptor, "n1");
      assertThat(writes("mid/status", "PATCH")).as("another pod of that name").hasSize(1);

      evictor.clearNominatedNodeName(engineCopy, preemptor, "n1");
      assertThat(writes("mid/status", "PATCH")).hasSize(2);
      assertThat(writes("mid/status", "PATCH").get(1).body()).contains("\"nominatedNodeName\":\"\"")
          .contains("\"uid\":\"" + nominated.getMetadata().getUid() + "\"").doesNotContain("conditions");
      assertThat(get("mid").getStatus().getNominatedNodeName()).isNull();
      assertThat(condition(get("mid"), "PodScheduled")).as("the condition is kept")
          .isEqualTo(condition(nominated, "PodScheduled"));

      evictor.clearNominatedNodeName(engineCopy, preemptor, "n1");
      assertThat(writes("mid/status", "PATCH")).as("already cleared: no patch").hasSize(2);
    }
  }

  private static int attempts(KubernetesScheduler s, String key) {
    return s.scheduler().pending().stream().filter(p -> p.podKey().equals(key)).mapToInt(p -> p.attempts())
        .findFirst().orElse(0);
  }

  private static int indexOf(List<Write> writes, String target, String method) {
    for (int i = 0; i < writes.size(); i++) {
      if (writes.get(i).target().equals(target) && writes.get(i).method().equals(method)) {
        return i;
      }
    }
    return -1;
  }
}
