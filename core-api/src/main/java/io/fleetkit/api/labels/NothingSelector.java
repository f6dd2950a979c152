package io.fleetkit.api.labels;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link Selector#nothing()}. */
enum NothingSelector implements Selector {
  INSTANCE;

  @Override
  public boolean matches(Map<String, String> labels) {
    return false;
  }

  @Override
  public boolean isEmpty() {
    return false;
  }

  @Override
  public boolean matchesNothing() {
    return true;
  }

  @Override
  public List<Requirement> requirements() {
    return List.of();
  }

  @Override
  public Optional<String> requiresExactMatch(String label) {
    return Optional.empty();
  }

  @Override
  public String toString() {
    return "";
  }
}
