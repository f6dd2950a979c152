package io.fleetkit.autoscale.vpa;

/**
 * One estimate of a container's needs in the VPA's units.
 *
 * @param cpuMillicores cpu in millicores
 * @param memoryBytes memory in bytes
 */
public record ResourceEstimate(long cpuMillicores, long memoryBytes) {}
