package io.fleetkit.scheduler.plugins.noderesources;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What {@code NodeResourcesFit}'s Filter checks for one pod, computed once in PreFilter (kube's
 * {@code preFilterState}): the standard requests as primitives and the scalar (extended, hugepages) requests that are
 * positive and not ignored, each with its ready-made single-reason statuses so that Filter allocates nothing unless a
 * node lacks two or more resources. Immutable.
 */
final class PodResourceRequest {
  final long milliCpu;
  final long memory;
  final long ephemeralStorage;
  final String[] scalarNames;
  final long[] scalarValues;
  /** Per scalar: the Unschedulable status, then the UnschedulableAndUnresolvable one. */
  final Status[] scalarStatuses;

  private PodResourceRequest(long milliCpu, long memory, long ephemeralStorage, String[] scalarNames,
      long[] scalarValues, Status[] scalarStatuses) {
    this.milliCpu = milliCpu;
    this.memory = memory;
    this.ephemeralStorage = ephemeralStorage;
    this.scalarNames = scalarNames;
    this.scalarValues = scalarValues;
    this.scalarStatuses = scalarStatuses;
  }

  private static final String[] NO_NAMES = new String[0];
  private static final long[] NO_VALUES = new long[0];
  private static final Status[] NO_STATUSES = new Status[0];

  static PodResourceRequest of(ResourceList requests, Set<String> ignoredResources, Set<String> ignoredGroups) {
    if (requests.size() == standardCount(requests)) { // the common case: no scalar resources, nothing to collect
      return new PodResourceRequest(requests.milliCpu(), requests.memoryBytes(), requests.ephemeralStorageBytes(),
          NO_NAMES, NO_VALUES, NO_STATUSES);
    }
    List<String> names = new ArrayList<>(0);
    List<Long> values = new ArrayList<>(0);
    // scalar resources: names() builds a map, so only here
    for (String name : requests.names()) {
      if (!ResourceVector.isScalar(name)) {
        continue;
      }
      long v = requests.value(name);
      if (v == 0 || isIgnored(name, ignoredResources, ignoredGroups)) {
        continue;
      }
      names.add(name);
      values.add(v);
    }
    String[] n = names.toArray(new String[0]);
    long[] v = new long[n.length];
    Status[] s = new Status[2 * n.length];
    for (int i = 0; i < n.length; i++) {
      v[i] = values.get(i);
      String reason = NodeResourcesFitPlugin.insufficient(n[i]);
      s[2 * i] = Status.unschedulable(reason);
      s[2 * i + 1] = Status.unresolvable(reason);
    }
    return new PodResourceRequest(requests.milliCpu(), requests.memoryBytes(), requests.ephemeralStorageBytes(), n, v,
        s);
  }

  private static final String[] STANDARD = {"cpu", "memory", "ephemeral-storage", "pods"};

  private static int standardCount(ResourceList r) {
    int n = 0;
    for (String name : STANDARD) {
      if (r.has(name)) {
        n++;
      }
    }
    return n;
  }

  /**
   * kube: only extended resources (a domain outside {@code kubernetes.io}) can be ignored, by exact name or by the
   * domain before the {@code /}.
   */
  static boolean isIgnored(String name, Set<String> ignoredResources, Set<String> ignoredGroups) {
    int slash = name.indexOf('/');
    if (slash < 0 || name.contains("kubernetes.io/")) {
      return false;
    }
    return ignoredResources.contains(name) || ignoredGroups.contains(name.substring(0, slash));
  }
}
