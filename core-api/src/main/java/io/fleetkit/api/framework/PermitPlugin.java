package io.fleetkit.api.framework;

/**
 * The last gate before binding. A pod told to wait keeps its reservation until a plugin allows or rejects it
 * through {@link WaitingPods}, or until its timeout (then it is rejected and unreserved).
 */
public interface PermitPlugin extends Plugin {
  PermitResult permit(CycleState state, PodInfo pod, String nodeName);
}
