package io.fleetkit.observability.prometheus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed scrape in the Prometheus text format 0.0.4: the {@code # TYPE} of each metric family and every sample.
 *
 * @param types metric family name → {@code counter}, {@code gauge}, {@code histogram}, {@code summary} or
 *     {@code untyped}
 * @param samples every sample line, in order
 */
public record Exposition(Map<String, String> types, List<Sample> samples) {
  public Exposition {
    types = Map.copyOf(types);
    samples = List.copyOf(samples);
  }

  /**
   * One sample line.
   *
   * @param name the series name ({@code x_bucket}, {@code x_sum}, ... for histograms)
   * @param labels label name → value, unescaped
   */
  public record Sample(String name, Map<String, String> labels, double value) {
    public Sample {
      Objects.requireNonNull(name, "name");
      labels = Map.copyOf(labels);
    }
  }

  /** The metric types a {@code # TYPE} line may name. */
  private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");
  private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  /** A Go {@code strconv.ParseFloat} decimal, or one of its words for infinity and NaN. */
  private static final Pattern FLOAT = Pattern.compile(
      "[+-]?(?:[0-9]+\\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\\.[0-9]+(?:[eE][+-]?[0-9]+)?|(?i:inf|infinity)|(?i:nan))");
  private static final Pattern TIMESTAMP = Pattern.compile("-?[0-9]{1,19}");

  /**
   * Parses a scrape. Each line is a comment ({@code # TYPE name type} records a family's type, other comments are
   * skipped), a blank line, or a sample: a metric name, optional labels in braces (each name unique, each value
   * quoted with the escapes {@code \\}, {@code \"} and {@code \n}, a trailing comma allowed), the value (a float,
   * {@code +Inf}, {@code -Inf} or {@code NaN}) and an optional integer timestamp in milliseconds, ignored; names as
   * the format allows them. A bucket of a histogram family must have a float {@code le} label.
   *
   * @throws IllegalArgumentException naming the line number and the line when a line is malformed
   */
  public static Exposition parse(String text) {
    Map<String, String> types = new LinkedHashMap<>();
    List<Sample> samples = new ArrayList<>();
    String[] lines = text.split("\n");
    for (int n = 0; n < lines.length; n++) {
      String line = lines[n].strip();
      if (line.isEmpty()) {
        continue;
      }
      try {
        if (line.startsWith("#")) {
          typeLine(line, types);
          continue;
        }
        Sample sample = sample(line);
        String le = sample.labels().get("le");
        if (sample.name().endsWith("_bucket") && "histogram".equals(types.get(family(sample.name())))
            && (le == null || !FLOAT.matcher(le).matches())) {
          throw new IllegalArgumentException("a histogram bucket's le label must be a float, not " + le);
        }
        samples.add(sample);
      } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
        throw new IllegalArgumentException("prometheus exposition line " + (n + 1) + " \"" + line + "\": "
            + e.getMessage(), e);
      }
    }
    return new Exposition(types, samples);
  }

  private static void typeLine(String line, Map<String, String> types) {
    String[] parts = line.split("\\s+", 4);
    if (parts.length < 2 || !parts[0].equals("#") || !parts[1].equals("TYPE")) {
      return; // HELP or a comment
    }
    if (parts.length < 4) {
      throw new IllegalArgumentException("a TYPE line needs a metric name and a type");
    }
    String name = parts[2];
    String type = parts[3].strip();
    if (!METRIC_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("metric name " + name + " must match " + METRIC_NAME.pattern());
    }
    if (!TYPES.contains(type)) {
      throw new IllegalArgumentException("type " + type + " of " + name + " must be one of " + new TreeSet<>(TYPES));
    }
    if (types.putIfAbsent(name, type) != null) {
      throw new IllegalArgumentException("second TYPE line for metric name " + name);
    }
  }

  private static String family(String bucket) {
    return bucket.substring(0, bucket.length() - "_bucket".length());
  }

  private static Sample sample(String line) {
    Matcher name = METRIC_NAME.matcher(line);
    if (!name.lookingAt()) {
      throw new IllegalArgumentException("a sample must start with a metric name matching " + METRIC_NAME.pattern());
    }
    Map<String, String> labels = new LinkedHashMap<>();
    int i = skipBlanks(line, name.end());
    if (i < line.length() && line.charAt(i) == '{') {
      i = labels(line, skipBlanks(line, i + 1), labels);
    }
    String[] rest = line.substring(i).strip().split("[ \\t]+");
    if (rest[0].isEmpty()) {
      throw new IllegalArgumentException("no value");
    }
    if (rest.length > 2 || rest.length == 2 && !TIMESTAMP.matcher(rest[1]).matches()) {
      throw new IllegalArgumentException("after the value only a timestamp (whole milliseconds) may follow, not "
          + String.join(" ", java.util.Arrays.asList(rest).subList(1, rest.length)));
    }
    return new Sample(name.group(), labels, parseValue(rest[0]));
  }

  /** Reads {@code name="value",...}} from {@code i}, just after the brace; returns the index after the closing one. */
  private static int labels(String line, int i, Map<String, String> labels) {
    while (line.charAt(i) != '}') {
      Matcher key = LABEL_NAME.matcher(line).region(i, line.length());
      if (!key.lookingAt()) {
        throw new IllegalArgumentException("label name at column " + (i + 1) + " must match " + LABEL_NAME.pattern());
      }
      String k = key.group();
      i = skipBlanks(line, key.end());
      if (line.charAt(i) != '=') {
        throw new IllegalArgumentException("label " + k + " needs =");
      }
      i = skipBlanks(line, i + 1);
      if (line.charAt(i) != '"') {
        throw new IllegalArgumentException("label " + k + " value must be quoted");
      }
      StringBuilder v = new StringBuilder();
      int j = i + 1;
      for (; line.charAt(j) != '"'; j++) {
        char c = line.charAt(j);
        if (c == '\\') {
          char e = line.charAt(++j);
          if (e != '\\' && e != '"' && e != 'n') {
            throw new IllegalArgumentException("label " + k + " value: invalid escape sequence \\" + e);
          }
          v.append(e == 'n' ? '\n' : e);
        } else {
          v.append(c);
        }
      }
      if (labels.put(k, v.toString()) != null) {
        throw new IllegalArgumentException("label " + k + " given twice");
      }
      i = skipBlanks(line, j + 1);
      if (line.charAt(i) == ',') {
        i = skipBlanks(line, i + 1);
      } else if (line.charAt(i) != '}') {
        throw new IllegalArgumentException("label " + k + " must be followed by , or }");
      }
    }
    return i + 1;
  }

  private static int skipBlanks(String line, int i) {
    while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static double parseValue(String v) {
    if (!FLOAT.matcher(v).matches()) {
      throw new IllegalArgumentException("value " + v + " must be a float, +Inf, -Inf or NaN");
    }
    String lower = v.toLowerCase(java.util.Locale.ROOT);
    return switch (lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower) {
      case "inf", "infinity" -> lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
      case "nan" -> Double.NaN;
      default -> Double.parseDouble(v);
    };
  }

  /** The samples named {@code name}. */
  public List<Sample> samples(String name) {
    return samples.stream().filter(s -> s.name().equals(name)).toList();
  }

  /** The value of the sample named {@code name} with exactly these labels. */
  public Optional<Double> value(String name, Map<String, String> labels) {
    return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels)).findFirst()
        .map(Sample::value);
  }

  /** The label names seen on the samples named {@code name}, {@code le} excluded. */
  public Set<String> labelNames(String name) {
    Set<String> out = new TreeSet<>();
    for (Sample s : samples(name)) {
      out.addAll(s.labels().keySet());
    }
    out.remove("le");
    return out;
  }

  /**
   * The {@code le} bounds of histogram {@code family}'s buckets for these labels, {@code +Inf} included.
   *
   * @throws IllegalArgumentException when such a bucket's {@code le} is not a float (the family has no
   *     {@code # TYPE family histogram} line, so {@link #parse} did not check it)
   */
  public List<Double> bucketBounds(String family, Map<String, String> labels) {
    List<Double> out = new ArrayList<>();
    for (Sample s : samples(family + "_bucket")) {
      Map<String, String> l = new LinkedHashMap<>(s.labels());
      String le = l.remove("le");
      if (le != null && l.equals(labels)) {
        try {
          out.add(parseValue(le));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("prometheus exposition: " + family + "_bucket " + s.labels() + ": le "
              + e.getMessage(), e);
        }
      }
    }
    return out;
  }
}
