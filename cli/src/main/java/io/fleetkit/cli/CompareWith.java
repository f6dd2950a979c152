package io.fleetkit.cli;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.adapter.kubernetes.yaml.ManifestException;
import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.Scenario;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The second scenario of {@code fleetkit simulate DIR --compare-with FILE}: FILE read by the loader and validation
 * the manifests go through, holding exactly one {@code simulation.fleetkit.io/v1 Scenario} and nothing else (the
 * second run takes every other object from DIR), and the labels of the two runs. Stateless; prints only on the
 * writer it is given.
 */
final class CompareWith {
  /** The option, as messages name it. */
  static final String OPTION = "--compare-with";

  /** Appended to the second label when the two runs would otherwise carry the same one. */
  static final String SECOND_RUN = " (second run)";

  private CompareWith() {}

  /**
   * FILE as loaded, holding exactly one Scenario and nothing else (with its location), or {@code null} after printing
   * why there is none to take: FILE missing, not a regular file, not valid manifests, or holding no Scenario,
   * several, or other objects besides it. Every line names the option and FILE. The warnings of fields FleetKit does
   * not model are printed unless {@code quiet}.
   */
  static @Nullable LoadedObjects load(Path file, boolean quiet, PrintWriter err) {
    String prefix = "simulate: " + OPTION + " " + file + ": ";
    if (!Files.exists(file)) {
      return refuse(err, prefix + "no such file; give a YAML file holding one simulation.fleetkit.io/v1 Scenario");
    }
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      return refuse(err, prefix + "not a readable file; give a YAML file holding one simulation.fleetkit.io/v1"
          + " Scenario");
    }
    LoadedObjects loaded;
    try {
      loaded = KubernetesYaml.load(List.of(file));
    } catch (ManifestException e) {
      for (ManifestProblem p : e.problems()) {
        String problem = p.toString(); // names FILE first, as the option's value
        err.println(CliText.clipLine(problem.startsWith(file + ": ") ? "simulate: " + OPTION + " " + problem
            : prefix + problem));
      }
      err.flush();
      return null;
    } catch (IllegalArgumentException | FleetKitException e) {
      return refuse(err, prefix + e.getMessage());
    }
    if (!quiet) {
      ManifestWarnings.print(loaded, err);
    }
    List<Scenario> scenarios = loaded.ofType(Scenario.class);
    if (scenarios.size() != 1) {
      String holds = scenarios.size() > 1 ? scenarios.size() + " Scenario objects"
          : loaded.size() == 0 ? "no objects" : "no Scenario, only " + loaded.summary();
      return refuse(err, prefix + "holds " + holds + "; it must hold exactly one simulation.fleetkit.io/v1"
          + " Scenario");
    }
    for (ApiObject<?> o : loaded.objects()) {
      if (!(o instanceof Scenario)) {
        return refuse(err, prefix + "holds " + o.describe() + " besides the Scenario (" + loaded.summary()
            + "); it must hold the Scenario only: the second run takes the other objects from the manifests given");
      }
    }
    return loaded;
  }

  /**
   * The labels of the two runs, {@code [first, second]}: the scenarios' {@code metadata.name}; when the names are
   * equal, the file that holds the first scenario ({@code firstSource}, or the manifests as given when it was built
   * from the command line) and FILE; when those are equal too, the second with {@value #SECOND_RUN}.
   */
  static List<String> labels(Scenario first, @Nullable String firstSource, List<Path> manifests, Scenario second,
      Path file) {
    if (!first.metadata().name().equals(second.metadata().name())) {
      return List.of(first.metadata().name(), second.metadata().name());
    }
    String a = firstSource != null ? firstSource
        : String.join(" ", manifests.stream().map(Path::toString).toList());
    String b = file.toString();
    return List.of(a, a.equals(b) ? b + SECOND_RUN : b);
  }

  private static @Nullable LoadedObjects refuse(PrintWriter err, String message) {
    err.println(CliText.clipLine(message));
    err.flush();
    return null;
  }
}
