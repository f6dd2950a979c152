package io.fleetkit.api.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceAttribute;
import io.fleetkit.api.resource.dra.ResourceSlice;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A NodePool's device templates: the slice each node gets, and the pool's validation of them. */
final class ResourceSliceTemplateTest {
  private static NodePool.Builder pool() {
    return NodePool.builder().name("gpu").capacity(ResourceList.ofCpuMemory(8000, 1L << 34)).maxSize(2);
  }

  @Test
  void sliceFor_namesThePoolAndTheSliceAfterTheNode() {
    Device d = Device.builder("gpu-0").attribute("model", DeviceAttribute.ofString("a100")).build();
    ResourceSlice s = ResourceSliceTemplate.of("gpu.example.com", "gpus", d).sliceFor("gpu-7");
    assertThat(s.metadata().name()).isEqualTo("gpu-7-gpu.example.com-gpus");
    assertThat(s.spec().driver()).isEqualTo("gpu.example.com");
    assertThat(s.spec().pool().name()).isEqualTo("gpu-7-gpus");
    assertThat(s.spec().pool().generation()).isEqualTo(1);
    assertThat(s.spec().pool().resourceSliceCount()).isEqualTo(1);
    assertThat(s.spec().nodeName()).isEqualTo("gpu-7");
    assertThat(s.spec().devices()).containsExactly(d);
  }

  @Test
  void nodeTemplate_resourceSlicesFor_oneSlicePerTemplate() {
    NodePool p = pool().resourceSlice(ResourceSliceTemplate.of("gpu.example.com", "gpus", Device.of("gpu-0")))
        .resourceSlice(ResourceSliceTemplate.of("nic.example.com", "nics", Device.of("nic-0"))).build();
    assertThat(p.spec().template().resourceSlicesFor("n1")).extracting(s -> s.metadata().name())
        .containsExactly("n1-gpu.example.com-gpus", "n1-nic.example.com-nics");
    assertThat(NodeTemplate.of(java.util.Map.of(), ResourceList.EMPTY).resourceSlicesFor("n1")).isEmpty();
  }

  @Test
  void longNodeName_sliceNameShortenedToAValidName() {
    String node = "n".repeat(240);
    ResourceSliceTemplate t = ResourceSliceTemplate.of("gpu.example.com", "gpus", Device.of("gpu-0"));
    assertThat(t.sliceName(node)).hasSizeLessThanOrEqualTo(253).startsWith(node);
    assertThat(t.sliceName(node)).isNotEqualTo(t.sliceName(node + "x"));
  }

  @Test
  void pool_badTemplates_everyRuleNamedUnderItsField() {
    assertThatThrownBy(() -> pool()
        .resourceSlice(new ResourceSliceTemplate("", "", List.of(Device.of("gpu-0"), Device.of("gpu-0"))))
        .resourceSlice(ResourceSliceTemplate.of("gpu.example.com", "gpus", Device.of("Bad_Name")))
        .resourceSlice(ResourceSliceTemplate.of("gpu.example.com", "gpus", Device.of("gpu-1")))
        .build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("NodePool gpu: spec.template.resourceSlices[0].pool Required value")
        .hasMessageContaining("spec.template.resourceSlices[0].driver Required value")
        .hasMessageContaining("spec.template.resourceSlices[0].devices[1].name \"gpu-0\" Duplicate value")
        .hasMessageContaining("spec.template.resourceSlices[1].devices[0].name \"Bad_Name\"")
        .hasMessageContaining("spec.template.resourceSlices[2].pool \"gpus\" Duplicate value");
  }

  @Test
  void pool_withTemplates_builderKeepsThemThroughTemplate() {
    NodePool p = pool().resourceSlice(ResourceSliceTemplate.of("gpu.example.com", "gpus", Device.of("gpu-0"))).build();
    NodePool copy = NodePool.builder().name("copy").template(p.spec().template()).maxSize(1).build();
    assertThat(copy.spec().template().resourceSlices()).isEqualTo(p.spec().template().resourceSlices());
  }
}
