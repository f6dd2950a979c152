package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the timeline says of a pod that ended ({@code PodFailed}, {@code PodSucceeded}): why, in a few words. */
final class TimelinePodEndTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  private static Pod pod(PodPhase phase, ContainerState... states) {
    Pod p = Pod.builder().namespace("shop").name("web-1").container("a", "img", ResourceList.ofCpuMemory(10, 10))
        .container("b", "img", ResourceList.ofCpuMemory(10, 10)).build();
    List<ContainerStatus> statuses = new java.util.ArrayList<>();
    for (int i = 0; i < states.length; i++) {
      statuses.add(new ContainerStatus(i == 0 ? "a" : "b", false, 0, states[i]));
    }
    return p.withStatus(p.status().withPhase(phase).withContainerStatuses(statuses));
  }

  @Test
  void aPodStoppedOnItsDeletion_saysSoWithItsExitCodesOnce() {
    Pod p = pod(PodPhase.Failed, ContainerState.terminated(143, "Error", T), ContainerState.terminated(143, "Error", T));
    p = p.withMetadata(p.metadata().toBuilder().deletionTimestamp(T).build());
    assertThat(TimelineRecorder.endDetails(p)).isEqualTo("exit code 143 (Error), stopped on its deletion");
  }

  @Test
  void aPodThatRanToItsEnd_givesItsExitCodes_andTheStatusReasonFirst() {
    assertThat(TimelineRecorder.endDetails(pod(PodPhase.Succeeded, ContainerState.terminated(0, "Completed", T))))
        .isEqualTo("exit code 0 (Completed)");
    Pod evicted = pod(PodPhase.Failed, ContainerState.terminated(137, "", T), ContainerState.terminated(1, "Error", T));
    evicted = evicted.withStatus(evicted.status().withReason("Evicted", "the node was low on memory"));
    assertThat(TimelineRecorder.endDetails(evicted)).isEqualTo("Evicted, exit code 137, exit code 1 (Error)");
    assertThat(TimelineRecorder.endDetails(pod(PodPhase.Failed))).isEmpty();
  }
}
