package io.fleetkit.cluster;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.plugins.gpu.GpuPlugins;
import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import io.fleetkit.scheduler.plugins.gpu.GpuWorkload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A cluster described by manifests, ready to schedule: what {@code fleetkit schedule} does, as a library call.
 *
 * <pre>{@code
 * ScheduleOutcome outcome = Cluster.builder()
 *     .manifests(Path.of("examples/cluster"))
 *     .schedulerConfiguration(Path.of("scheduler.yaml"))   // optional: kube's default profile otherwise
 *     .gpuPolicy(GpuPolicy.FGD)                            // optional
 *     .seed(42)
 *     .build()
 *     .schedule();
 * }</pre>
 *
 * <p>Nodes, running pods (with {@code spec.nodeName}), priority classes, disruption budgets, StorageClasses,
 * PersistentVolumes and claims form the cluster; Namespaces, ResourceQuotas and LimitRanges go through the store's
 * standard admission chain as an API server would apply them; every pending pod is scheduled (with Coscheduling when
 * there are gangs, with the storage plugins and a PersistentVolume controller when there are claims, with the
 * resource-claim controller and a store for the DynamicResources plugin when pods ask for devices) on a simulated
 * clock that jumps past backoffs, until no more progress is possible. Immutable; each {@link #schedule()} starts
 * afresh from the manifests and gives the same outcome for the same seed.
 */
public final class Cluster {
  private final LoadedObjects loaded;
  private final List<SchedulerProfile> profiles;
  private final @Nullable GpuPolicy gpuPolicy;
  private final long seed;
  private final MetricsRegistry metrics;

  private Cluster(LoadedObjects loaded, List<SchedulerProfile> profiles, @Nullable GpuPolicy gpuPolicy, long seed,
      MetricsRegistry metrics) {
    this.loaded = loaded;
    this.profiles = profiles;
    this.gpuPolicy = gpuPolicy;
    this.seed = seed;
    this.metrics = metrics;
  }

  /** A builder: manifests, profiles, GPU policy, seed, metrics. */
  public static Builder builder() {
    return new Builder();
  }

  /** The objects of the manifests, in file order. */
  public List<ApiObject<?>> objects() {
    return loaded.objects();
  }

  /** The scheduler profiles the cluster runs (one scheduler per {@code schedulerName}). */
  public List<SchedulerProfile> profiles() {
    return profiles;
  }

  /** The GPU placement policy, when one was picked. */
  public Optional<GpuPolicy> gpuPolicy() {
    return Optional.ofNullable(gpuPolicy);
  }

  /**
   * Whether {@code objects} use the tenancy kinds (Namespace, ResourceQuota, LimitRange), for which
   * {@link #schedule()} applies them through the store's standard admission chain (and a simulation should too).
   */
  public static boolean usesTenancy(List<? extends ApiObject<?>> objects) {
    return ManifestAdmission.usesTenancy(LoadedObjects.of(objects));
  }

  /**
   * Schedules every pending pod of the manifests until no more progress is possible.
   *
   * @throws IllegalArgumentException or {@link io.fleetkit.api.FleetKitException} when the objects cannot form a
   *     cluster (a profile's plugin arguments rejected by the plugin, say), with the object and the rule
   */
  public ScheduleOutcome schedule() {
    return ManifestScheduling.run(loaded, profiles, seed, metrics,
        gpuPolicy == null ? null : gpuPlugins(gpuPolicy, seed, loaded));
  }

  /** Fresh GPU plugins (their device assignments are per run) for {@code policy}. */
  private static GpuPlugins gpuPlugins(GpuPolicy policy, long seed, LoadedObjects loaded) {
    GpuPlugins.Builder b = GpuPlugins.builder().policy(policy).seed(seed);
    if (policy.needsWorkload()) {
      b.workload(GpuWorkload.typicalOf(loaded.ofType(Pod.class)));
    }
    return b.build();
  }

  /** Options of a {@link Cluster}. Not thread-safe. */
  public static final class Builder {
    private final List<Path> paths = new ArrayList<>();
    private final List<ApiObject<?>> objects = new ArrayList<>();
    private @Nullable List<SchedulerProfile> profiles;
    private @Nullable Path configuration;
    private @Nullable GpuPolicy gpuPolicy;
    private long seed;
    private MetricsRegistry metrics = MetricsRegistry.NOOP;

    private Builder() {}

    /** Kubernetes YAML files, or directories of them ({@code *.yaml}, {@code *.yml}), loaded together. */
    public Builder manifests(List<Path> filesOrDirs) {
      for (Path p : filesOrDirs) {
        paths.add(Objects.requireNonNull(p, "manifest path"));
      }
      return this;
    }

    /** See {@link #manifests(List)}. */
    public Builder manifests(Path... filesOrDirs) {
      return manifests(List.of(filesOrDirs));
    }

    /** Objects built in code, after those of the manifests. */
    public Builder objects(List<? extends ApiObject<?>> v) {
      for (ApiObject<?> o : v) {
        objects.add(Objects.requireNonNull(o, "object"));
      }
      return this;
    }

    /** The scheduler profiles (default: kube's default profile, or the GPU profile with a {@link #gpuPolicy}). */
    public Builder profiles(List<SchedulerProfile> v) {
      if (configuration != null) {
        throw new IllegalStateException("Cluster: profiles and schedulerConfiguration are exclusive");
      }
      profiles = List.copyOf(v);
      return this;
    }

    /** A {@code KubeSchedulerConfiguration} YAML file whose profiles to run (see {@link ProfileFile}). */
    public Builder schedulerConfiguration(Path file) {
      if (profiles != null) {
        throw new IllegalStateException("Cluster: profiles and schedulerConfiguration are exclusive");
      }
      configuration = Objects.requireNonNull(file, "file");
      return this;
    }

    /**
     * A GPU placement policy: the GPU plugins (whole and shared devices, topology) join the registry and, unless
     * profiles are given, the profile is {@link GpuPlugins#profile()} with this policy's score. Policies that need a
     * target workload (FGD, FgdBalanced, GapFill) take the typical shapes of the manifests' pods.
     */
    public Builder gpuPolicy(GpuPolicy v) {
      gpuPolicy = Objects.requireNonNull(v, "gpuPolicy");
      return this;
    }

    /** Seed for tie-breaking among equally scored nodes (default 0). */
    public Builder seed(long v) {
      seed = v;
      return this;
    }

    /** Where the scheduler's metrics go (kube-scheduler's names; default: nowhere). */
    public Builder metrics(MetricsRegistry v) {
      metrics = Objects.requireNonNull(v, "metrics");
      return this;
    }

    /**
     * Loads the manifests and the scheduler configuration.
     *
     * @throws io.fleetkit.adapter.kubernetes.yaml.ManifestException listing every problem of the manifests, each
     *     with its file, document and field
     * @throws IllegalArgumentException naming the file and the field when the scheduler configuration is invalid
     */
    public Cluster build() {
      LoadedObjects loaded = paths.isEmpty() ? LoadedObjects.of(List.of()) : KubernetesYaml.load(paths);
      if (!objects.isEmpty()) {
        List<ApiObject<?>> all = new ArrayList<>(loaded.objects());
        all.addAll(objects);
        loaded = LoadedObjects.of(all);
      }
      List<SchedulerProfile> chosen;
      if (configuration != null) {
        chosen = ProfileFile.load(configuration);
      } else if (profiles != null) {
        chosen = profiles;
      } else if (gpuPolicy != null) {
        chosen = List.of(gpuPlugins(gpuPolicy, seed, loaded).profile());
      } else {
        chosen = List.of(DefaultPlugins.profile());
      }
      return new Cluster(loaded, List.copyOf(chosen), gpuPolicy, seed, metrics);
    }
  }
}
