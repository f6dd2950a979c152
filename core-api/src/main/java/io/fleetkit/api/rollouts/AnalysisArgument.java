package io.fleetkit.api.rollouts;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A named argument of an analysis: declared by a template (optionally with a default value) and given a value by
 * the rollout or run that uses it. Metric queries refer to it as {@code {{args.NAME}}}.
 *
 * @param value the value; {@code null} when a template declares the argument without a default
 */
public record AnalysisArgument(String name, @Nullable String value) {
  public AnalysisArgument {
    Objects.requireNonNull(name, "name");
  }

  public static AnalysisArgument of(String name, String value) {
    return new AnalysisArgument(name, Objects.requireNonNull(value, "value"));
  }
}
