package io.fleetkit.api.core;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.util.List;

/**
 * How a pod asks for GPUs, and how the device ids it got are recorded. Two exclusive forms:
 *
 * <ul>
 *   <li><b>Whole devices</b>: {@code nvidia.com/gpu: N} in limits (the request defaults to the limit; a request
 *       that differs is a validation error). The pod gets N devices that nobody else uses.
 *   <li><b>A share of one device</b>: {@code fleetkit.io/gpu-milli: M} in limits (or requests and equal limits),
 *       {@code 1 <= M <= 999}, in thousandths of ONE device (summed over the pod's containers). Shares of one device
 *       never pass 1000 and never land on a device held whole. It cannot be combined with {@code nvidia.com/gpu}.
 * </ul>
 *
 * <p>Annotation {@value #MODELS_ANNOTATION} lists the GPU models the pod accepts, separated by {@code |} (as the
 * openb trace's {@code V100M16|V100M32}); absent or empty means any model. The scheduler records the device ids a
 * pod got in annotation {@value #IDS_ANNOTATION} (comma-separated {@link GpuDevice#id()}s) when it binds the pod,
 * as a device plugin would; the per-node device ledger is rebuilt from it.
 */
public final class GpuRequests {
  /** Whole GPUs: {@value}. */
  public static final String WHOLE = ResourceNames.NVIDIA_GPU;
  /** A share of one GPU in thousandths: {@value}. */
  public static final String MILLI = "fleetkit.io/gpu-milli";
  /** The accepted GPU models, {@code |}-separated: {@value}. */
  public static final String MODELS_ANNOTATION = "fleetkit.io/gpu-models";
  /** The device ids assigned at bind, comma-separated: {@value}. */
  public static final String IDS_ANNOTATION = "fleetkit.io/gpu-ids";
  /** Thousandths in one device. */
  public static final int MILLI_PER_DEVICE = 1000;

  private GpuRequests() {}

  /** Whole devices requested in {@code requests} (0 when none). */
  public static long whole(ResourceList requests) {
    return requests.has(WHOLE) ? requests.value(WHOLE) : 0;
  }

  /** The share of one device requested in {@code requests}, in thousandths (0 when none). */
  public static long milli(ResourceList requests) {
    return requests.has(MILLI) ? requests.value(MILLI) : 0;
  }

  /** The accepted models from {@value #MODELS_ANNOTATION}; empty means any. */
  public static List<String> acceptedModels(ObjectMeta metadata) {
    String s = metadata.annotations().get(MODELS_ANNOTATION);
    if (s == null || s.isBlank()) {
      return List.of();
    }
    return List.of(s.split("\\|", -1));
  }

  /** The device ids recorded in {@value #IDS_ANNOTATION}; empty when none were recorded. */
  public static List<String> assignedIds(ObjectMeta metadata) {
    String s = metadata.annotations().get(IDS_ANNOTATION);
    if (s == null || s.isEmpty()) {
      return List.of();
    }
    return List.of(s.split(",", -1));
  }
}
