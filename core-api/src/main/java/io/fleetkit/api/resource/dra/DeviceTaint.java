package io.fleetkit.api.resource.dra;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A taint on a device in a {@link ResourceSlice} ({@code DeviceTaint}): claims that do not tolerate it do not get the
 * device (NoSchedule, NoExecute), or are merely informed (None). The slice's validation checks the key (a label
 * name), the value (a label value, may be empty) and that a device has at most 16 taints.
 *
 * @param key the taint key, a label name
 * @param value the taint value, a label value; empty when absent
 * @param effect what the taint does to claims that do not tolerate it
 * @param timeAdded when the taint was added, or {@code null}
 */
public record DeviceTaint(String key, String value, DeviceTaintEffect effect, @Nullable Instant timeAdded) {
  /** Kubernetes' {@code DeviceTaintsMaxLength}: taints per device. */
  public static final int MAX_PER_DEVICE = 16;

  public DeviceTaint {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(effect, "effect");
  }

  /** A taint without a time. */
  public static DeviceTaint of(String key, String value, DeviceTaintEffect effect) {
    return new DeviceTaint(key, value, effect, null);
  }

  /**
   * Whether this taint keeps a request with {@code tolerations} from getting the device, as the allocator's
   * {@code taintPreventsAllocation}: its effect is NoSchedule or NoExecute and no toleration tolerates it.
   */
  public boolean preventsAllocation(List<DeviceToleration> tolerations) {
    if (!effect.preventsAllocation()) {
      return false;
    }
    for (DeviceToleration t : tolerations) {
      if (t.toleratesTaint(this)) {
        return false;
      }
    }
    return true;
  }

  /** {@code key=value:Effect}, as kubectl prints node taints. */
  @Override
  public String toString() {
    return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect.wireName();
  }
}
