package io.fleetkit.api.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

final class NodePoolTest {
  private static final ResourceList CAP =
      ResourceList.builder().put("cpu", "96").put("memory", "1024Gi").put("nvidia.com/gpu", "8").build();

  private static NodePool.Builder gpuPool() {
    return NodePool.builder().name("a100").nodeLabel("pool", "a100").capacity(CAP)
        .nodeTaint(Taint.of("nvidia.com/gpu", "present", TaintEffect.NoSchedule))
        .gpu(GpuDevice.of("GPU-0", "A100", 81920)).minSize(0).maxSize(10).startupDelay(Duration.ofMinutes(3))
        .pricePerHour(32.77);
  }

  @Test
  void builder_gpuPool_fieldsKept() {
    NodePool p = gpuPool().build();
    assertThat(p.apiVersion()).isEqualTo("fleetkit.io/v1alpha1");
    assertThat(p.kind()).isEqualTo("NodePool");
    assertThat(p.namespaced()).isFalse();
    assertThat(p.spec().template().allocatable()).isEqualTo(CAP);
    assertThat(p.spec().maxSize()).isEqualTo(10);
    assertThat(p.spec().startupDelay()).isEqualTo(Duration.ofMinutes(3));
    assertThat(p.spec().pricePerHour()).isEqualTo(32.77);
    assertThat(p.status().currentSize()).isZero();
  }

  @Test
  void toNode_fromTemplate_readyNodeWithTemplateShape() {
    Node n = gpuPool().build().spec().template().toNode("a100-1", "fleetkit://a100/1");
    assertThat(n.name()).isEqualTo("a100-1");
    assertThat(n.metadata().labels()).containsEntry("pool", "a100");
    assertThat(n.spec().taints()).hasSize(1);
    assertThat(n.allocatable()).isEqualTo(CAP);
    assertThat(n.status().gpus()).hasSize(1);
    assertThat(n.isReady()).isTrue();
  }

  @Test
  void withStatusOf_takesOnlyStatus() {
    NodePool p = gpuPool().build();
    NodePoolStatus st = new NodePoolStatus(3, Instant.EPOCH);
    NodePool merged = p.withStatusOf(p.withStatus(st));
    assertThat(merged.status()).isEqualTo(st);
    assertThat(merged.spec()).isEqualTo(p.spec());
  }

  @Test
  void validate_manyViolations_allReported() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> gpuPool().minSize(-1).maxSize(-2)
        .startupDelay(Duration.ofSeconds(-1)).pricePerHour(Double.NaN)
        .capacity(ResourceList.builder().put("cpu", "-1").build()).status(new NodePoolStatus(-1, null)).build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly(
        "spec.minSize", "spec.maxSize", "spec.startupDelay", "spec.pricePerHour", "spec.template.capacity.cpu",
        "status.currentSize");
    assertThat(e.violations().get(1).rule()).isEqualTo("must be greater than or equal to minSize -1");
    assertThat(e.violations().get(0).object()).isEqualTo("NodePool a100");
  }
}
