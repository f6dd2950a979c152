package io.fleetkit.traces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

final class OpenbTracesTest {
  private static List<String> lines(InputStream in) throws IOException {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      return r.lines().toList();
    }
  }

  @Test
  void openNodes_gpuNodeList_has1213NodesAfterTheHeader() throws IOException {
    List<String> lines = lines(OpenbTraces.openNodes("gpu_node"));
    assertThat(lines.get(0)).isEqualTo("sn,cpu_milli,memory_mib,gpu,model");
    assertThat(lines).hasSize(1214);
    assertThat(lines(OpenbTraces.openNodes("all_node"))).hasSize(1524);
  }

  static List<String> podLists() {
    return OpenbTraces.POD_LISTS;
  }

  @ParameterizedTest
  @MethodSource("podLists")
  void openPods_everyBundledList_startsWithThePodHeader(String name) throws IOException {
    List<String> lines = lines(OpenbTraces.openPods(name));
    assertThat(lines.get(0)).startsWith("name,cpu_milli,memory_mib,num_gpu,gpu_milli");
    assertThat(lines.size()).isGreaterThan(7000);
  }

  @Test
  void openPods_default_has8152Pods() throws IOException {
    assertThat(lines(OpenbTraces.openPods("default"))).hasSize(8153);
    assertThat(OpenbTraces.podFileName("default")).isEqualTo("openb_pod_list_default.csv");
  }

  @Test
  void openPods_unknownName_listsTheBundledOnes() {
    assertThatThrownBy(() -> OpenbTraces.openPods("nope")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no bundled openb pod list named \"nope\" (bundled: " + String.join(", ", OpenbTraces.POD_LISTS)
            + ")");
    assertThatThrownBy(() -> OpenbTraces.openNodes("gpu")).hasMessageContaining("bundled: gpu_node, all_node");
  }

  @Test
  void openPublishedAllocation_holdsTenSeedsOfFgdOnDefault() throws IOException {
    List<String> lines = lines(OpenbTraces.openPublishedAllocation());
    assertThat(lines.get(0)).startsWith("workload,sc_policy,tune,seed,total_gpus,0,5,10");
    assertThat(lines.get(0)).endsWith(",100");
    assertThat(lines.stream().filter(l -> l.startsWith("openb_pod_list_default,") && l.contains("-FGD,"))).hasSize(10);
  }
}
