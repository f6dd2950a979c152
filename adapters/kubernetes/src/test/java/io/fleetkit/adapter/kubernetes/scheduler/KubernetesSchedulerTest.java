package io.fleetkit.adapter.kubernetes.scheduler;

import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.await;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.fast;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.pod;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.taint;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.tolerate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fleetkit.api.core.Pod;
import io.fleetkit.scheduler.PendingPod;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The custom scheduler against fabric8's CRUD mock server with {@link BindingDispatcher}. */
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
    assertThat(e.getType()).isEqualTo("Normal");
    assertThat(e.getRegarding().getName()).isEqualTo("web-0");
    assertThat(e.getRegarding().getUid()).isNotEmpty();
    assertThat(e.getReportingController()).isEqualTo("fleetkit");
    assertThat(s.isLeader()).isTrue();
    assertThat(cluster.dispatcher.bindingRequests()).containsExactly("default/web-0");
  }

  @Test
  void start_podsOfOtherSchedulersAndBoundPods_areLeftAloneButAccountUsage() {
    cluster.node("n1", "2", "8Gi");
    cluster.node("n2", "2", "8Gi");
    // A pod another scheduler already bound to n1 uses 1.5 of its 2 CPUs.
    cluster.create(pod("bound", "1500m", "default-scheduler").editSpec().withNodeName("n1").endSpec());
    cluster.create(pod("other", "100m", null));
    KubernetesScheduler s = cluster.start(fast(cluster.client).schedulerName("my-sched"));
    cluster.create(pod("mine", "1", "my-sched"));

    await("mine bound", () -> cluster.nodeOf("mine") != null);
    assertThat(cluster.nodeOf("mine")).as("n1 has only 0.5 CPU left").isEqualTo("n2");
    assertThat(cluster.nodeOf("other")).isNull();
    assertThat(cluster.dispatcher.bindingRequests()).containsExactly("default/mine");
    assertThat(s.schedulerName()).isEqualTo("my-sched");
  }

  @Test
  void schedule_taintedNode_onlyPodsThatTolerateItLandThere() {
    cluster.node("gpu", "8", "8Gi", taint("dedicated", "gpu"));
    cluster.node("small", "1", "8Gi");
    cluster.start(fast(cluster.client));

    cluster.create(pod("a", "500m", "fleetkit"));
    await("a bound", () -> cluster.nodeOf("a") != null);
    assertThat(cluster.nodeOf("a")).isEqualTo("small");

    cluster.create(pod("b", "800m", "fleetkit"));
    await("FailedScheduling for b", () -> cluster.events("FailedScheduling").stream()
        .anyMatch(e -> e.getRegarding().getName().equals("b")));
    Event failed = cluster.events("FailedScheduling").get(0);
    assertThat(failed.getType()).isEqualTo("Warning");
    assertThat(failed.getNote()).startsWith("0/2 nodes are available:")
        .contains("1 Insufficient cpu")
        .contains("1 node(s) had untolerated taint {dedicated: gpu}");
    assertThat(cluster.nodeOf("b")).isNull();

    cluster.create(pod("c", "800m", "fleetkit").editSpec().withTolerations(tolerate("dedicated")).endSpec());
    await("c bound", () -> cluster.nodeOf("c") != null);
    assertThat(cluster.nodeOf("c")).isEqualTo("gpu");
    assertThat(cluster.nodeOf("b")).isNull();
  }

  @Test
  void schedule_noNodeFits_failedSchedulingEventCarriesTheDiagnosisOnce() {
    cluster.node("n1", "1", "8Gi");
    cluster.node("n2", "1", "8Gi");
    KubernetesScheduler s = cluster.start(fast(cluster.client));
    cluster.create(pod("huge", "3", "fleetkit"));

    await("FailedScheduling", () -> !cluster.events("FailedScheduling").isEmpty());
    assertThat(cluster.events("FailedScheduling").get(0).getNote())
        .isEqualTo("0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: "
            + "2 Preemption is not helpful for scheduling.");
    // An update of the pod itself that NodeResourcesFit registered (a request lowered, kube's
    // TargetPod/UpdatePodScaleDown; not a label, nor its status, which the scheduler's own PodScheduled patch
    // changes) re-queues the unschedulable pod; still too big, it fails again with the same diagnosis.
    cluster.client.pods().inNamespace("default").withName("huge").edit(p -> new io.fabric8.kubernetes.api.model
        .PodBuilder(p).editSpec().editFirstContainer().editResources()
        .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("2500m"))
        .endResources().endContainer().endSpec().build());
    await("tried again", () -> s.scheduler().pending().stream()
        .anyMatch(p -> p.podKey().equals("default/huge") && p.attempts() >= 2));
    assertThat(cluster.events("FailedScheduling")).as("the same diagnosis is not repeated within a minute")
        .hasSize(1);
    assertThat(cluster.nodeOf("huge")).isNull();
  }

  @Test
  void schedule_gangWithEnoughRoom_bindsAllMembersOnceMinMemberExist() {
    cluster.node("n1", "2", "8Gi");
    cluster.node("n2", "2", "8Gi");
    cluster.podGroup("train", 3, 60);
    KubernetesScheduler s = cluster.start(fast(cluster.client));
    cluster.create(pod("w0", "1", "fleetkit").editMetadata().addToLabels(Pod.POD_GROUP_LABEL, "train")
        .endMetadata());
    cluster.create(pod("w1", "1", "fleetkit").editMetadata().addToLabels(Pod.POD_GROUP_LABEL, "train")
        .endMetadata());

    await("both members rejected for want of siblings", () -> cluster.events("FailedScheduling").stream()
        .map(e -> e.getRegarding().getName()).distinct().count() == 2);
    assertThat(cluster.events("FailedScheduling").get(0).getNote()).contains("of minMember 3 pods exist");
    assertThat(s.scheduler().pending()).extracting(PendingPod::podKey)
        .containsExactlyInAnyOrder("default/w0", "default/w1");
    assertThat(cluster.nodeOf("w0")).isNull();
    assertThat(cluster.nodeOf("w1")).isNull();
    assertThat(cluster.dispatcher.bindingRequests()).isEmpty();

    cluster.create(pod("w2", "1", "fleetkit").editMetadata().addToLabels(Pod.POD_GROUP_LABEL, "train")
        .endMetadata());
    await("all three bound", () -> cluster.nodeOf("w0") != null && cluster.nodeOf("w1") != null
        && cluster.nodeOf("w2") != null);
    assertThat(cluster.dispatcher.bindingRequests())
        .containsExactlyInAnyOrder("default/w0", "default/w1", "default/w2");
  }

  @Test
  void schedule_gangThatCannotFit_bindsNoMember() {
    cluster.node("n1", "2", "8Gi");
    cluster.node("n2", "2", "8Gi");
    cluster.podGroup("big", 3, 60);
    cluster.start(fast(cluster.client));
    for (String name : List.of("b0", "b1", "b2")) {
      cluster.create(pod(name, "1500m", "fleetkit").editMetadata().addToLabels(Pod.POD_GROUP_LABEL, "big")
          .endMetadata());
    }

    await("FailedScheduling for every member", Duration.ofSeconds(30), () -> cluster.events("FailedScheduling")
        .stream().map(e -> e.getRegarding().getName()).distinct().count() == 3);
    assertThat(cluster.nodeOf("b0")).isNull();
    assertThat(cluster.nodeOf("b1")).isNull();
    assertThat(cluster.nodeOf("b2")).isNull();
    assertThat(cluster.dispatcher.bindingRequests()).as("no member reached the API server").isEmpty();
  }

  @Test
  void schedule_slowBindingAnswers_bindingsOverlapInsteadOfQueueingBehindEachOther() {
    // Each binding is answered after 1 s. Bound one after another (bindParallelism 0), a binding request goes out
    // only after the previous one was answered, so consecutive requests are at least 1 s apart; on binding threads
    // the requests go out as the pods are scheduled, before earlier ones are answered. A request sent less than 1 s
    // after the one before tells the two apart however slow the machine is (on a loaded machine the informer may
    // hand over the pods in several runs, so the first answer is not the reference point).
    Duration answerDelay = Duration.ofSeconds(1);
    cluster.dispatcher.bindingDelay(answerDelay);
    for (int i = 0; i < 4; i++) {
      cluster.node("n" + i, "4", "8Gi");
    }
    for (int i = 0; i < 10; i++) {
      cluster.create(pod("p-" + i, "100m", "fleetkit"));
    }
    cluster.start(fast(cluster.client)); // the informer lists all ten: they are scheduled in one run

    for (int i = 0; i < 10; i++) {
      String name = "p-" + i;
      await(name + " bound", () -> cluster.nodeOf(name) != null);
    }
    List<Long> arrivals = cluster.dispatcher.bindingArrivals();
    assertThat(arrivals).hasSize(10);
    List<Long> sorted = arrivals.stream().sorted().toList();
    long overlapping = java.util.stream.IntStream.range(1, sorted.size())
        .filter(i -> sorted.get(i) - sorted.get(i - 1) < answerDelay.toNanos()).count();
    assertThat(overlapping).as("binding requests sent while the one before was still unanswered").isGreaterThan(0);
    assertThat(cluster.dispatcher.bindingRequests()).doesNotHaveDuplicates();
  }

  @Test
  void builder_negativeBindParallelism_failsNamingTheValue() {
    var b = KubernetesScheduler.builder(cluster.client);
    assertThatThrownBy(() -> b.bindParallelism(-2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("kubernetes scheduler builder: bindParallelism -2 must not be negative");
  }

  @Test
  void builder_conflictingNameAndProfile_failsNamingBoth() {
    var b = KubernetesScheduler.builder(cluster.client).schedulerName("a");
    assertThatThrownBy(() -> b.profile(io.fleetkit.scheduler.DefaultPlugins.profile("b")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"b\"").hasMessageContaining("\"a\"");
    assertThatThrownBy(() -> b.schedulerName("c")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already set to a");
  }
}
