package io.fleetkit.cluster;

import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimTemplate;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.InMemoryBinder;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.reconcile.controllers.ResourceClaimController;
import io.fleetkit.scheduler.plugins.coscheduling.CoschedulingPlugin;
import io.fleetkit.scheduler.plugins.dynamicresources.DynamicResourcesPlugin;
import io.fleetkit.scheduler.plugins.gpu.GpuPlugins;
import io.fleetkit.storage.EphemeralVolumes;
import io.fleetkit.storage.PersistentVolumeController;
import io.fleetkit.storage.provision.InMemoryProvisioner;
import io.fleetkit.storage.scheduling.StoragePlugins;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Schedules the pending pods of a set of manifests (with the Coscheduling plugin when there are PodGroups or pods
 * that name one, so that gangs are placed all or nothing; with the storage plugins when there are claims, so that
 * claims are bound or provisioned with their pods): nodes, running pods (with {@code spec.nodeName}), priority
 * classes, disruption budgets, StorageClasses, PersistentVolumes and claims form the cluster; every pending pod is
 * scheduled, on a simulated clock that jumps past backoffs, until no more progress is possible.
 */
final class ManifestScheduling {
  private ManifestScheduling() {}

  /**
   * Schedules the manifests' pending pods with {@code given} profiles, recording the scheduler's metrics into
   * {@code metrics}; {@code gpu}, when set, adds the GPU plugins (and its placement policy) to the registry.
   */
  static ScheduleOutcome run(LoadedObjects manifests, List<SchedulerProfile> given, long seed,
      io.fleetkit.api.metrics.MetricsRegistry metrics, @Nullable GpuPlugins gpu) {
    ManifestAdmission.Result admission = ManifestAdmission.apply(manifests);
    LoadedObjects loaded = admission.loaded();
    List<SchedulerProfile> profiles = ManifestAdmission.withNamespaceLabels(given, loaded);
    ScheduleOutcome outcome = place(loaded, profiles, seed, metrics, gpu);
    return new ScheduleOutcome(outcome.placements(), outcome.unschedulable(), admission.rejected());
  }

  private static ScheduleOutcome place(LoadedObjects loaded, List<SchedulerProfile> profiles, long seed,
      io.fleetkit.api.metrics.MetricsRegistry metrics, @Nullable GpuPlugins gpu) {
    ManualClock clock = ManualClock.atEpoch2026();
    var builder = Scheduler.builder().clock(clock).seed(seed).parallelism(1).metrics(metrics);
    Set<String> served = new HashSet<>();
    boolean gangs = loaded.objects().stream().anyMatch(o -> o instanceof PodGroup
        || o instanceof Pod pod && pod.podGroupName() != null);
    PersistentVolumeController volumes = storage(loaded, clock);
    ObjectStore claims = resourceClaims(loaded, clock, seed);
    PluginRegistry registry = PluginRegistry.defaults();
    if (volumes != null) {
      registry = StoragePlugins.registry(registry, volumes);
    }
    if (claims != null) {
      registry = registry.replacing(DynamicResourcesPlugin.NAME, DynamicResourcesPlugin.factory(claims));
    }
    LoadedObjects scheduled = claims == null ? loaded : withStoredPods(loaded, claims);
    if (gpu != null) {
      registry = gpu.registry(registry);
      builder.binder(gpu.binder(new InMemoryBinder()));
    }
    if (volumes != null || gpu != null || claims != null) {
      builder.registry(registry);
    }
    for (SchedulerProfile p : profiles) {
      // Gangs need Coscheduling (it replaces PrioritySort); without them the profile stays exactly as given.
      SchedulerProfile profile = gangs ? CoschedulingPlugin.enableIn(p) : p;
      // Claims need VolumeBinding and its siblings, which bind into the controller's store.
      builder.profile(volumes != null ? StoragePlugins.enableIn(profile) : profile);
      served.add(p.schedulerName());
    }
    try {
      return schedule(scheduled, builder, clock, served, volumes);
    } finally {
      if (volumes != null) {
        volumes.store().close();
      }
      if (claims != null) {
        claims.close();
      }
    }
  }

