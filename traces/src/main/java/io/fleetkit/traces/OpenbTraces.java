package io.fleetkit.traces;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The openb GPU-cluster trace (Alibaba cluster-trace-gpu-v2023) as bundled in this jar: two node lists and the
 * pod lists the FGD paper (USENIX ATC'23) replays, plus that paper's published allocation results. Every stream
 * is the original CSV text, decompressed; the caller closes it. Sources and licences: this module's README.
 *
 * <p>Stateless and thread-safe.
 */
public final class OpenbTraces {
  /** The node lists: {@code gpu_node} (the 1213 GPU nodes of the paper's cluster) and {@code all_node}. */
  public static final List<String> NODE_LISTS = List.of("gpu_node", "all_node");

  /** The bundled pod lists, by the name after {@code openb_pod_list_}; {@code default} is the paper's main trace. */
  public static final List<String> POD_LISTS = List.of("default", "multigpu20", "multigpu50", "gpushare20",
      "gpushare40", "gpushare80", "gpushare100", "gpuspec20", "gpuspec25", "cpu100", "cpu250");

  private static final String DIR = "/io/fleetkit/traces/";

  private OpenbTraces() {}

  /**
   * Opens node list {@code name} (one of {@link #NODE_LISTS}).
   *
   * @throws IllegalArgumentException if no such node list is bundled; the message lists the bundled ones
   */
  public static InputStream openNodes(String name) {
    check("node list", name, NODE_LISTS);
    return open("openb/openb_node_list_" + name + ".csv.gz");
  }

  /**
   * Opens pod list {@code name} (one of {@link #POD_LISTS}).
   *
   * @throws IllegalArgumentException if no such pod list is bundled; the message lists the bundled ones
   */
  public static InputStream openPods(String name) {
    check("pod list", name, POD_LISTS);
    return open("openb/openb_pod_list_" + name + ".csv.gz");
  }

  /** The file name a bundled pod list had in the original trace, e.g. {@code openb_pod_list_default.csv}. */
  public static String podFileName(String name) {
    check("pod list", name, POD_LISTS);
    return "openb_pod_list_" + name + ".csv";
  }

  /** The file name a bundled node list had in the original trace, e.g. {@code openb_node_list_gpu_node.csv}. */
  public static String nodeFileName(String name) {
    check("node list", name, NODE_LISTS);
    return "openb_node_list_" + name + ".csv";
  }

  /**
   * Opens the FGD paper's published GPU allocation results ({@code analysis_allo_discrete.csv} of the paper's
   * simulator), restricted to the bundled pod lists and to the columns {@code workload, sc_policy, tune, seed,
   * total_gpus} and the allocation ratio (%) at arrival percentages 0, 5, ..., 100.
   */
  public static InputStream openPublishedAllocation() {
    return open("fgd/published_allocation.csv.gz");
  }

  private static void check(String what, String name, List<String> known) {
    if (!known.contains(name)) {
      throw new IllegalArgumentException("no bundled openb " + what + " named \"" + name + "\" (bundled: "
          + String.join(", ", known) + ")");
    }
  }

  private static InputStream open(String resource) {
    InputStream raw = OpenbTraces.class.getResourceAsStream(DIR + resource);
    if (raw == null) {
      throw new IllegalStateException("bundled resource " + DIR + resource + " is missing from the classpath");
    }
    try {
      return new GZIPInputStream(raw, 1 << 16);
    } catch (IOException e) {
      try {
        raw.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw new UncheckedIOException("cannot read bundled resource " + DIR + resource, e);
    }
  }
}
