package io.fleetkit.api.framework;

/** Work that must succeed before binding (e.g. binding volumes); a failure unreserves and requeues the pod. */
public interface PreBindPlugin extends Plugin {
  Status preBind(CycleState state, PodInfo pod, String nodeName);
}
