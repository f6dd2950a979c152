package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Upstream's {@code drain_test.go} (kubernetes/autoscaler {@code cluster-autoscaler/core/scaledown/actuation/},
 * commit 008dc501): the drain of one node over a fake cluster (upstream's fake client reactors), advanced second by
 * second on a simulated clock instead of upstream's sleeps. Ported: TestDaemonSetEvictionForEmptyNodes 3 of 5 (the
 * cases without an error), TestDrainNodeWithPods, TestDrainNodeCapsEvictionDurations,
 * TestDrainNodeWithPodsWithRescheduled, TestDrainNodeWithPodsWithRetries,
 * TestDrainNodeWithPodsDaemonSetEvictionFailure, TestDrainNodeWithPodsEvictionFailure,
 * TestDrainWithPodsNodeDisappearanceFailure, TestPodsToEvict 7 of 7.
 */
final class ScaleDownEvictorTest {
  private static final Instant T0 = Instant.parse("2009-11-10T23:00:00Z");

  private static Pod pod(String name) {
    return Pod.builder().name(name).namespace("default").ownerReference(CaFixtures.RS).nodeName("n1")
        .container("app", "pause", ResourceList.ofCpuMemory(100, 0)).build();
  }

  private static Pod ds(String name, @Nullable String evictable) {
    Pod.Builder b = Pod.builder().name(name).namespace("default").ownerReference(ActuationFixtures.DS).nodeName("n1")
        .container("app", "pause", ResourceList.ofCpuMemory(100, 0));
    if (evictable != null) {
      b.annotation(ScaleDownEvictor.ENABLE_DS_EVICTION, evictable);
    }
    return b.build();
  }

  private static Pod mirror(String name) {
    return Pod.builder().name(name).namespace("default").annotation(Drainability.MIRROR_ANNOTATION, "some-key")
        .nodeName("n1").container("app", "pause", ResourceList.ofCpuMemory(100, 0)).build();
  }

  /** Upstream's fake client: an eviction reactor by pod name and a get reactor (default: not found). */
  private static final class Fake implements ScaleDownEvictor.Cluster {
    final List<String> evicted = new ArrayList<>();
    Function<String, @Nullable String> evictError = n -> null;
    Map<String, ScaleDownEvictor.Presence> presence = new HashMap<>();

    @Override
    public @Nullable String evict(Pod pod, long graceSeconds) {
      String e = evictError.apply(pod.metadata().name());
      if (e == null) {
        evicted.add(pod.metadata().name());
      }
      return e;
    }

    @Override
    public ScaleDownEvictor.Presence presence(Pod pod, String node) {
      return presence.getOrDefault(pod.metadata().name(), ScaleDownEvictor.Presence.GONE);
    }
  }

  private static ScaleDownEvictor.NodeEviction drain(Fake f, List<Pod> full, List<Pod> bestEffort, int maxGraceful,
      Duration maxPodEvictionTime, Duration headroom) {
    ScaleDownEvictor.NodeEviction e = new ScaleDownEvictor.NodeEviction("n1", full, bestEffort,
        new ScaleDownEvictor.Timing(maxGraceful, maxPodEvictionTime, Duration.ZERO, headroom), T0);
    Instant now = T0;
    for (int i = 0; i < 1000 && !e.advance(now, f); i++) {
      now = now.plusSeconds(1);
    }
    assertThat(e.done()).isTrue();
    return e;
  }

  @Test
  void drainNodeWithPods_allEvicted_noError() { // TestDrainNodeWithPods
    Fake f = new Fake();
    ScaleDownEvictor.NodeEviction e = drain(f, List.of(pod("p1"), pod("p2")), List.of(pod("d1")), 20,
        Duration.ofSeconds(5), ScaleDownEvictor.POD_EVICTION_HEADROOM);
    assertThat(e.error()).isNull();
    assertThat(f.evicted).containsExactlyInAnyOrder("d1", "p1", "p2");
  }

  @Test
  void drainNodeCapsEvictionDurations_gracePeriodsCapped() { // TestDrainNodeCapsEvictionDurations
    Fake f = new Fake();
    Pod p1 = pod("p1").toBuilder().terminationGracePeriodSeconds(45).build();
    Pod p2 = pod("p2").toBuilder().terminationGracePeriodSeconds(60).build();
    Pod p3 = pod("p3").toBuilder().terminationGracePeriodSeconds(75).build();
    ScaleDownEvictor.NodeEviction e = drain(f, List.of(p1, p2, p3, pod("p4")), List.of(), 60, Duration.ofSeconds(5),
        ScaleDownEvictor.POD_EVICTION_HEADROOM);
    assertThat(e.error()).isNull();
    assertThat(e.results().get("p1").gracePeriodSeconds()).isEqualTo(45);
    assertThat(e.results().get("p2").gracePeriodSeconds()).isEqualTo(60);
    assertThat(e.results().get("p3").gracePeriodSeconds()).isEqualTo(60);
    assertThat(e.results().get("p4").gracePeriodSeconds()).isEqualTo(30); // apiv1.DefaultTerminationGracePeriodSeconds
  }

