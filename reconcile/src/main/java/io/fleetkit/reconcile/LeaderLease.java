package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The lock record of the in-store {@link LeaderElector}: a small stand-in for Kubernetes'
 * {@code coordination.k8s.io/v1 Lease} (the Kubernetes adapter uses the real one). Namespaced; spec only.
 *
 * @param metadata object metadata
 * @param spec who holds the lease and since when
 */
public record LeaderLease(ObjectMeta metadata, Spec spec) implements ApiObject<LeaderLease> {
  /** {@value}. */
  public static final String API_VERSION = "coordination.fleetkit.io/v1";
  /** {@value}. */
  public static final String KIND = "LeaderLease";

  public LeaderLease {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
  }

  /**
   * The lease state, as Kubernetes' {@code LeaseSpec}.
   *
   * @param holderIdentity the current holder, {@code ""} when released
   * @param leaseDuration how long others wait after the last observed change before taking over
   * @param acquireTime when the current holder acquired the lease
   * @param renewTime when the current holder last renewed it
   * @param leaseTransitions how many times the holder changed
   */
  public record Spec(String holderIdentity, Duration leaseDuration, @Nullable Instant acquireTime,
      @Nullable Instant renewTime, int leaseTransitions) {
    public Spec {
      Objects.requireNonNull(holderIdentity, "holderIdentity");
      Objects.requireNonNull(leaseDuration, "leaseDuration");
      if (leaseTransitions < 0) {
        throw new IllegalArgumentException("LeaderLease spec.leaseTransitions must not be negative but was "
            + leaseTransitions);
      }
    }
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public LeaderLease withMetadata(ObjectMeta m) {
    return new LeaderLease(m, spec);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  @Override
  public LeaderLease withStatusOf(LeaderLease other) {
    return this;
  }

  /** This lease with another spec. */
  public LeaderLease withSpec(Spec newSpec) {
    return new LeaderLease(metadata, newSpec);
  }
}
