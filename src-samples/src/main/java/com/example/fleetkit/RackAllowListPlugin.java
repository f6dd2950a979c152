package com.example.fleetkit;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import java.util.Arrays;

/**
 * A custom Filter plugin: a pod annotated {@code example.com/racks: r1,r2} runs only on nodes whose
 * {@code example.com/rack} label is one of those racks. Pods without the annotation pass everywhere.
 */
public final class RackAllowListPlugin implements FilterPlugin {
  public static final String NAME = "RackAllowList";
  public static final String ANNOTATION = "example.com/racks";
  public static final String LABEL = "example.com/rack";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    String racks = pod.pod().metadata().annotations().get(ANNOTATION);
    if (racks == null) {
      return Status.success();
    }
    String rack = node.labels().get(LABEL);
    if (rack != null && Arrays.asList(racks.split(",")).contains(rack)) {
      return Status.success();
    }
    // no eviction makes a node change racks: preemption cannot help
    return Status.unresolvable("node(s) not in the pod's allowed racks");
  }
}
