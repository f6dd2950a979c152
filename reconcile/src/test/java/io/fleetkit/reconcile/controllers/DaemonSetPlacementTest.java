package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The public placement decision: the pod a DaemonSet would run on a node, and whether it runs one there. */
final class DaemonSetPlacementTest {
  private static DaemonSet ds(PodSpec spec) {
    return DaemonSet.builder().name("agent").namespace("kube-system").uid("agent-uid")
        .matchLabels(Map.of("app", "agent")).podSpec(spec).build();
  }

  private static final PodSpec SPEC = PodSpec.builder().container("agent", "agent:1", ResourceList.ofCpuMemory(200, 0))
      .build();

  @Test
  void newPod_isTheTemplateWithDaemonTolerationsBoundToTheNode_ownedByTheDaemonSet() {
    DaemonSet ds = ds(SPEC);
    Pod p = DaemonSetPlacement.newPod(ds, "node-1", "agent-x");
    assertThat(p.metadata().name()).isEqualTo("agent-x");
    assertThat(p.metadata().namespace()).isEqualTo("kube-system");
    assertThat(p.metadata().labels()).containsEntry("app", "agent");
    assertThat(p.spec().nodeName()).isEqualTo("node-1");
    assertThat(p.spec().tolerations()).containsExactlyElementsOf(DaemonSetPlacement.DAEMON_TOLERATIONS);
    assertThat(p.spec().containers()).isEqualTo(SPEC.containers());
    assertThat(p.status().phase()).isEqualTo(PodPhase.Pending);
    OwnerReference c = p.metadata().controllerRef();
    assertThat(c).isNotNull();
    assertThat(c.kind()).isEqualTo("DaemonSet");
    assertThat(c.uid()).isEqualTo("agent-uid");
    assertThat(DaemonSetPlacement.targetNodeName(p)).isEqualTo("node-1");
  }

  @Test
  void newPod_emptyNames_rejectedNamingTheFieldAndTheDaemonSet() {
    assertThatThrownBy(() -> DaemonSetPlacement.newPod(ds(SPEC), "", "x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kube-system/agent")
        .hasMessageContaining("nodeName");
    assertThatThrownBy(() -> DaemonSetPlacement.newPod(ds(SPEC), "n", ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("podName");
  }

  @Test
  void nodeShouldRunDaemonPod_selectorAndTaints() {
    Node plain = Node.builder().name("n1").label("disk", "ssd").ready().build();
    assertThat(DaemonSetPlacement.nodeShouldRunDaemonPod(plain, ds(SPEC)))
        .isEqualTo(new DaemonSetPlacement.ShouldRun(true, true));
    assertThat(DaemonSetPlacement.nodeShouldRunDaemonPod(plain,
        ds(SPEC.toBuilder().nodeSelector("disk", "hdd").build())).shouldRun()).isFalse();
    Node noSchedule = plain.toBuilder().taint(Taint.of("dedicated", "db", TaintEffect.NoSchedule)).build();
    assertThat(DaemonSetPlacement.nodeShouldRunDaemonPod(noSchedule, ds(SPEC)))
        .as("not scheduled there, but a pod already there stays").isEqualTo(new DaemonSetPlacement.ShouldRun(false,
            true));
    Node unschedulable = plain.toBuilder().taint(Taint.of(DaemonSetPlacement.TAINT_UNSCHEDULABLE, "",
        TaintEffect.NoSchedule)).build();
    assertThat(DaemonSetPlacement.nodeShouldRunDaemonPod(unschedulable, ds(SPEC)).shouldRun())
        .as("the daemon tolerations cover it").isTrue();
  }
}
