package io.fleetkit.api.framework;

/** Informational, after a successful bind. */
public interface PostBindPlugin extends Plugin {
  void postBind(CycleState state, PodInfo pod, String nodeName);
}
