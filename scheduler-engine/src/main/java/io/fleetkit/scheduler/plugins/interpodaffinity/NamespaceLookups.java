package io.fleetkit.scheduler.plugins.interpodaffinity;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.store.ObjectStore;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Namespace-label lookups for {@link InterPodAffinityArgs#namespaceLabels}, so that a term's
 * {@code namespaceSelector} is matched against the labels of {@link Namespace} objects (plus
 * {@value Namespace#NAME_LABEL}, which Kubernetes sets on every namespace). A namespace that does not exist yields
 * {@code null}: no selector selects it. Thread-safe.
 */
public final class NamespaceLookups {
  private NamespaceLookups() {}

  /**
   * The labels of the namespaces in {@code store}, read at each call (a lock-free get), so a change of a
   * namespace's labels applies to the next scheduling cycle.
   */
  public static Function<String, @Nullable Map<String, String>> in(ObjectStore store) {
    Objects.requireNonNull(store, "store");
    return ns -> store.get(Namespace.class, "", ns).map(Namespace::selectorLabels).orElse(null);
  }

  /** The labels of a fixed set of namespaces (for example those loaded from manifests). */
  public static Function<String, @Nullable Map<String, String>> of(Collection<Namespace> namespaces) {
    Map<String, Map<String, String>> byName = new HashMap<>();
    for (Namespace n : namespaces) {
      byName.put(n.metadata().name(), n.selectorLabels());
    }
    Map<String, Map<String, String>> frozen = Map.copyOf(byName);
    return frozen::get;
  }
}
