package io.fleetkit.adapter.kubernetes.yaml;

import io.fleetkit.api.ValidationException;
import java.util.ArrayList;
import java.util.List;

/**
 * Manifests could not be loaded. Lists every problem found across all sources, in source and document order, so
 * that a user fixes them in one pass; when this is thrown nothing was loaded.
 */
public class ManifestException extends ValidationException {
  private final List<ManifestProblem> problems;

  /**
   * @throws IllegalArgumentException if {@code problems} is empty
   */
  public ManifestException(List<ManifestProblem> problems) {
    super(violations(problems));
    this.problems = List.copyOf(problems);
  }

  /** Every problem, in the order found; never empty. */
  public List<ManifestProblem> problems() {
    return problems;
  }

  /** One problem per line, each naming source, document, object, field and rule. */
  @Override
  public String getMessage() {
    if (problems.size() == 1) {
      return problems.get(0).toString();
    }
    StringBuilder sb = new StringBuilder(problems.size() + " problems in manifests:");
    for (ManifestProblem p : problems) {
      sb.append("\n  ").append(p);
    }
    return sb.toString();
  }

  private static List<io.fleetkit.api.Violation> violations(List<ManifestProblem> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a ManifestException needs at least one problem");
    }
    List<io.fleetkit.api.Violation> out = new ArrayList<>(problems.size());
    for (ManifestProblem p : problems) {
      out.add(p.violation());
    }
    return out;
  }
}
