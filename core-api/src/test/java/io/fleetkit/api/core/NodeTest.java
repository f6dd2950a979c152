package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import java.util.List;
import org.junit.jupiter.api.Test;

final class NodeTest {
  private static final ResourceList CAP =
      ResourceList.builder().put("cpu", "32").put("memory", "128Gi").put("nvidia.com/gpu", "8").build();

  @Test
  void builder_capacityOnly_allocatableDefaultsToCapacity() {
    Node n = Node.builder().name("node-1").label("zone", "a").capacity(CAP).build();
    assertThat(n.apiVersion()).isEqualTo("v1");
    assertThat(n.namespaced()).isFalse();
    assertThat(n.describe()).isEqualTo("Node node-1");
    assertThat(n.allocatable()).isEqualTo(CAP);
    assertThat(n.spec()).isEqualTo(NodeSpec.EMPTY);
    assertThat(n.isReady()).isFalse();
  }

  @Test
  void builder_everyField_kept() {
    ResourceList alloc = ResourceList.builder().put("cpu", "31").build();
    GpuDevice g0 = new GpuDevice("GPU-0", "A100", 81920, 0, "nvlink-0");
    Node n = Node.builder().name("gpu-1").capacity(CAP).allocatable(alloc).unschedulable(true)
        .taint(Taint.of("nvidia.com/gpu", "present", TaintEffect.NoSchedule)).providerID("pool://gpu/1")
        .gpu(g0).gpu(GpuDevice.of("GPU-1", "A100", 81920)).ready()
        .address(new NodeAddress("InternalIP", "10.0.0.1")).build();
    assertThat(n.allocatable()).isEqualTo(alloc);
    assertThat(n.spec().unschedulable()).isTrue();
    assertThat(n.spec().taints()).hasSize(1);
    assertThat(n.spec().providerID()).isEqualTo("pool://gpu/1");
    assertThat(n.status().gpus()).extracting(GpuDevice::id).containsExactly("GPU-0", "GPU-1");
    assertThat(n.status().gpus().get(1).numaNode()).isEqualTo(-1);
    assertThat(n.isReady()).isTrue();
    assertThat(n.toBuilder().build()).isEqualTo(n);
  }

  @Test
  void toBuilder_nodeWithPodCIDRs_keepsThem() {
    // the store refuses an update that drops assigned pod CIDRs, so a rebuilt node must keep them
    Node n = Node.builder().name("n").podCIDRs(List.of("10.244.1.0/24", "fd00:1::/64")).build();
    assertThat(n.spec().podCIDRs()).containsExactly("10.244.1.0/24", "fd00:1::/64");
    assertThat(n.toBuilder().unschedulable(true).build().spec().podCIDRs()).isEqualTo(n.spec().podCIDRs());
  }

  @Test
  void isReady_readyFalse_false() {
    Node n = Node.builder().name("n").condition(NodeCondition.of(NodeCondition.READY, ConditionStatus.False))
        .build();
    assertThat(n.isReady()).isFalse();
  }

  @Test
  void withStatusOf_otherNode_takesOnlyStatus() {
    Node mine = Node.builder().name("a").capacity(CAP).build();
    Node theirs = Node.builder().name("b").unschedulable(true).ready().build();
    Node merged = mine.withStatusOf(theirs);
    assertThat(merged.metadata()).isEqualTo(mine.metadata());
    assertThat(merged.spec()).isEqualTo(mine.spec());
    assertThat(merged.status()).isEqualTo(theirs.status());
  }