  /**
   * An object store holding the manifests' DeviceClasses, ResourceSlices, DeviceTaintRules, ResourceClaims,
   * ResourceClaimTemplates and nodes, and the pending pods with resource claims, after the resource-claim controller made the claims of their
   * templates (named in the pods' {@code status.resourceClaimStatuses}); the DynamicResources plugin reads the claims
   * there and writes their allocations. {@code null} when no pod asks for a claim.
   */
  private static @Nullable ObjectStore resourceClaims(LoadedObjects loaded, ManualClock clock, long seed) {
    boolean asks = loaded.ofType(Pod.class).stream().anyMatch(p -> !p.spec().resourceClaims().isEmpty());
    if (!asks) {
      return null;
    }
    ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
    for (ApiObject<?> o : loaded.objects()) {
      if (o instanceof DeviceClass || o instanceof ResourceSlice || o instanceof DeviceTaintRule
          || o instanceof ResourceClaim
          || o instanceof ResourceClaimTemplate || o instanceof Node
          || o instanceof Pod p && !p.spec().resourceClaims().isEmpty() && !p.isTerminal()) {
        createRaw(store, o);
      }
    }
    ResourceClaimController.of(store, new java.util.Random(seed)).syncAll();
    return store;
  }

  /** {@code loaded} with each pod that {@code store} holds replaced by the store's copy (its claims' status). */
  private static LoadedObjects withStoredPods(LoadedObjects loaded, ObjectStore store) {
    List<ApiObject<?>> out = new ArrayList<>(loaded.objects().size());
    for (ApiObject<?> o : loaded.objects()) {
      if (o instanceof Pod p) {
        out.add(store.get(Pod.class, p.metadata().namespace(), p.metadata().name()).orElse(p));
      } else {
        out.add(o);
      }
    }
    return LoadedObjects.of(out);
  }

