package io.fleetkit.api.framework;

/** Binds the pod to the node. Plugins are tried in order until one does not return {@link Status#skip()}. */
public interface BindPlugin extends Plugin {
  Status bind(CycleState state, PodInfo pod, String nodeName);
}
