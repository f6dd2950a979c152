package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Pod;
import java.util.List;

/**
 * What a pod asks of a node's GPUs: {@code whole} devices, or {@code milli} thousandths of one device (a share), from
 * an accepted model (empty: any). At most one of {@code whole} and {@code milli} is non-zero; both zero is
 * {@link #NONE}. Immutable.
 *
 * @param whole whole devices asked, not negative
 * @param milli thousandths of one device for a share, else 0
 * @param models accepted device models; empty accepts any
 */
public record GpuDemand(int whole, int milli, List<String> models) {
  /** No GPU asked. */
  public static final GpuDemand NONE = new GpuDemand(0, 0, List.of());

  /**
   * @throws IllegalArgumentException when a count is negative or both are set
   */
  public GpuDemand {
    models = List.copyOf(models);
    if (whole < 0 || milli < 0 || (whole > 0 && milli > 0)) {
      throw new IllegalArgumentException("GPU demand: whole devices or a share in milli, not negative and not both,"
          + " got whole " + whole + ", milli " + milli);
    }
  }

  /** The demand of {@code pod}'s effective requests and model annotation. */
  public static GpuDemand of(Pod pod) {
    var req = pod.effectiveRequests();
    long whole = GpuRequests.whole(req);
    long milli = GpuRequests.milli(req);
    if (whole <= 0 && milli <= 0) {
      return NONE;
    }
    return new GpuDemand((int) Math.max(0, whole), whole > 0 ? 0 : (int) milli,
        GpuRequests.acceptedModels(pod.metadata()));
  }

  /** Whether no GPU is asked. */
  public boolean isNone() {
    return whole == 0 && milli == 0;
  }

  /** Whether a share of one device is asked. */
  public boolean isShare() {
    return whole == 0 && milli > 0;
  }

  /** Whether a device of {@code model} is acceptable. */
  public boolean accepts(String model) {
    return models.isEmpty() || models.contains(model);
  }

  /** The demand in milli-GPU: whole devices × 1000, or the share. */
  public long totalMilli() {
    return isShare() ? milli : (long) GpuRequests.MILLI_PER_DEVICE * whole;
  }
}
