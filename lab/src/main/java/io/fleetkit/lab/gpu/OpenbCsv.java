package io.fleetkit.lab.gpu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * Loads the openb CSV files of Alibaba's cluster-trace-gpu-v2023: nodes {@code sn,cpu_milli,memory_mib,gpu,model}
 * and pods {@code name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec,...]} (columns found by header name; extra
 * columns are ignored). A malformed line, an unknown GPU model or a negative amount fails the whole load with a
 * {@link TraceFormatException} naming the file and the 1-based line: nothing is half-loaded. A file whose name ends in
 * {@code .gz} is read through gzip. Stateless.
 */
public final class OpenbCsv {
  /** The GPU models of the openb cluster. */
  public static final Set<String> KNOWN_MODELS = Set.of("A10", "G2", "G3", "P100", "T4", "V100M16", "V100M32");

  private OpenbCsv() {}

  /** All nodes of {@code file} ({@code .csv} or {@code .csv.gz}), CPU-only ones included. */
  public static List<TraceNode> loadNodes(Path file) {
    return loadNodes(file.toString(), read(file));
  }

  /**
   * All nodes of the CSV text in {@code in} (read to the end, not closed), CPU-only ones included; errors name
   * {@code source}.
   */
  public static List<TraceNode> loadNodes(String source, InputStream in) {
    return loadNodes(source, read(source, in));
  }

  private static List<TraceNode> loadNodes(String file, List<String> lines) {
    Map<String, Integer> h = header(file, lines, List.of("sn", "cpu_milli", "memory_mib", "gpu", "model"));
    List<TraceNode> out = new ArrayList<>(lines.size());
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      String[] f = split(file, i, line, h.size());
      String where = file + ":" + (i + 1);
      int gpus = (int) number(where, "gpu", f[h.get("gpu")]);
      String model = f[h.get("model")].strip();
      if (gpus > 0 && !KNOWN_MODELS.contains(model)) {
        throw new TraceFormatException(where + ": unknown GPU model \"" + model + "\" (known: "
            + String.join(", ", KNOWN_MODELS.stream().sorted().toList()) + ")");
      }
      out.add(new TraceNode(f[h.get("sn")].strip(), number(where, "cpu_milli", f[h.get("cpu_milli")]),
          number(where, "memory_mib", f[h.get("memory_mib")]), gpus, gpus > 0 ? model : ""));
    }
    return List.copyOf(out);
  }

  /** All pods of {@code file} ({@code .csv} or {@code .csv.gz}), in file order. */
  public static List<TracePod> loadPods(Path file) {
    return loadPods(file.toString(), read(file));
  }

  /** All pods of the CSV text in {@code in} (read to the end, not closed), in order; errors name {@code source}. */
  public static List<TracePod> loadPods(String source, InputStream in) {
    return loadPods(source, read(source, in));
  }

  private static List<TracePod> loadPods(String file, List<String> lines) {
    Map<String, Integer> h = header(file, lines, List.of("name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"));
    Integer spec = h.get("gpu_spec");
    List<TracePod> out = new ArrayList<>(lines.size());
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      String[] f = split(file, i, line, h.size());
      String where = file + ":" + (i + 1);
      long milli = number(where, "gpu_milli", f[h.get("gpu_milli")]);
      if (milli > 1000) {
        throw new TraceFormatException(where + ": gpu_milli " + milli + " must be at most 1000");
      }
      List<String> models = List.of();
      if (spec != null && !f[spec].isBlank()) {
        models = List.of(f[spec].strip().split("\\|", -1));
        for (String m : models) {
          if (!KNOWN_MODELS.contains(m)) {
            throw new TraceFormatException(where + ": unknown GPU model \"" + m + "\" in gpu_spec \"" + f[spec] + "\"");
          }
        }
      }
      out.add(new TracePod(f[h.get("name")].strip(), number(where, "cpu_milli", f[h.get("cpu_milli")]),
          number(where, "memory_mib", f[h.get("memory_mib")]), (int) number(where, "num_gpu", f[h.get("num_gpu")]),
          (int) milli, models));
    }
    return List.copyOf(out);
  }

  private static List<String> read(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return read(file.toString(), file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(in) : in);
    } catch (IOException e) {
      throw new TraceFormatException(file + ": cannot read: " + e.getMessage(), e);
    }
  }

  private static List<String> read(String source, InputStream in) {
    // not closed: the caller owns the stream
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)));
    try {
      List<String> lines = new ArrayList<>();
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        lines.add(line);
      }
      return lines;
    } catch (CharacterCodingException e) {
      throw new TraceFormatException(source + ": not UTF-8 text (a CSV file was expected)", e);
    } catch (IOException e) {
      throw new TraceFormatException(source + ": cannot read: " + e.getMessage(), e);
    }
  }

  private static Map<String, Integer> header(String file, List<String> lines, List<String> required) {
    if (lines.isEmpty()) {
      throw new TraceFormatException(file + ":1: empty file, expected a header with " + required);
    }
    String[] cols = lines.get(0).split(",", -1);
    Map<String, Integer> h = new HashMap<>();
    for (int i = 0; i < cols.length; i++) {
      h.put(cols[i].strip(), i);
    }
    for (String r : required) {
      if (!h.containsKey(r)) {
        throw new TraceFormatException(file + ":1: header lacks column \"" + r + "\" (found " + lines.get(0) + ")");
      }
    }
    return h;
  }

  private static String[] split(String file, int index, String line, int columns) {
    String[] f = line.split(",", -1);
    if (f.length != columns) {
      throw new TraceFormatException(file + ":" + (index + 1) + ": malformed line, expected " + columns
          + " comma-separated fields, found " + f.length + ": " + line);
    }
    return f;
  }

  private static long number(String where, String column, String s) {
    long v;
    try {
      v = Long.parseLong(s.strip());
    } catch (NumberFormatException e) {
      throw new TraceFormatException(where + ": " + column + " \"" + s + "\" is not an integer", e);
    }
    if (v < 0) {
      throw new TraceFormatException(where + ": " + column + " " + v + " must not be negative");
    }
    return v;
  }
}
