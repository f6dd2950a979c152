package io.fleetkit.queueing.manifest;

import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.queueing.AdmissionEngine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Kueue's objects among a list of manifests, taken together: the checks across objects that a running engine needs
 * (every LocalQueue's ClusterQueue exists) and the {@link AdmissionEngine} they configure. Stateless; thread-safe.
 */
public final class KueueManifests {
  private KueueManifests() {}

  /** The Kueue objects among {@code objects}, in their order. */
  public static List<KueueObject<?>> of(List<? extends ApiObject<?>> objects) {
    List<KueueObject<?>> out = new ArrayList<>();
    for (ApiObject<?> o : objects) {
      if (o instanceof KueueObject<?> k) {
        out.add(k);
      }
    }
    return out;
  }

  /** The names of the ClusterQueues among {@code objects}, in their order. */
  public static List<String> clusterQueueNames(List<? extends ApiObject<?>> objects) {
    List<String> out = new ArrayList<>();
    for (ApiObject<?> o : objects) {
      if (o instanceof ClusterQueueObject cq) {
        out.add(cq.spec().name());
      }
    }
    return out;
  }

  /**
   * Problems of the Kueue objects taken together, each naming the object and its field: a LocalQueue whose
   * ClusterQueue is not among the objects (Kueue accepts it and leaves the LocalQueue inactive; a simulation would
   * admit none of its jobs, which is never what a manifest means).
   */
  public static List<Violation> check(List<? extends ApiObject<?>> objects) {
    Set<String> queues = new TreeSet<>(clusterQueueNames(objects));
    List<Violation> problems = new ArrayList<>();
    for (ApiObject<?> o : objects) {
      if (o instanceof LocalQueueObject lq && !queues.contains(lq.spec().clusterQueue())) {
        problems.add(new Violation(lq.describe(), "spec.clusterQueue", "names no ClusterQueue among the manifests"
            + (queues.isEmpty() ? "" : " (ClusterQueues: " + String.join(", ", queues) + ")"),
            lq.spec().clusterQueue()));
      }
    }
    return problems;
  }

  /**
   * Adds every Kueue object among {@code objects} to {@code builder}: ResourceFlavors, ClusterQueues, Cohorts,
   * LocalQueues, WorkloadPriorityClasses and Topologies, and AdmissionChecks as inactive (no controller); and the labels of every Namespace given in {@code namespaceLabels}
   * (which ClusterQueues' namespace selectors match).
   *
   * @return {@code builder}
   */
  public static AdmissionEngine.Builder addTo(AdmissionEngine.Builder builder, List<? extends ApiObject<?>> objects,
      Map<String, Map<String, String>> namespaceLabels) {
    return addTo(builder, objects, namespaceLabels, Set.of());
  }

  /**
   * As {@link #addTo(AdmissionEngine.Builder, List, Map)}, with the AdmissionChecks and Topologies among {@code
   * objects} too: a check is Active when its {@code spec.controllerName} is among {@code checkControllers} (the
   * controllers the caller registers on {@code builder}), and inactive otherwise, as Kueue leaves a check no
   * controller manages (the ClusterQueues that name it are inactive, reason {@code AdmissionCheckInactive}).
   *
   * @return {@code builder}
   */
  public static AdmissionEngine.Builder addTo(AdmissionEngine.Builder builder, List<? extends ApiObject<?>> objects,
      Map<String, Map<String, String>> namespaceLabels, Set<String> checkControllers) {
    Objects.requireNonNull(builder, "builder");
    Objects.requireNonNull(checkControllers, "checkControllers");
    for (KueueObject<?> k : of(objects)) {
      if (k instanceof ResourceFlavorObject rf) {
        builder.resourceFlavor(rf.spec());
      } else if (k instanceof ClusterQueueObject cq) {
        builder.clusterQueue(cq.spec());
      } else if (k instanceof CohortObject c) {
        builder.cohort(c.spec());
      } else if (k instanceof LocalQueueObject lq) {
        builder.localQueue(lq.spec());
      } else if (k instanceof WorkloadPriorityClassObject wpc) {
        builder.workloadPriorityClass(wpc.spec());
      } else if (k instanceof AdmissionCheckObject ac) {
        builder.admissionCheck(ac.spec().withActive(checkControllers.contains(ac.spec().controllerName())));
      } else if (k instanceof TopologyObject t) {
        builder.topology(t.spec());
      }
    }
    new LinkedHashMap<>(namespaceLabels).forEach(builder::namespace);
    return builder;
  }
}
