package io.fleetkit.api.framework;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A scheduling profile, as in KubeSchedulerConfiguration: the scheduler name pods select it by, the enabled plugins
 * in order (each plugin takes part in every extension point it implements, like kube's {@code multiPoint}), their
 * score weights, their arguments, and the node sampling percentage.
 *
 * @param percentageOfNodesToScore {@code null} for kube's adaptive default; 100 scores every node
 */
public record SchedulerProfile(String schedulerName, List<PluginRef> plugins, @Nullable Integer percentageOfNodesToScore,
    Map<String, Map<String, Object>> pluginArgs) {

  /** An enabled plugin and its score weight (ignored for plugins that do not score). */
  public record PluginRef(String name, int weight) {
    public PluginRef {
      Objects.requireNonNull(name, "name");
      if (weight < 0) {
        throw new IllegalArgumentException("plugin " + name + ": weight " + weight + " must not be negative");
      }
    }
  }

  public SchedulerProfile {
    Objects.requireNonNull(schedulerName, "schedulerName");
    if (schedulerName.isEmpty()) {
      throw new IllegalArgumentException("profile: schedulerName must not be empty");
    }
    plugins = List.copyOf(plugins);
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (PluginRef p : plugins) {
      if (!seen.add(p.name())) {
        throw new IllegalArgumentException("profile " + schedulerName + ": plugin " + p.name() + " is enabled twice");
      }
    }
    if (percentageOfNodesToScore != null && (percentageOfNodesToScore < 0 || percentageOfNodesToScore > 100)) {
      throw new IllegalArgumentException("profile " + schedulerName + ": percentageOfNodesToScore "
          + percentageOfNodesToScore + " must be between 0 and 100");
    }
    Map<String, Map<String, Object>> args = new LinkedHashMap<>();
    pluginArgs.forEach((k, v) -> args.put(k, Map.copyOf(v)));
    pluginArgs = Map.copyOf(args);
  }

  public static Builder builder(String schedulerName) {
    return new Builder(schedulerName);
  }

  public Builder toBuilder() {
    Builder b = new Builder(schedulerName);
    b.plugins.addAll(plugins);
    b.percentage = percentageOfNodesToScore;
    b.args.putAll(pluginArgs);
    return b;
  }

  /** Mutable builder; not thread-safe. */
  public static final class Builder {
    private final String schedulerName;
    private final List<PluginRef> plugins = new ArrayList<>();
    private @Nullable Integer percentage;
    private final Map<String, Map<String, Object>> args = new LinkedHashMap<>();

    private Builder(String schedulerName) {
      this.schedulerName = schedulerName;
    }

    /** Enables {@code name} with weight 1 (or keeps its position and sets the weight if already enabled). */
    public Builder plugin(String name) {
      return plugin(name, 1);
    }

    public Builder plugin(String name, int weight) {
      for (int i = 0; i < plugins.size(); i++) {
        if (plugins.get(i).name().equals(name)) {
          plugins.set(i, new PluginRef(name, weight));
          return this;
        }
      }
      plugins.add(new PluginRef(name, weight));
      return this;
    }

    public Builder disable(String name) {
      plugins.removeIf(p -> p.name().equals(name));
      return this;
    }

    public Builder percentageOfNodesToScore(@Nullable Integer pct) {
      this.percentage = pct;
      return this;
    }

    public Builder pluginArgs(String pluginName, Map<String, Object> pluginArgs) {
      args.put(pluginName, pluginArgs);
      return this;
    }

    public SchedulerProfile build() {
      return new SchedulerProfile(schedulerName, plugins, percentage, args);
    }
  }
}
