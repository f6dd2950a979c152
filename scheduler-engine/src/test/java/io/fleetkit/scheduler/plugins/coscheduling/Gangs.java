package io.fleetkit.scheduler.plugins.coscheduling;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.PreEnqueuePlugin;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.Scheduler;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Test fixtures for gangs: GPU nodes, gang pods, a scheduler with Coscheduling and a binder that records. */
final class Gangs {
  static final String GPU = "nvidia.com/gpu";

  /** A test PreEnqueue plugin that gates pods labelled {@value #HOLD}, standing in for scheduling gates. */
  static final String HOLD = "Hold";

  static final PreEnqueuePlugin HOLD_PLUGIN = new PreEnqueuePlugin() {
    @Override
    public String name() {
      return HOLD;
    }

    @Override
    public Status preEnqueue(Pod pod) {
      return pod.metadata().labels().containsKey(HOLD) ? Status.unschedulable("held") : Status.success();
    }
  };

  private Gangs() {}

  static Node gpuNode(String name, int gpus) {
    ResourceList cap = ResourceList.builder()
        .put("cpu", Quantity.of(64))
        .put("memory", Quantity.ofBytes(256L << 30))
        .put("pods", Quantity.of(110))
        .put(GPU, Quantity.of(gpus))
        .build();
    return Node.builder().name(name).capacity(cap).ready().build();
  }

  static Pod member(String group, int index, int gpus) {
    return pod(group + "-" + index, gpus).toBuilder().podGroup(group).build();
  }

  static Pod pod(String name, int gpus) {
    ResourceList.Builder req = ResourceList.builder().put("cpu", Quantity.of(1)).put("memory", Quantity.ofBytes(1L << 30));
    if (gpus > 0) {
      req.put(GPU, Quantity.of(gpus));
    }
    ResourceList r = req.build();
    return Pod.builder().name(name).container("main", "trainer", r, r).build();
  }

  static PodGroup group(String name, int minMember, @Nullable Integer timeoutSeconds) {
    return PodGroup.builder().name(name).minMember(minMember).scheduleTimeoutSeconds(timeoutSeconds).build();
  }

  /** Records every binding that reaches the binder, by pod key. */
  static final class RecordingBinder implements Binder {
    final Map<String, String> bound = Collections.synchronizedMap(new LinkedHashMap<>());

    @Override
    public Status bind(Pod pod, String nodeName) {
      if (bound.putIfAbsent(pod.metadata().key(), nodeName) != null) {
        return Status.error("pod " + pod.metadata().key() + " bound twice");
      }
      return Status.success();
    }

    List<String> boundOf(String groupPrefix) {
      List<String> out = new ArrayList<>();
      synchronized (bound) {
        for (String k : bound.keySet()) {
          if (k.startsWith("default/" + groupPrefix + "-")) {
            out.add(k);
          }
        }
      }
      return out;
    }
  }

  /** A scheduler with the default profile plus Coscheduling (and {@code extra} test plugins). */
  static Scheduler scheduler(ManualClock clock, RecordingBinder binder, PluginRegistry registry, String... extra) {
    var profile = CoschedulingPlugin.enableIn(DefaultPlugins.profile()).toBuilder();
    for (String e : extra) {
      profile.plugin(e);
    }
    return Scheduler.builder().clock(clock).binder(binder).parallelism(1).registry(registry)
        .profile(profile.build()).build();
  }

  static Scheduler scheduler(ManualClock clock, RecordingBinder binder) {
    return scheduler(clock, binder, PluginRegistry.defaults());
  }
}
