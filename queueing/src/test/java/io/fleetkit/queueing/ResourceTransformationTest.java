package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.ResourceTransformation.Strategy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The transformation cases of kubernetes-sigs/kueue {@code pkg/workload/workload_test.go} {@code TestNewInfo}
 * (commit ff69552e79ad21652c36caa97038382e55625cf7), Kueue's {@code applyResourceTransformations}: each pod set's
 * requests as quota counts them. Upstream compares the pod set's total requests ({@code count x} one pod's, in milli
 * for cpu and units otherwise); here one pod's transformed requests, and the totals where the count is not 1.
 */
final class ResourceTransformationTest {
  private static ResourceList rl(String... kv) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < kv.length; i += 2) {
      b.put(kv[i], kv[i + 1]);
    }
    return b.build();
  }

  private static ResourceTransformation t(String input, Strategy s, String multiplyBy, String... outputs) {
    return new ResourceTransformation(input, s, multiplyBy, rl(outputs));
  }

  @Test
  void transformResources() {
    List<ResourceTransformation> ts = List.of(
        t("nvidia.com/mig-1g.5gb", Strategy.REPLACE, null, "example.com/accelerator-memory", "5Ki",
            "example.com/credits", "10"),
        t("nvidia.com/mig-2g.10gb", Strategy.REPLACE, null, "example.com/accelerator-memory", "10Ki",
            "example.com/credits", "15"),
        t("nvidia.com/gpu", Strategy.RETAIN, null, "example.com/accelerator-memory", "40Ki",
            "example.com/credits", "100"),
        t("nvidia.com/vgpucores", Strategy.REPLACE, "nvidia.com/vgpu", "nvidia.com/total-vgpucores", "1"),
        t("nvidia.com/vgpumem", Strategy.REPLACE, "nvidia.com/vgpu", "nvidia.com/total-vgpumem", "1"));
    // a: count 1
    assertThat(ResourceTransformation.apply(rl("nvidia.com/mig-1g.5gb", "2", "nvidia.com/mig-2g.10gb", "1",
        "cpu", "1"), ts)).isEqualTo(rl("cpu", "1", "example.com/accelerator-memory", "20480",
            "example.com/credits", "35"));
    // b: count 2, totals cpu 4000m, accelerator-memory 80Ki, credits 200, gpu 2
    ResourceList b = ResourceTransformation.apply(rl("nvidia.com/gpu", "1", "cpu", "2"), ts);
    assertThat(b).isEqualTo(rl("cpu", "2", "example.com/accelerator-memory", "40960", "example.com/credits", "100",
        "nvidia.com/gpu", "1"));
    assertThat(PodSet.of("b", 2, b).totalMilli("example.com/accelerator-memory")).isEqualTo(80L * 1024 * 1000);
    // c: count 1
    assertThat(ResourceTransformation.apply(rl("nvidia.com/vgpu", "2", "nvidia.com/vgpucores", "20",
        "nvidia.com/vgpumem", "1024"), ts)).isEqualTo(rl("nvidia.com/vgpu", "2", "nvidia.com/total-vgpucores", "40",
            "nvidia.com/total-vgpumem", "2048"));
    // d: count 2, totals vgpu 4, total-vgpucores 120, total-vgpumem 8192
    ResourceList d = ResourceTransformation.apply(rl("nvidia.com/vgpu", "2", "nvidia.com/vgpucores", "30",
        "nvidia.com/vgpumem", "2048"), ts);
    assertThat(d).isEqualTo(rl("nvidia.com/vgpu", "2", "nvidia.com/total-vgpucores", "60",
        "nvidia.com/total-vgpumem", "4096"));
    assertThat(PodSet.of("d", 2, d).totalMilli("nvidia.com/total-vgpucores")).isEqualTo(120_000L);
  }

  private static final List<ResourceTransformation> ALLOWANCE = List.of(
      t("nvidia.com/gpumem", Strategy.REPLACE, "nvidia.com/gpu", "quota.example.com/gpu-memory-overage", "1"),
      t("nvidia.com/gpu", Strategy.RETAIN, null, "quota.example.com/gpu-memory-overage", "-1024"));

  @Test
  void transformAllowanceAboveIt() {
    assertThat(ResourceTransformation.apply(rl("nvidia.com/gpumem", "2048", "nvidia.com/gpu", "2"), ALLOWANCE))
        .isEqualTo(rl("quota.example.com/gpu-memory-overage", "2048", "nvidia.com/gpu", "2"));
  }

  @Test
  void transformAllowanceExactlyAtIt() {
    assertThat(ResourceTransformation.apply(rl("nvidia.com/gpumem", "1024", "nvidia.com/gpu", "2"), ALLOWANCE))
        .isEqualTo(rl("quota.example.com/gpu-memory-overage", "0", "nvidia.com/gpu", "2"));
  }

  @Test
  void transformAllowanceUnderIt() {
    assertThat(ResourceTransformation.apply(rl("nvidia.com/gpumem", "512", "nvidia.com/gpu", "2"), ALLOWANCE))
        .isEqualTo(rl("quota.example.com/gpu-memory-overage", "0", "nvidia.com/gpu", "2"));
  }

  @Test
  void transformAllowanceDoesNotReachADirectRequest() {
    assertThat(ResourceTransformation.apply(rl("example.com/gpu", "8", "example.com/credit", "3"),
        List.of(t("example.com/credit", Strategy.REPLACE, null, "example.com/gpu", "-1"))))
        .isEqualTo(rl("example.com/gpu", "8"));
  }

  @Test
  void transformOutputSharingANameWithARequestIsAdded() {
    assertThat(ResourceTransformation.apply(rl("example.com/gpu", "1", "example.com/credit", "1"),
        List.of(t("example.com/credit", Strategy.REPLACE, null, "example.com/gpu", "1"))))
        .isEqualTo(rl("example.com/gpu", "2"));
  }

  @Test
  void transformOutputSharingANameWithItsRetainedInputIsAdded() {
    assertThat(ResourceTransformation.apply(rl("example.com/gpu", "1"),
        List.of(t("example.com/gpu", Strategy.RETAIN, null, "example.com/gpu", "5"))))
        .isEqualTo(rl("example.com/gpu", "6"));
  }

  @Test
  void transformRetainWithMultiplyBy() {
    assertThat(ResourceTransformation.apply(rl("example.com/gpumem", "1024", "example.com/gpu", "2"),
        List.of(t("example.com/gpumem", Strategy.RETAIN, "example.com/gpu", "example.com/gpumem-quota", "1"))))
        .isEqualTo(rl("example.com/gpumem", "1024", "example.com/gpumem-quota", "2048", "example.com/gpu", "2"));
  }

  @Test
  void transformRetainWithMultiplyByUnderOne() {
    assertThat(ResourceTransformation.apply(rl("example.com/gpumem", "1024", "cpu", "500m"),
        List.of(t("example.com/gpumem", Strategy.RETAIN, "cpu", "example.com/gpumem-quota", "1"))))
        .isEqualTo(rl("example.com/gpumem", "1024", "example.com/gpumem-quota", "512", "cpu", "500m"));
  }

  @Test
  void transformOutputSharingANameWithItsRetainedInputIsAddedToTheAmountRequested() {
    assertThat(ResourceTransformation.apply(rl("example.com/gpu", "1", "example.com/node", "2"),
        List.of(t("example.com/gpu", Strategy.RETAIN, "example.com/node", "example.com/gpu", "1"))))
        .isEqualTo(rl("example.com/gpu", "3", "example.com/node", "2"));
  }

  @Test
  void transformMilliValues() {
    assertThat(ResourceTransformation.apply(rl("cpu", "100m", "memory", "100M"), List.of(
        t("cpu", Strategy.REPLACE, null, "example.com/cpu-credits", "3000"),
        t("memory", Strategy.REPLACE, null, "example.com/memory-credits", "3m"))))
        .isEqualTo(rl("example.com/cpu-credits", "300", "example.com/memory-credits", "300000"));
  }

  @Test
  void noTransformationApplies_requestsUnchanged() {
    ResourceList r = rl("cpu", "1");
    assertThat(ResourceTransformation.apply(r, ALLOWANCE)).isSameAs(r);
  }

  @Test
  void validation_namesTheFieldAndTheRule() {
    assertThatThrownBy(() -> ResourceTransformation.retain("pods", rl("example.com/x", "1")))
        .isInstanceOf(ValidationException.class).hasMessageContaining("input")
        .hasMessageContaining("counted by the engine");
    assertThatThrownBy(() -> t("example.com/gpu", Strategy.RETAIN, "example.com/gpu", "example.com/x", "1"))
        .isInstanceOf(ValidationException.class).hasMessageContaining("multiplyBy")
        .hasMessageContaining("must differ from input");
    assertThatThrownBy(() -> AdmissionEngine.builder()
        .resourceTransformation(ResourceTransformation.retain("cpu", rl("a", "1")))
        .resourceTransformation(ResourceTransformation.replace("cpu", rl("b", "1"))))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("already has input cpu");
  }
}
