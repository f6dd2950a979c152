package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.core.PodResourceClaimStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceClaimStatus;
import io.fleetkit.api.resource.dra.ResourceClaimTemplate;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' resource-claim controller ({@code pkg/controller/resourceclaim/controller.go}) over an
 * {@link ObjectStore}.
 *
 * <ul>
 *   <li>{@link #syncPod}: for each template entry of a pod's {@code spec.resourceClaims} without a claim, creates one
 *       ResourceClaim from the template, named {@code <pod>-<entry>-<5 random characters>} (both parts shortened in
 *       proportion when long, as upstream), with the template's labels and annotations plus
 *       {@value #POD_CLAIM_NAME_ANNOTATION}, and the pod as its controller; a claim this controller made earlier for
 *       the entry (found by owner and annotation) is reused. The names are recorded in the pod's
 *       {@code status.resourceClaimStatuses}. For a pod already on a node (the scheduler bypassed), an allocated claim
 *       gets the pod in its {@code reservedFor}. Pods being deleted are skipped.
 *   <li>{@link #syncClaim}: removes from a claim's {@code reservedFor} the pods that are gone, replaced (another
 *       uid) or done (Succeeded, Failed, or being deleted before they ran on a node). A claim left without
 *       consumers that carries {@value #FINALIZER} (it was allocated by the scheduler) is deallocated and the
 *       finalizer removed; a claim made for a pod that is done, or replaced, is deleted (a pod that is gone leaves its
 *       claim to the garbage collector).
 * </ul>
 *
 * <p>Drive it with {@link #syncAll()} (every pod with claims, then every claim) or the two syncs; they read the store,
 * so they are idempotent. Or, as upstream's informers do, with {@link #follow()} and then {@link #syncChanged()}, which
 * syncs only what changed: the pods with claims that were added or changed, each such pod's claims (a pod that is done
 * or gone frees them), every claim added or changed, and the pod that owns a deleted claim (which gets a new one). A
 * periodic pass then costs nothing when nothing happened. Thread-safe: syncs race only through the store
 * (compare-and-swap writes are retried).
 */
public final class ResourceClaimController {
  /** The annotation naming the pod's {@code spec.resourceClaims} entry a generated claim is for (upstream's). */
  public static final String POD_CLAIM_NAME_ANNOTATION = "resource.kubernetes.io/pod-claim-name";
  /** The finalizer the scheduler puts on a claim it allocates; this controller removes it when deallocating. */
  public static final String FINALIZER = "resource.kubernetes.io/delete-protection";
  /** apimachinery's {@code rand.String} alphabet (no vowels, no confusable characters). */
  private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
  private static final int MAX_BASE = 57;
  private static final int ATTEMPTS = 5;
  /** Upstream's Warning on a pod whose claim could not be made or recorded. */
  public static final String FAILED_RESOURCE_CLAIM_CREATION = "FailedResourceClaimCreation";

  private final ObjectStore store;
  private final Random random;
  private final ResourceClaimMetrics metrics;
  private final EventRecorder events;
  /** Keys ({@code ns/name}) of the pods {@link #syncChanged} syncs next. */
  private final Set<String> changedPods = ConcurrentHashMap.newKeySet();
  /** Keys ({@code ns/name}) of the claims {@link #syncChanged} syncs next. */
  private final Set<String> changedClaims = ConcurrentHashMap.newKeySet();

  private ResourceClaimController(ObjectStore store, Random random, MetricsRegistry metrics, EventRecorder events) {
    this.store = store;
    this.random = random;
    this.metrics = new ResourceClaimMetrics(metrics);
    this.events = EventRecorder.bestEffort(events);
  }

  /** A controller on {@code store}, naming claims with a random suffix. */
  public static ResourceClaimController of(ObjectStore store) {
    return of(store, new Random());
  }

  /** A controller on {@code store} whose name suffixes come from {@code random} (seed it for reproducible runs). */
  public static ResourceClaimController of(ObjectStore store, Random random) {
    return of(store, random, MetricsRegistry.NOOP);
  }

  /**
   * As {@link #of(ObjectStore, Random)}, recording upstream's claim metrics into {@code metrics} (see
   * {@link ResourceClaimMetrics}: the create counter always, the claims gauge while the controller follows the store).
   */
  public static ResourceClaimController of(ObjectStore store, Random random, MetricsRegistry metrics) {
    return of(store, random, metrics, EventRecorder.NOOP);
  }

  /**
   * As {@link #of(ObjectStore, Random, MetricsRegistry)}, recording upstream's Warning
   * {@value #FAILED_RESOURCE_CLAIM_CREATION} on a pod whose claim {@link #syncPod} could not make or record (action
   * {@code Create}, note {@code PodResourceClaim <entry>: <error>}), at each sync that fails, as upstream at each retry.
   */
  public static ResourceClaimController of(ObjectStore store, Random random, MetricsRegistry metrics,
      EventRecorder events) {
    return new ResourceClaimController(Objects.requireNonNull(store, "store"), Objects.requireNonNull(random,
        "random"), Objects.requireNonNull(metrics, "metrics"), Objects.requireNonNull(events, "events"));
  }

  /**
   * Starts following the store: every pod with resource claims and every claim are marked now, and from then on the
   * objects upstream's event handlers queue are marked for {@link #syncChanged}: a pod with claims that is added or
   * changed (unless it is being deleted or has terminated), the claims such a pod names in any event (deleted or done, it releases
   * them), a claim that is added or changed, and the pod that controls a deleted claim. Close the result to stop.
   */
  public AutoCloseable follow() {
    ListResult<Pod> pods = store.list(Pod.class, "", p -> !p.spec().resourceClaims().isEmpty());
    for (Pod p : pods.items()) {
      changedPods.add(p.metadata().key());
    }
    Watch podWatch = store.watch(Pod.class, pods.resourceVersion(), e -> onPod(e.type(), e.object()));
    Watch claimWatch;
    try {
      ListResult<ResourceClaim> claims = store.list(ResourceClaim.class);
      for (ResourceClaim c : claims.items()) {
        changedClaims.add(c.metadata().key());
        metrics.claim(c.metadata().key(), c);
      }
      claimWatch = store.watch(ResourceClaim.class, claims.resourceVersion(), e -> onClaim(e.type(), e.object()));
    } catch (RuntimeException e) {
      podWatch.close();
      throw e;
    }
    return () -> {
      podWatch.close();
      claimWatch.close();
    };
  }

  private void onPod(WatchEventType type, Pod pod) {
    if (pod.spec().resourceClaims().isEmpty()) {
      return;
    }
    String ns = pod.metadata().namespace();
    for (PodResourceClaim pc : pod.spec().resourceClaims()) {
      String claim = pod.resourceClaimName(pc);
      if (claim != null && !claim.isEmpty()) {
        changedClaims.add(ns + "/" + claim);
      }
    }
    if (type != WatchEventType.DELETED && pod.metadata().deletionTimestamp() == null && !pod.isTerminal()) {
      changedPods.add(pod.metadata().key());
    }
  }

  private void onClaim(WatchEventType type, ResourceClaim claim) {
    metrics.claim(claim.metadata().key(), type == WatchEventType.DELETED ? null : claim);
    if (type == WatchEventType.DELETED) {
      OwnerReference owner = claim.metadata().controllerRef();
      if (owner != null && owner.kind().equals(Pod.KIND)) {
        changedPods.add(claim.metadata().namespace() + "/" + owner.name());
      }
      return;
    }
    changedClaims.add(claim.metadata().key());
  }

  /**
   * Syncs the pods, then the claims, that {@link #follow()} marked since the last call, each in key order; an object
   * whose sync fails stays marked and is tried again next time.
   *
   * @return the errors, one per object that failed
   */
  public List<String> syncChanged() {
    List<String> errors = new ArrayList<>();
    drain(changedPods, this::syncPod, errors);
    drain(changedClaims, this::syncClaim, errors);
    return errors;
  }

  private static void drain(Set<String> marked, BiFunction<String, String, Optional<String>> sync,
      List<String> errors) {
    if (marked.isEmpty()) {
      return;
    }
    List<String> keys = new ArrayList<>(marked);
    keys.sort(null);
    for (String key : keys) {
      marked.remove(key);
      int slash = key.indexOf('/');
      Optional<String> error = sync.apply(key.substring(0, slash), key.substring(slash + 1));
      if (error.isPresent()) {
        errors.add(error.get());
        marked.add(key);
      }
    }
  }

  /** Syncs every pod with resource claims, then every claim; returns the errors, one per object that failed. */
  public List<String> syncAll() {
    List<String> errors = new ArrayList<>();
    for (Pod p : store.list(Pod.class, "", p -> !p.spec().resourceClaims().isEmpty()).items()) {
      syncPod(p.metadata().namespace(), p.metadata().name()).ifPresent(errors::add);
    }
    for (ResourceClaim c : store.list(ResourceClaim.class).items()) {
      syncClaim(c.metadata().namespace(), c.metadata().name()).ifPresent(errors::add);
    }
    return errors;
  }

  /**
   * Upstream's {@code syncPod}; empty when the pod's claims are in place, else the error naming pod and entry. A pod
   * that has terminated needs no claims (upstream's {@code podNeedsClaims}): none is made for it, so that a claim
   * deleted because its pod is done is not made again.
   */
  public Optional<String> syncPod(String namespace, String name) {
    Optional<Pod> found = store.get(Pod.class, namespace, name);
    if (found.isEmpty() || found.get().metadata().deletionTimestamp() != null || found.get().isTerminal()) {
      return Optional.empty(); // upstream's podNeedsClaims: a terminated pod needs no claim (its own was released)
    }
    Pod pod = found.get();
    Map<String, String> created = new LinkedHashMap<>();
    for (PodResourceClaim pc : pod.spec().resourceClaims()) {
      try {
        String claim = handleClaim(pod, pc);
        if (claim != null) {
          created.put(pc.name(), claim);
        }
      } catch (FleetKitException | IllegalArgumentException e) {
        if (events != EventRecorder.NOOP) {
          events.event(pod, Event.WARNING, FAILED_RESOURCE_CLAIM_CREATION, "Create",
              "PodResourceClaim " + pc.name() + ": " + e.getMessage());
        }
        return Optional.of("pod " + pod.metadata().key() + ", resource claim " + pc.name() + ": " + e.getMessage());
      }
    }
    if (!created.isEmpty()) {
      Optional<String> err = recordStatuses(pod, created);
      if (err.isPresent()) {
        return err;
      }
    }
    if (!pod.spec().nodeName().isEmpty()) { // scheduled without the scheduler: reserve allocated claims for it
      Pod now = store.get(Pod.class, namespace, name).orElse(pod);
      for (PodResourceClaim pc : now.spec().resourceClaims()) {
        String claimName = now.resourceClaimName(pc);
        if (claimName != null && !claimName.isEmpty()) {
          reserveFor(now, claimName);
        }
      }
    }
    return Optional.empty();
  }

  /** The claim to record for a template entry whose claim is not in the status yet, or null. */
  private @Nullable String handleClaim(Pod pod, PodResourceClaim pc) {
    if (!pc.fromTemplate()) {
      return null;
    }
    String ns = pod.metadata().namespace();
    String recorded = pod.status().resourceClaimName(pc.name());
    if (recorded != null) {
      if (recorded.isEmpty()) {
        return null; // no claim needed
      }
      Optional<ResourceClaim> claim = store.get(ResourceClaim.class, ns, recorded);
      if (claim.isPresent()) {
        if (!ownedBy(claim.get(), pod)) {
          throw new IllegalArgumentException("ResourceClaim " + claim.get().metadata().key()
              + " was not created for pod " + pod.metadata().key() + " (pod is not owner)");
        }
        return null;
      }
    }
    for (ResourceClaim c : store.list(ResourceClaim.class, ns).items()) { // made earlier, status not written
      if (ownedBy(c, pod) && pc.name().equals(c.metadata().annotations().get(POD_CLAIM_NAME_ANNOTATION))) {
        return c.metadata().name();
      }
    }
    ResourceClaimTemplate t = store.get(ResourceClaimTemplate.class, ns, pc.resourceClaimTemplateName())
        .orElseThrow(() -> new IllegalArgumentException("resource claim template \""
            + pc.resourceClaimTemplateName() + "\": not found"));
    Map<String, String> annotations = new LinkedHashMap<>(t.spec().annotations());
    annotations.put(POD_CLAIM_NAME_ANNOTATION, pc.name());
    ObjectMeta meta = ObjectMeta.builder().namespace(ns).name(generatedName(pod.metadata().name(), pc.name()))
        .labels(t.spec().labels()).annotations(annotations)
        .ownerReference(new OwnerReference("v1", Pod.KIND, pod.metadata().name(), pod.metadata().uid(), true, true))
        .build();
    ResourceClaim created;
    try {
      created = store.create(ResourceClaim.of(meta, t.spec().spec()));
    } catch (RuntimeException e) {
      metrics.created(t.spec().spec(), false);
      throw e;
    }
    metrics.created(t.spec().spec(), true);
    return created.metadata().name();
  }

  /**
   * {@code <pod>-<entry>-} and 5 random characters; when that base is longer than 57 characters both names are cut in
   * proportion and joined by one hyphen, as upstream's {@code generateName} (the API server adds the characters).
   */
  String generatedName(String podName, String entry) {
    String base = podName + "-" + entry + "-";
    if (base.length() > MAX_BASE) {
      int len = base.length();
      base = podName.substring(0, podName.length() * MAX_BASE / len) + "-"
          + entry.substring(0, entry.length() * MAX_BASE / len);
    }
    StringBuilder sb = new StringBuilder(base);
    for (int i = 0; i < 5; i++) {
      sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return sb.toString();
  }

  private static boolean ownedBy(ResourceClaim claim, Pod pod) {
    return claim.metadata().isControlledBy(pod.metadata().uid());
  }

  private Optional<String> recordStatuses(Pod pod, Map<String, String> created) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Pod current = store.get(Pod.class, pod.metadata().namespace(), pod.metadata().name()).orElse(null);
      if (current == null || !current.metadata().uid().equals(pod.metadata().uid())) {
        return Optional.empty(); // gone: its claims go with it
      }
      List<PodResourceClaimStatus> statuses = new ArrayList<>();
      for (PodResourceClaimStatus s : current.status().resourceClaimStatuses()) {
        if (!created.containsKey(s.name())) {
          statuses.add(s);
        }
      }
      created.forEach((entry, claim) -> statuses.add(new PodResourceClaimStatus(entry, claim)));
      try {
        store.updateStatus(current.withStatus(current.status().withResourceClaimStatuses(statuses)));
        return Optional.empty();
      } catch (ConflictException e) {
        // read again
      }
    }
    return Optional.of("pod " + pod.metadata().key() + ": gave up recording its claims after " + ATTEMPTS
        + " write conflicts");
  }

  private void reserveFor(Pod pod, String claimName) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<ResourceClaim> found = store.get(ResourceClaim.class, pod.metadata().namespace(), claimName);
      if (found.isEmpty() || found.get().status().allocation() == null) {
        return;
      }
      ResourceClaim c = found.get();
      List<ResourceClaimConsumerReference> r = new ArrayList<>(c.status().reservedFor());
      if (r.stream().anyMatch(x -> isPod(x) && x.uid().equals(pod.metadata().uid()))
          || r.size() >= ResourceClaimStatus.MAX_RESERVED_FOR) {
        return;
      }
      r.add(ResourceClaimConsumerReference.pod(pod.metadata().name(), pod.metadata().uid()));
      try {
        store.updateStatus(c.withStatus(c.status().withReservedFor(r)));
        return;
      } catch (ConflictException e) {
        // read again
      }
    }
  }

  private static boolean isPod(ResourceClaimConsumerReference r) {
    return r.apiGroup().isEmpty() && r.resource().equals("pods");
  }

  /** Whether the pod will not run (again): Succeeded, Failed, or being deleted before it was bound. */
  private static boolean done(Pod pod) {
    return pod.isTerminal() || (pod.metadata().deletionTimestamp() != null && pod.spec().nodeName().isEmpty());
  }

  /** Upstream's {@code syncClaim}; empty when done, else the error naming the claim. */
  public Optional<String> syncClaim(String namespace, String name) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<ResourceClaim> found = store.get(ResourceClaim.class, namespace, name);
      if (found.isEmpty()) {
        return Optional.empty();
      }
      ResourceClaim c = found.get();
      List<ResourceClaimConsumerReference> valid = new ArrayList<>();
      for (ResourceClaimConsumerReference r : c.status().reservedFor()) {
        if (!isPod(r)) {
          valid.add(r); // other consumers are not this controller's to check
          continue;
        }
        Optional<Pod> p = store.get(Pod.class, namespace, r.name());
        if (p.isPresent() && p.get().metadata().uid().equals(r.uid()) && !done(p.get())) {
          valid.add(r);
        }
      }
      boolean deallocate = valid.isEmpty() && c.status().allocation() != null
          && c.metadata().finalizers().contains(FINALIZER);
      try {
        if (deallocate) {
          List<String> finalizers = new ArrayList<>(c.metadata().finalizers());
          finalizers.remove(FINALIZER);
          ResourceClaim cleared = c.withStatus(new ResourceClaimStatus(null, List.of()));
          // the status first (allocation cleared), then the finalizer: once it is gone a deleted claim may vanish
          ResourceClaim stored = store.updateStatus(cleared);
          store.update(stored.withMetadata(stored.metadata().toBuilder().finalizers(finalizers).build()));
        } else if (valid.size() < c.status().reservedFor().size()) {
          store.updateStatus(c.withStatus(c.status().withReservedFor(valid)));
        }
      } catch (ConflictException e) {
        continue; // read again
      } catch (NotFoundException e) {
        return Optional.empty();
      }
      if (valid.isEmpty()) {
        deleteIfOwnerDone(c);
      }
      return Optional.empty();
    }
    return Optional.of("resourceclaim " + namespace + "/" + name + ": gave up after " + ATTEMPTS
        + " write conflicts");
  }

  private void deleteIfOwnerDone(ResourceClaim c) {
    OwnerReference owner = c.metadata().controllerRef();
    if (owner == null || !owner.kind().equals(Pod.KIND) || c.metadata().deletionTimestamp() != null) {
      return;
    }
    Optional<Pod> pod = store.get(Pod.class, c.metadata().namespace(), owner.name());
    if (pod.isPresent() && (!pod.get().metadata().uid().equals(owner.uid()) || done(pod.get()))) {
      try {
        store.delete(ResourceClaim.class, c.metadata().namespace(), c.metadata().name(),
            DeleteOptions.of(DeletePreconditions.uid(c.metadata().uid())));
      } catch (NotFoundException | ConflictException e) {
        // gone or replaced meanwhile
      }
    }
  }
}
