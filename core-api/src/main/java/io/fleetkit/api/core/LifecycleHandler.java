package io.fleetkit.api.core;

/**
 * What a container lifecycle hook does (Kubernetes' {@code core/v1 LifecycleHandler}): the one-of {@code exec},
 * {@code httpGet}, {@code tcpSocket} and {@code sleep}. The first three are the records a probe uses
 * ({@link ProbeHandler.Exec}, {@link ProbeHandler.HttpGet}, {@link ProbeHandler.TcpSocket}), with the same field rules;
 * {@code tcpSocket} is accepted for compatibility, as Kubernetes accepts it, but the kubelet does not run it: a hook
 * with it fails. Being a sealed type, a hook always has exactly one handler; the field rules, and that a sleep is no
 * longer than the pod's {@code terminationGracePeriodSeconds}, are checked when the pod is validated.
 */
public sealed interface LifecycleHandler permits ProbeHandler.Exec, ProbeHandler.HttpGet, ProbeHandler.TcpSocket,
    LifecycleHandler.Sleep {
  /** The handler's field name in the manifest: {@code exec}, {@code httpGet}, {@code tcpSocket} or {@code sleep}. */
  String fieldName();

  /**
   * Sleeps for {@code seconds} (Kubernetes' {@code SleepAction}); it always succeeds.
   *
   * @param seconds how long; from 0 to the pod's {@code terminationGracePeriodSeconds}
   */
  record Sleep(long seconds) implements LifecycleHandler {
    @Override
    public String fieldName() {
      return "sleep";
    }
  }
}
