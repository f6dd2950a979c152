package io.fleetkit.queueing.manifest;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.ResourceFlavor;
import java.util.Objects;

/**
 * A Kueue {@code ResourceFlavor} read from a manifest: its metadata and the queueing module's {@link ResourceFlavor}.
 *
 * @param apiVersion the version it was written in, one of {@link KueueObject#VERSIONS}
 * @param metadata its metadata; the name is the record's
 * @param spec the desired state
 */
public record ResourceFlavorObject(String apiVersion, ObjectMeta metadata, ResourceFlavor spec)
    implements KueueObject<ResourceFlavorObject> {
  public ResourceFlavorObject {
    Objects.requireNonNull(spec, "spec");
    KueueObject.check(ResourceFlavor.KIND, apiVersion, metadata, spec.name(), "");
  }

  /** The object of {@code spec} in Kueue's storage version, with only a name as metadata. */
  public static ResourceFlavorObject of(ResourceFlavor spec) {
    return new ResourceFlavorObject(V1BETA2, ObjectMeta.of(spec.name()), spec);
  }

  @Override
  public String kind() {
    return ResourceFlavor.KIND;
  }

  @Override
  public boolean namespaced() {
    return false;
  }

  @Override
  public ResourceFlavorObject withMetadata(ObjectMeta newMetadata) {
    return new ResourceFlavorObject(apiVersion, newMetadata, spec);
  }
}
