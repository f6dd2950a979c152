package com.example.fleetkit;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;

/** Registers {@link RackAllowListPlugin} beside kube's default plugins and schedules three pods. */
public final class CustomFilterSample {
  private CustomFilterSample() {}

  public static void main(String[] args) {
    PluginRegistry registry = PluginRegistry.defaults().with(RackAllowListPlugin.NAME, h -> new RackAllowListPlugin());
    SchedulerProfile profile = DefaultPlugins.profile().toBuilder().plugin(RackAllowListPlugin.NAME).build();
    try (Scheduler scheduler = Scheduler.builder().registry(registry).profile(profile).build()) {
      for (int i = 1; i <= 3; i++) {
        scheduler.addNode(Node.builder().name("node-" + i).label(RackAllowListPlugin.LABEL, "r" + i)
            .capacity(ResourceList.builder().put("cpu", "4").put("memory", "16Gi").put("pods", "110").build())
            .ready().build());
      }
      scheduler.addPod(pod("anywhere", null));
      scheduler.addPod(pod("rack-two", "r2"));
      scheduler.addPod(pod("rack-nine", "r9"));
      for (ScheduleResult r : scheduler.runUntilIdle()) {
        System.out.println(r.podKey() + " -> " + (r.isBound() ? r.nodeName() : r.message()));
      }
    }
  }

  private static Pod pod(String name, String racks) {
    Pod.Builder b = Pod.builder().namespace("default").name(name)
        .container("app", "example/app:1", ResourceList.ofCpuMemory(500, 256L << 20));
    if (racks != null) {
      b.annotation(RackAllowListPlugin.ANNOTATION, racks);
    }
    return b.build();
  }
}
