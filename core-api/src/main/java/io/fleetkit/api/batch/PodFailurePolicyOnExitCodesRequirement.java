package io.fleetkit.api.batch;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A requirement on the exit codes of a failed pod's terminated containers (batch/v1
 * {@code PodFailurePolicyOnExitCodesRequirement}). Containers that exited with 0 never match. The Job that holds it
 * validates it (values 1 to 255 of them, ordered, unique, no 0 with {@code In}; a known container name).
 *
 * @param containerName only that container (or init container); {@code null}: every container
 * @param operator {@code null} only in a requirement that the Job's validation refuses ({@code Required value})
 * @param values the exit codes, as written (the Job refuses them unordered or repeated)
 */
public record PodFailurePolicyOnExitCodesRequirement(@Nullable String containerName,
    @Nullable PodFailurePolicyOnExitCodesOperator operator, List<Integer> values) {
  public PodFailurePolicyOnExitCodesRequirement {
    values = List.copyOf(values);
  }

  /** A requirement on every container. */
  public static PodFailurePolicyOnExitCodesRequirement of(PodFailurePolicyOnExitCodesOperator operator,
      Integer... values) {
    return new PodFailurePolicyOnExitCodesRequirement(null, Objects.requireNonNull(operator, "operator"),
        List.of(values));
  }

  /** This requirement restricted to the container {@code name}. */
  public PodFailurePolicyOnExitCodesRequirement forContainer(String name) {
    return new PodFailurePolicyOnExitCodesRequirement(Objects.requireNonNull(name, "name"), operator, values);
  }

  /**
   * Upstream's {@code isOnExitCodesOperatorMatching}: whether {@code exitCode} satisfies the operator; a requirement
   * without an operator matches nothing.
   */
  public boolean matches(int exitCode) {
    if (operator == null) {
      return false;
    }
    boolean in = values.contains(exitCode);
    return operator == PodFailurePolicyOnExitCodesOperator.In ? in : !in;
  }
}