  @Test
  void validate_manyViolations_allReported() {
    ResourceList negative = ResourceList.builder().put("cpu", "-2").build();
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> new Node(
        ObjectMeta.of("default", "Node_1"),
        new NodeSpec(false, List.of(Taint.of("", "", TaintEffect.NoSchedule)), ""),
        new NodeStatus(negative, ResourceList.EMPTY, List.of(),
            List.of(GpuDevice.of("g", "m", 1), GpuDevice.of("g", "m", -1)), List.of())));
    assertThat(e.violations()).extracting(Violation::field).containsExactly(
        "metadata.name", "metadata.namespace", "status.capacity.cpu", "spec.taints[0].key", "status.gpus[1].id",
        "status.gpus[1].memoryMiB");
    assertThat(e.violations().get(1).rule()).isEqualTo("not allowed on this type");
    assertThat(e.violations().get(0).object()).isEqualTo("Node default/Node_1");
  }
  @Test
  void copies_unchangedValidatedParts_keptAndEqual_changedPartsStillChecked() {
    Node n = Node.builder().name("node-1").label("zone", "a").capacity(CAP)
        .taint(Taint.of("dedicated", "x", TaintEffect.NoSchedule)).build();
    // a status post: new conditions, the same capacity: nothing to check again, the same node otherwise
    Node posted = n.withStatus(n.status().withConditions(List.of(NodeCondition.of(NodeCondition.READY,
        ConditionStatus.True))));
    assertThat(posted.isReady()).isTrue();
    assertThat(posted.metadata()).isSameAs(n.metadata());
    assertThat(posted.withStatus(n.status())).isEqualTo(n);
    // a new version: the same name and labels
    ObjectMeta versioned = new ObjectMeta("node-1", "", "u", "7", 1, n.metadata().labels(), java.util.Map.of(),
        List.of(), List.of(), null, null);
    assertThat(n.withMetadata(versioned).metadata().resourceVersion()).isEqualTo("7");
    // parts that changed are checked as in the canonical constructor
    ResourceList negative = ResourceList.builder().put("cpu", "-2").build();
    assertThat(catchThrowableOfType(ValidationException.class, () -> n.withStatus(n.status().withAllocatable(negative)))
        .violations()).extracting(Violation::field).containsExactly("status.allocatable.cpu");
    ObjectMeta badLabel = n.metadata().toBuilder().label("bad key!", "v").build();
    assertThat(catchThrowableOfType(ValidationException.class, () -> n.withMetadata(badLabel)).violations())
        .extracting(Violation::field).singleElement().asString().startsWith("metadata.labels");
    ObjectMeta badName = new ObjectMeta("Node_1", "", "u", "7", 1, n.metadata().labels(), java.util.Map.of(),
        List.of(), List.of(), null, null);
    assertThat(catchThrowableOfType(ValidationException.class, () -> n.withMetadata(badName)).violations())
        .extracting(Violation::field).containsExactly("metadata.name");
  }
  @Test
  void images_builderAndWithImages_keptAndCopied() {
    ContainerImage pause = ContainerImage.of(700_000, "registry.k8s.io/pause:3.9", "registry.k8s.io/pause@sha256:0a");
    Node n = Node.builder().name("node-1").capacity(CAP).image(pause).build();
    assertThat(n.status().images()).containsExactly(pause);
    assertThat(n.toBuilder().build()).isEqualTo(n);
    Node grown = n.withStatus(n.status().withImages(List.of(pause, ContainerImage.of(1, "busybox:1"))));
    assertThat(grown.status().images()).hasSize(2);
    assertThat(grown.status().withConditions(List.of()).images()).isEqualTo(grown.status().images());
    assertThat(grown.status().withAllocatable(CAP).images()).isEqualTo(grown.status().images());
  }

  @Test
  void images_nullFromOldEncodings_empty_fiveComponentConstructorEmpty() {
    assertThat(new NodeStatus(CAP, CAP, List.of(), List.of(), List.of(), null).images()).isEmpty();
    assertThat(new NodeStatus(CAP, CAP, List.of(), List.of(), List.of()).images()).isEmpty();
    assertThat(NodeStatus.EMPTY.images()).isEmpty();
  }

  @Test
  void validate_badImages_eachViolationNamed() {
    NodeStatus status = NodeStatus.EMPTY.withImages(List.of(new ContainerImage(List.of(), 10),
        new ContainerImage(List.of("ok:1", " "), -1)));
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> Node.builder().name("node-1").build().withStatus(status));
    assertThat(e.violations()).extracting(Violation::field).containsExactly("status.images[0].names",
        "status.images[1].names[1]", "status.images[1].sizeBytes");
    assertThat(e.violations().get(0).object()).isEqualTo("Node node-1");
  }
}
