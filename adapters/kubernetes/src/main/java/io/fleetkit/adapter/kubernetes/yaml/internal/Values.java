package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.time.GoDurations;
import io.fleetkit.api.time.InvalidGoDurationException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Field-level conversions shared by every kind: enums, string maps and lists, timestamps, durations and resource
 * quantities, each reporting a bad value to the document's context (and leaving it out) instead of throwing.
 */
public final class Values {
  private Values() {}

  /** The enum constant spelled {@code value}; {@code dflt} when absent; {@code null} (reported) when unknown. */
  public static <E extends Enum<E>> @Nullable E enumValue(Class<E> type, @Nullable String value, @Nullable E dflt,
      String path, DocumentContext ctx) {
    if (value == null || value.isEmpty()) {
      return dflt;
    }
    for (E e : type.getEnumConstants()) {
      if (e.name().equals(value)) {
        return e;
      }
    }
    ctx.error(path, "must be one of " + Arrays.stream(type.getEnumConstants()).map(Enum::name)
        .collect(Collectors.joining(", ")), value);
    return dflt;
  }

  /** Like {@link #enumValue} but reports an absent value as missing. */
  public static <E extends Enum<E>> @Nullable E requiredEnum(Class<E> type, @Nullable String value, String path,
      DocumentContext ctx) {
    if (value == null || value.isEmpty()) {
      ctx.error(path, "is required", null);
      return null;
    }
    return enumValue(type, value, null, path, ctx);
  }

  /** Each element as an enum constant; unknown ones are reported and left out. */
  public static <E extends Enum<E>> List<E> enumList(Class<E> type, @Nullable List<String> in, String path,
      DocumentContext ctx) {
    List<E> out = new ArrayList<>();
    for (int i = 0; in != null && i < in.size(); i++) {
      E e = requiredEnum(type, in.get(i), path + "[" + i + "]", ctx);
      if (e != null) {
        out.add(e);
      }
    }
    return out;
  }

  /** The names of {@code in}; {@code null} when empty. */
  public static @Nullable List<String> names(List<? extends Enum<?>> in) {
    if (in.isEmpty()) {
      return null;
    }
    List<String> out = new ArrayList<>(in.size());
    for (Enum<?> e : in) {
      out.add(e.name());
    }
    return out;
  }

  public static @Nullable String name(@Nullable Enum<?> e) {
    return e == null ? null : e.name();
  }

  /** {@code value}, or {@code ""} reported as missing. */
  public static String required(@Nullable String value, String path, DocumentContext ctx) {
    if (value == null || value.isEmpty()) {
      ctx.error(path, "is required", null);
      return "";
    }
    return value;
  }

  public static String orEmpty(@Nullable String s) {
    return s == null ? "" : s;
  }

  /** {@code null} for an empty string, so that empty optional fields are left out of YAML. */
  public static @Nullable String emptyToNull(@Nullable String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  /** A copy without {@code null} values, each of which is reported. */
  public static Map<String, String> stringMap(@Nullable Map<String, String> in, String path, DocumentContext ctx) {
    if (in == null) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    in.forEach((k, v) -> {
      if (v == null) {
        ctx.error(path + "." + k, "must be a string, not null", null);
      } else {
        out.put(k, v);
      }
    });
    return out;
  }

  /** A copy without {@code null} elements, each of which is reported. */
  public static List<String> stringList(@Nullable List<String> in, String path, DocumentContext ctx) {
    if (in == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>(in.size());
    for (int i = 0; i < in.size(); i++) {
      String s = in.get(i);
      if (s == null) {
        ctx.error(path + "[" + i + "]", "must be a string, not null", null);
      } else {
        out.add(s);
      }
    }
    return out;
  }

  /** {@code null} for an empty collection, so that empty lists are left out of YAML. */
  public static <T> @Nullable List<T> emptyToNull(List<T> in) {
    return in.isEmpty() ? null : new ArrayList<>(in);
  }

  public static <K, V> @Nullable Map<K, V> emptyToNull(Map<K, V> in) {
    return in.isEmpty() ? null : new LinkedHashMap<>(in);
  }

  /** An RFC 3339 timestamp, {@code null} when absent or (reported) unparsable. */
  public static @Nullable Instant instant(@Nullable String value, String path, DocumentContext ctx) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      try {
        return java.time.OffsetDateTime.parse(value).toInstant();
      } catch (DateTimeParseException e2) {
        ctx.error(path, "must be an RFC 3339 timestamp such as 2024-01-31T12:00:00Z", value);
        return null;
      }
    }
  }

  public static @Nullable String instant(@Nullable Instant i) {
    return i == null ? null : i.toString();
  }

