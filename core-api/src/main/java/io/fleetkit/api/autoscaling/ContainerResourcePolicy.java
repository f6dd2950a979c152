package io.fleetkit.api.autoscaling;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.util.List;
import java.util.Objects;

/**
 * Per-container bounds of a VPA. Rules (a name, max not below min) are checked by {@link VerticalPodAutoscaler}.
 *
 * @param containerName a container name, or {@value #ALL_CONTAINERS} for every container without its own policy
 * @param minAllowed the lowest recommendation; empty for no bound
 * @param maxAllowed the highest recommendation; empty for no bound
 * @param controlledResources the resources recommended; defaults to cpu and memory
 */
public record ContainerResourcePolicy(String containerName, ContainerScalingMode mode, ResourceList minAllowed,
    ResourceList maxAllowed, List<String> controlledResources, ContainerControlledValues controlledValues) {
  /** The container name of the policy for all containers. */
  public static final String ALL_CONTAINERS = "*";
  /** The resources a VPA controls by default. */
  public static final List<String> DEFAULT_CONTROLLED_RESOURCES = List.of(ResourceNames.CPU, ResourceNames.MEMORY);

  public ContainerResourcePolicy {
    Objects.requireNonNull(containerName, "containerName");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(minAllowed, "minAllowed");
    Objects.requireNonNull(maxAllowed, "maxAllowed");
    controlledResources = List.copyOf(controlledResources);
    Objects.requireNonNull(controlledValues, "controlledValues");
  }

  /** A policy with the defaults: Auto, no bounds, cpu and memory, requests and limits. */
  public static ContainerResourcePolicy of(String containerName) {
    return new ContainerResourcePolicy(containerName, ContainerScalingMode.Auto, ResourceList.EMPTY,
        ResourceList.EMPTY, DEFAULT_CONTROLLED_RESOURCES, ContainerControlledValues.RequestsAndLimits);
  }

  public ContainerResourcePolicy withMode(ContainerScalingMode m) {
    return new ContainerResourcePolicy(containerName, m, minAllowed, maxAllowed, controlledResources,
        controlledValues);
  }

  public ContainerResourcePolicy withBounds(ResourceList min, ResourceList max) {
    return new ContainerResourcePolicy(containerName, mode, min, max, controlledResources, controlledValues);
  }

  public ContainerResourcePolicy withControlledResources(List<String> resources) {
    return new ContainerResourcePolicy(containerName, mode, minAllowed, maxAllowed, resources, controlledValues);
  }

  public ContainerResourcePolicy withControlledValues(ContainerControlledValues values) {
    return new ContainerResourcePolicy(containerName, mode, minAllowed, maxAllowed, controlledResources, values);
  }
}
