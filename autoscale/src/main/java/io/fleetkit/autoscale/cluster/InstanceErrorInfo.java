package io.fleetkit.autoscale.cluster;

import java.util.Objects;

/**
 * Why a machine could not be created, or why a pool is backed off (upstream's {@code cloudprovider.InstanceErrorInfo}).
 *
 * @param errorClass the kind of error
 * @param errorCode the cloud's code, for example {@code RESOURCE_POOL_EXHAUSTED}; the autoscaler's
 *     {@code failed_scale_ups_total} reason
 * @param errorMessage the cloud's message, may be empty
 */
public record InstanceErrorInfo(InstanceErrorClass errorClass, String errorCode, String errorMessage) {
  public InstanceErrorInfo {
    Objects.requireNonNull(errorClass, "errorClass");
    Objects.requireNonNull(errorCode, "errorCode");
    Objects.requireNonNull(errorMessage, "errorMessage");
  }
}
