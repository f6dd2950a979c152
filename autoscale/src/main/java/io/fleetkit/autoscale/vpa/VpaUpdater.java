package io.fleetkit.autoscale.vpa;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.autoscaling.RecommendedPodResources;
import io.fleetkit.api.autoscaling.UpdateMode;
import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.ConflictException;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.reconcile.controllers.EvictionDecision;
import io.fleetkit.reconcile.controllers.Evictions;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The VPA updater over an {@link ObjectStore} ({@code updater/logic/updater.go}): for each VPA in mode Recreate
 * (or Auto) or InPlaceOrRecreate with a recommendation, takes the pods of its target that
 * {@link UpdatePriorityCalculator} accepts, highest priority first, and
 * <ul>
 *   <li>InPlaceOrRecreate: resizes the pod's requests in place (the store's pods/resize) when
 *       {@link PodsEvictionRestriction#canInPlaceUpdate} allows it (otherwise {@link UpdateAction#IN_PLACE_DEFERRED});
 *       a refused resize falls back to eviction. A pod with pod-level resources ({@code spec.resources}, KEP-2837)
 *       is always refused, as Kubernetes refuses to resize one ("pods with pod-level resources cannot be resized"),
 *       and so goes to eviction;</li>
 *   <li>Recreate: evicts it, so its controller recreates it and admission applies the recommendation.</li>
 * </ul>
 * The target's pods are found as upstream's target selector fetcher finds them ({@link VpaTargets}: Deployments,
 * ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs, and scalable kinds such as Rollouts). Its live pods are
 * grouped by their managing controller, each group with one {@link PodsEvictionRestriction} per pass
 * (configured replicas: the controller's, see {@link ReplicaGroups}; {@code minReplicas} 2 or the VPA's
 * {@code updatePolicy.minReplicas}; eviction tolerance 50%): a pod without a controller, or of a group below
 * {@code minReplicas}, is left alone, and a pod its group's restriction keeps is reported
 * {@link UpdateAction#BLOCKED_BY_EVICTION_TOLERANCE}. An eviction the restriction allows goes through the eviction
 * API, {@link Evictions#evict} (PodDisruptionBudgets, the pod's DisruptionTarget condition, its deletion); a refusal
 * is reported {@link UpdateAction#BLOCKED_BY_PDB} with the API's message. Modes Off and Initial never evict. Runs are
 * not concurrent-safe for the same store; call {@link #runOnce()} from one thread.
 */
public final class VpaUpdater {
  /** {@code min-replicas}. */
  public static final int DEFAULT_MIN_REPLICAS = 2;
  /** {@code eviction-tolerance}. */
  public static final double DEFAULT_EVICTION_TOLERANCE = 0.5;

  private static final Logger LOG = LoggerFactory.getLogger(VpaUpdater.class);

  private final ObjectStore store;
  private final Clock clock;
  private final double evictionTolerance;
  private final EventRecorder events;

  public VpaUpdater(ObjectStore store, Clock clock, double evictionTolerance) {
    this(store, clock, evictionTolerance, EventRecorder.NOOP);
  }

  /**
   * An updater that records upstream's events with {@code events}: {@value EventRecorder#EVICTED_BY_VPA} on an evicted
   * pod and {@value EventRecorder#EVICTED_POD} on its VPA ({@code pods_eviction_restriction.go} {@code Evict}), and
   * {@value EventRecorder#IN_PLACE_RESIZED_BY_VPA} on a pod resized in place ({@code pods_inplace_restriction.go}
   * {@code InPlaceUpdate}), each once the API call succeeded. A recorder that throws is logged and passed over.
   */
  public VpaUpdater(ObjectStore store, Clock clock, double evictionTolerance, EventRecorder events) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.evictionTolerance = PodsEvictionRestriction.requireTolerance("vpa updater", evictionTolerance);
    this.events = EventRecorder.bestEffort(Objects.requireNonNull(events, "events"));
  }

  public static VpaUpdater create(ObjectStore store, Clock clock) {
    return new VpaUpdater(store, clock, DEFAULT_EVICTION_TOLERANCE);
  }

  /** One updater pass over every VPA of the store. */
  public List<UpdateAction> runOnce() {
    List<UpdateAction> actions = new ArrayList<>();
    for (VerticalPodAutoscaler vpa : store.list(VerticalPodAutoscaler.class).items()) {
      actions.addAll(update(vpa));
    }
    return actions;
  }

  /** One updater pass for one VPA. */
  public List<UpdateAction> update(VerticalPodAutoscaler vpa) {
    UpdateMode mode = vpa.spec().updateMode().effective();
    RecommendedPodResources rec = vpa.status().recommendation();
    if (rec == null || (mode != UpdateMode.Recreate && mode != UpdateMode.InPlaceOrRecreate)) {
      return List.of();
    }
    String ns = vpa.metadata().namespace();
    LabelSelector selector;
    try {
      selector = VpaTargets.selector(store, ns, vpa.spec().targetRef());
    } catch (FleetKitException | IllegalArgumentException e) {
      LOG.debug("vpa {}/{}: no target: {}", ns, vpa.metadata().name(), e.getMessage());
      return List.of();
    }
    List<Pod> pods = store.list(Pod.class, ns, selector).items().stream()
        .filter(p -> p.metadata().deletionTimestamp() == null).toList();
    Integer policyMin = vpa.spec().updatePolicy() == null ? null : vpa.spec().updatePolicy().minReplicas();
    int minReplicas = policyMin != null ? policyMin : DEFAULT_MIN_REPLICAS;
    ReplicaGroups groups = ReplicaGroups.of(store, pods, minReplicas, evictionTolerance);
    if (groups.isEmpty()) {
      return List.of();
    }
    List<Candidate> candidates = new ArrayList<>();
    for (Pod p : pods) {
      PodsEvictionRestriction group = groups.of(p);
      if (group != null) {
        UpdatePriorityCalculator.updatePriority(p, rec, vpa.spec().resourcePolicy(), clock.instant())
            .ifPresent(pr -> candidates.add(new Candidate(p, pr, group)));
      }
    }
    candidates.sort(Comparator.comparing(Candidate::priority).reversed());
    List<UpdateAction> actions = new ArrayList<>();
    List<Candidate> toEvict = mode == UpdateMode.InPlaceOrRecreate
        ? resizeInPlace(vpa, rec, candidates, actions) : candidates;
    Instant now = clock.instant();
    for (Candidate c : toEvict) {
      actions.add(evict(vpa, c, now));
    }
    return actions;
  }

  /** A pod to update, with its priority and its replica group's restriction. */
  private record Candidate(Pod pod, PodPriority priority, PodsEvictionRestriction restriction) {
    String key() {
      return pod.metadata().key();
    }
  }

  /**
   * Resizes each candidate the restriction allows, in order, and returns those whose resize was refused (upstream's
   * fallback to eviction).
   */
  private List<Candidate> resizeInPlace(VerticalPodAutoscaler vpa, RecommendedPodResources rec,
      List<Candidate> candidates, List<UpdateAction> actions) {
    List<Candidate> refused = new ArrayList<>();
    for (Candidate c : candidates) {
      if (!c.restriction().canInPlaceUpdate(c.pod())) {
        actions.add(new UpdateAction(c.key(), UpdateAction.IN_PLACE_DEFERRED, c.priority()));
        continue;
      }
      if (c.pod().spec().hasPodLevelResources()) {
        // Kubernetes refuses any resize of such a pod (without InPlacePodLevelResourcesVerticalScaling); upstream's
        // updater then falls back to eviction, as for any refused resize.
        LOG.debug("vpa: in-place resize of {} refused (pods with pod-level resources cannot be resized), evicting",
            c.key());
        refused.add(c);
        continue;
      }
      try {
        store.resize(VpaAdmission.apply(c.pod(), vpa, rec)); // pods/resize, as upstream's updater
        record(c.pod(), EventRecorder.IN_PLACE_RESIZED_BY_VPA, "Resize", "Pod was resized in place by VPA Updater.");
        c.restriction().recordInPlaceUpdate(c.pod());
        actions.add(new UpdateAction(c.key(), UpdateAction.RESIZED_IN_PLACE, c.priority()));
      } catch (FleetKitException e) {
        LOG.debug("vpa: in-place resize of {} refused ({}), evicting", c.key(), e.getMessage());
        refused.add(c);
      }
    }
    return refused;
  }

  /** Evicts one candidate through the eviction API if the restriction allows it. */
  private UpdateAction evict(VerticalPodAutoscaler vpa, Candidate c, Instant now) {
    if (!c.restriction().canEvict(c.pod())) {
      return new UpdateAction(c.key(), UpdateAction.BLOCKED_BY_EVICTION_TOLERANCE, c.priority());
    }
    EvictionDecision d;
    try {
      d = Evictions.evict(store, c.pod(), now);
    } catch (ConflictException e) {
      String why = Objects.requireNonNullElse(e.getMessage(), e.toString());
      LOG.debug("vpa: eviction of {} failed: {}", c.key(), why);
      return new UpdateAction(c.key(), UpdateAction.EVICTION_FAILED, c.priority(), why);
    }
    if (!d.allowed()) {
      return new UpdateAction(c.key(), UpdateAction.BLOCKED_BY_PDB, c.priority(), d.reason());
    }
    if (d.podGone()) {
      // the eviction API's 404: upstream's Evict returns the error, so the pod is neither counted in its group's
      // evictions nor reported evicted
      String why = "pods \"" + c.pod().metadata().name() + "\" not found";
      LOG.debug("vpa: eviction of {} failed: {}", c.key(), why);
      return new UpdateAction(c.key(), UpdateAction.EVICTION_FAILED, c.priority(), why);
    }
    record(c.pod(), EventRecorder.EVICTED_BY_VPA, "Evict",
        "Pod was evicted by VPA Updater to apply resource recommendation.");
    record(vpa, EventRecorder.EVICTED_POD, "Evict",
        "VPA Updater evicted Pod " + c.pod().metadata().name() + " to apply resource recommendation.");
    c.restriction().recordEviction(c.pod());
    return new UpdateAction(c.key(), UpdateAction.EVICTED, c.priority());
  }

  /** Records a Normal event on {@code regarding}, unless no recorder was given; a failing recorder is passed over. */
  private void record(ApiObject<?> regarding, String reason, String action, String note) {
    if (events != EventRecorder.NOOP) {
      events.event(regarding, Event.NORMAL, reason, action, note);
    }
  }
}
