package io.fleetkit.autoscale.hpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.autoscale.hpa.ReplicaCalculator.PodSample;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The table tests {@code TestGroupPods} (14 cases) and {@code TestCalculatePodRequests} (5 cases) of
 * kubernetes/kubernetes {@code pkg/controller/podautoscaler/replica_calculator_test.go}.
 */
final class GroupPodsTest {
  private static final Instant NOW = ReplicaCalcCase.NOW;

  private static Pod pod(String name, PodPhase phase, @Nullable Instant start, @Nullable PodCondition ready,
      boolean deleted) {
    ObjectMeta.Builder meta = ObjectMeta.builder().namespace("ns").name(name);
    if (deleted) {
      meta.deletionTimestamp(Instant.ofEpochSecond(1));
    }
    PodStatus status = PodStatus.of(phase).withStartTime(start);
    if (ready != null) {
      status = status.withCondition(ready);
    }
    return Pod.builder().metadata(meta.build()).container("c", "img", ResourceList.EMPTY).status(status).build();
  }

  private static PodCondition ready(ConditionStatus s, Duration ago) {
    return PodCondition.of(PodCondition.READY, s, "", "", NOW.minus(ago));
  }

  private static PodSample sample(@Nullable Instant ts, @Nullable Duration window) {
    return new PodSample(1, ts, window);
  }

  static Stream<Arguments> groupPodsCases() {
    Duration min = Duration.ofMinutes(1);
    return Stream.of(
        Arguments.of("void", List.of(), Map.of(), ResourceNames.CPU, 0, Set.of(), Set.of(), Set.of()),
        Arguments.of("count in a ready pod - memory",
            List.of(pod("bentham", PodPhase.Succeeded, null, null, false)),
            Map.of("bentham", sample(NOW, min)), ResourceNames.MEMORY, 1, Set.of(), Set.of(), Set.of()),
        Arguments.of("unready a pod without ready condition - CPU",
            List.of(pod("lucretius", PodPhase.Succeeded, NOW, null, false)),
            Map.of("lucretius", sample(null, null)), ResourceNames.CPU, 0, Set.of("lucretius"), Set.of(), Set.of()),
        Arguments.of("count in a ready pod with fresh metrics during initialization period - CPU",
            List.of(pod("bentham", PodPhase.Succeeded, NOW.minus(min),
                ready(ConditionStatus.True, Duration.ofSeconds(30)), false)),
            Map.of("bentham", sample(NOW, Duration.ofSeconds(30))), ResourceNames.CPU, 1, Set.of(), Set.of(),
            Set.of()),
        Arguments.of("unready a ready pod without fresh metrics during initialization period - CPU",
            List.of(pod("bentham", PodPhase.Succeeded, NOW.minus(min),
                ready(ConditionStatus.True, Duration.ofSeconds(30)), false)),
            Map.of("bentham", sample(NOW, Duration.ofSeconds(60))), ResourceNames.CPU, 0, Set.of("bentham"),
            Set.of(), Set.of()),
        Arguments.of("unready an unready pod during initialization period - CPU",
            List.of(pod("lucretius", PodPhase.Succeeded, NOW.minus(Duration.ofMinutes(10)),
                ready(ConditionStatus.False, Duration.ofSeconds(9 * 60 + 54)), false)),
            Map.of("lucretius", sample(null, null)), ResourceNames.CPU, 0, Set.of("lucretius"), Set.of(), Set.of()),
        Arguments.of("count in a ready pod without fresh metrics after initialization period - CPU",
            List.of(pod("bentham", PodPhase.Succeeded, NOW.minus(Duration.ofMinutes(3)),
                ready(ConditionStatus.True, Duration.ofMinutes(3)), false)),
            Map.of("bentham", sample(NOW.minus(Duration.ofMinutes(2)), min)), ResourceNames.CPU, 1, Set.of(),
            Set.of(), Set.of()),
        Arguments.of("count in an unready pod that was ready after initialization period - CPU",
            List.of(pod("lucretius", PodPhase.Succeeded, NOW.minus(Duration.ofMinutes(10)),
                ready(ConditionStatus.False, Duration.ofMinutes(9)), false)),
            Map.of("lucretius", sample(null, null)), ResourceNames.CPU, 1, Set.of(), Set.of(), Set.of()),
        Arguments.of("unready pod that has never been ready after initialization period - CPU",
            List.of(pod("lucretius", PodPhase.Succeeded, NOW.minus(Duration.ofMinutes(10)),
                ready(ConditionStatus.False, Duration.ofSeconds(9 * 60 + 50)), false)),
            Map.of("lucretius", sample(null, null)), ResourceNames.CPU, 1, Set.of(), Set.of(), Set.of()),
        Arguments.of("a missing pod",
            List.of(pod("epicurus", PodPhase.Succeeded, NOW.minus(Duration.ofMinutes(3)), null, false)),
            Map.of(), ResourceNames.CPU, 0, Set.of(), Set.of("epicurus"), Set.of()),
        Arguments.of("several pods",
            List.of(pod("lucretius", PodPhase.Succeeded, NOW, null, false),
                pod("niccolo", PodPhase.Succeeded, NOW.minus(Duration.ofMinutes(3)),
                    ready(ConditionStatus.True, Duration.ofMinutes(3)), false),
                pod("epicurus", PodPhase.Succeeded, NOW.minus(Duration.ofMinutes(3)), null, false)),
            Map.of("lucretius", sample(null, null), "niccolo", sample(null, null)), ResourceNames.CPU, 1,
            Set.of("lucretius"), Set.of("epicurus"), Set.of()),
        Arguments.of("pending pods are unreadied",
            List.of(pod("unscheduled", PodPhase.Pending, null, null, false)),
            Map.of(), ResourceNames.CPU, 0, Set.of("unscheduled"), Set.of(), Set.of()),
        Arguments.of("ignore pods with deletion timestamps",
            List.of(pod("deleted", PodPhase.Pending, null, null, true)),
            Map.of("deleted", sample(null, null)), ResourceNames.CPU, 0, Set.of(), Set.of(), Set.of("deleted")),
        Arguments.of("ignore pods in a failed state",
            List.of(pod("failed", PodPhase.Failed, null, null, false)),
            Map.of("failed", sample(null, null)), ResourceNames.CPU, 0, Set.of(), Set.of(), Set.of("failed")));
  }

