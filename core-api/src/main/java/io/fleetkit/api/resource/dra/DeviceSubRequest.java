package io.fleetkit.api.resource.dra;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One alternative of a prioritized list ({@code DeviceSubRequest}, an entry of a request's {@code firstAvailable}):
 * the allocator uses the first alternative it can satisfy, and the allocation results name it
 * {@code request/subrequest}. Admin access is not part of a sub-request (in Kubernetes neither); capacity requests
 * are not modelled.
 *
 * @param name a DNS label, unique among the request's alternatives
 * @param deviceClassName the {@link DeviceClass} whose selectors apply
 * @param selectors further selectors, all of which must match
 * @param allocationMode ExactCount or All
 * @param count how many devices for ExactCount (at least 1); 0 for All
 * @param tolerations the device taints this alternative tolerates (at most 16)
 */
public record DeviceSubRequest(String name, String deviceClassName, List<DeviceSelector> selectors,
    DeviceAllocationMode allocationMode, long count, List<DeviceToleration> tolerations) {
  public DeviceSubRequest {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(deviceClassName, "deviceClassName");
    selectors = List.copyOf(selectors);
    Objects.requireNonNull(allocationMode, "allocationMode");
    tolerations = List.copyOf(tolerations);
  }

  /** An alternative without tolerations. */
  public DeviceSubRequest(String name, String deviceClassName, List<DeviceSelector> selectors,
      DeviceAllocationMode allocationMode, long count) {
    this(name, deviceClassName, selectors, allocationMode, count, List.of());
  }

  /** {@code count} devices of {@code deviceClassName}. */
  public static DeviceSubRequest count(String name, String deviceClassName, long count) {
    return new DeviceSubRequest(name, deviceClassName, List.of(), DeviceAllocationMode.EXACT_COUNT, count);
  }

  /** All devices of {@code deviceClassName}. */
  public static DeviceSubRequest all(String name, String deviceClassName) {
    return new DeviceSubRequest(name, deviceClassName, List.of(), DeviceAllocationMode.ALL, 0);
  }

  /** This alternative with more selectors. */
  public DeviceSubRequest withSelectors(DeviceSelector... more) {
    List<DeviceSelector> all = new ArrayList<>(selectors);
    all.addAll(List.of(more));
    return new DeviceSubRequest(name, deviceClassName, all, allocationMode, count, tolerations);
  }

  /** This alternative with more tolerations. */
  public DeviceSubRequest withTolerations(DeviceToleration... more) {
    List<DeviceToleration> all = new ArrayList<>(tolerations);
    all.addAll(List.of(more));
    return new DeviceSubRequest(name, deviceClassName, selectors, allocationMode, count, all);
  }
}
