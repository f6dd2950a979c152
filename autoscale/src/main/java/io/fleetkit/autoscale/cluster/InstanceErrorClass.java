package io.fleetkit.autoscale.cluster;

/**
 * The kind of error a cloud answered a machine request with (upstream's {@code cloudprovider.InstanceErrorClass}).
 */
public enum InstanceErrorClass {
  /** The cloud has no capacity (or quota) for the machine: a stockout, upstream's {@code OutOfResourcesErrorClass}. */
  OUT_OF_RESOURCES,
  /** Any other error (upstream's {@code OtherErrorClass}). */
  OTHER;

  /** Upstream's {@code InstanceErrorClass.String()}: {@code OutOfResource} or {@code Other}. */
  public String upstreamName() {
    return this == OUT_OF_RESOURCES ? "OutOfResource" : "Other";
  }
}
