package io.fleetkit.api.core;

import io.fleetkit.api.scheduling.NodeSelector;
import java.util.Objects;

/** The nodes a PersistentVolume can be reached from ({@code spec.nodeAffinity.required}). */
public record VolumeNodeAffinity(NodeSelector required) {
  public VolumeNodeAffinity {
    Objects.requireNonNull(required, "required");
  }
}