  @ParameterizedTest(name = "{0}") // TestGroupPods
  @MethodSource("groupPodsCases")
  void groupPods_upstreamTable_groupsAsUpstream(String name, List<Pod> pods, Map<String, PodSample> samples,
      String resource, int ready, Set<String> unready, Set<String> missing, Set<String> ignored) {
    PodGroups g = new ReplicaCalcCase.Calc().calculator().groupPods(pods, new HashMap<>(samples), resource);
    assertThat(g.readyPodCount()).as("ready").isEqualTo(ready);
    assertThat(g.unready()).as("unready").isEqualTo(unready);
    assertThat(g.missing()).as("missing").isEqualTo(missing);
    assertThat(g.ignored()).as("ignored").isEqualTo(ignored);
  }

  private static Pod requestsPod(List<Container> containers, List<Container> initContainers) {
    Pod.Builder b = Pod.builder().namespace("test-namespace").name("test-pod");
    containers.forEach(b::container);
    initContainers.forEach(b::initContainer);
    return b.build();
  }

  private static ResourceList cpu(long milli) {
    return ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(milli)).build();
  }

  @Test // TestCalculatePodRequests "void"
  void calculatePodRequests_noPods_empty() {
    assertThat(ReplicaCalculator.calculateRequests(List.of(), "", ResourceNames.CPU)).isEmpty();
  }

  @Test // TestCalculatePodRequests "pod with regular containers"
  void calculatePodRequests_regularContainers_summed() {
    Pod p = requestsPod(List.of(Container.of("container1", "i", cpu(100)), Container.of("container2", "i", cpu(50))),
        List.of());
    assertThat(ReplicaCalculator.calculateRequests(List.of(p), "", ResourceNames.CPU))
        .isEqualTo(Map.of("test-pod", 150L));
  }

  @Test // TestCalculatePodRequests "calculate requests with special container"
  void calculatePodRequests_namedContainer_onlyThatOne() {
    Pod p = requestsPod(List.of(Container.of("container1", "i", cpu(100)), Container.of("container2", "i", cpu(50))),
        List.of());
    assertThat(ReplicaCalculator.calculateRequests(List.of(p), "container1", ResourceNames.CPU))
        .isEqualTo(Map.of("test-pod", 100L));
  }

  @Test // TestCalculatePodRequests "container missing requests"
  void calculatePodRequests_containerWithoutRequest_fails() {
    Pod p = requestsPod(List.of(Container.of("container1", "i", ResourceList.EMPTY)), List.of());
    assertThatThrownBy(() -> ReplicaCalculator.calculateRequests(List.of(p), "", ResourceNames.CPU))
        .hasMessage("missing request for cpu in container container1 of Pod test-pod");
  }

  @Test // TestCalculatePodRequests "pod with restartable init containers"
  void calculatePodRequests_sidecarInitContainer_counted() {
    Pod p = requestsPod(List.of(Container.of("container1", "i", cpu(100))),
        List.of(Container.of("init-container1", "i", cpu(20)), Container.sidecar("restartable-container1", "i",
            cpu(50))));
    assertThat(ReplicaCalculator.calculateRequests(List.of(p), "", ResourceNames.CPU))
        .isEqualTo(Map.of("test-pod", 150L));
  }
}
