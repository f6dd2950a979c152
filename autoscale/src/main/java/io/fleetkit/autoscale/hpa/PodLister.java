package io.fleetkit.autoscale.hpa;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.Objects;

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

  /** Lists from {@code store} on every call (the controller's default). */
  static PodLister of(ObjectStore store) {
    Objects.requireNonNull(store, "store");
    return (namespace, selector) -> store.list(Pod.class, namespace, selector).items();
  }
}
