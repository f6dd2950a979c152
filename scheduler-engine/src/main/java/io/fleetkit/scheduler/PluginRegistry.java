package io.fleetkit.scheduler;

import io.fleetkit.api.framework.PluginFactory;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Plugin factories by name, as kube-scheduler's {@code runtime.Registry}. Immutable and thread-safe; build one with
 * {@link #builder()} or start from {@link #defaults()} and add out-of-tree plugins with {@link #with}.
 *
 * <p>A name can be registered once: a second registration is rejected, so that a profile's plugin names are never
 * ambiguous.
 */
public final class PluginRegistry {
  private static final PluginRegistry EMPTY = new PluginRegistry(Map.of());

  private final Map<String, PluginFactory> factories;

  private PluginRegistry(Map<String, PluginFactory> factories) {
    this.factories = factories;
  }

  /** A registry with no plugins. */
  public static PluginRegistry empty() {
    return EMPTY;
  }

  /** Every default plugin present in this build, as listed by {@link DefaultPlugins}. */
  public static PluginRegistry defaults() {
    Builder b = builder();
    DefaultPlugins.registerAll(b);
    return b.build();
  }

  public static Builder builder() {
    return new Builder(Map.of());
  }

  /** A builder starting with this registry's plugins. */
  public Builder toBuilder() {
    return new Builder(factories);
  }

  /**
   * This registry plus {@code name}.
   *
   * @throws IllegalArgumentException if {@code name} is empty or already registered
   */
  public PluginRegistry with(String name, PluginFactory factory) {
    return toBuilder().register(name, factory).build();
  }

  /**
   * This registry with {@code factory} in place of the one registered under {@code name} (kube's
   * {@code Registry.Unregister} then {@code Register}), e.g. a plugin given the object store it is to use.
   *
   * @throws IllegalArgumentException if nothing is registered under {@code name}
   */
  public PluginRegistry replacing(String name, PluginFactory factory) {
    Objects.requireNonNull(factory, "factory");
    if (!factories.containsKey(name)) {
      throw new IllegalArgumentException("plugin registry: no plugin named \"" + name + "\" to replace");
    }
    Map<String, PluginFactory> m = new LinkedHashMap<>(factories);
    m.put(name, factory);
    return new PluginRegistry(Collections.unmodifiableMap(m));
  }

  /** The factory registered under {@code name}, or {@code null}. */
  public @Nullable PluginFactory factory(String name) {
    return factories.get(name);
  }

  public boolean contains(String name) {
    return factories.containsKey(name);
  }

  /** The registered names, in registration order. */
  public Set<String> names() {
    return Collections.unmodifiableSet(factories.keySet());
  }

  @Override
  public String toString() {
    return "PluginRegistry" + factories.keySet();
  }

  /** Mutable builder; not thread-safe. */
  public static final class Builder {
    private final Map<String, PluginFactory> factories;

    private Builder(Map<String, PluginFactory> initial) {
      factories = new LinkedHashMap<>(initial);
    }

    /**
     * Registers {@code factory} under {@code name}.
     *
     * @throws IllegalArgumentException if {@code name} is empty or already registered
     */
    public Builder register(String name, PluginFactory factory) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(factory, "factory");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("plugin registry: plugin name must not be empty");
      }
      if (factories.containsKey(name)) {
        throw new IllegalArgumentException("plugin registry: a plugin named \"" + name
            + "\" is already registered; plugin names must be unique");
      }
      factories.put(name, factory);
      return this;
    }

    public PluginRegistry build() {
      return factories.isEmpty() ? EMPTY : new PluginRegistry(Collections.unmodifiableMap(new LinkedHashMap<>(factories)));
    }
  }
}
