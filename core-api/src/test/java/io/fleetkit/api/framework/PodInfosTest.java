package io.fleetkit.api.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import org.junit.jupiter.api.Test;

final class PodInfosTest {
  private static final long MI = 1024L * 1024;

  @Test
  void nonZero_twoContainersWithoutRequests_countDefaultsPerContainer() {
    Pod pod = Pod.builder().name("p").container("a", "img:1", ResourceList.EMPTY)
        .container("b", "img:1", ResourceList.EMPTY).build();
    PodInfo info = PodInfos.of(pod);
    assertThat(info.nonZeroMilliCpu()).isEqualTo(200);
    assertThat(info.nonZeroMemory()).isEqualTo(400 * MI);
    assertThat(info.requests().milliCpu()).isZero();
  }

  @Test
  void nonZero_explicitRequests_areKept() {
    Pod pod = Pod.builder().name("p").container("a", "img:1",
        ResourceList.builder().put("cpu", "250m").put("memory", "1Gi").build())
        .container("b", "img:1", ResourceList.builder().put("cpu", "50m").build()).build();
    PodInfo info = PodInfos.of(pod);
    assertThat(info.nonZeroMilliCpu()).isEqualTo(300);
    assertThat(info.nonZeroMemory()).isEqualTo(1024 * MI + 200 * MI);
  }

  @Test
  void nonZero_largeInitContainer_dominates() {
    Pod pod = Pod.builder().name("p").container("a", "img:1", ResourceList.builder().put("cpu", "100m").build())
        .initContainer("init", "img:1", ResourceList.builder().put("cpu", "2").put("memory", "1Gi").build())
        .build();
    PodInfo info = PodInfos.of(pod);
    assertThat(info.nonZeroMilliCpu()).isEqualTo(2000);
    assertThat(info.nonZeroMemory()).isEqualTo(1024 * MI);
  }
}
