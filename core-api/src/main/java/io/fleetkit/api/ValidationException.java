package io.fleetkit.api;

import java.util.List;

/**
 * Input broke one or more rules. Lists every violation found, not only the first, so that a user fixes a
 * manifest in one pass.
 */
public class ValidationException extends FleetKitException {
  private final List<Violation> violations;

  public ValidationException(List<Violation> violations) {
    super(render(violations));
    this.violations = List.copyOf(violations);
  }

  public ValidationException(Violation violation) {
    this(List.of(violation));
  }

  /** Every violation, in the order found; never empty. */
  public List<Violation> violations() {
    return violations;
  }

  private static String render(List<Violation> violations) {
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("a ValidationException needs at least one violation");
    }
    if (violations.size() == 1) {
      return violations.get(0).toString();
    }
    StringBuilder sb = new StringBuilder(violations.size() + " violations:");
    for (Violation v : violations) {
      sb.append("\n  - ").append(v);
    }
    return sb.toString();
  }
}
