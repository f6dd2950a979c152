package io.fleetkit.api.framework;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A scheduling profile, as in KubeSchedulerConfiguration: the scheduler name pods select it by, the enabled plugins
 * in order ({@link #plugins()}: each takes part in every extension point it implements, kube's {@code multiPoint}),
 * their score weights, per extension point the plugins enabled or disabled there ({@link #points()}, kube's
 * {@code plugins.score}, {@code plugins.filter}...), the plugins' arguments, and the node sampling percentage.
 *
 * <p>Which plugins run at a point, and in which order, is kube's rule ({@code expandMultiPointPlugins} of
 * {@code pkg/scheduler/framework/runtime/framework.go}), given by {@link #pluginsAt}: first the point's own enabled
 * plugins that are also in {@link #plugins()}, in the point's order; then the other plugins of {@link #plugins()}
 * that implement the point, in that order, unless disabled at the point ({@link PointPlugins#ALL} disables them
 * all there); then the point's enabled plugins that are not in {@link #plugins()}. A Score weight given at
 * {@link ExtensionPoint#SCORE} overrides the plugin's {@link #plugins()} weight.
 *
 * @param plugins kube's {@code multiPoint} plugins, in order, with their score weights
 * @param percentageOfNodesToScore {@code null} for kube's adaptive default; 100 scores every node
 * @param points per extension point, the plugins enabled and disabled there; points without settings are absent
 */
public record SchedulerProfile(String schedulerName, List<PluginRef> plugins, @Nullable Integer percentageOfNodesToScore,
    Map<String, Map<String, Object>> pluginArgs, Map<ExtensionPoint, PointPlugins> points) {

  /**
   * An enabled plugin and its score weight (ignored for plugins that do not score; a Score plugin's weight of 0 counts
   * as 1, as kube's framework: a weight of zero is not permitted, a plugin is disabled instead).
   */
  public record PluginRef(String name, int weight) {
    public PluginRef {
      Objects.requireNonNull(name, "name");
      if (weight < 0) {
        throw new IllegalArgumentException("plugin " + name + ": weight " + weight + " must not be negative");
      }
    }
  }

  /**
   * One extension point's own settings, kube's {@code PluginSet} at that point.
   *
   * @param enabled plugins enabled at the point, in order (a weight counts at {@link ExtensionPoint#SCORE})
   * @param disabled names of {@link SchedulerProfile#plugins()} that do not run at the point, or {@link #ALL}
   */
  public record PointPlugins(List<PluginRef> enabled, List<String> disabled) {
    /** In {@link #disabled()}: every plugin of {@link SchedulerProfile#plugins()} is left out of the point. */
    public static final String ALL = "*";
    private static final PointPlugins EMPTY = new PointPlugins(List.of(), List.of());

    public PointPlugins {
      enabled = List.copyOf(enabled);
      disabled = List.copyOf(new LinkedHashSet<>(disabled));
    }

    public static PointPlugins empty() {
      return EMPTY;
    }

    public boolean isEmpty() {
      return enabled.isEmpty() && disabled.isEmpty();
    }

    /** Whether {@link #disabled()} holds {@link #ALL}. */
    public boolean disablesAll() {
      return disabled.contains(ALL);
    }

    boolean enables(String name) {
      for (PluginRef r : enabled) {
        if (r.name().equals(name)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * @throws IllegalArgumentException naming the profile, the plugin and the point when a plugin is enabled twice
   *     (in {@link #plugins()} or at one point), or disabled at a point although the profile does not have it
   */
  public SchedulerProfile {
    Objects.requireNonNull(schedulerName, "schedulerName");
    if (schedulerName.isEmpty()) {
      throw new IllegalArgumentException("profile: schedulerName must not be empty");
    }
    plugins = List.copyOf(plugins);
    Set<String> multiPoint = new HashSet<>();
    for (PluginRef p : plugins) {
      if (!multiPoint.add(p.name())) {
        throw new IllegalArgumentException("profile " + schedulerName + ": plugin " + p.name() + " is enabled twice");
      }
    }
    if (percentageOfNodesToScore != null && (percentageOfNodesToScore < 0 || percentageOfNodesToScore > 100)) {
      throw new IllegalArgumentException("profile " + schedulerName + ": percentageOfNodesToScore "
          + percentageOfNodesToScore + " must be between 0 and 100");
    }
    Map<String, Map<String, Object>> args = new LinkedHashMap<>();
    pluginArgs.forEach((k, v) -> {
      v.forEach((field, value) -> {
        if (field == null || value == null) {
          throw new IllegalArgumentException("profile " + schedulerName + ": the args of plugin " + k + " hold a null "
              + (field == null ? "field name" : "value for " + field) + " (leave an unset field out)");
        }
      });
      args.put(k, Map.copyOf(v));
    });
    pluginArgs = Map.copyOf(args);
    EnumMap<ExtensionPoint, PointPlugins> byPoint = new EnumMap<>(ExtensionPoint.class);
    points.forEach((point, set) -> {
      Objects.requireNonNull(point, "point");
      if (!set.isEmpty()) {
        byPoint.put(point, set);
      }
    });
    for (Map.Entry<ExtensionPoint, PointPlugins> e : byPoint.entrySet()) {
      String at = e.getKey().configName();
      Set<String> seen = new HashSet<>();
      for (PluginRef r : e.getValue().enabled()) {
        if (r.name().isEmpty() || r.name().equals(PointPlugins.ALL)) {
          throw new IllegalArgumentException("profile " + schedulerName + ": plugin name \"" + r.name()
              + "\" enabled at " + at + " must name a plugin");
        }
        if (!seen.add(r.name())) {
          throw new IllegalArgumentException("profile " + schedulerName + ": plugin " + r.name()
              + " is enabled twice at " + at);
        }
      }
      for (String d : e.getValue().disabled()) {
        if (!d.equals(PointPlugins.ALL) && !multiPoint.contains(d) && !seen.contains(d)) {
          throw new IllegalArgumentException("profile " + schedulerName + ": plugin " + d + " is disabled at " + at
              + " but is not a plugin of the profile (plugins: " + String.join(", ",
              plugins.stream().map(PluginRef::name).toList()) + ")");
        }
      }
    }
    points = Collections.unmodifiableMap(byPoint);
  }

  /** A profile without per-point settings: every plugin of {@code plugins} runs at every point it implements. */
  public SchedulerProfile(String schedulerName, List<PluginRef> plugins, @Nullable Integer percentageOfNodesToScore,
      Map<String, Map<String, Object>> pluginArgs) {
    this(schedulerName, plugins, percentageOfNodesToScore, pluginArgs, Map.of());
  }

  public static Builder builder(String schedulerName) {
    return new Builder(schedulerName);
  }

  /** {@code point}'s own settings; {@link PointPlugins#empty()} when it has none. */
  public PointPlugins pointPlugins(ExtensionPoint point) {
    return points.getOrDefault(point, PointPlugins.EMPTY);
  }

  /** This profile with other {@link #plugins()}, keeping every other setting. */
  public SchedulerProfile withPlugins(List<PluginRef> newPlugins) {
    return new SchedulerProfile(schedulerName, newPlugins, percentageOfNodesToScore, pluginArgs, points);
  }

  /**
   * The plugins that run at {@code point}, in order, with their effective weights (kube's
   * {@code expandMultiPointPlugins}; see the class comment). Frameworks call it once per point when they are built.
   *
   * @param implementsPoint whether the named plugin implements {@code point}
   * @throws IllegalArgumentException naming the profile, the plugin and the point when a plugin enabled at
   *     {@code point} does not implement it
   */
  public List<PluginRef> pluginsAt(ExtensionPoint point, Predicate<String> implementsPoint) {
    PointPlugins own = pointPlugins(point);
    for (PluginRef r : own.enabled()) {
      if (!implementsPoint.test(r.name())) {
        throw new IllegalArgumentException("profile " + schedulerName + ": plugin " + r.name() + " is enabled at "
            + point.configName() + " but does not implement " + point.pluginType().getSimpleName());
      }
    }
    if (own.disablesAll()) {
      return own.enabled();
    }
    Set<String> overridden = new HashSet<>();
    List<PluginRef> fromMultiPoint = new ArrayList<>();
    for (PluginRef r : plugins) {
      if (!implementsPoint.test(r.name()) || own.disabled().contains(r.name())) {
        continue;
      }
      if (own.enables(r.name())) {
        overridden.add(r.name());
      } else {
        fromMultiPoint.add(r);
      }
    }
    List<PluginRef> out = new ArrayList<>(own.enabled().size() + fromMultiPoint.size());
    for (PluginRef r : own.enabled()) {
      if (overridden.contains(r.name())) {
        out.add(r);
      }
    }
    out.addAll(fromMultiPoint);
    for (PluginRef r : own.enabled()) {
      if (!overridden.contains(r.name())) {
        out.add(r);
      }
    }
    return List.copyOf(out);
  }

  public Builder toBuilder() {
    Builder b = new Builder(schedulerName);
    b.plugins.addAll(plugins);
    b.percentage = percentageOfNodesToScore;
    b.args.putAll(pluginArgs);
    points.forEach((point, set) -> {
      b.enabledAt(point).addAll(set.enabled());
      b.disabledAt(point).addAll(set.disabled());
    });
    return b;
  }

  /** Mutable builder; not thread-safe. */
  public static final class Builder {
    private final String schedulerName;
    private final List<PluginRef> plugins = new ArrayList<>();
    private @Nullable Integer percentage;
    private final Map<String, Map<String, Object>> args = new LinkedHashMap<>();
    private final Map<ExtensionPoint, List<PluginRef>> enabledAt = new EnumMap<>(ExtensionPoint.class);
    private final Map<ExtensionPoint, Set<String>> disabledAt = new EnumMap<>(ExtensionPoint.class);

    private Builder(String schedulerName) {
      this.schedulerName = schedulerName;
    }

    /** Enables {@code name} with weight 1 (or keeps its position and sets the weight if already enabled). */
    public Builder plugin(String name) {
      return plugin(name, 1);
    }

    public Builder plugin(String name, int weight) {
      put(plugins, name, weight);
      return this;
    }

    /** Disables {@code name} everywhere: it leaves {@link SchedulerProfile#plugins()} and every point's settings. */
    public Builder disable(String name) {
      plugins.removeIf(p -> p.name().equals(name));
      enabledAt.values().forEach(l -> l.removeIf(p -> p.name().equals(name)));
      disabledAt.values().forEach(s -> s.remove(name));
      return this;
    }

    /** Enables {@code name} at {@code point} only (weight 1), as {@link #enableAt(ExtensionPoint, String, int)}. */
    public Builder enableAt(ExtensionPoint point, String name) {
      return enableAt(point, name, 1);
    }

    /**
     * Enables {@code name} at {@code point}: appended to the point's own list, or, if already there, kept in its
     * position with the new weight (kube's merge of a re-configured plugin). The weight counts at
     * {@link ExtensionPoint#SCORE}, where it overrides the plugin's {@link SchedulerProfile#plugins()} weight.
     */
    public Builder enableAt(ExtensionPoint point, String name, int weight) {
      put(enabledAt(point), name, weight);
      return this;
    }

    /**
     * Disables {@code name} (a plugin of {@link SchedulerProfile#plugins()}), or every such plugin with
     * {@link PointPlugins#ALL}, at {@code point} only; a plugin enabled at the point before is removed from it
     * (kube's merge of a disabled default), one enabled there after runs there.
     */
    public Builder disableAt(ExtensionPoint point, String name) {
      Objects.requireNonNull(name, "name");
      if (name.equals(PointPlugins.ALL)) {
        enabledAt(point).clear();
      } else if (enabledAt(point).removeIf(p -> p.name().equals(name))
          && plugins.stream().noneMatch(p -> p.name().equals(name))) {
        return this; // enabled at this point only: removing it is all there is to disable
      }
      disabledAt(point).add(name);
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

    /** @throws IllegalArgumentException as {@link SchedulerProfile}'s constructor */
    public SchedulerProfile build() {
      Map<ExtensionPoint, PointPlugins> points = new EnumMap<>(ExtensionPoint.class);
      for (ExtensionPoint p : ExtensionPoint.values()) {
        PointPlugins set = new PointPlugins(enabledAt.getOrDefault(p, List.of()),
            List.copyOf(disabledAt.getOrDefault(p, Set.of())));
        if (!set.isEmpty()) {
          points.put(p, set);
        }
      }
      return new SchedulerProfile(schedulerName, plugins, percentage, args, points);
    }

    private List<PluginRef> enabledAt(ExtensionPoint point) {
      return enabledAt.computeIfAbsent(Objects.requireNonNull(point, "point"), p -> new ArrayList<>());
    }

    private Set<String> disabledAt(ExtensionPoint point) {
      return disabledAt.computeIfAbsent(Objects.requireNonNull(point, "point"), p -> new LinkedHashSet<>());
    }

    private static void put(List<PluginRef> list, String name, int weight) {
      for (int i = 0; i < list.size(); i++) {
        if (list.get(i).name().equals(name)) {
          list.set(i, new PluginRef(name, weight));
          return;
        }
      }
      list.add(new PluginRef(name, weight));
    }
  }
}