  @Test
  void drainNodeWithPodsWithRescheduled_podOnOtherNodeCountsAsGone() { // TestDrainNodeWithPodsWithRescheduled
    Fake f = new Fake();
    f.presence.put("p2", ScaleDownEvictor.Presence.GONE); // p2 got back with node name n2
    ScaleDownEvictor.NodeEviction e = drain(f, List.of(pod("p1"), pod("p2")), List.of(), 20, Duration.ofSeconds(5),
        ScaleDownEvictor.POD_EVICTION_HEADROOM);
    assertThat(e.error()).isNull();
    assertThat(f.evicted).containsExactlyInAnyOrder("p1", "p2");
  }

  @Test
  void drainNodeWithPodsWithRetries_refusedEvictionsRetried() { // TestDrainNodeWithPodsWithRetries
    Fake f = new Fake();
    boolean[] ticket = {false}; // upstream's PDB of size 1: fail and hand out a ticket, succeed on a ticket
    f.evictError = n -> {
      if (ticket[0]) {
        ticket[0] = false;
        return null;
      }
      ticket[0] = true;
      return "too many concurrent evictions";
    };
    ScaleDownEvictor.NodeEviction e = drain(f, List.of(pod("p1"), pod("p2"), pod("p3")), List.of(pod("d1")), 20,
        Duration.ofSeconds(5), ScaleDownEvictor.POD_EVICTION_HEADROOM);
    assertThat(e.error()).isNull();
    assertThat(f.evicted).containsExactlyInAnyOrder("d1", "p1", "p2", "p3");
  }

  @Test
  void drainNodeWithPodsDaemonSetEvictionFailure_bestEffortFailuresDoNotFail() {
    // TestDrainNodeWithPodsDaemonSetEvictionFailure
    Fake f = new Fake();
    f.evictError = n -> n.startsWith("d") ? "eviction_error: " + n : null;
    Pod p1 = pod("p1");
    Pod p2 = pod("p2");
    ScaleDownEvictor.NodeEviction e = drain(f, List.of(p1, p2), List.of(pod("d1"), pod("d2")), 20, Duration.ZERO,
        ScaleDownEvictor.POD_EVICTION_HEADROOM);
    assertThat(e.error()).isNull();
    assertThat(e.results()).hasSize(2);
    assertThat(e.results().get("p1").pod()).isEqualTo(p1);
    assertThat(e.results().get("p2").pod()).isEqualTo(p2);
    assertThat(e.results().get("p1").error()).isNull();
    assertThat(e.results().get("p2").error()).isNull();
    assertThat(e.results().get("p1").timedOut()).isFalse();
    assertThat(e.results().get("p2").timedOut()).isFalse();
    assertThat(e.results().get("p1").successful()).isTrue();
    assertThat(e.results().get("p2").successful()).isTrue();
    assertThat(e.bestEffortError()).isNotNull();
  }

  @Test
  void drainNodeWithPodsEvictionFailure_failedPodsReported() { // TestDrainNodeWithPodsEvictionFailure
    Fake f = new Fake();
    f.evictError = n -> n.equals("p2") || n.equals("p4") ? "eviction_error: " + n : null;
    ScaleDownEvictor.NodeEviction e = drain(f, List.of(pod("p1"), pod("p2"), pod("p3"), pod("p4")), List.of(), 20,
        Duration.ZERO, ScaleDownEvictor.POD_EVICTION_HEADROOM);
    assertThat(e.error()).isNotNull();
    assertThat(e.error().type()).isEqualTo(AutoscalerError.Type.API_CALL_ERROR);
    Map<String, NodeDeleteResult.PodEvictionResult> r = e.results();
    assertThat(r).hasSize(4);
    for (String p : List.of("p1", "p2", "p3", "p4")) {
      assertThat(r.get(p).pod()).isEqualTo(pod(p));
    }
    assertThat(r.get("p1").error()).isNull();
    assertThat(r.get("p2").error()).contains("eviction_error: p2");
    assertThat(r.get("p3").error()).isNull();
    assertThat(r.get("p4").error()).contains("eviction_error: p4");
    assertThat(r.get("p1").timedOut()).isFalse();
    assertThat(r.get("p2").timedOut()).isTrue();
    assertThat(r.get("p3").timedOut()).isFalse();
    assertThat(r.get("p4").timedOut()).isTrue();
    assertThat(r.get("p1").successful()).isTrue();
    assertThat(r.get("p2").successful()).isFalse();
    assertThat(r.get("p3").successful()).isTrue();
    assertThat(r.get("p4").successful()).isFalse();
    assertThat(f.evicted).contains("p1", "p3"); // upstream's evictionRegister
  }

