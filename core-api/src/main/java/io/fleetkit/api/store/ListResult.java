package io.fleetkit.api.store;

import java.util.List;
import java.util.Objects;

/**
 * A consistent snapshot of the objects of one kind: exactly the writes up to and including {@code resourceVersion},
 * none after. Pass {@code resourceVersion} to {@link ObjectStore#watch} to follow on from the snapshot without losing
 * or repeating an event.
 *
 * @param items the matching objects, ordered by namespace then name; immutable
 * @param resourceVersion the store's global resourceVersion when the snapshot was taken
 * @param <T> the kind
 */
public record ListResult<T>(List<T> items, String resourceVersion) {
  public ListResult {
    items = List.copyOf(items);
    Objects.requireNonNull(resourceVersion, "resourceVersion");
  }
}
