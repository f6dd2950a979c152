package io.fleetkit.api.simulation;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.Toleration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Kueue-style queue in a scenario: a ClusterQueue {@code name} with the nominal {@code quota} of one
 * ResourceFlavor {@code flavor} (nodes carrying {@code nodeLabels} and {@code nodeTaints}; admitted pods get
 * {@code tolerations}), in {@code cohort} when given, and a LocalQueue of the same name in each of
 * {@code namespaces}. Jobs labelled {@code kueue.x-k8s.io/queue-name: NAME} wait suspended until the queue admits
 * them; a Job whose pods do not tolerate the flavor's taints, or whose node selector or required node affinity does
 * not match its labels, is never admitted.
 */
public record ScenarioQueue(String name, List<String> namespaces, @Nullable String cohort, String flavor,
    Map<String, String> nodeLabels, ResourceList quota, List<Taint> nodeTaints, List<Toleration> tolerations) {
  public ScenarioQueue {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(flavor, "flavor");
    Objects.requireNonNull(quota, "quota");
    namespaces = List.copyOf(namespaces);
    nodeLabels = Map.copyOf(nodeLabels);
    nodeTaints = List.copyOf(nodeTaints);
    tolerations = List.copyOf(tolerations);
  }

  /** A queue whose flavor has neither taints nor tolerations. */
  public ScenarioQueue(String name, List<String> namespaces, @Nullable String cohort, String flavor,
      Map<String, String> nodeLabels, ResourceList quota) {
    this(name, namespaces, cohort, flavor, nodeLabels, quota, List.of(), List.of());
  }

  /** This queue with {@code nodeTaints} and {@code tolerations} on its flavor. */
  public ScenarioQueue withFlavorTaints(List<Taint> nodeTaints, List<Toleration> tolerations) {
    return new ScenarioQueue(name, namespaces, cohort, flavor, nodeLabels, quota, nodeTaints, tolerations);
  }
}
