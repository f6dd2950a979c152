package io.fleetkit.adapter.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceNames;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SlurmNodeTest {
  private static SlurmNode node(String state, List<String> flags, int gpus, String model, String reason) {
    return new SlurmNode("n1", "127.0.0.1", "localhost", state, flags, 2, 0, 2000, 0, gpus, model, 0,
        List.of("debug", "gpu"), reason);
  }

  @Test
  void toNode_idle_readySchedulableWithCapacityAndLabels() {
    Node n = node("idle", List.of(), 2, "a100", "").toNode();
    assertThat(n.isReady()).isTrue();
    assertThat(n.spec().unschedulable()).isFalse();
    assertThat(n.status().capacity().value(ResourceNames.CPU)).isEqualTo(2);
    assertThat(n.status().capacity().value(ResourceNames.NVIDIA_GPU)).isEqualTo(2);
    assertThat(n.status().gpus()).extracting(g -> g.id() + "/" + g.model()).containsExactly("gpu0/a100", "gpu1/a100");
    assertThat(n.metadata().labels()).containsEntry(SlurmNode.STATE_LABEL, "idle")
        .containsEntry("slurm.fleetkit.io/partition.debug", "true")
        .containsEntry("slurm.fleetkit.io/partition.gpu", "true");
    assertThat(n.status().addresses()).extracting(a -> a.type() + "=" + a.address())
        .containsExactly("InternalIP=127.0.0.1", "Hostname=localhost");
  }

  @Test
  void toNode_noGpus_noGpuResource() {
    Node n = node("mixed", List.of(), 0, "", "").toNode();
    assertThat(n.status().capacity().has(ResourceNames.NVIDIA_GPU)).isFalse();
    assertThat(n.status().gpus()).isEmpty();
  }

  @Test
  void toNode_drained_unschedulableAndNotReadyWithReason() {
    Node n = node("idle", List.of("drain"), 2, "", "maintenance window").toNode();
    assertThat(n.spec().unschedulable()).isTrue();
    NodeCondition ready = n.status().condition(NodeCondition.READY);
    assertThat(ready.status()).isEqualTo(ConditionStatus.False);
    assertThat(ready.reason()).isEqualTo(SlurmNode.REASON_NOT_USABLE);
    assertThat(ready.message()).isEqualTo("slurm node state idle+DRAIN: maintenance window");
  }

  @Test
  void toNode_down_notReadyButNotCordoned() {
    Node n = node("down", List.of("NOT_RESPONDING"), 2, "", "Not responding").toNode();
    assertThat(n.isReady()).isFalse();
    assertThat(n.spec().unschedulable()).isFalse();
  }

  @Test
  void isUsable_allocatedAndInvalidReg() {
    assertThat(node("allocated", List.of(), 2, "", "").isUsable()).isTrue();
    assertThat(node("unknown", List.of("DRAIN", "INVALID_REG"), 2, "", "").isUsable()).isFalse();
  }
}
