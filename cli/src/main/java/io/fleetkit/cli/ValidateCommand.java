package io.fleetkit.cli;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.adapter.kubernetes.yaml.ManifestException;
import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fleetkit validate FILE|DIR...}: loads Kubernetes YAML manifests and prints {@code OK: 14 objects (5 Node,
 * 9 Pod)} (exit 0), or every problem, one per line on stderr (exit 1). Fields FleetKit does not model are printed as
 * {@code Warning: ...} lines on stderr ({@link ManifestWarnings}) and counted in the summary; they do not fail it.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = {"Check Kubernetes YAML manifests: every document must be a supported kind with valid fields.",
        "Directories are searched recursively for *.yaml and *.yml files."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:all manifests are valid (fields FleetKit ignores are warned of on stderr)", "1:at least one problem (each printed on stderr)",
        "2:bad command line"})
public final class ValidateCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE|DIR", description = "Manifest files or directories.")
  private List<Path> paths;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      LoadedObjects loaded = KubernetesYaml.load(paths);
      ManifestWarnings.print(loaded, err);
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
