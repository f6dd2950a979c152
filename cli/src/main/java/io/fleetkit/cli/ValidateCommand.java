package io.fleetkit.cli;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.adapter.kubernetes.yaml.ManifestException;
import io.fleetkit.adapter.kubernetes.yaml.ManifestLocation;
import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.simulator.ClusterSimulation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fleetkit validate FILE|DIR...}: loads Kubernetes YAML manifests and prints {@code OK: 14 objects (5 Node,
 * 9 Pod)} (exit 0), or every problem, one per line on stderr (exit 1): each document's own, then those between the
 * loaded objects that a simulation refuses ({@link ClusterSimulation#queueProblems}: a LocalQueue naming a
 * ClusterQueue not among them, a Scenario queue a Kueue manifest defines too, ...), with the same messages. Fields
 * FleetKit does not model are printed as {@code Warning: ...} lines on stderr ({@link ManifestWarnings}) and counted
 * in the summary; they do not fail it.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = {"Check Kubernetes YAML manifests: every document must be a supported kind with valid fields.",
        "The objects together must be what a simulation accepts: Kueue's LocalQueues name ClusterQueues among them,",
        "and a Scenario's queues are not defined by Kueue manifests too.",
        "Directories are searched recursively for *.yaml and *.yml files."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:all manifests are valid (fields FleetKit ignores are warned of on stderr)", "1:at least one problem (each printed on stderr)",
        "2:bad command line"})
public final class ValidateCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE|DIR", description = "Manifest files or directories.")
  private List<Path> paths;

  /**
   * The problems between loaded objects that a simulation refuses ({@link ClusterSimulation#queueProblems}: Kueue's
   * objects across each other, and each Scenario's queues against them), each at the line of its object's field.
   */
  private static List<ManifestProblem> acrossObjects(LoadedObjects loaded) {
    List<Violation> violations = ClusterSimulation.queueProblems(loaded.objects());
    Map<String, ManifestLocation> where = new HashMap<>();
    for (ApiObject<?> o : loaded.objects()) {
      loaded.locationOf(o).ifPresent(at -> where.putIfAbsent(o.describe(), at));
    }
    List<ManifestProblem> out = new ArrayList<>();
    for (Violation v : violations) {
      ManifestLocation at = where.get(v.object());
      out.add(at == null ? new ManifestProblem("", 1, 1, 1, v, ManifestProblem.NO_ITEM) : at.problem(v));
    }
    return out;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      LoadedObjects loaded = KubernetesYaml.load(paths);
      ManifestWarnings.print(loaded, err);
      List<ManifestProblem> across = acrossObjects(loaded);
      if (!across.isEmpty()) {
        throw new ManifestException(across);
      }
      out.println("OK: " + loaded.summary() + ManifestWarnings.summaryTail(loaded));
      out.flush();
      return 0;
    } catch (ManifestException e) {
      for (ManifestProblem p : e.problems()) {
        err.println(CliText.clipLine(p.toString()));
      }
      err.flush();
      return 1;
    }
  }
}
