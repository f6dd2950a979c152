package io.fleetkit.simulator;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * One workload's pods by name, in name order ({@link String#compareTo}, the store's listing order within a
 * namespace), and among them those that serve traffic (the predicate given: {@link LoadMetrics#serving} on a node
 * that has not failed) with what {@link LoadMetrics#podResourceMetrics} reports of them, and their CPU requests
 * summed: each pod looked at once, when its event comes. {@link #stamp} is a new object at every change and
 * {@link #servingStamp} at every change of the serving pods; the list of all pods is made on the first read after a
 * change.
 *
 * <p>Kept as three arrays sorted by name (a workload has some hundred pods): a write of a pod already there, the
 * common case (a status write, a binding), is a binary search over the names and two stores; a serving pod's place
 * is its pod's, so walking the serving pods in order is a walk of the array. Not thread-safe, as the simulation.
 */
final class LivePods {
  /**
   * A serving pod, its name, its first container's name (null without containers), its CPU request and a selector's
   * match.
   */
  static final class ServingPod {
    final Pod pod;
    final String name;
    final @Nullable String container;
    /** The pod's own CPU request in millicores ({@link io.fleetkit.api.core.PodSpec#effectiveRequests}). */
    final long milliCpu;
    private @Nullable LabelSelector checkedFor;
    private boolean matches;

    /**
     * {@code p} serving; its CPU request is {@code before}'s when that was the same pod with the same spec instance
     * (a status write keeps the spec), else read from the spec.
     */
    ServingPod(Pod p, @Nullable LabelSelector selector, @Nullable ServingPod before) {
      pod = p;
      name = p.metadata().name();
      container = p.spec().containers().isEmpty() ? null : p.spec().containers().get(0).name();
      milliCpu = before != null && before.pod.spec() == p.spec() ? before.milliCpu
          : p.spec().effectiveRequests().milliCpu();
      if (selector != null) {
        matches(selector);
      }
    }

    /** Whether {@code selector} matches the pod's labels; remembered for the last selector instance asked. */
    boolean matches(LabelSelector selector) {
      if (selector != checkedFor) {
        checkedFor = selector;
        matches = selector.matches(pod.metadata().labels());
      }
      return matches;
    }
  }

  private String[] names = new String[8];
  private Pod[] pods = new Pod[8];
  /** The serving pod at each place, null where the pod does not serve. */
  private @Nullable ServingPod[] serving = new ServingPod[8];
  /**
   * At each place, the pod when it serves and {@link #matchingFor} matches it, else null; and the serving pod's first
   * container's name: what {@link #matchingAt} and {@link #containerAt} give, read from arrays in place order rather
   * than from each serving pod's object.
   */
  private @Nullable Pod[] matching = new Pod[8];
  private @Nullable String[] containers = new String[8];
  /** The selector instance {@link #matching} is for; null before the first {@link #match}. */
  private @Nullable LabelSelector matchingFor;
  private int size;
  private int servingCount;
  /** The serving pods' CPU requests, summed (millicores). */
  private long servingMilliCpu;
  /** Whether a pod serves traffic. */
  private final Predicate<Pod> serves;
  /** The selector last read by: a serving pod is matched against it when it comes. */
  @Nullable LabelSelector selector;
  Object stamp = new Object();
  /** A new one only when the serving pods change (a pod that does not serve, before and after, keeps it). */
  Object servingStamp = new Object();
  private @Nullable List<Pod> list;

  /** Pods that {@code serves} accepts are the serving ones. */
  LivePods(Predicate<Pod> serves) {
    this.serves = Objects.requireNonNull(serves, "serves");
  }

  /** Puts {@code p} in (replacing the pod of its name). */
  void put(Pod p) {
    String name = p.metadata().name();
    int i = Arrays.binarySearch(names, 0, size, name);
    if (i < 0) {
      i = -i - 1;
      insertAt(i, name);
    }
    pods[i] = p;
    ServingPod before = serving[i];
    if (serves.test(p)) {
      ServingPod now = new ServingPod(p, selector, before);
      if (before == null) {
        servingCount++;
      } else {
        servingMilliCpu -= before.milliCpu;
      }
      servingMilliCpu += now.milliCpu;
      serving[i] = now;
      matching[i] = matchingFor != null && now.matches(matchingFor) ? p : null;
      containers[i] = now.container;
      servingStamp = new Object();
    } else if (before != null) {
      serving[i] = null;
      matching[i] = null;
      containers[i] = null;
      servingCount--;
      servingMilliCpu -= before.milliCpu;
      servingStamp = new Object();
    }
    list = null;
    stamp = new Object();
  }

  /** Takes the pod named {@code name} out (nothing when there is none, but the stamp is new all the same). */
  void remove(String name) {
    int i = Arrays.binarySearch(names, 0, size, name);
    if (i >= 0) {
      ServingPod gone = serving[i];
      if (gone != null) {
        servingCount--;
        servingMilliCpu -= gone.milliCpu;
        servingStamp = new Object();
      }
      int tail = size - i - 1;
      System.arraycopy(names, i + 1, names, i, tail);
      System.arraycopy(pods, i + 1, pods, i, tail);
      System.arraycopy(serving, i + 1, serving, i, tail);
      System.arraycopy(matching, i + 1, matching, i, tail);
      System.arraycopy(containers, i + 1, containers, i, tail);
      size--;
      names[size] = null;
      pods[size] = null;
      serving[size] = null;
      matching[size] = null;
      containers[size] = null;
    }
    list = null;
    stamp = new Object();
  }

  private void insertAt(int i, String name) {
    if (size == names.length) {
      int capacity = size * 2;
      names = Arrays.copyOf(names, capacity);
      pods = Arrays.copyOf(pods, capacity);
      serving = Arrays.copyOf(serving, capacity);
      matching = Arrays.copyOf(matching, capacity);
      containers = Arrays.copyOf(containers, capacity);
    }
    int tail = size - i;
    System.arraycopy(names, i, names, i + 1, tail);
    System.arraycopy(pods, i, pods, i + 1, tail);
    System.arraycopy(serving, i, serving, i + 1, tail);
    System.arraycopy(matching, i, matching, i + 1, tail);
    System.arraycopy(containers, i, containers, i + 1, tail);
    names[i] = name;
    serving[i] = null;
    matching[i] = null;
    containers[i] = null;
    size++;
  }

  /** Whether there are no pods. */
  boolean isEmpty() {
    return size == 0;
  }

  /** How many pods there are (serving or not): the places {@link #servingAt} takes. */
  int size() {
    return size;
  }

  /** How many pods serve. */
  int servingCount() {
    return servingCount;
  }

  /** The serving pods' own CPU requests, summed, in millicores. */
  long servingMilliCpu() {
    return servingMilliCpu;
  }

  /** The serving pod at place {@code i} (name order), or null when the pod there does not serve. */
  @Nullable ServingPod servingAt(int i) {
    return serving[i];
  }

  /**
   * Makes {@link #matchingAt} answer for {@code selector}: the matches are kept for the selector instance last given
   * (each pod matched when it comes) and made again for another.
   */
  void match(LabelSelector selector) {
    if (matchingFor != selector) {
      for (int i = 0; i < size; i++) {
        ServingPod sp = serving[i];
        matching[i] = sp != null && sp.matches(selector) ? sp.pod : null;
      }
      matchingFor = selector;
    }
  }

  /**
   * The pod at place {@code i} when it serves and the selector last given to {@link #match} matches it, else null:
   * read from an array, so that a walk of the places reads no serving pod's object.
   */
  @Nullable Pod matchingAt(int i) {
    return matching[i];
  }

  /** The name of the pod at place {@code i}. */
  String nameAt(int i) {
    return names[i];
  }

  /** The first container's name of the serving pod at place {@code i} (null without containers, or not serving). */
  @Nullable String containerAt(int i) {
    return containers[i];
  }

  /** All pods in name order, as an immutable list (the same one until the next change). */
  List<Pod> list() {
    List<Pod> l = list;
    if (l == null) {
      l = List.of(Arrays.copyOf(pods, size));
      list = l;
    }
    return l;
  }
}
