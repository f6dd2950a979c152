package io.fleetkit.scheduler.internal;

import static io.fleetkit.api.framework.ClusterEvent.TARGET_POD_UPDATE;
import static io.fleetkit.api.framework.ClusterEvent.TARGET_POD_UPDATE_GENERATED_RESOURCE_CLAIM;
import static io.fleetkit.api.framework.ClusterEvent.TARGET_POD_UPDATE_LABEL;
import static io.fleetkit.api.framework.ClusterEvent.TARGET_POD_UPDATE_SCALE_DOWN;
import static io.fleetkit.api.framework.ClusterEvent.TARGET_POD_UPDATE_SCHEDULING_GATES_ELIMINATED;
import static io.fleetkit.api.framework.ClusterEvent.TARGET_POD_UPDATE_TOLERATION;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodResourceClaimStatus;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PodChanges#targetPodEvents}, ported from kubernetes {@code pkg/scheduler/framework/events_test.go}
 * (commit 030880a5dc5449403c6d1f0aa146a7dc21d6c6dc) {@code Test_podSchedulingPropertiesChange}: 10 of its 15 cases,
 * upstream's {@code unschedulablePod} resource being the pod's own update here ({@code TARGET_POD_*}), its general
 * {@code Update} {@link ClusterEvent#TARGET_POD_UPDATE}. Not ported: "assigned pod is updated" (a bound pod's update is
 * {@link ClusterEvent#ASSIGNED_POD_UPDATE}, sent by the event handlers, not this function), the two "feature
 * disabled" cases (FleetKit has no DynamicResourceAllocation gate: claim statuses always count) and the two
 * {@code extendedResourceClaimStatus} cases (FleetKit's pods have no such status). Upstream's pods name no namespace
 * and have no container beyond the resource cases'; here every pod is {@code default/p} with one container.
 */
final class PodChangesTest {
  private static final Pod POD = Pod.builder().name("p").namespace("default")
      .container("app", "pause", ResourceList.EMPTY).build();

  private static Pod withCpu(String cpu) {
    return Pod.builder().name("p").namespace("default")
        .container("app", "pause", ResourceList.builder().put("cpu", cpu).build()).build();
  }

  private static Pod.Builder pod() {
    return POD.toBuilder();
  }

  private static Pod withClaims(PodResourceClaimStatus... statuses) {
    return POD.withStatus(POD.status().withResourceClaimStatuses(List.of(statuses)));
  }

  record Case(String name, Pod oldPod, Pod newPod, List<ClusterEvent> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> upstreamCases() {
    Pod big = withCpu("101m");
    Pod small = withCpu("100m");
    Pod smallAndLabel = small.toBuilder().label("foo", "bar").build();
    PodResourceClaimStatus a = new PodResourceClaimStatus("my-claim", "claim");
    PodResourceClaimStatus b = new PodResourceClaimStatus("my-claim-2", "claim-2");
    return Stream.of(
        new Case("only label is updated", pod().label("foo", "bar2").build(), pod().label("foo", "bar").build(),
            List.of(TARGET_POD_UPDATE_LABEL)),
        new Case("pod's resource request is scaled down", big, small, List.of(TARGET_POD_UPDATE_SCALE_DOWN)),
        new Case("pod's resource request is scaled up", small, big, List.of(TARGET_POD_UPDATE)),
        new Case("both pod's resource request and label are updated", big, smallAndLabel,
            List.of(TARGET_POD_UPDATE_LABEL, TARGET_POD_UPDATE_SCALE_DOWN)),
        new Case("untracked properties of pod is updated", pod().annotation("foo", "bar2").build(),
            pod().annotation("foo", "bar").build(), List.of(TARGET_POD_UPDATE)),
        new Case("scheduling gate is eliminated", pod().schedulingGate("foo").build(), POD,
            List.of(TARGET_POD_UPDATE_SCHEDULING_GATES_ELIMINATED)),
        new Case("scheduling gate is removed, but not completely eliminated",
            pod().schedulingGate("foo").schedulingGate("bar").build(), pod().schedulingGate("foo").build(),
            List.of(TARGET_POD_UPDATE)),
        new Case("pod's tolerations are updated", pod().toleration(Toleration.exists("key", TaintEffect.NoSchedule))
            .build(), pod().toleration(Toleration.exists("key", TaintEffect.NoSchedule))
            .toleration(Toleration.exists("key2", TaintEffect.NoSchedule)).build(),
            List.of(TARGET_POD_UPDATE_TOLERATION)),
        new Case("pod claim statuses change, feature enabled", POD, withClaims(a),
            List.of(TARGET_POD_UPDATE_GENERATED_RESOURCE_CLAIM)),
        new Case("pod claim statuses swapped", withClaims(b, a), withClaims(a, b),
            List.of(TARGET_POD_UPDATE_GENERATED_RESOURCE_CLAIM)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamCases")
  void targetPodEvents_upstreamTable(Case c) {
    assertThat(PodChanges.targetPodEvents(c.oldPod(), c.newPod())).containsExactlyElementsOf(c.want());
  }

  @Test
  void targetPodEvents_requestRemoved_isAScaleDown() {
    Pod withMemory = Pod.builder().name("p").namespace("default")
        .container("app", "pause", ResourceList.ofCpuMemory(100, 1 << 20)).build();
    assertThat(PodChanges.targetPodEvents(withMemory, withCpu("100m")))
        .containsExactly(TARGET_POD_UPDATE_SCALE_DOWN);
  }

  @Test
  void targetPodEvents_unchangedObject_isNoEvent() {
    assertThat(PodChanges.targetPodEvents(POD, POD)).isEmpty();
    assertThat(PodChanges.targetPodEvents(POD, pod().build())).isEmpty();
  }

  @Provide
  Arbitrary<PodStatus> statuses() {
    Arbitrary<String> words = words();
    Arbitrary<PodCondition> conditions = Arbitraries.of(PodCondition.POD_SCHEDULED, PodCondition.READY,
        PodCondition.DISRUPTION_TARGET).flatMap(type -> Arbitraries.of(ConditionStatus.values()).flatMap(status ->
            words.map(message -> PodCondition.of(type, status, PodCondition.REASON_UNSCHEDULABLE, message,
                Instant.EPOCH))));
    return Arbitraries.of(PodPhase.Pending, PodPhase.Unknown).flatMap(phase -> conditions.list().ofMaxSize(3)
        .flatMap(cs -> words.map(nominated -> {
          PodStatus s = PodStatus.PENDING.withPhase(phase).withNominatedNodeName(nominated)
              .withReason(nominated, nominated);
          for (PodCondition c : cs) {
            s = s.withCondition(c);
          }
          return s;
        })));
  }

  @Provide
  Arbitrary<String> words() {
    return Arbitraries.strings().alpha().ofMaxLength(8);
  }

  /**
   * A status write (the scheduler's own {@code PodScheduled} condition, a nomination), a new resourceVersion,
   * generation or finalizer is at most the general update, never a specific one: only a plugin registering every
   * update of the pod hears of it.
   */
  @Property
  void statusVersionGenerationAndFinalizers_areAtMostTheGeneralUpdate(@ForAll("statuses") PodStatus status,
      @ForAll("words") String version, @ForAll long generation, @ForAll("words") String finalizer) {
    Pod after = POD.withStatus(status).withMetadata(POD.metadata().toBuilder().resourceVersion(version)
        .generation(generation).finalizers(finalizer.isEmpty() ? List.of() : List.of("example.com/" + finalizer))
        .build());
    List<ClusterEvent> events = PodChanges.targetPodEvents(POD, after);
    assertThat(events).isSubsetOf(TARGET_POD_UPDATE);
    assertThat(events.isEmpty()).isEqualTo(after.equals(POD));
    assertThat(PodChanges.targetPodEvents(after, POD)).isEqualTo(events);
  }
}