  /**
   * An object store holding the manifests' StorageClasses, PersistentVolumes, claims and nodes, the claims of the
   * pods' generic ephemeral volumes (as the ephemeral volume controller makes them: the pods themselves are not in
   * this store, so the controller's claim is created for each pending pod here, unless a claim of that name exists,
   * which the VolumeBinding plugin then refuses if the pod does not own it), and a volume controller on it (an
   * unlimited in-memory provisioner per provisioner the classes name), after a first sync that binds Immediate
   * claims; {@code null} when no claim is present.
   */
  private static @Nullable PersistentVolumeController storage(LoadedObjects loaded, ManualClock clock) {
    boolean claims = loaded.objects().stream().anyMatch(o -> o instanceof PersistentVolumeClaim
        || o instanceof Pod pod && pod.spec().volumes().stream()
            .anyMatch(v -> v.claim() != null || v.ephemeral() != null));
    if (!claims) {
      return null;
    }
    ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
    PersistentVolumeController.Builder b = PersistentVolumeController.builder(store).clock(clock);
    Set<String> provisioners = new java.util.TreeSet<>();
    for (ApiObject<?> o : loaded.objects()) {
      if (o instanceof StorageClass sc) {
        store.create(sc);
        if (!StorageAnnotations.NO_PROVISIONER.equals(sc.provisioner()) && provisioners.add(sc.provisioner())) {
          b.provisioner(InMemoryProvisioner.unlimited(sc.provisioner()));
        }
      } else if (o instanceof PersistentVolume || o instanceof PersistentVolumeClaim || o instanceof Node) {
        createRaw(store, o);
      }
    }
    for (Pod pod : loaded.ofType(Pod.class)) {
      if (pod.isTerminal()) {
        continue;
      }
      for (Volume v : pod.spec().volumes()) {
        if (v.ephemeral() != null && store.get(PersistentVolumeClaim.class, pod.metadata().namespace(),
            EphemeralVolumes.claimName(pod, v)).isEmpty()) {
          store.create(EphemeralVolumes.claimFor(pod, v));
        }
      }
    }
    PersistentVolumeController controller = b.build();
    controller.syncAll();
    return controller;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void createRaw(ObjectStore store, ApiObject<?> o) {
    store.create((ApiObject) creatable(o));
  }

  /**
   * {@code o} as a store can create it: without the resourceVersion that objects dumped from a cluster
   * ({@code kubectl get -o yaml}) carry, which only the store sets.
   */
  static ApiObject<?> creatable(ApiObject<?> o) {
    return o.metadata().resourceVersion().isEmpty() ? o
        : o.withMetadata(o.metadata().toBuilder().resourceVersion("").build());
  }

  private static ScheduleOutcome schedule(LoadedObjects loaded, io.fleetkit.scheduler.SchedulerBuilder builder,
      ManualClock clock, Set<String> served, @Nullable PersistentVolumeController volumes) {
    List<Pod> pending = new ArrayList<>();
    Map<String, String> notServed = new LinkedHashMap<>();
    try (Scheduler scheduler = builder.build()) {
      for (ApiObject<?> o : loaded.objects()) {
        if (o instanceof Node n) {
          scheduler.addNode(n);
        }
      }
      for (ApiObject<?> o : loaded.objects()) {
        if (!(o instanceof Node) && !(o instanceof Pod)) {
          scheduler.addObject(o);
        }
      }
      for (Pod p : loaded.ofType(Pod.class)) {
        if (p.isBound() || p.isTerminal()) {
          scheduler.addPod(p);
        } else if (!served.contains(p.spec().schedulerName())) {
          notServed.put(p.metadata().key(), "no profile serves schedulerName \"" + p.spec().schedulerName()
              + "\" (profiles: " + String.join(", ", new java.util.TreeSet<>(served)) + ")");
        } else {
          pending.add(p);
        }
      }
      for (Pod p : pending) {
        scheduler.addPod(p);
      }
      Map<String, List<String>> victimsByPod = new LinkedHashMap<>();
      Map<String, String> lastMessage = new LinkedHashMap<>();
      int idleRounds = 0;
      for (int round = 0; round < 1000 && idleRounds < 3; round++) {
        if (volumes != null) {
          volumes.syncAll();
        }
        List<ScheduleResult> results = scheduler.runUntilIdle();
        boolean progress = false;
        for (ScheduleResult r : results) {
          if (!r.victims().isEmpty()) {
            victimsByPod.computeIfAbsent(r.podKey(), k -> new ArrayList<>()).addAll(r.victims());
            progress = true;
          }
          if (r.isBound()) {
            progress = true;
          } else if (!r.message().isEmpty()) {
            lastMessage.put(r.podKey(), r.message());
          }
        }
        if (scheduler.pending().isEmpty()) {
          break;
        }
        idleRounds = progress ? 0 : idleRounds + 1;
        // Jump past the longest backoff so that retried pods come back to activeQ.
        clock.advance(Duration.ofSeconds(11));
      }
      Map<String, ScheduleOutcome.Placement> placements = new TreeMap<>();
      Map<String, ScheduleOutcome.Unschedulable> failed = new TreeMap<>();
      Map<String, String> pendingMessages = new LinkedHashMap<>();
      for (PendingPod pp : scheduler.pending()) {
        pendingMessages.put(pp.podKey(), pp.message());
      }
      for (Pod p : pending) {
        String key = p.metadata().key();
        var node = scheduler.nodeOf(key);
        if (node.isPresent() && !pendingMessages.containsKey(key)) {
          placements.put(key, new ScheduleOutcome.Placement(key, node.get(), victimsByPod.getOrDefault(key, List.of()),
              boundVolumes(p, volumes)));
        } else {
          String msg = pendingMessages.getOrDefault(key, "");
          if (msg.isEmpty()) {
            msg = lastMessage.getOrDefault(key, "pod was not scheduled");
          }
          failed.put(key, new ScheduleOutcome.Unschedulable(key, msg));
        }
      }
      notServed.forEach((k, m) -> failed.put(k, new ScheduleOutcome.Unschedulable(k, m)));
      return new ScheduleOutcome(List.copyOf(placements.values()), List.copyOf(failed.values()), List.of());
    }
  }

  /**
   * The volume each claim of {@code pod} (its generic ephemeral volumes' claims, {@code <pod>-<volume>}, too) is
   * bound to, by claim name, in the order of the pod's volumes.
   */
  private static Map<String, String> boundVolumes(Pod pod, @Nullable PersistentVolumeController volumes) {
    Map<String, String> out = new LinkedHashMap<>();
    if (volumes == null) {
      return out;
    }
    for (Volume v : pod.spec().volumes()) {
      VolumeSource.PersistentVolumeClaim c = v.claim();
      String name = c != null ? c.claimName() : v.ephemeral() != null ? EphemeralVolumes.claimName(pod, v) : null;
      if (name != null) {
        volumes.store().get(PersistentVolumeClaim.class, pod.metadata().namespace(), name)
            .filter(claim -> !claim.spec().volumeName().isEmpty())
            .ifPresent(claim -> out.put(name, claim.spec().volumeName()));
      }
    }
    return out;
  }
}
