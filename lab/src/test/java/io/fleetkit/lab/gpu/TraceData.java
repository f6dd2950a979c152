package io.fleetkit.lab.gpu;

import io.fleetkit.traces.OpenbTraces;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The openb data bundled in {@code fleetkit-traces}, loaded for tests. */
public final class TraceData {
  private TraceData() {}

  /** The 1213 GPU nodes of the FGD paper's cluster. */
  public static List<TraceNode> gpuNodes() {
    try (InputStream in = OpenbTraces.openNodes("gpu_node")) {
      return OpenbCsv.loadNodes(OpenbTraces.nodeFileName("gpu_node"), in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Bundled pod list {@code name} ({@code default}, {@code multigpu50}, ...). */
  public static List<TracePod> pods(String name) {
    try (InputStream in = OpenbTraces.openPods(name)) {
      return OpenbCsv.loadPods(OpenbTraces.podFileName(name), in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The lines of the FGD paper's published allocation results (header first). */
  public static List<String> publishedAllocation() {
    try (BufferedReader r = new BufferedReader(
        new InputStreamReader(OpenbTraces.openPublishedAllocation(), StandardCharsets.UTF_8))) {
      return r.lines().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
