package io.fleetkit.lab.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzzes the openb trace readers: any bytes give nodes and pods or a {@link TraceFormatException} naming the file;
 * never another exception, never a hang. The same bytes are read as a node list and as a pod list.
 */
final class OpenbCsvFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void load_anyBytes_rowsOrDocumentedError(byte[] data) throws IOException {
    Path f = Files.createTempFile("openb-fuzz", ".csv");
    try {
      Files.write(f, data);
      try {
        assertThat(OpenbCsv.loadNodes(f)).allSatisfy(n -> assertThat(n.gpus()).isNotNegative());
      } catch (TraceFormatException e) {
        assertThat(e.getMessage()).startsWith(f.toString());
      }
      try {
        assertThat(OpenbCsv.loadPods(f)).allSatisfy(p -> assertThat(p.gpuMilli()).isBetween(0, 1000));
      } catch (TraceFormatException e) {
        assertThat(e.getMessage()).startsWith(f.toString());
      }
    } finally {
      Files.deleteIfExists(f);
    }
  }
}
