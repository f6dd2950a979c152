package io.fleetkit.api.core;

import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A container of a pod, regular or init. Validated as part of its pod (names unique, image required, requests
 * within limits).
 *
 * @param restartPolicy {@code Always} on an init container makes it a sidecar; {@code null} otherwise
 */
public record Container(String name, String image, ResourceRequirements resources, List<ContainerPort> ports,
    List<EnvVar> env, @Nullable ContainerRestartPolicy restartPolicy) {

  public Container {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(resources, "resources");
    ports = List.copyOf(ports);
    env = List.copyOf(env);
  }

  /** A container with requests only (see {@link ResourceRequirements#ofRequests}). */
  public static Container of(String name, String image, ResourceList requests) {
    return new Container(name, image, ResourceRequirements.ofRequests(requests), List.of(), List.of(), null);
  }

  public static Container of(String name, String image, ResourceRequirements resources) {
    return new Container(name, image, resources, List.of(), List.of(), null);
  }

  /** A sidecar: an init container with restart policy {@code Always}. */
  public static Container sidecar(String name, String image, ResourceList requests) {
    return new Container(name, image, ResourceRequirements.ofRequests(requests), List.of(), List.of(),
        ContainerRestartPolicy.Always);
  }

  /** Whether this is a restartable (sidecar) init container. */
  public boolean isRestartable() {
    return restartPolicy == ContainerRestartPolicy.Always;
  }

  public Container withResources(ResourceRequirements newResources) {
    return new Container(name, image, newResources, ports, env, restartPolicy);
  }
}
