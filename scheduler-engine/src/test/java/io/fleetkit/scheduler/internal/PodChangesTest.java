package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodResourceClaimStatus;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link PodChanges#isPodUpdated}: kube-scheduler's {@code isPodUpdated}
 * ({@code pkg/scheduler/backend/queue/scheduling_queue.go}) strips resourceVersion, generation, finalizers and the
 * status before comparing; FleetKit keeps {@code status.resourceClaimStatuses}, which DynamicResources waits for.
 */
final class PodChangesTest {
  private static final Pod POD = Pod.builder().name("p").namespace("default")
      .container("app", "pause", ResourceList.ofCpuMemory(100, 1 << 20)).build();

  @Provide
  Arbitrary<PodStatus> statuses() {
    Arbitrary<String> words = Arbitraries.strings().alpha().ofMaxLength(8);
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

  @Property
  void statusVersionGenerationAndFinalizers_areNotAnUpdate(@ForAll("statuses") PodStatus status,
      @ForAll("words") String version, @ForAll long generation, @ForAll("words") String finalizer) {
    Pod after = POD.withStatus(status).withMetadata(POD.metadata().toBuilder().resourceVersion(version)
        .generation(generation).finalizers(finalizer.isEmpty() ? List.of() : List.of("example.com/" + finalizer))
        .build());
    assertThat(PodChanges.isPodUpdated(POD, after)).isFalse();
    assertThat(PodChanges.isPodUpdated(after, POD)).isFalse();
  }

  @Provide
  Arbitrary<String> words() {
    return Arbitraries.strings().alpha().ofMaxLength(8);
  }

  @Test
  void labelsAnnotationsSpecAndClaimStatuses_areAnUpdate() {
    assertThat(PodChanges.isPodUpdated(POD, POD.withMetadata(POD.metadata().withLabels(java.util.Map.of("a", "b")))))
        .isTrue();
    assertThat(PodChanges.isPodUpdated(POD,
        POD.withMetadata(POD.metadata().toBuilder().annotation("k", "v").build()))).isTrue();
    assertThat(PodChanges.isPodUpdated(POD, POD.toBuilder().priority(5).build())).isTrue();
    assertThat(PodChanges.isPodUpdated(POD, POD.withStatus(POD.status().withResourceClaimStatuses(
        List.of(new PodResourceClaimStatus("gpu", "p-gpu-x7k2q")))))).isTrue();
    assertThat(PodChanges.isPodUpdated(POD, POD)).isFalse();
  }
}
