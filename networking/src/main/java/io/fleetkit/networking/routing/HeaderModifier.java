package io.fleetkit.networking.routing;

import io.fleetkit.api.gateway.HTTPHeader;
import io.fleetkit.api.gateway.HTTPHeaderFilter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What a {@code RequestHeaderModifier} or {@code ResponseHeaderModifier} filter does to headers: {@code set}
 * overwrites, {@code add} appends to the existing value as HTTP folds repeated headers ({@code old,new}) or adds the
 * header, {@code remove} deletes; in that order, names case-insensitive. Immutable and thread-safe.
 */
public record HeaderModifier(HTTPHeaderFilter filter) {
  /** Changes nothing. */
  public static final HeaderModifier NONE = new HeaderModifier(new HTTPHeaderFilter(List.of(), List.of(),
      List.of()));

  public HeaderModifier {
    Objects.requireNonNull(filter, "filter");
  }

  /** Whether this changes nothing. */
  public boolean isEmpty() {
    return filter.set().isEmpty() && filter.add().isEmpty() && filter.remove().isEmpty();
  }

  /**
   * The headers after the changes, names in lower case, in the order of {@code headers} then of the new ones; of
   * names of {@code headers} equal but for case the first counts.
   */
  public Map<String, String> apply(Map<String, String> headers) {
    Map<String, String> out = new LinkedHashMap<>();
    headers.forEach((k, v) -> out.putIfAbsent(lower(k), v));
    for (HTTPHeader h : filter.set()) {
      out.put(lower(h.name()), h.value());
    }
    for (HTTPHeader h : filter.add()) {
      out.merge(lower(h.name()), h.value(), (old, v) -> old + "," + v);
    }
    for (String n : filter.remove()) {
      out.remove(lower(n));
    }
    return Collections.unmodifiableMap(out);
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
