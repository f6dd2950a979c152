package io.fleetkit.observability.prometheus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

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

  /**
   * Parses a scrape.
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
          String[] parts = line.split("\\s+", 4);
          if (parts.length >= 4 && parts[1].equals("TYPE")) {
            types.put(parts[2], parts[3]);
          }
          continue;
        }
        samples.add(sample(line));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("prometheus exposition line " + (n + 1) + " \"" + line + "\": "
            + e.getMessage(), e);
      }
    }
    return new Exposition(types, samples);
  }

  private static Sample sample(String line) {
    int brace = line.indexOf('{');
    int space = line.indexOf(' ');
    if (space < 0) {
      throw new IllegalArgumentException("no value");
    }
    String name;
    Map<String, String> labels = new LinkedHashMap<>();
    int rest;
    if (brace >= 0 && brace < space) {
      name = line.substring(0, brace);
      int i = brace + 1;
      while (line.charAt(i) != '}') {
        int eq = line.indexOf('=', i);
        String key = line.substring(i, eq).strip();
        if (line.charAt(eq + 1) != '"') {
          throw new IllegalArgumentException("label " + key + " value must be quoted");
        }
        StringBuilder v = new StringBuilder();
        int j = eq + 2;
        for (; line.charAt(j) != '"'; j++) {
          char c = line.charAt(j);
          if (c == '\\') {
            char e = line.charAt(++j);
            v.append(e == 'n' ? '\n' : e);
          } else {
            v.append(c);
          }
        }
        labels.put(key, v.toString());
        i = j + 1;
        if (line.charAt(i) == ',') {
          i++;
        }
      }
      rest = i + 1;
    } else {
      name = line.substring(0, space);
      rest = space;
    }
    String[] value = line.substring(rest).strip().split("\\s+");
    return new Sample(name, labels, parseValue(value[0]));
  }

  private static double parseValue(String v) {
    return switch (v) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
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

  /** The {@code le} bounds of histogram {@code family}'s buckets for these labels, {@code +Inf} included. */
  public List<Double> bucketBounds(String family, Map<String, String> labels) {
    List<Double> out = new ArrayList<>();
    for (Sample s : samples(family + "_bucket")) {
      Map<String, String> l = new LinkedHashMap<>(s.labels());
      String le = l.remove("le");
      if (le != null && l.equals(labels)) {
        out.add(parseValue(le));
      }
    }
    return out;
  }
}
