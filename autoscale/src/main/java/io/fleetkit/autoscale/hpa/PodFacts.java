package io.fleetkit.autoscale.hpa;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What upstream's {@code groupPods} and {@code calculateRequests} read from each pod of a list, for one resource
 * and container: whether the pod is ignored (deleted or failed), pending, or grouped by its sample; its request (or
 * the error of a container without one); and for cpu its readiness facts (Ready condition, start of the
 * initialization period, last transition). {@link #classify} then groups a pod from these and its sample as
 * {@code groupPods} does, without reading the pod again.
 *
 * <p>Made {@linkplain #of from the facts of an earlier list}, a pod that is the same object as one of that list (the
 * store's objects are immutable: the same object, the same pod) keeps its facts; only new and changed pods are read.
 * The lists are walked side by side in name order (a {@link PodLister}'s key order), so an unchanged pod costs a
 * reference comparison; lists in another order are still right, with fewer pods kept. Immutable once made.
 */
final class PodFacts {
  /** {@link #classify}'s answers: upstream's groups. */
  static final int IGNORED = 0;
  static final int UNREADY = 1;
  static final int MISSING = 2;
  static final int READY = 3;

  private static final byte BASE_IGNORED = 0;
  private static final byte BASE_PENDING = 1;
  private static final byte BASE_SAMPLED = 2;

  final List<Pod> pods;
  /**
   * The same pods in an array: the next list's facts are made by walking it beside the new list's array, element
   * reads instead of calls through the list wrappers a lister hands out.
   */
  private final Pod[] podArray;
  final String resource;
  final String container;
  private final boolean cpu;
  /** What was read from each pod, in list order; a pod kept from an earlier list keeps its object. */
  private final Fact[] facts;
  /** The first pod (in list order) whose request could not be read ({@link #request(Pod, String, String)}), or -1. */
  private int firstRequestError = -1;
  /**
   * The container lists and pod-level parts last read, and their request (or whether they lack one): pods of one
   * template share these objects, so their request is computed once.
   */
  private @Nullable List<Container> lastContainers;
  private @Nullable List<Container> lastInit;
  private @Nullable ResourceRequirements lastPodResources;
  private @Nullable ResourceList lastOverhead;
  private long lastRequest;
  private boolean lastRequestError;

  /**
   * What is read from one pod (for one resource and container): its name, its base group, its request (or the
   * error of a container without one) and, for cpu, its readiness facts. Immutable.
   */
  private static final class Fact {
    final String name;
    final byte base;
    final long request;
    final @Nullable String requestError;
    final boolean noCondition;
    final @Nullable Instant initialized;
    final @Nullable Instant transition;
    final boolean readyFalse;
    final boolean neverReady;
    /** The end of the initialization period as epoch second and nanosecond, compared without reading it. */
    final long initializedSecond;
    final int initializedNano;

    Fact(String name, byte base, long request, @Nullable String requestError, boolean noCondition,
        @Nullable Instant initialized, @Nullable Instant transition, boolean readyFalse, boolean neverReady) {
      this.name = name;
      this.base = base;
      this.request = request;
      this.requestError = requestError;
      this.noCondition = noCondition;
      this.initialized = initialized;
      this.transition = transition;
      this.readyFalse = readyFalse;
      this.neverReady = neverReady;
      this.initializedSecond = initialized == null ? 0 : initialized.getEpochSecond();
      this.initializedNano = initialized == null ? 0 : initialized.getNano();
    }
  }

  private PodFacts(List<Pod> pods, String resource, String container) {
    this.pods = pods;
    this.podArray = pods.toArray(new Pod[0]);
    this.resource = resource;
    this.container = container;
    this.cpu = ResourceNames.CPU.equals(resource);
    this.facts = new Fact[podArray.length];
  }

  /** How many pods. */
  int size() {
    return facts.length;
  }

  /** Pod {@code i}'s name. */
  String name(int i) {
    return facts[i].name;
  }

  /** Pod {@code i}'s request (0 when a container lacks one: see {@link #requireRequests}). */
  long request(int i) {
    return facts[i].request;
  }

  /**
   * The facts of {@code pods}, keeping those of {@code earlier}'s pods that are the same objects when
   * {@code earlier} is for the same resource and container.
   */
  static PodFacts of(List<Pod> pods, String resource, String container, Duration cpuInitializationPeriod,
      Duration delayOfInitialReadinessStatus, @Nullable PodFacts earlier) {
    if (earlier != null && (!earlier.resource.equals(resource) || !earlier.container.equals(container))) {
      earlier = null;
    }
    if (earlier != null && earlier.pods == pods) {
      return earlier;
    }
    PodFacts f = new PodFacts(pods, resource, container);
    if (earlier != null) { // pods of one template share their container lists: their request is summed once
      f.lastContainers = earlier.lastContainers;
      f.lastInit = earlier.lastInit;
      f.lastPodResources = earlier.lastPodResources;
      f.lastOverhead = earlier.lastOverhead;
      f.lastRequest = earlier.lastRequest;
      f.lastRequestError = earlier.lastRequestError;
    }
    Fact[] facts = f.facts;
    Pod[] now = f.podArray;
    Pod[] before = earlier == null ? null : earlier.podArray;
    Fact[] known = earlier == null ? null : earlier.facts;
    int k = 0;
    int m = before == null ? 0 : before.length;
    for (int i = 0; i < facts.length; i++) {
      Pod p = now[i];
      Fact fact = null;
      while (k < m) {
        if (before[k] == p) {
          fact = known[k++];
          break;
        }
        int c = known[k].name.compareTo(p.metadata().name());
        if (c < 0) {
          k++; // gone from the list
          continue;
        }
        if (c == 0) {
          k++; // changed
        }
        break; // changed or new
      }
      if (fact == null) {
        fact = f.read(p, cpuInitializationPeriod, delayOfInitialReadinessStatus);
      }
      facts[i] = fact;
      if (fact.requestError != null && f.firstRequestError < 0) {
        f.firstRequestError = i;
      }
    }
    return f;
  }

  private Fact read(Pod pod, Duration cpuInitializationPeriod, Duration delayOfInitialReadinessStatus) {
    String name = pod.metadata().name();
    String requestError = null;
    List<Container> containers = pod.spec().containers();
    List<Container> initContainers = pod.spec().initContainers();
    ResourceRequirements podResources = pod.spec().resources();
    ResourceList overhead = pod.spec().overhead();
    if (containers != lastContainers || initContainers != lastInit || podResources != lastPodResources
        || overhead != lastOverhead || lastRequestError) {
      lastContainers = containers;
      lastInit = initContainers;
      lastPodResources = podResources;
      lastOverhead = overhead;
      lastRequestError = false;
      try {
        lastRequest = request(pod, container, resource);
      } catch (MetricsUnavailableException e) {
        lastRequestError = true; // the message names the pod: read again for the next one
        requestError = e.getMessage();
      }
    }
    long request = lastRequest;
    if (pod.metadata().deletionTimestamp() != null || pod.status().phase() == PodPhase.Failed) {
      return new Fact(name, BASE_IGNORED, request, requestError, false, null, null, false, false);
    }
    if (pod.status().phase() == PodPhase.Pending) {
      return new Fact(name, BASE_PENDING, request, requestError, false, null, null, false, false);
    }
    if (!cpu) {
      return new Fact(name, BASE_SAMPLED, request, requestError, false, null, null, false, false);
    }
    PodCondition condition = pod.status().condition(PodCondition.READY);
    Instant startTime = pod.status().startTime();
    if (condition == null || startTime == null) {
      return new Fact(name, BASE_SAMPLED, request, requestError, true, null, null, false, false);
    }
    Instant t = goTime(condition.lastTransitionTime());
    Instant init = startTime.plus(cpuInitializationPeriod);
    boolean readyFalse = condition.status() == ConditionStatus.False;
    boolean neverReady = readyFalse && startTime.plus(delayOfInitialReadinessStatus).isAfter(t);
    return new Fact(name, BASE_SAMPLED, request, requestError, false, init, t, readyFalse, neverReady);
  }

  /**
   * Upstream's group of pod {@code i} with its sample (when it has one: its timestamp and window, null when
   * unknown) at {@code now}; {@code horizon}, when given, is limited to the instant until which the answer cannot
   * change for the same sample or a later one: now for a pod dropped only because its sample is within a metric
   * window of its readiness change (a later sample may not be), and the end of the initialization period for an
   * unready pod inside it that has been ready (after the period its sample counts). The other answers inside the
   * period are those after it: a pod that was never ready stays dropped, and a ready pod whose sample is a full
   * window after its readiness change counts, as would a later sample.
   */
  int classify(int i, boolean hasSample, @Nullable Instant sampleTime, @Nullable Duration window, Instant now,
      ReplicaCalculator.@Nullable Horizon horizon) {
    Fact f = facts[i];
    if (f.base == BASE_IGNORED) {
      return IGNORED;
    }
    if (f.base == BASE_PENDING) {
      return UNREADY;
    }
    if (!hasSample) {
      return MISSING;
    }
    if (!cpu) {
      return READY;
    }
    if (f.noCondition) {
      return UNREADY;
    }
    long nowSecond = now.getEpochSecond();
    if (f.initializedSecond > nowSecond || (f.initializedSecond == nowSecond && f.initializedNano > now.getNano())) {
      // Within the initialization period: drop the sample if the pod is unready or no full metric window has
      // passed since its last readiness transition.
      if (f.readyFalse) {
        if (horizon != null && !f.neverReady) {
          horizon.limit(java.util.Objects.requireNonNull(f.initialized));
        }
        return UNREADY;
      }
      boolean early = goTime(sampleTime).isBefore(java.util.Objects.requireNonNull(f.transition)
          .plus(window != null ? window : Duration.ZERO));
      if (early && horizon != null) {
        horizon.limit(now);
      }
      return early ? UNREADY : READY;
    }
    // After it: drop the sample only if the pod is unready and has never been ready.
    return f.neverReady ? UNREADY : READY;
  }

  /**
   * {@code calculateRequests}' error for the first pod (in list order) whose request could not be read.
   *
   * @throws MetricsUnavailableException "missing request for cpu in container c of Pod p", "missing pod-level
   *     request for cpu in Pod p" or "container c not found in Pod p"
   */
  void requireRequests() {
    if (firstRequestError >= 0) {
      throw new MetricsUnavailableException(java.util.Objects.requireNonNull(facts[firstRequestError].requestError));
    }
  }

  /**
   * One pod's request in upstream's {@code calculateRequests}. For the whole pod ({@code container} empty) of a pod
   * with pod-level requests ({@link io.fleetkit.api.core.PodSpec#hasPodLevelRequests()}, KEP-2837): the pod's
   * {@link io.fleetkit.api.core.PodSpec#effectiveRequests()} for {@code resource} ({@code calculatePodLevelRequests},
   * which reads Kubernetes' {@code PodRequests}: the pod-level value where set, else the containers' aggregate,
   * plus overhead). Otherwise ({@code calculatePodRequestsFromContainers}) the sum over its containers and
   * restartable (sidecar) init containers, or the request of the one named {@code container}: a named container
   * takes precedence over pod-level requests.
   *
   * @throws MetricsUnavailableException when the pod-level requests leave {@code resource} out and no container
   *     requests it ("missing pod-level request for cpu in Pod p"), when a counted container has no request for
   *     {@code resource}, or when the pod has no container named {@code container}
   */
  static long request(Pod pod, String container, String resource) {
    if (container.isEmpty() && pod.spec().hasPodLevelRequests()) {
      ResourceList requests = pod.spec().effectiveRequests();
      if (!requests.has(resource)) {
        throw new MetricsUnavailableException("missing pod-level request for " + resource + " in Pod "
            + pod.metadata().name());
      }
      return requests.milliValue(resource);
    }
    long sum = 0;
    for (Container c : pod.spec().containers()) {
      if (container.isEmpty()) {
        sum += containerRequest(pod, c, resource);
      } else if (container.equals(c.name())) {
        return containerRequest(pod, c, resource); // container names are unique inside the pod
      }
    }
    for (Container c : pod.spec().initContainers()) {
      if (c.isRestartable()) {
        if (container.isEmpty()) {
          sum += containerRequest(pod, c, resource);
        } else if (container.equals(c.name())) {
          return containerRequest(pod, c, resource);
        }
      }
    }
    if (!container.isEmpty()) {
      throw new MetricsUnavailableException("container " + container + " not found in Pod "
          + pod.metadata().name());
    }
    return sum;
  }

  private static long containerRequest(Pod pod, Container c, String resource) {
    if (!c.resources().requests().has(resource)) {
      throw new MetricsUnavailableException("missing request for " + resource + " in container " + c.name()
          + " of Pod " + pod.metadata().name());
    }
    return c.resources().requests().milliValue(resource);
  }

  private static Instant goTime(@Nullable Instant t) {
    return t != null ? t : ReplicaCalculator.GO_ZERO_TIME;
  }

  /** Where a caller keeps the facts of its last list of pods for one metric, to make the next ones from. */
  static final class Slot {
    @Nullable PodFacts facts;
  }
}
