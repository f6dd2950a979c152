package io.fleetkit.api.simulation;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.text.GoIntegers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * A stream of batch jobs arriving in namespace {@code namespace}, submitted to the LocalQueue {@code queue} (a
 * {@link ScenarioQueue}'s name; {@code ""} for none: they run at once). Exactly one source:
 * <ul>
 *   <li>{@code jobs}: a fixed list, e.g. read from a pod list with {@link #parsePodList};
 *   <li>{@code trace}: the name of a pod list bundled with FleetKit (the openb lists of the traces module, e.g.
 *       {@code default}), its first {@code first} rows, times multiplied by {@code timeScale};
 *   <li>{@code perHour} with a {@code template}: a Poisson process of that many jobs per hour on average, each a
 *       copy of the template, drawn from the scenario's seed.
 * </ul>
 */
public record JobStream(String name, String namespace, String queue, List<JobArrival> jobs, String trace, int first,
    double timeScale, double perHour, @Nullable JobArrival template) {
  /** The pod-list columns read (openb's {@code openb_pod_list_*.csv} header names); others are ignored. */
  public static final List<String> COLUMNS = List.of("name", "cpu_milli", "memory_mib", "num_gpu", "creation_time",
      "deletion_time");
  /** The GPU resource name a pod list's {@code num_gpu} becomes. */
  public static final String GPU = "nvidia.com/gpu";

  public JobStream {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(trace, "trace");
    jobs = List.copyOf(jobs);
  }

  /** A fixed list of jobs. */
  public static JobStream of(String name, String namespace, String queue, List<JobArrival> jobs) {
    return new JobStream(name, namespace, queue, jobs, "", 0, 1, 0, null);
  }

  /** A Poisson process of {@code perHour} copies of {@code template} per hour. */
  public static JobStream poisson(String name, String namespace, String queue, double perHour, JobArrival template) {
    return new JobStream(name, namespace, queue, List.of(), "", 0, 1, perHour, template);
  }

  /** The first {@code first} rows of a bundled pod list, times scaled by {@code timeScale}. */
  public static JobStream trace(String name, String namespace, String queue, String trace, int first,
      double timeScale) {
    return new JobStream(name, namespace, queue, List.of(), trace, first, timeScale, 0, null);
  }

  /**
   * The arrivals before {@code until} of a fixed list or a Poisson stream (inter-arrival times exponential with mean
   * {@code 1/perHour} h, drawn from {@code seed} and the stream's name), in time order. A trace stream is resolved by
   * its runner ({@link #parsePodList} on the bundled text).
   */
  public List<JobArrival> arrivals(long seed, Duration until) {
    List<JobArrival> out = new ArrayList<>();
    if (template != null && perHour > 0) {
      SplittableRandom rnd = new SplittableRandom(seed * 31 + name.hashCode());
      double t = 0;
      double meanSeconds = 3600 / perHour;
      while (true) {
        t += -Math.log(1 - rnd.nextDouble()) * meanSeconds;
        Duration at = Duration.ofMillis(Math.round(t * 1000));
        if (at.compareTo(until) >= 0) {
          break;
        }
        out.add(template.at(at));
      }
      return out;
    }
    for (JobArrival a : jobs) {
      if (a.at().compareTo(until) < 0) {
        out.add(a);
      }
    }
    out.sort((a, b) -> a.at().compareTo(b.at()));
    return out;
  }

  /**
   * Reads a pod list in openb's CSV form: a header row naming at least {@link #COLUMNS} (in any order, other columns
   * ignored), then one pod per row, each becoming a one-pod job at {@code creation_time × timeScale} seconds running
   * {@code (deletion_time − creation_time) × timeScale} seconds with {@code cpu_milli} millicores, {@code memory_mib}
   * MiB and {@code num_gpu} whole GPUs ({@link #GPU}; openb's GPU shares below one GPU count as one). Rows after
   * {@code first} (when above 0) are not read.
   *
   * @throws IllegalArgumentException naming the row (1-based, the header is row 1) and column of the first bad cell,
   *     or the missing header columns
   */
  public static List<JobArrival> parsePodList(String text, double timeScale, int first) {
    if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
      throw new IllegalArgumentException("timeScale must be a finite number above 0, not " + timeScale);
    }
    String[] lines = text.split("\\R");
    int h = 0;
    while (h < lines.length && (lines[h].isBlank() || lines[h].strip().startsWith("#"))) {
      h++;
    }
    if (h == lines.length) {
      throw new IllegalArgumentException("pod list: no header row (columns " + COLUMNS + ")");
    }
    List<String> header = Arrays.stream(lines[h].split(",")).map(String::strip).toList();
    int[] col = new int[COLUMNS.size()];
    List<String> missing = new ArrayList<>();
    for (int i = 0; i < COLUMNS.size(); i++) {
      col[i] = header.indexOf(COLUMNS.get(i));
      if (col[i] < 0) {
        missing.add(COLUMNS.get(i));
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException("pod list row " + (h + 1) + ": header lacks columns " + missing
          + " (has " + header + ")");
    }
    List<JobArrival> out = new ArrayList<>();
    for (int r = h + 1; r < lines.length && (first <= 0 || out.size() < first); r++) {
      String line = lines[r].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] cells = line.split(",", -1);
      String row = "pod list row " + (r + 1);
      if (cells.length < header.size()) {
        throw new IllegalArgumentException(row + ": " + cells.length + " cells, the header has " + header.size());
      }
      String podName = cells[col[0]].strip();
      long cpu = number(cells[col[1]], row, "cpu_milli");
      long mem = number(cells[col[2]], row, "memory_mib");
      long gpu = number(cells[col[3]], row, "num_gpu");
      long created = number(cells[col[4]], row, "creation_time");
      long deleted = number(cells[col[5]], row, "deletion_time");
      if (deleted < created) {
        throw new IllegalArgumentException(row + ": deletion_time " + deleted + " is before creation_time "
            + created);
      }
      if (mem > Long.MAX_VALUE >> 20) {
        throw new IllegalArgumentException(row + ": column memory_mib " + mem + " is more bytes than a long holds");
      }
      ResourceList.Builder req = ResourceList.builder().put("cpu", Quantity.ofMilli(cpu))
          .put("memory", Quantity.ofBytes(mem << 20));
      if (gpu > 0) {
        req.put(GPU, Quantity.of(gpu));
      }
      out.add(new JobArrival(seconds(created * timeScale), podName, 1, req.build(),
          seconds((deleted - created) * timeScale)));
    }
    return out;
  }

  private static Duration seconds(double s) {
    return Duration.ofMillis(Math.round(s * 1000));
  }

  private static long number(String cell, String row, String column) {
    try {
      long v = GoIntegers.parseInt(cell.strip(), 64); // ASCII digits only, as everywhere in FleetKit
      if (v < 0) {
        throw new IllegalArgumentException(row + ": column " + column + " must not be negative, not " + v);
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(row + ": column " + column + " must be a whole number, not \"" + cell.strip()
          + "\"", e);
    }
  }
}
