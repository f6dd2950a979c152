package io.fleetkit.networking.routing;

import io.fleetkit.api.gateway.HTTPHeader;
import io.fleetkit.api.gateway.HTTPHeaderFilter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code RequestHeaderModifier} or {@code ResponseHeaderModifier} filters do to headers, one filter after the
 * other (a rule's, then a backend's): {@code set} overwrites, {@code add} appends to the existing value as HTTP folds
 * repeated headers ({@code old,new}) or adds the header, {@code remove} deletes; in that order, names
 * case-insensitive. Immutable and thread-safe.
 */
public record HeaderModifier(List<HTTPHeaderFilter> filters) {
  /** Changes nothing. */
  public static final HeaderModifier NONE = new HeaderModifier(List.of());

  public HeaderModifier {
    filters = List.copyOf(filters);
  }

  /** The changes of one filter. */
  public HeaderModifier(HTTPHeaderFilter filter) {
    this(List.of(Objects.requireNonNull(filter, "filter")));
  }

  /** Whether this changes nothing. */
  public boolean isEmpty() {
    return filters.stream().allMatch(f -> f.set().isEmpty() && f.add().isEmpty() && f.remove().isEmpty());
  }

  /** These changes, then those of {@code next}. */
  public HeaderModifier then(HeaderModifier next) {
    if (next.filters.isEmpty()) {
      return this;
    }
    List<HTTPHeaderFilter> all = new ArrayList<>(filters);
    all.addAll(next.filters);
    return new HeaderModifier(all);
  }

  /**
   * The headers after the changes, names in lower case, in the order of {@code headers} then of the new ones; of
   * names of {@code headers} equal but for case the first counts.
   */
  public Map<String, String> apply(Map<String, String> headers) {
    Map<String, String> out = new LinkedHashMap<>();
    headers.forEach((k, v) -> out.putIfAbsent(lower(k), v));
    for (HTTPHeaderFilter filter : filters) {
      for (HTTPHeader h : filter.set()) {
        out.put(lower(h.name()), h.value());
      }
      for (HTTPHeader h : filter.add()) {
        out.merge(lower(h.name()), h.value(), (old, v) -> old + "," + v);
      }
      for (String n : filter.remove()) {
        out.remove(lower(n));
      }
    }
    return Collections.unmodifiableMap(out);
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
