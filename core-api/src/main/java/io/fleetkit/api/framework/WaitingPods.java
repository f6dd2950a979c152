package io.fleetkit.api.framework;

import java.util.Set;

/** Pods holding a reservation while a Permit plugin makes them wait; plugins release or reject them here. */
public interface WaitingPods {
  /**
   * No pod waiting, and none ever: for a framework that runs no Permit wait (a simulation of scheduling decisions, a
   * plugin harness). Allowing or rejecting a key does nothing, as for a key not waiting.
   */
  WaitingPods NONE = new WaitingPods() {
    @Override
    public Set<String> keys() {
      return Set.of();
    }

    @Override
    public void allow(String podKey, String pluginName) {}

    @Override
    public void reject(String podKey, String pluginName, String reason) {}
  };

  /** Keys ({@code namespace/name}) of the pods currently waiting. */
  Set<String> keys();

  /** Allows {@code podKey} on behalf of {@code pluginName}; it binds once every waiting plugin has allowed it. */
  void allow(String podKey, String pluginName);

  /** Rejects {@code podKey}: its reservation is released and it goes back to the queue with {@code reason}. */
  void reject(String podKey, String pluginName, String reason);
}
