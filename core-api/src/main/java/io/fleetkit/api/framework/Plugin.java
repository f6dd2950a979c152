package io.fleetkit.api.framework;

/**
 * A scheduler plugin. A plugin implements one or more extension-point interfaces; its name is unique within a
 * registry (duplicates are rejected).
 */
public interface Plugin {
  String name();
}
