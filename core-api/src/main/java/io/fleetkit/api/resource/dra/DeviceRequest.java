package io.fleetkit.api.resource.dra;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One named request of a claim ({@code DeviceRequest}): either {@code exactly} one kind of device, or a prioritized
 * list of alternatives ({@code firstAvailable}), of which the allocator uses the first it can satisfy. Exactly one of
 * the two is set; the claim's validation reports a request with neither or both.
 *
 * @param name a DNS label, unique in the claim; allocation results and constraints refer to it
 * @param exactly what is requested, or {@code null} for a prioritized list
 * @param firstAvailable the alternatives in order of preference (at most 8), or empty
 */
public record DeviceRequest(String name, @Nullable ExactDeviceRequest exactly, List<DeviceSubRequest> firstAvailable) {
  /** Kubernetes' {@code FirstAvailableDeviceRequestMaxSize}. */
  public static final int MAX_FIRST_AVAILABLE = 8;

  public DeviceRequest {
    Objects.requireNonNull(name, "name");
    firstAvailable = List.copyOf(firstAvailable);
  }

  /** A request for {@code exactly}. */
  public DeviceRequest(String name, ExactDeviceRequest exactly) {
    this(name, Objects.requireNonNull(exactly, "exactly"), List.of());
  }

  /** A request named {@code name} for {@code count} devices of {@code deviceClassName}. */
  public static DeviceRequest of(String name, String deviceClassName, long count) {
    return new DeviceRequest(name, ExactDeviceRequest.count(deviceClassName, count));
  }

  /** A prioritized list: the first of {@code alternatives} that can be allocated. */
  public static DeviceRequest firstAvailable(String name, DeviceSubRequest... alternatives) {
    return new DeviceRequest(name, null, List.of(alternatives));
  }

  /** Whether this is a prioritized list ({@code firstAvailable} set). */
  public boolean prioritized() {
    return !firstAvailable.isEmpty();
  }
}
