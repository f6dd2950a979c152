package io.fleetkit.adapter.kubernetes.yaml;

import io.fleetkit.api.meta.ApiObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Objects loaded from manifests, in source and document order, with their counts per kind and the warnings of the
 * load.
 *
 * <p>A warning is a field the Kubernetes schema has and FleetKit's model does not carry: the object was loaded
 * without it ({@code spec.template.spec.containers[0].lifecycle}), so what it asks for will not happen in a
 * simulation. Each names the source, document, line, object and path, with the rule {@link #NOT_MODELLED}, once per
 * object at the highest path not carried. A pod volume of a source FleetKit does not model ({@code nfs}) is left out
 * whole, warned of at its source ({@code spec.volumes[1].nfs}), and an object of a built-in Kubernetes kind FleetKit
 * does not model is left out whole, warned of at {@code kind} ({@code Lease (coordination.k8s.io/v1) is not
 * modelled by FleetKit; ignored}). The API server's own warnings of an object it accepts are warnings here too, at
 * their field with Kubernetes' text: an Endpoints address in a non-standard form ({@code non-standard IP address
 * "010.1.2.3" will be considered invalid in a future Kubernetes release: use "10.1.2.3"}). Warnings are not
 * problems: the load succeeded.
 *
 * @param objects every object, in the order the sources listed them
 * @param countsByKind the number of objects per kind, sorted by kind name
 * @param warnings the fields of the manifests that were ignored, and the API server's warnings, in source and
 *     document order
 * @param locations where each object was written, at its index in {@code objects}; empty when the objects were not
 *     read from manifests (or were changed after the load, as admission does)
 */
public record LoadedObjects(List<ApiObject<?>> objects, Map<String, Integer> countsByKind,
    List<ManifestProblem> warnings, List<ManifestLocation> locations) {
  /** The rule of a warning about a field FleetKit does not model. */
  public static final String NOT_MODELLED = "not modelled by FleetKit; ignored";

  public LoadedObjects {
    objects = List.copyOf(objects);
    countsByKind = Collections.unmodifiableMap(new TreeMap<>(countsByKind));
    warnings = List.copyOf(warnings);
    locations = List.copyOf(locations);
    if (!locations.isEmpty() && locations.size() != objects.size()) {
      throw new IllegalArgumentException("LoadedObjects: " + locations.size() + " locations for " + objects.size()
          + " objects; give one per object or none");
    }
  }

  /** Objects with warnings, read from no manifest. */
  public LoadedObjects(List<ApiObject<?>> objects, Map<String, Integer> countsByKind,
      List<ManifestProblem> warnings) {
    this(objects, countsByKind, warnings, List.of());
  }

  /** Objects without warnings. */
  public LoadedObjects(List<ApiObject<?>> objects, Map<String, Integer> countsByKind) {
    this(objects, countsByKind, List.of());
  }

  /** Counts the kinds of {@code objects}; no warnings. */
  public static LoadedObjects of(List<? extends ApiObject<?>> objects) {
    Map<String, Integer> counts = new TreeMap<>();
    for (ApiObject<?> o : objects) {
      counts.merge(o.kind(), 1, Integer::sum);
    }
    return new LoadedObjects(new ArrayList<>(objects), counts);
  }

  /** These objects with {@code warnings} in place of the current ones. */
  public LoadedObjects withWarnings(List<ManifestProblem> warnings) {
    return new LoadedObjects(objects, countsByKind, warnings, locations);
  }

  /** These objects with {@code locations} (one per object, in order) in place of the current ones. */
  public LoadedObjects withLocations(List<ManifestLocation> locations) {
    return new LoadedObjects(objects, countsByKind, warnings, locations);
  }

  /** Where {@code object} (this very instance, one of {@link #objects}) was written, when it was read from one. */
  public Optional<ManifestLocation> locationOf(ApiObject<?> object) {
    if (locations.isEmpty()) {
      return Optional.empty();
    }
    for (int i = 0; i < objects.size(); i++) {
      if (objects.get(i) == object) {
        return Optional.of(locations.get(i));
      }
    }
    return Optional.empty();
  }

  /** The objects of one type, in order. */
  public <T extends ApiObject<T>> List<T> ofType(Class<T> type) {
    List<T> out = new ArrayList<>();
    for (ApiObject<?> o : objects) {
      if (type.isInstance(o)) {
        out.add(type.cast(o));
      }
    }
    return List.copyOf(out);
  }

  public int size() {
    return objects.size();
  }

  /** {@code 14 objects (5 Node, 9 Pod)}: the total, then the count of each kind sorted by kind name. */
  public String summary() {
    StringJoiner kinds = new StringJoiner(", ", " (", ")");
    kinds.setEmptyValue("");
    countsByKind.forEach((kind, n) -> kinds.add(n + " " + kind));
    return objects.size() + (objects.size() == 1 ? " object" : " objects") + kinds;
  }
}
