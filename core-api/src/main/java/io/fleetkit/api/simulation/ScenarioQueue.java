package io.fleetkit.api.simulation;

import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Kueue-style queue in a scenario: a ClusterQueue {@code name} with the nominal {@code quota} of one
 * ResourceFlavor {@code flavor} (nodes carrying {@code nodeLabels}), in {@code cohort} when given, and a LocalQueue
 * of the same name in each of {@code namespaces}. Jobs labelled {@code kueue.x-k8s.io/queue-name: NAME} wait
 * suspended until the queue admits them.
 */
public record ScenarioQueue(String name, List<String> namespaces, @Nullable String cohort, String flavor,
    Map<String, String> nodeLabels, ResourceList quota) {
  public ScenarioQueue {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(flavor, "flavor");
    Objects.requireNonNull(quota, "quota");
    namespaces = List.copyOf(namespaces);
    nodeLabels = Map.copyOf(nodeLabels);
  }
}
