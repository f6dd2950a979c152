package io.fleetkit.api.gateway;

import java.util.List;

/**
 * Header changes of a {@code RequestHeaderModifier} or {@code ResponseHeaderModifier} filter, applied in this
 * order: {@code set} overwrites a header, {@code add} appends to its values (a new header when absent),
 * {@code remove} deletes it. Names are case-insensitive. Each list holds at most 16 entries with distinct names.
 */
public record HTTPHeaderFilter(List<HTTPHeader> set, List<HTTPHeader> add, List<String> remove) {
  public HTTPHeaderFilter {
    set = List.copyOf(set);
    add = List.copyOf(add);
    remove = List.copyOf(remove);
  }
}
