package io.fleetkit.api.labels;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** The usual {@link Selector}: requirements ANDed, kept sorted by key. */
final class RequirementsSelector implements Selector {
  static final RequirementsSelector EVERYTHING = new RequirementsSelector(new Requirement[0]);

  private final Requirement[] requirements;
  private final List<Requirement> requirementList;

  RequirementsSelector(Requirement[] requirements) {
    this.requirements = requirements;
    this.requirementList = List.of(requirements);
  }

  /** Sorts {@code reqs} by key (stable) and wraps them. */
  static RequirementsSelector sorted(List<Requirement> reqs) {
    Requirement[] arr = reqs.toArray(new Requirement[0]);
    Arrays.sort(arr, Comparator.comparing(Requirement::key));
    return new RequirementsSelector(arr);
  }

  @Override
  public boolean matches(Map<String, String> labels) {
    for (Requirement r : requirements) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean isEmpty() {
    return requirements.length == 0;
  }

  @Override
  public boolean matchesNothing() {
    return false;
  }

  @Override
  public List<Requirement> requirements() {
    return requirementList;
  }

  @Override
  public Optional<String> requiresExactMatch(String label) {
    for (Requirement r : requirements) {
      if (r.key().equals(label)) {
        switch (r.operator()) {
          case Equals, DoubleEquals, In -> {
            if (r.values().size() == 1) {
              return Optional.of(r.values().get(0));
            }
          }
          default -> {
            // not an exact match
          }
        }
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < requirements.length; i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(requirements[i]);
    }
    return sb.toString();
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof RequirementsSelector s && Arrays.equals(requirements, s.requirements);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(requirements);
  }
}
