package io.fleetkit.api.framework;

/** Creates a plugin for a profile. Registered by name; a registry rejects a second factory with the same name. */
@FunctionalInterface
public interface PluginFactory {
  Plugin create(FrameworkHandle handle);
}
