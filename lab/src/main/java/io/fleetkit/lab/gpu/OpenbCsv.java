package io.fleetkit.lab.gpu;

import io.fleetkit.api.text.GoIntegers;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
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
 * {@link TraceFormatException} naming the file and the 1-based line: nothing is half-loaded. So does text that is not
 * UTF-8, a line longer than {@link #MAX_LINE_BYTES}, a count beyond {@code int}, a header naming a column twice and a
 * node name given twice. A leading byte-order mark is skipped. A file whose name ends in {@code .gz} is read through
 * gzip. Stateless.
 */
public final class OpenbCsv {
  /** The longest line accepted, in bytes (openb lines are under 200); longer ones are refused, not buffered. */
  public static final int MAX_LINE_BYTES = 64 * 1024;

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
    Map<String, Integer> firstLine = new HashMap<>();
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      String[] f = split(file, i, line, h.size());
      String where = file + ":" + (i + 1);
      String name = f[h.get("sn")].strip();
      Integer first = firstLine.putIfAbsent(name, i + 1);
      if (first != null) {
        throw new TraceFormatException(where + ": node \"" + name + "\" is defined twice (first at line " + first
            + ")");
      }
      int gpus = intNumber(where, "gpu", f[h.get("gpu")]);
      String model = f[h.get("model")].strip();
      if (gpus > 0 && !KNOWN_MODELS.contains(model)) {
        throw new TraceFormatException(where + ": unknown GPU model \"" + model + "\" (known: "
            + String.join(", ", KNOWN_MODELS.stream().sorted().toList()) + ")");
      }
      out.add(new TraceNode(name, number(where, "cpu_milli", f[h.get("cpu_milli")]),
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
          number(where, "memory_mib", f[h.get("memory_mib")]), intNumber(where, "num_gpu", f[h.get("num_gpu")]),
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

  /** Every line of {@code in}, decoded strictly as UTF-8, without a leading byte-order mark; {@code in} not closed. */
  private static List<String> read(String source, InputStream raw) {
    CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    List<String> lines = new ArrayList<>();
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    try {
      InputStream in = new BufferedInputStream(raw);
      int b;
      while ((b = in.read()) >= 0) {
        if (b == '\n') {
          lines.add(decode(source, lines.size() + 1, line, utf8));
          line.reset();
        } else if (line.size() >= MAX_LINE_BYTES) {
          throw new TraceFormatException(source + ":" + (lines.size() + 1) + ": line is longer than "
              + MAX_LINE_BYTES + " bytes; not a trace CSV");
        } else {
          line.write(b);
        }
      }
    } catch (IOException e) {
      throw new TraceFormatException(source + ": cannot read: " + e.getMessage(), e);
    }
    if (line.size() > 0) {
      lines.add(decode(source, lines.size() + 1, line, utf8));
    }
    if (!lines.isEmpty() && lines.get(0).startsWith("\uFEFF")) {
      lines.set(0, lines.get(0).substring(1));
    }
    return lines;
  }

  private static String decode(String source, int lineNumber, ByteArrayOutputStream bytes, CharsetDecoder utf8) {
    byte[] b = bytes.toByteArray();
    int n = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
    try {
      return utf8.reset().decode(ByteBuffer.wrap(b, 0, n)).toString();
    } catch (CharacterCodingException e) {
      int at = 0;
      while (at < n && b[at] >= 0) {
        at++; // the first non-ASCII byte is where decoding could go wrong
      }
      throw new TraceFormatException(source + ":" + lineNumber + ": is not UTF-8 text (undecodable bytes from column "
          + (at + 1) + "); save the file as UTF-8", e);
    }
  }

  private static Map<String, Integer> header(String file, List<String> lines, List<String> required) {
    if (lines.isEmpty()) {
      throw new TraceFormatException(file + ":1: empty file, expected a header with " + required);
    }
    String[] cols = lines.get(0).split(",", -1);
    Map<String, Integer> h = new HashMap<>();
    for (int i = 0; i < cols.length; i++) {
      Integer old = h.put(cols[i].strip(), i);
      if (old != null) {
        throw new TraceFormatException(file + ":1: header names column \"" + cols[i].strip() + "\" twice (columns "
            + (old + 1) + " and " + (i + 1) + ")");
      }
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

  private static int intNumber(String where, String column, String s) {
    long v = number(where, column, s);
    if (v > Integer.MAX_VALUE) {
      throw new TraceFormatException(where + ": " + column + " " + v + " must be at most " + Integer.MAX_VALUE);
    }
    return (int) v;
  }

  private static long number(String where, String column, String s) {
    long v;
    try {
      v = GoIntegers.parseInt(s.strip(), 64); // ASCII digits only
    } catch (NumberFormatException e) {
      throw new TraceFormatException(where + ": " + column + " \"" + s + "\" is not an integer", e);
    }
    if (v < 0) {
      throw new TraceFormatException(where + ": " + column + " " + v + " must not be negative");
    }
    return v;
  }
}
