package io.fleetkit.api.resource.dra;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A request for devices of one class ({@code ExactDeviceRequest}, the request's {@code exactly}).
 *
 * @param deviceClassName the {@link DeviceClass} whose selectors apply
 * @param selectors further selectors, all of which must match
 * @param allocationMode ExactCount or All
 * @param count how many devices for ExactCount (at least 1); 0 for All
 * @param adminAccess admin access ({@code adminAccess: true}): the devices may already be allocated to other claims,
 *     and allocating them for this request does not count as using them; for monitoring and maintenance tools
 * @param tolerations the device taints this request tolerates (at most 16); a device with a NoSchedule or NoExecute
 *     taint none of them tolerates is not allocated
 */
public record ExactDeviceRequest(String deviceClassName, List<DeviceSelector> selectors,
    DeviceAllocationMode allocationMode, long count, boolean adminAccess, List<DeviceToleration> tolerations) {
  public ExactDeviceRequest {
    Objects.requireNonNull(deviceClassName, "deviceClassName");
    selectors = List.copyOf(selectors);
    Objects.requireNonNull(allocationMode, "allocationMode");
    tolerations = List.copyOf(tolerations);
  }

  /** A request without tolerations. */
  public ExactDeviceRequest(String deviceClassName, List<DeviceSelector> selectors,
      DeviceAllocationMode allocationMode, long count, boolean adminAccess) {
    this(deviceClassName, selectors, allocationMode, count, adminAccess, List.of());
  }

  /** A request without admin access or tolerations. */
  public ExactDeviceRequest(String deviceClassName, List<DeviceSelector> selectors,
      DeviceAllocationMode allocationMode, long count) {
    this(deviceClassName, selectors, allocationMode, count, false, List.of());
  }

  /** {@code count} devices of {@code deviceClassName}. */
  public static ExactDeviceRequest count(String deviceClassName, long count) {
    return new ExactDeviceRequest(deviceClassName, List.of(), DeviceAllocationMode.EXACT_COUNT, count);
  }

  /** All devices of {@code deviceClassName}. */
  public static ExactDeviceRequest all(String deviceClassName) {
    return new ExactDeviceRequest(deviceClassName, List.of(), DeviceAllocationMode.ALL, 0);
  }

  /** This request with more selectors. */
  public ExactDeviceRequest withSelectors(DeviceSelector... more) {
    List<DeviceSelector> all = new ArrayList<>(selectors);
    all.addAll(List.of(more));
    return new ExactDeviceRequest(deviceClassName, all, allocationMode, count, adminAccess, tolerations);
  }

  /** This request with admin access on or off. */
  public ExactDeviceRequest withAdminAccess(boolean on) {
    return new ExactDeviceRequest(deviceClassName, selectors, allocationMode, count, on, tolerations);
  }

  /** This request with more tolerations. */
  public ExactDeviceRequest withTolerations(DeviceToleration... more) {
    List<DeviceToleration> all = new ArrayList<>(tolerations);
    all.addAll(List.of(more));
    return new ExactDeviceRequest(deviceClassName, selectors, allocationMode, count, adminAccess, all);
  }
}
