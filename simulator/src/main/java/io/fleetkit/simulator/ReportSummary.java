package io.fleetkit.simulator;

import static io.fleetkit.simulator.HtmlReport.clock;
import static io.fleetkit.simulator.HtmlReport.esc;
import static io.fleetkit.simulator.HtmlReport.num;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTML report's summary: the worst moments (most pending pods, requests beyond capacity, highest cost), the total
 * cost, the faults with their spans, the number of scaling decisions, the workloads and Jobs at the end and the pods
 * still pending, each as a line that a reader takes in at once, however large the run. Every moment it names (a worst
 * moment, a fault, a load's worst minute) is a link that zooms the charts to it. Stateless; thread-safe.
 */
final class ReportSummary {
  private ReportSummary() {}

  /** Appends the summary section of {@code run}'s page. */
  static void append(StringBuilder sb, SimulationRun run) {
    sb.append("<section id=\"summary\">\n<h2>Summary</h2>\n<ul>\n");
    run.series("pending pods").ifPresent(s -> worst(sb, run, s, "Most pending pods", ""));
    // the requests beyond capacity as counted between instants; a run made without them, by the sampled rate
    loads(sb, run.loads());
    if (run.loads().isEmpty()) {
      for (TimeSeries s : run.series()) {
        if (s.name().startsWith("unserved requests/s ")) {
          worst(sb, run, s, "Most requests beyond capacity for " + s.name().substring(20), " requests/s");
        }
      }
    }
    run.series("cost per hour").ifPresent(s -> worst(sb, run, s, "Highest cost", " $/h"));
    run.series("cumulative cost").ifPresentOrElse(s -> sb.append("<li>Total cost: <b>").append(num(s.last()))
        .append(" $</b></li>\n"), () -> sb.append("<li>Cost: ").append(SimulationRun.NO_PRICE).append("</li>\n"));
    int scaling = 0;
    for (TimelineEvent e : run.markers()) {
      if (!ClusterSimulation.FAULT_KINDS.contains(e.kind()) && !ClusterSimulation.RECOVERY_KINDS.contains(e.kind())) {
        scaling++;
      }
    }
    List<Fault> faults = faults(run.markers());
    sb.append("<li>").append(faults.isEmpty() ? "No faults" : "Faults: ");
    for (int i = 0; i < faults.size(); i++) {
      sb.append(i == 0 ? "" : "; ");
      at(sb, faults.get(i).at(), faults.get(i).text());
    }
    sb.append("</li>\n<li>").append(scaling).append(" scaling decision(s)</li>\n");
    List<String> end = new ArrayList<>();
    workloads(end, "Deployment", run.summary().deployments());
    workloads(end, "StatefulSet", run.summary().statefulSets());
    List<JobSummary> jobs = run.summary().jobs();
    String jobsLine = SummaryGroups.jobs(jobs);
    if (jobsLine != null) {
      end.add(jobsLine);
    } else {
      for (JobSummary j : jobs) {
        end.add("Job " + j.name() + " " + j.status() + ", " + j.succeeded() + " succeeded, " + j.failed() + " failed");
      }
    }
    if (!end.isEmpty()) {
      sb.append("<li>At the end: ");
      int shown = Math.min(end.size(), 20);
      sb.append(esc(String.join("; ", end.subList(0, shown))));
      if (end.size() > shown) {
        sb.append(" and ").append(end.size() - shown).append(" more");
      }
      sb.append("</li>\n");
    }
    List<PendingPodSummary> pending = run.summary().pending();
    if (!pending.isEmpty()) {
      sb.append("<li>Pending at the end: <b>").append(pending.size()).append(" pod(s)</b>: ");
      int shown = Math.min(pending.size(), 10);
      List<String> names = new ArrayList<>();
      for (PendingPodSummary p : pending.subList(0, shown)) {
        names.add(p.name() + (p.reason().isEmpty() ? "" : " (" + p.reason() + ": " + p.message() + ")"));
      }
      sb.append(esc(String.join("; ", names)));
      if (pending.size() > shown) {
        sb.append(" and ").append(pending.size() - shown).append(" more");
      }
      sb.append("</li>\n");
    }
    sb.append("</ul>\n</section>\n");
  }

  /**
   * The loads' lines: one per load, or for many ({@link SummaryGroups#loads}) one line for all of them and one per
   * load with requests beyond capacity, the most first.
   */
  private static void loads(StringBuilder sb, List<LoadOutcome> loads) {
    SummaryGroups.Loads grouped = SummaryGroups.loads(loads);
    if (grouped == null) {
      loads.forEach(l -> load(sb, l));
      return;
    }
    sb.append("<li>Loads on ").append(grouped.count()).append(" workloads: <b>").append(esc(grouped.all().summary()))
        .append("</b>").append(esc(grouped.missedClause())).append("</li>\n");
    grouped.listed().forEach(l -> load(sb, l));
  }

  private static void load(StringBuilder sb, LoadOutcome l) {
    sb.append("<li>Load on ").append(esc(l.target())).append(": <b>");
    if (l.worstMinute() == null) {
      sb.append(esc(l.summary()));
    } else {
      at(sb, l.worstMinute(), l.summary());
    }
    sb.append("</b></li>\n");
  }

  /**
   * {@code text} as a link to the moment {@code at}: it leads to the charts, which the page's script zooms to that
   * moment ({@link ReportZoom}).
   */
  private static void at(StringBuilder sb, Duration at, String text) {
    sb.append("<a class=\"at\" href=\"#charts\" data-s=\"").append(at.toSeconds()).append("\">").append(esc(text))
        .append("</a>");
  }

  /**
   * The end-of-run lines of one workload kind: each workload's ready and desired replicas, or for many
   * ({@link SummaryGroups#workloads}) how many have every replica ready and which do not.
   */
  private static void workloads(List<String> end, String kind, List<WorkloadSummary> workloads) {
    String grouped = SummaryGroups.workloads(kind, workloads);
    if (grouped != null) {
      end.add(grouped);
      return;
    }
    for (WorkloadSummary w : workloads) {
      end.add(kind + " " + w.name() + " " + w.ready() + "/" + w.replicas() + " ready");
    }
  }

  /**
   * A summary line naming {@code s}'s largest value and when. When that is the first sample's, the run started there
   * (pods waiting for the first nodes, the cost of the nodes given): the line says so, how long it lasted, and names
   * the largest value after it with its time, so that it does not read as the worst moment of the run.
   */
  private static void worst(StringBuilder sb, SimulationRun run, TimeSeries s, String label, String unit) {
    List<Double> v = s.values();
    int i = s.argMax();
    sb.append("<li>").append(esc(label)).append(": <b>").append(num(s.max())).append(esc(unit)).append("</b>");
    if (s.max() > 0 && i > 0) {
      sb.append(" at ");
      at(sb, run.sampleTimes().get(i), clock(run.sampleTimes().get(i)));
    } else if (s.max() > 0) {
      int end = 0; // the last sample of the start's stretch at that value
      while (end + 1 < v.size() && v.get(end + 1) >= v.get(0)) {
        end++;
      }
      if (end == v.size() - 1) {
        sb.append(" throughout the run");
      } else {
        sb.append(" at the start (");
        at(sb, run.sampleTimes().get(0), clock(run.sampleTimes().get(0)));
        if (end > 0) {
          sb.append(" to ");
          at(sb, run.sampleTimes().get(end), clock(run.sampleTimes().get(end)));
        }
        sb.append(')');
        int later = end + 1;
        for (int j = end + 2; j < v.size(); j++) {
          if (v.get(j) > v.get(later)) {
            later = j;
          }
        }
        if (v.get(later) > 0) {
          sb.append("; later at most <b>").append(num(v.get(later))).append(esc(unit)).append("</b> at ");
          at(sb, run.sampleTimes().get(later), clock(run.sampleTimes().get(later)));
        } else {
          sb.append("; none later");
        }
      }
    }
    sb.append("</li>\n");
  }

  /**
   * Each fault of the markers in a few words, in time order, with when it ended: {@code zone zone-b down from 15:00 to
   * 16:00 (2 node(s) stop: b-1, general-b-1)}. The nodes a zone failure stopped are that fault's, not faults of their
   * own; a fault that never ended says {@code from 15:00 on}.
   */
  static List<String> faultLines(List<TimelineEvent> markers) {
    return faults(markers).stream().map(Fault::text).toList();
  }

  /** A fault's line and when it began. */
  private record Fault(String text, Duration at) {}

  /** The faults of {@link #faultLines}, each with its time. */
  private static List<Fault> faults(List<TimelineEvent> markers) {
    List<Fault> out = new ArrayList<>();
    java.util.Set<String> inZone = new java.util.HashSet<>(); // "at|Node/x" of the nodes a zone failure stopped
    for (int i = 0; i < markers.size(); i++) {
      TimelineEvent e = markers.get(i);
      if (!ClusterSimulation.FAULT_KINDS.contains(e.kind())) {
        continue;
      }
      String what;
      switch (e.kind()) {
        case "ZoneFailed" -> {
          String detail = e.message();
          int colon = detail.indexOf(": ");
          if (colon >= 0) {
            for (String n : detail.substring(colon + 2).split(", ")) {
              inZone.add(e.at() + "|Node/" + n);
            }
          }
          what = "zone " + e.object().substring(e.object().indexOf('/') + 1) + " down"
              + span(markers, i, "ZoneRecovered") + " (" + detail + ")";
        }
        case "NodeFailed" -> {
          if (inZone.contains(e.at() + "|" + e.object())) {
            continue;
          }
          what = "node " + e.object().substring(e.object().indexOf('/') + 1) + " failed" + span(markers, i,
              "NodeRecovered");
        }
        case "GpuDeviceFailed" -> what = "GPUs of node " + e.object().substring(e.object().indexOf('/') + 1)
            + " failed" + span(markers, i, "GpuDeviceRecovered") + " (" + e.message() + ")";
        case "ApiSlow" -> what = "API slow" + span(markers, i, "ApiRecovered") + " (" + e.message() + ")";
        case "CapacityStockout" -> {
          String[] poolZone = e.object().substring(e.object().indexOf('/') + 1).split("/", 2);
          what = "NodePool " + poolZone[0] + " out of capacity" + (poolZone.length > 1 ? " in zone " + poolZone[1] : "")
              + span(markers, i, "CapacityRestored");
        }
        case SpotInterruptions.WARNING -> what = "spot node " + e.object().substring(e.object().indexOf('/') + 1)
            + " warned at " + clock(e.at()) + " (" + e.message() + ")";
        case "KubeletRestarted" -> what = "kubelet of node " + e.object().substring(e.object().indexOf('/') + 1)
            + " restarted at " + clock(e.at());
        default -> what = e.kind() + " " + e.object() + " at " + clock(e.at());
      }
      out.add(new Fault(what, e.at()));
    }
    return out;
  }

  /** {@code " from T to T2"} up to the first {@code recovery} marker of the same object after marker {@code i}. */
  private static String span(List<TimelineEvent> markers, int i, String recovery) {
    TimelineEvent e = markers.get(i);
    for (int k = i + 1; k < markers.size(); k++) {
      TimelineEvent r = markers.get(k);
      if (r.kind().equals(recovery) && r.object().equals(e.object())) {
        return " from " + clock(e.at()) + " to " + clock(r.at());
      }
    }
    return " from " + clock(e.at()) + " on";
  }
}
