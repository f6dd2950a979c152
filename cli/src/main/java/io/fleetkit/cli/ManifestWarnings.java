package io.fleetkit.cli;

import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The warnings of a manifest load ({@link LoadedObjects#warnings()}) as {@code Warning: ...} lines for stderr, the
 * way kubectl prints a server's warnings. The same field and rule in many objects is one line with the count and the
 * first {@value #NAMED} objects, so that a thousand pods carrying one ignored field print one line:
 * {@code Warning: spec.containers[0].securityContext: not modelled by FleetKit; ignored in 1000 objects: Pod
 * default/p0 (pods.yaml:7), ... and 997 more}. A field in one object names its place first, as a compiler does:
 * {@code Warning: dep.yaml:22: Deployment default/web: spec.template.spec.containers[0].stdin: not modelled by
 * FleetKit; ignored}.
 */
final class ManifestWarnings {
  /** Objects named on the line of a field ignored in several. */
  static final int NAMED = 3;

  private ManifestWarnings() {}

  /** One line per field and rule, in the order of their first warning. */
  static List<String> lines(List<ManifestProblem> warnings) {
    Map<String, List<ManifestProblem>> byField = new LinkedHashMap<>();
    for (ManifestProblem w : warnings) {
      byField.computeIfAbsent(w.violation().field() + ": " + w.violation().rule(), k -> new ArrayList<>()).add(w);
    }
    List<String> out = new ArrayList<>(byField.size());
    for (Map.Entry<String, List<ManifestProblem>> e : byField.entrySet()) {
      List<ManifestProblem> ws = e.getValue();
      if (ws.size() == 1) {
        ManifestProblem w = ws.get(0);
        out.add(CliText.clipLine("Warning: " + location(w) + ": " + w.violation().object() + ": " + e.getKey()));
        continue;
      }
      StringBuilder sb = new StringBuilder("Warning: ").append(e.getKey()).append(" in ").append(ws.size())
          .append(" objects: ");
      for (int i = 0; i < Math.min(NAMED, ws.size()); i++) {
        sb.append(i == 0 ? "" : ", ").append(ws.get(i).violation().object()).append(" (").append(location(ws.get(i)))
            .append(')');
      }
      if (ws.size() > NAMED) {
        sb.append(" and ").append(ws.size() - NAMED).append(" more");
      }
      out.add(CliText.clipLine(sb.toString()));
    }
    return out;
  }

  /** Prints {@link #lines} of the load's warnings on {@code err}. */
  static void print(LoadedObjects loaded, PrintWriter err) {
    for (String line : lines(loaded.warnings())) {
      err.println(line);
    }
    err.flush();
  }

  /** {@code dep.yaml:22}, or the source alone when the line is unknown. */
  private static String location(ManifestProblem w) {
    return w.line() > 0 ? w.source() + ":" + w.line() : w.source();
  }

  /**
   * What a command's summary adds for the load's warnings: nothing without any; else {@code ; 3 fields not modelled
   * by FleetKit ignored (see the warnings)}, and the count of the API server's warnings (a legacy IP or CIDR field,
   * such as a Service's cluster IP or an Endpoints address, in a non-standard form),
   * {@code ; 1 API server warning (see the warnings)}, or both.
   */
  static String summaryTail(LoadedObjects loaded) {
    if (loaded.warnings().isEmpty()) {
      return "";
    }
    long server = loaded.warnings().stream().filter(w -> !w.violation().rule().endsWith(LoadedObjects.NOT_MODELLED))
        .count();
    List<String> parts = new ArrayList<>(2);
    if (server < loaded.warnings().size()) {
      parts.add(ignoredFields(loaded) + " not modelled by FleetKit ignored");
    }
    if (server > 0) {
      parts.add(server + (server == 1 ? " API server warning" : " API server warnings"));
    }
    return "; " + String.join(", ", parts) + " (see the warnings)";
  }

  /**
   * {@code 3 fields} / {@code 1 field}: how many fields were ignored, for a command's summary; with {@code and 2
   * objects} when objects of kinds FleetKit does not model were left out (their warning is at {@code kind}).
   */
  static String ignoredFields(LoadedObjects loaded) {
    int objects = (int) loaded.warnings().stream().filter(w -> w.violation().field().equals("kind")).count();
    int n = (int) loaded.warnings().stream().filter(w -> w.violation().rule().endsWith(LoadedObjects.NOT_MODELLED))
        .count() - objects;
    String fields = n + (n == 1 ? " field" : " fields");
    return objects == 0 ? fields : fields + " and " + objects + (objects == 1 ? " object" : " objects");
  }
}