  /**
   * A length of time written as a Go duration ({@code 90s}, {@code 1h30m}, {@code 1.5s}, {@code 0}) as
   * {@link GoDurations#parse} reads it; {@code null} (reported) when it is not a duration, is negative, or is longer
   * than Go's longest ({@value GoDurations#MAX_TEXT}).
   */
  public static @Nullable Duration duration(String text, String path, DocumentContext ctx) {
    return duration(text, text, path, ctx);
  }

  /**
   * {@link #duration(String, String, DocumentContext)} of {@code goText}, the document's {@code written} text in the
   * Go form (e.g. Argo's whole seconds {@code 30} as {@code 30s}); a refusal names {@code written}.
   */
  public static @Nullable Duration duration(String goText, String written, String path, DocumentContext ctx) {
    Duration d;
    try {
      d = GoDurations.parse(goText);
    } catch (InvalidGoDurationException e) {
      if (!e.outOfRange()) {
        ctx.error(path, "must be a duration such as 90s, 5m or 1h30m", written);
      } else if (goText.startsWith("-")) {
        ctx.error(path, "must not be negative", written); // past Go's shortest: negative before too long
      } else {
        ctx.error(path, "must be at most " + GoDurations.MAX_TEXT + ", Go's longest duration", written);
      }
      return null;
    }
    if (d.isNegative()) {
      ctx.error(path, "must not be negative", written);
      return null;
    }
    return d;
  }

  /**
   * A resource list with non-negative quantities; a malformed or negative quantity is reported (with the Kubernetes
   * rule text) and left out.
   */
  public static ResourceList resources(@Nullable Map<String, io.fabric8.kubernetes.api.model.Quantity> in,
      String path, DocumentContext ctx) {
    if (in == null || in.isEmpty()) {
      return ResourceList.EMPTY;
    }
    Map<String, Quantity> out = new LinkedHashMap<>();
    in.forEach((name, q) -> {
      Quantity parsed = quantity(q == null ? null : q.toString(), path + "." + name, ctx);
      if (parsed != null) {
        out.put(name, parsed);
      }
    });
    return ResourceList.of(out);
  }

  /** A non-negative quantity, {@code null} when absent or (reported) malformed or negative. */
  public static @Nullable Quantity quantity(@Nullable String text, String path, DocumentContext ctx) {
    if (text == null || text.isEmpty()) {
      ctx.error(path, "must be a quantity such as 500m, 2 or 1Gi", text);
      return null;
    }
    Quantity q;
    try {
      q = Quantity.parse(text);
    } catch (RuntimeException e) {
      ctx.error(path, "must be a quantity such as 500m, 2 or 1Gi (matching "
          + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$')", text);
      return null;
    }
    if (q.signum() < 0) {
      ctx.error(path, "must be greater than or equal to 0", text);
      return null;
    }
    return q;
  }

  public static @Nullable Map<String, io.fabric8.kubernetes.api.model.Quantity> resources(ResourceList in) {
    if (in.isEmpty()) {
      return null;
    }
    Map<String, io.fabric8.kubernetes.api.model.Quantity> out = new java.util.TreeMap<>();
    in.asMap().forEach((k, v) -> out.put(k, new io.fabric8.kubernetes.api.model.Quantity(v.toString())));
    return out;
  }

  /** An int-or-percent ({@code 3} or {@code "25%"}); {@code dflt} when absent; reported when malformed. */
  public static io.fleetkit.api.meta.@Nullable IntOrPercent intOrPercent(
      io.fabric8.kubernetes.api.model.@Nullable IntOrString v, io.fleetkit.api.meta.@Nullable IntOrPercent dflt,
      String path, DocumentContext ctx) {
    if (v == null || (v.getIntVal() == null && v.getStrVal() == null)) {
      return dflt;
    }
    if (v.getIntVal() != null) {
      return io.fleetkit.api.meta.IntOrPercent.of(v.getIntVal());
    }
    try {
      return io.fleetkit.api.meta.IntOrPercent.parse(v.getStrVal());
    } catch (IllegalArgumentException e) {
      ctx.error(path, "must be an integer or a percentage such as \"25%\"", v.getStrVal());
      return dflt;
    }
  }

  public static io.fabric8.kubernetes.api.model.@Nullable IntOrString intOrString(
      io.fleetkit.api.meta.@Nullable IntOrPercent v) {
    if (v == null) {
      return null;
    }
    return v.percent() ? new io.fabric8.kubernetes.api.model.IntOrString(v.toString())
        : new io.fabric8.kubernetes.api.model.IntOrString(v.value());
  }

  public static int intOr(@Nullable Integer v, int dflt) {
    return v == null ? dflt : v;
  }

  public static long longOr(@Nullable Long v, long dflt) {
    return v == null ? dflt : v;
  }

  public static boolean boolOr(@Nullable Boolean v, boolean dflt) {
    return v == null ? dflt : v;
  }
}
