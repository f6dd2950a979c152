package io.fleetkit.lab.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile or broken trace files: each is refused with a message naming file, line, column and rule. */
final class OpenbCsvBadInputTest {
  @TempDir Path dir;

  private Path write(String name, String... lines) throws IOException {
    return Files.write(dir.resolve(name), List.of(lines));
  }

  @Test
  void loadPods_numGpuBeyondInt_refusedNotNarrowed() throws IOException {
    Path f = write("p.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli", "a,1000,10,4294967297,500");
    assertThatThrownBy(() -> OpenbCsv.loadPods(f)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(f + ":2: num_gpu 4294967297 must be at most 2147483647");
  }

  @Test
  void loadNodes_gpuBeyondInt_refusedNotNarrowed() throws IOException {
    Path f = write("n.csv", "sn,cpu_milli,memory_mib,gpu,model", "n1,1000,10,4294967298,V100M16");
    assertThatThrownBy(() -> OpenbCsv.loadNodes(f)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(f + ":2: gpu 4294967298 must be at most 2147483647");
  }

  @Test
  void loadNodes_duplicateName_refusedNamingBothLines() throws IOException {
    Path f = write("n.csv", "sn,cpu_milli,memory_mib,gpu,model", "n1,1000,10,2,V100M16", "n2,1000,10,2,V100M16",
        "n1,1000,10,2,V100M16");
    assertThatThrownBy(() -> OpenbCsv.loadNodes(f)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(f + ":4: node \"n1\" is defined twice (first at line 2)");
  }

  @Test
  void loadNodes_byteOrderMark_headerStillRecognised() throws IOException {
    Path f = dir.resolve("bom.csv");
    Files.writeString(f, "\uFEFFsn,cpu_milli,memory_mib,gpu,model\nn1,1000,10,2,V100M16\n", StandardCharsets.UTF_8);
    assertThat(OpenbCsv.loadNodes(f)).extracting(TraceNode::name).containsExactly("n1");
  }

  @Test
  void loadPods_duplicateHeaderColumn_namesTheColumnNotTheLineLength() throws IOException {
    Path f = write("p.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli,cpu_milli", "a,1,1,1,500,2");
    assertThatThrownBy(() -> OpenbCsv.loadPods(f)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(f + ":1: header names column \"cpu_milli\" twice (columns 2 and 6)");
  }

  @Test
  void loadPods_latin1Bytes_saysNotUtf8WithLine() throws IOException {
    Path f = dir.resolve("latin1.csv");
    Files.write(f, "name,cpu_milli,memory_mib,num_gpu,gpu_milli\nk\u00e4se,1,1,1,500\n"
        .getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> OpenbCsv.loadPods(f)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(f + ":2: is not UTF-8 text")
        .hasMessageNotContaining("Input length");
  }

  @Test
  void loadPods_utf16_saysNotUtf8() throws IOException {
    Path f = dir.resolve("utf16.csv");
    Files.write(f, "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n".getBytes(StandardCharsets.UTF_16));
    assertThatThrownBy(() -> OpenbCsv.loadPods(f)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("is not UTF-8 text");
  }

  @Test
  void loadPods_endlessLine_refusedAtTheLineLimit() throws IOException {
    Path f = dir.resolve("zeros.csv");
    Files.write(f, new byte[OpenbCsv.MAX_LINE_BYTES + 10]);
    assertThatThrownBy(() -> OpenbCsv.loadPods(f)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(f + ":1: line is longer than " + OpenbCsv.MAX_LINE_BYTES + " bytes");
  }
}
