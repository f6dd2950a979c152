package io.fleetkit.api.scheduler;

/** Informational, after a successful bind. */
public interface PostBindPlugin extends Plugin {
  void postBind(CycleState state, PodInfo pod, String nodeName);
}
