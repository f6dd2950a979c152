package io.fleetkit.api.scheduling;

import io.fleetkit.api.labels.LabelSelector;
import java.util.Map;

/** Small selectors for tests. */
public final class LabelSelectorFixtures {
  private LabelSelectorFixtures() {}

  public static LabelSelector app(String app) {
    return LabelSelector.of(Map.of("app", app));
  }
}
