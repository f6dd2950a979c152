package io.fleetkit.lab.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class OpenbCsvTest {
  @TempDir Path dir;

  private Path write(String name, String... lines) throws IOException {
    return Files.write(dir.resolve(name), List.of(lines));
  }

  @Test
  void loadNodes_openbGpuNodes_1213NodesWith6212Gpus() {
    List<TraceNode> nodes = TraceData.gpuNodes();
    assertThat(nodes).hasSize(1213);
    assertThat(nodes.stream().mapToInt(TraceNode::gpus).sum()).isEqualTo(6212);
    assertThat(nodes.stream().mapToLong(TraceNode::milliCpu).sum()).isEqualTo(107_018_000L);
  }

  @Test
  void loadPods_defaultTrace_8152PodsWithShares() {
    List<TracePod> pods = TraceData.pods("default");
    assertThat(pods).hasSize(8152);
    assertThat(pods.stream().filter(p -> p.numGpu() == 1 && p.gpuMilli() < 1000 && p.gpuMilli() > 0)).hasSize(3078);
    assertThat(pods.stream().filter(p -> p.numGpu() == 0)).hasSize(1088);
  }

  @Test
  void loadPods_gpuSpec_parsedAsModels() throws IOException {
    Path f = write("p.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec", "a,1000,10,1,500,V100M16|V100M32");
    assertThat(OpenbCsv.loadPods(f).get(0).models()).containsExactly("V100M16", "V100M32");
  }

  @Test
  void loadPods_malformedLine_errorNamesFileAndLine() throws IOException {
    Path f = write("p.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli", "a,1000,10,1,500", "b,1000,10,1");
    assertThatThrownBy(() -> OpenbCsv.loadPods(f)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(f + ":3: malformed line");
  }

  @Test
  void loadPods_negativeAmount_errorNamesFileAndLine() throws IOException {
    Path f = write("p.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli", "a,-1000,10,1,500");
    assertThatThrownBy(() -> OpenbCsv.loadPods(f)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(f + ":2: cpu_milli -1000 must not be negative");
  }

  @Test
  void loadPods_unknownModel_errorNamesFileAndLine() throws IOException {
    Path f = write("p.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec", "a,1,1,1,500,", "b,1,1,1,5,H100");
    assertThatThrownBy(() -> OpenbCsv.loadPods(f)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(f + ":3: unknown GPU model \"H100\"");
  }

  @Test
  void loadNodes_unknownModelOrNotANumber_errorNamesLine() throws IOException {
    Path f = write("n.csv", "sn,cpu_milli,memory_mib,gpu,model", "n1,1000,10,2,T4", "n2,1000,10,2,X9");
    assertThatThrownBy(() -> OpenbCsv.loadNodes(f)).hasMessageContaining(f + ":3: unknown GPU model \"X9\"");
    Path g = write("m.csv", "sn,cpu_milli,memory_mib,gpu,model", "n1,lots,10,2,T4");
    assertThatThrownBy(() -> OpenbCsv.loadNodes(g)).hasMessageContaining(g + ":2: cpu_milli \"lots\" is not an integer");
  }

  /** Long.parseLong read "\u0661\u0660\u0660\u0660" (Arabic-Indic 1000) as 1000 millicores. */
  @Test
  void loadNodes_digitsOfAnotherScript_notAnInteger() throws IOException {
    Path g = write("a.csv", "sn,cpu_milli,memory_mib,gpu,model", "n1,\u0661\u0660\u0660\u0660,10,2,T4");
    assertThatThrownBy(() -> OpenbCsv.loadNodes(g)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(g + ":2: cpu_milli \"\u0661\u0660\u0660\u0660\" is not an integer");
  }

  @Test
  void loadNodes_missingFile_errorNamesFile() {
    Path f = dir.resolve("none.csv");
    assertThatThrownBy(() -> OpenbCsv.loadNodes(f)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(f + ": cannot read");
  }
}