  @Test
  void drainWithPodsNodeDisappearanceFailure_podsStillThereFailTheDrain() {
    // TestDrainWithPodsNodeDisappearanceFailure
    Fake f = new Fake();
    f.presence.put("p2", ScaleDownEvictor.Presence.failed("disappearance_error: p2"));
    f.presence.put("p4", ScaleDownEvictor.Presence.ON_NODE);
    ScaleDownEvictor.NodeEviction e = drain(f, List.of(pod("p1"), pod("p2"), pod("p3"), pod("p4")), List.of(), 0,
        Duration.ZERO, Duration.ZERO);
    assertThat(e.error()).isNotNull();
    assertThat(e.error().type()).isEqualTo(AutoscalerError.Type.TRANSIENT_ERROR);
    Map<String, NodeDeleteResult.PodEvictionResult> r = e.results();
    assertThat(r).hasSize(4);
    assertThat(r.get("p1").error()).isNull();
    assertThat(r.get("p2").error()).contains("disappearance_error: p2");
    assertThat(r.get("p3").error()).isNull();
    assertThat(r.get("p4").error()).isNull();
    assertThat(r.get("p1").timedOut()).isFalse();
    assertThat(r.get("p2").timedOut()).isTrue();
    assertThat(r.get("p3").timedOut()).isFalse();
    assertThat(r.get("p4").timedOut()).isTrue();
    assertThat(r.get("p1").successful()).isTrue();
    assertThat(r.get("p2").successful()).isFalse();
    assertThat(r.get("p3").successful()).isTrue();
    assertThat(r.get("p4").successful()).isFalse();
  }

  @Test
  void waitForPods_podLingers_failsOnlyAfterGracePlusHeadroom() {
    Fake f = new Fake();
    f.presence.put("p1", ScaleDownEvictor.Presence.ON_NODE);
    ScaleDownEvictor.NodeEviction e = new ScaleDownEvictor.NodeEviction("n1", List.of(pod("p1")), List.of(),
        new ScaleDownEvictor.Timing(20, Duration.ZERO, Duration.ZERO, ScaleDownEvictor.POD_EVICTION_HEADROOM), T0);
    assertThat(e.advance(T0, f)).isFalse();
    assertThat(e.advance(T0.plusSeconds(49), f)).isFalse();
    assertThat(e.advance(T0.plusSeconds(50), f)).isTrue();
    assertThat(e.error().message()).contains("pods remaining after timeout");
  }

  /** TestDaemonSetEvictionForEmptyNodes: the cases whose evictions succeed (which DaemonSet pods are evicted). */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Successful attempt to evict DaemonSet pods|true|||d1,d2",
      "Evict single pod due to annotation|false|true||d1",
      "Don't evict single pod due to annotation|true|false||d2"})
  void daemonSetEvictionForEmptyNodes(String name, boolean evictByDefault, @Nullable String d1Annotation,
      @Nullable String unused, String expectEvicted) {
    Fake f = new Fake();
    List<Pod> pods = List.of(ds("d1", d1Annotation), ds("d2", null));
    ScaleDownEvictor.NodeEviction e = drain(f, List.of(),
        ScaleDownEvictor.podsToEvict(pods, evictByDefault).daemonSetPods(), 1, Duration.ofSeconds(5),
        ScaleDownEvictor.POD_EVICTION_HEADROOM);
    assertThat(e.error()).isNull();
    assertThat(f.evicted).containsExactlyInAnyOrder(expectEvicted.split(","));
  }

  /** TestPodsToEvict. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "no pods|false||||",
      "mirror pods are never returned|false|mirror:pod-1,mirror:pod-2|||",
      "non-DS pods are correctly returned|false|regular:pod-1,regular:pod-2||pod-1,pod-2|",
      "DS pods are correctly returned when DS eviction is enabled|false|ds:pod-1,ds:pod-2|pod-1,pod-2||",
      "DS pods are not returned when DS eviction is disabled and the pods are not marked as evictable|true|"
          + "ds:pod-1,ds:pod-2|||",
      "DS pods are correctly returned when DS eviction is disabled, but the pods are marked as evictable|true|"
          + "dsevictable:pod-1,ds:pod-2,dsevictable:pod-3|pod-1,pod-3||",
      "all pod kinds are correctly handled together|false|ds:ds-pod-1,ds:ds-pod-2,regular:regular-pod-1,"
          + "regular:regular-pod-2,mirror:mirror-pod-1,mirror:mirror-pod-2|ds-pod-1,ds-pod-2|regular-pod-1,regular-pod-2|"})
  void podsToEvict(String name, boolean dsEvictionDisabled, @Nullable String pods, @Nullable String wantDs,
      @Nullable String wantNonDs, @Nullable String unused) {
    List<Pod> in = new ArrayList<>();
    if (pods != null) {
      for (String spec : pods.split(",")) {
        String[] kv = spec.split(":");
        in.add(switch (kv[0]) {
          case "mirror" -> mirror(kv[1]);
          case "regular" -> pod(kv[1]);
          case "ds" -> ds(kv[1], null);
          default -> ds(kv[1], "true");
        });
      }
    }
    ScaleDownEvictor.PodsToEvict got = ScaleDownEvictor.podsToEvict(in, !dsEvictionDisabled);
    assertThat(got.daemonSetPods()).extracting(p -> p.metadata().name())
        .containsExactly(wantDs == null ? new String[0] : wantDs.split(","));
    assertThat(got.otherPods()).extracting(p -> p.metadata().name())
        .containsExactly(wantNonDs == null ? new String[0] : wantNonDs.split(","));
  }
}
