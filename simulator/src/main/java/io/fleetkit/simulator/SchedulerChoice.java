package io.fleetkit.simulator;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.NodePoolSpec;
import io.fleetkit.api.autoscaling.NodeTemplate;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.simulation.JobArrival;
import io.fleetkit.api.simulation.JobStream;
import io.fleetkit.api.simulation.ScenarioScheduler;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.SchedulerBuilder;
import io.fleetkit.scheduler.StoreBinder;
import io.fleetkit.scheduler.plugins.gpu.GpuPlugins;
import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import io.fleetkit.scheduler.plugins.gpu.GpuWorkload;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import io.fleetkit.storage.PersistentVolumeController;
import io.fleetkit.storage.scheduling.StoragePlugins;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The scheduler a scenario asks for ({@link ScenarioScheduler}): kube's default profile or its bin-packing variant
 * (NodeResourcesFit scoring {@code MostAllocated} over cpu and memory, weight 1 each, as kube's "resource bin
 * packing" configuration), the storage plugins when storage runs, and, with a GPU policy, the per-device GPU plugins
 * ({@link GpuPlugins}) with that policy's score and its binder recording the device ids. Policies that need FGD's
 * target workload get the typical pod shapes of the manifests' workloads and the scenario's job streams.
 *
 * <p>The GPU plugins place pods on a node's listed devices ({@code status.gpus}); a node or NodePool template that
 * has {@code nvidia.com/gpu} but lists no devices gets {@code GPU-0}, {@code GPU-1}, ... of the model its
 * {@value #MODEL_LABEL} label names ({@code gpu} without one), as a device plugin would report them.
 */
final class SchedulerChoice {
  /** The node label a listed device's model is read from when the node lists no devices. */
  static final String MODEL_LABEL = NodePool.GPU_LABEL;
  /** At most this many pods of one workload count towards FGD's typical shapes. */
  private static final int MAX_PODS_PER_WORKLOAD = 100;

  private final ScenarioScheduler scheduler;
  private final @Nullable GpuPolicy policy;

  /**
   * @throws IllegalArgumentException naming {@code spec.scheduler.gpuPolicy} and the known policies when the
   *     policy is unknown, or {@code spec.scheduler.profile} when the profile is
   */
  SchedulerChoice(ScenarioScheduler scheduler) {
    this.scheduler = scheduler;
    if (!ScenarioScheduler.PROFILES.contains(scheduler.profile())) {
      throw new IllegalArgumentException("spec.scheduler.profile: \"" + scheduler.profile() + "\" must be one of "
          + String.join(", ", ScenarioScheduler.PROFILES));
    }
    GpuPolicy p = null;
    if (scheduler.hasGpuPolicy()) {
      try {
        p = GpuPolicy.of(scheduler.gpuPolicy());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("spec.scheduler.gpuPolicy: \"" + scheduler.gpuPolicy()
            + "\" must be one of " + String.join(", ", Arrays.stream(GpuPolicy.values())
                .map(GpuPolicy::displayName).toList()), e);
      }
    }
    this.policy = p;
  }

  /** Whether the scheduler differs from the default profile that a {@link Simulation} has by itself. */
  boolean custom() {
    return policy != null || !scheduler.profile().equals(ScenarioScheduler.DEFAULT_PROFILE);
  }

  /** {@code objects}, with GPU devices listed on GPU nodes and pool templates that list none (GPU policy only). */
  List<ApiObject<?>> withDevices(List<ApiObject<?>> objects) {
    if (policy == null) {
      return objects;
    }
    List<ApiObject<?>> out = new ArrayList<>(objects.size());
    for (ApiObject<?> o : objects) {
      if (o instanceof Node n && n.status().gpus().isEmpty() && gpus(n.status().capacity()) > 0) {
        NodeStatus s = n.status();
        o = n.withStatus(new NodeStatus(s.capacity(), s.allocatable(), s.conditions(),
            devices(gpus(s.capacity()), n.metadata().labels()), s.addresses(), s.images()));
      } else if (o instanceof NodePool p && p.spec().template().gpus().isEmpty()
          && gpus(p.spec().template().capacity()) > 0) {
        NodeTemplate t = p.spec().template();
        NodeTemplate listed = new NodeTemplate(t.labels(), t.taints(), t.capacity(), t.allocatable(),
            devices(gpus(t.capacity()), t.labels()), t.resourceSlices());
        NodePoolSpec ps = p.spec();
        o = p.withSpec(new NodePoolSpec(listed, ps.minSize(), ps.maxSize(), ps.startupDelay(), ps.pricePerHour(),
            ps.zeroOrMaxNodeScaling(), ps.autoscalingOptions()));
      }
      out.add(o);
    }
    return out;
  }

  private static long gpus(ResourceList r) {
    return r.value(ResourceNames.NVIDIA_GPU);
  }

  private static List<GpuDevice> devices(long n, Map<String, String> labels) {
    String model = labels.getOrDefault(MODEL_LABEL, "gpu");
    List<GpuDevice> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(GpuDevice.of("GPU-" + i, model, 0));
    }
    return out;
  }

  /**
   * Configures {@code b} (which has the store, the clock and the seed): the profile, the GPU plugins and their
   * binder, the storage plugins over {@code volumes} when given.
   */
  void configure(SchedulerBuilder b, ObjectStore store, Clock clock, long seed, List<ApiObject<?>> objects,
      List<JobStream> streams, @Nullable PersistentVolumeController volumes) {
    PluginRegistry registry = PluginRegistry.defaults();
    SchedulerProfile profile = DefaultPlugins.profile();
    if (volumes != null) {
      registry = StoragePlugins.registry(registry, volumes);
    }
    if (policy != null) {
      GpuPlugins.Builder gb = GpuPlugins.builder().policy(policy).seed(seed);
      if (policy.needsWorkload()) {
        gb.workload(workload(objects, streams));
      }
      GpuPlugins gpu = gb.build();
      registry = gpu.registry(registry);
      profile = gpu.profile();
      StoreBinder binder = new StoreBinder(store, clock);
      b.binder(gpu.binder(binder)).evictor(binder);
    }
    if (scheduler.profile().equals(ScenarioScheduler.MOST_ALLOCATED)) {
      Map<String, Object> args = new LinkedHashMap<>(profile.pluginArgs().getOrDefault(NodeResourcesFitPlugin.NAME,
          Map.of()));
      args.put("scoringStrategy", Map.of("type", "MostAllocated", "resources",
          List.of(Map.of("name", "cpu", "weight", 1), Map.of("name", "memory", "weight", 1))));
      profile = profile.toBuilder().pluginArgs(NodeResourcesFitPlugin.NAME, args).build();
    }
    if (volumes != null) {
      profile = StoragePlugins.enableIn(profile);
    }
    b.registry(registry).profile(profile);
  }

  /** FGD's target workload: the typical shapes of the workloads' pods and of the job streams' arrivals. */
  static GpuWorkload workload(List<ApiObject<?>> objects, List<JobStream> streams) {
    List<Pod> pods = new ArrayList<>();
    for (ApiObject<?> o : objects) {
      if (o instanceof Deployment d) {
        add(pods, d.spec().template(), d.spec().replicas());
      } else if (o instanceof StatefulSet s) {
        add(pods, s.spec().template(), s.spec().replicas());
      } else if (o instanceof Job j) {
        add(pods, j.spec().template(), j.spec().parallelism());
      } else if (o instanceof Pod p) {
        pods.add(p);
      }
    }
    for (JobStream js : streams) {
      List<JobArrival> arrivals = new ArrayList<>(js.jobs());
      if (js.template() != null) {
        arrivals.add(js.template());
      }
      for (JobArrival a : arrivals) {
        for (int i = 0; i < Math.min(a.pods(), MAX_PODS_PER_WORKLOAD); i++) {
          pods.add(Pod.builder().name("shape").container("main", "job", a.requests()).build());
        }
      }
    }
    if (pods.isEmpty()) {
      return GpuWorkload.of(List.of(new GpuWorkload.Shape(1000, 1000, 1, List.of(), 1)));
    }
    return GpuWorkload.typicalOf(pods);
  }

  private static void add(List<Pod> pods, PodTemplateSpec t, int count) {
    Pod p = Pod.of(ObjectMeta.builder().name("shape").annotations(t.metadata().annotations()).build(), t.spec());
    for (int i = 0; i < Math.min(count, MAX_PODS_PER_WORKLOAD); i++) {
      pods.add(p);
    }
  }
}
