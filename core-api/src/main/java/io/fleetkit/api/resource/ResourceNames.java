package io.fleetkit.api.resource;

/** Well-known resource names. */
public final class ResourceNames {
  public static final String CPU = "cpu";
  public static final String MEMORY = "memory";
  public static final String EPHEMERAL_STORAGE = "ephemeral-storage";
  public static final String PODS = "pods";
  public static final String NVIDIA_GPU = "nvidia.com/gpu";

  private ResourceNames() {}
}
