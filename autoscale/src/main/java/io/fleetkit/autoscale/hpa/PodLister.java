package io.fleetkit.autoscale.hpa;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where the HPA controller reads the pods of a scale target: upstream's {@code podLister.Pods(namespace).List(selector)}
 * over the shared informer's cache. Implementations return the pods in key order, as a list that the caller does not
 * change; returning the same list instance while the pods are unchanged lets the controller recognise unchanged
 * inputs by one comparison ({@link WatchedPods} does).
 */
@FunctionalInterface
public interface PodLister {
  /** The pods of {@code namespace} that {@code selector} matches, in key order. */
  List<Pod> list(String namespace, LabelSelector selector);

  /**
   * The distinct label sets of {@code pods}, a list this lister returned for {@code namespace} and {@code selector}:
   * what the HPA's ambiguous-selector check matches against the other HPAs' selectors. Default: collected from the
   * pods; {@link WatchedPods} keeps them from its watch while {@code pods} is its current list.
   */
  default Collection<Map<String, String>> labelSets(String namespace, LabelSelector selector, List<Pod> pods) {
    Set<Map<String, String>> out = new LinkedHashSet<>();
    Map<String, String> last = null;
    for (Pod p : pods) {
      Map<String, String> labels = p.metadata().labels();
      if (labels != last && !labels.equals(last)) { // neighbours (one ReplicaSet's pods) mostly share theirs
        out.add(labels);
        last = labels;
      }
    }
    return out;
  }

  /** Lists from {@code store} on every call (the controller's default). */
  static PodLister of(ObjectStore store) {
    Objects.requireNonNull(store, "store");
    return (namespace, selector) -> store.list(Pod.class, namespace, selector).items();
  }
}
