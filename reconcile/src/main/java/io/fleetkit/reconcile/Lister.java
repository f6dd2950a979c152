package io.fleetkit.reconcile;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Read-only view of an {@link Informer}'s local cache, as client-go's listers and {@code cache.Indexer}. Reads
 * never touch the store; they see the objects as of the last event the informer applied. Lists are returned
 * sorted by namespace then name (deterministic for simulations) and are immutable snapshots.
 *
 * <p>Built-in indexes: {@link #NAMESPACE_INDEX} (value: the namespace), {@link #LABEL_INDEX} (value:
 * {@code key=value} for every label) and {@link #CONTROLLER_INDEX} (value: the controller owner's uid); custom ones
 * are added with {@link InformerBuilder#indexer}. Every read costs the size of its answer (no sorting).
 *
 * <p>Thread-safe.
 *
 * @param <T> the kind
 */
public interface Lister<T extends ApiObject<T>> {
  /** Index of objects by namespace. */
  String NAMESPACE_INDEX = "namespace";
  /** Index of objects by label, value {@code key=value}. */
  String LABEL_INDEX = "labels";
  /**
   * Index of objects by the uid of their controller owner reference ({@code controller: true}); objects without a
   * controller are not in it. This is how a controller finds the pods it owns without reading its whole namespace.
   */
  String CONTROLLER_INDEX = "controller";

  /** The cached object at {@code namespace/name} ({@code ""} namespace for cluster-scoped kinds). */
  Optional<T> get(String namespace, String name);

  /** The cached object at {@code key}. */
  default Optional<T> get(ObjectKey key) {
    return get(key.namespace(), key.name());
  }

  /** Every cached object. */
  List<T> list();

  /** The cached objects in {@code namespace} ({@code ""}: all). */
  List<T> list(String namespace);

  /** The cached objects in {@code namespace} ({@code ""}: all) whose labels match {@code selector}. */
  List<T> list(String namespace, LabelSelector selector);

  /**
   * The cached objects whose index {@code indexName} yields {@code value}.
   *
   * @throws IllegalArgumentException if there is no such index
   */
  List<T> byIndex(String indexName, String value);

  /**
   * Whether the objects of index {@code indexName} value {@code value} are exactly those {@code selector} selects
   * in {@code namespace}: {@code sameObjects(byIndex(indexName, value), list(namespace, selector))} (a ReplicaSet
   * that controls exactly the pods it selects has nothing to adopt or release). An implementation may answer from
   * what it kept since it last found them equal, without building the selection.
   *
   * @throws IllegalArgumentException if there is no such index
   */
  default boolean indexMatchesSelection(String indexName, String value, String namespace, LabelSelector selector) {
    return sameObjects(byIndex(indexName, value), list(namespace, selector));
  }

  /** The names of the indexes, built-in ones included. */
  Set<String> indexNames();

  /** How many objects are cached. */
  int size();

  /**
   * Whether {@code a} and {@code b} hold the same objects, by identity, in the same order. Cached and stored objects
   * are immutable, so two reads that give the same instances read the same state: this is how a controller tells
   * cheaply that nothing it read has changed.
   */
  static boolean sameObjects(List<?> a, List<?> b) {
    if (a == b) {
      return true;
    }
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i) != b.get(i)) {
        return false;
      }
    }
    return true;
  }
}
