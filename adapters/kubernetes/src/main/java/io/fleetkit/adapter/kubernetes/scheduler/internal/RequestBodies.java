package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.ObjectReference;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON bodies of the scheduler's hot-path writes, written directly: the Binding of {@code pods/binding} (one per
 * pod), the events.k8s.io/v1 Event it posts (one per pod bound) and the Event series patch. The text is what Jackson
 * writes for the same objects as maps (the same fields in the same order, strings escaped as Jackson escapes them),
 * without building the maps and walking them through a generic serializer, which cost more than the rest of an
 * Event's request on the client's side. Stateless and thread-safe.
 */
public final class RequestBodies {
  /** The events.k8s.io/v1 {@code MicroTime}: microseconds, UTC. */
  static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final String FLEETKIT_ANNOTATION_PREFIX = "fleetkit.io/";
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private RequestBodies() {}

  /**
   * The Binding of {@code pod} to {@code nodeName}: name, namespace, the uid when known (the API server then checks
   * it), and FleetKit's annotations on the pod ({@code fleetkit.io/...}, e.g. the GPU ids the GPU plugins chose),
   * which the API server copies from the Binding onto the pod.
   */
  public static String binding(Pod pod, String nodeName) {
    StringBuilder b = new StringBuilder(256);
    b.append("{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{");
    field(b, "name", pod.metadata().name()).append(',');
    field(b, "namespace", pod.metadata().namespace());
    if (!pod.metadata().uid().isEmpty()) {
      field(b.append(','), "uid", pod.metadata().uid());
    }
    Map<String, String> annotations = fleetkitAnnotations(pod);
    if (!annotations.isEmpty()) {
      b.append(",\"annotations\":{");
      boolean first = true;
      for (Map.Entry<String, String> a : annotations.entrySet()) {
        if (!first) {
          b.append(',');
        }
        first = false;
        field(b, a.getKey(), a.getValue());
      }
      b.append('}');
    }
    b.append("},\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",");
    field(b, "name", nodeName);
    return b.append("}}").toString();
  }

  private static Map<String, String> fleetkitAnnotations(Pod pod) {
    Map<String, String> all = pod.metadata().annotations();
    if (all.isEmpty()) {
      return Map.of();
    }
    Map<String, String> ours = new TreeMap<>();
    all.forEach((k, v) -> {
      if (k.startsWith(FLEETKIT_ANNOTATION_PREFIX)) {
        ours.put(k, v);
      }
    });
    return ours;
  }

  /**
   * The events.k8s.io/v1 Event {@code e} is created as: metadata (name, namespace), action, eventTime, note, reason,
   * regarding, related (when set), reportingController, reportingInstance, series (when set), type.
   */
  public static String event(Event e) {
    StringBuilder b = new StringBuilder(512);
    b.append("{\"apiVersion\":\"").append(Event.API_VERSION).append("\",\"kind\":\"").append(Event.KIND)
        .append("\",\"metadata\":{");
    field(b, "name", e.metadata().name()).append(',');
    field(b, "namespace", e.metadata().namespace()).append("},");
    field(b, "action", e.action()).append(',');
    time(b, "eventTime", e.eventTime()).append(',');
    field(b, "note", e.note()).append(',');
    field(b, "reason", e.reason()).append(",\"regarding\":");
    reference(b, e.regarding());
    if (e.related() != null) {
      b.append(",\"related\":");
      reference(b, e.related());
    }
    b.append(',');
    field(b, "reportingController", e.reportingController()).append(',');
    field(b, "reportingInstance", e.reportingInstance());
    if (e.series() != null) {
      b.append(",\"series\":");
      series(b, e);
    }
    b.append(',');
    return field(b, "type", e.type()).append('}').toString();
  }

  /** The patch of a stored Event's series (count and last observed time) that a repeat of it is sent as. */
  public static String seriesPatch(Event e) {
    if (e.series() == null) {
      throw new IllegalArgumentException("event " + e.metadata().key() + ": series must be set to patch it");
    }
    StringBuilder b = new StringBuilder(256);
    b.append("{\"apiVersion\":\"").append(Event.API_VERSION).append("\",\"kind\":\"").append(Event.KIND)
        .append("\",\"metadata\":{");
    field(b, "name", e.metadata().name()).append(',');
    field(b, "namespace", e.metadata().namespace()).append("},\"series\":");
    return series(b, e).append('}').toString();
  }

  private static StringBuilder series(StringBuilder b, Event e) {
    b.append("{\"count\":").append(e.series().count()).append(',');
    return time(b, "lastObservedTime", e.series().lastObservedTime()).append('}');
  }

  private static void reference(StringBuilder b, ObjectReference r) {
    b.append('{');
    field(b, "apiVersion", r.apiVersion());
    if (!r.fieldPath().isEmpty()) {
      field(b.append(','), "fieldPath", r.fieldPath());
    }
    field(b.append(','), "kind", r.kind()).append(',');
    field(b, "name", r.name());
    if (!r.namespace().isEmpty()) {
      field(b.append(','), "namespace", r.namespace());
    }
    if (!r.uid().isEmpty()) {
      field(b.append(','), "uid", r.uid());
    }
    b.append('}');
  }

  private static StringBuilder time(StringBuilder b, String name, Instant t) {
    b.append('"').append(name).append("\":\"");
    return microTime(b, t).append('"');
  }

  /**
   * {@code t} as {@link #MICRO_TIME} writes it, digit by digit for the years 1-9999 (a formatter's generic
   * machinery cost a tenth of an Event's recording), through {@link #MICRO_TIME} for any other year.
   */
  static StringBuilder microTime(StringBuilder b, Instant t) {
    LocalDateTime d = LocalDateTime.ofEpochSecond(t.getEpochSecond(), t.getNano(), ZoneOffset.UTC);
    if (d.getYear() < 1 || d.getYear() > 9999) { // the formatter's year of era, and its sign beyond 9999
      MICRO_TIME.formatTo(t, b);
      return b;
    }
    digits(b, d.getYear(), 4).append('-');
    digits(b, d.getMonthValue(), 2).append('-');
    digits(b, d.getDayOfMonth(), 2).append('T');
    digits(b, d.getHour(), 2).append(':');
    digits(b, d.getMinute(), 2).append(':');
    digits(b, d.getSecond(), 2).append('.');
    return digits(b, d.getNano() / 1000, 6).append('Z');
  }

  /** {@code value} (not negative) in {@code width} digits, zero-padded. */
  private static StringBuilder digits(StringBuilder b, int value, int width) {
    for (int div = (int) Math.pow(10, width - 1); div > 0; div /= 10) {
      b.append((char) ('0' + value / div % 10));
    }
    return b;
  }

  /** {@code "name":"value"}, the value escaped; {@code name} is one of this class's constants or an annotation key. */
  private static StringBuilder field(StringBuilder b, String name, String value) {
    string(b, name);
    b.append(':');
    string(b, value);
    return b;
  }

  /**
   * {@code s} as a JSON string, escaped as Jackson's generator escapes it: quote and backslash, the control
   * characters below U+0020 ({@code \b \t \n \f \r} in short form, the others as a six-character
   * {@code &#92;u00XX} escape); everything else, non-ASCII included, as is.
   */
  static StringBuilder string(StringBuilder b, String s) {
    b.append('"');
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\') {
        continue;
      }
      b.append(s, start, i).append('\\');
      switch (c) {
        case '"', '\\' -> b.append(c);
        case '\b' -> b.append('b');
        case '\t' -> b.append('t');
        case '\n' -> b.append('n');
        case '\f' -> b.append('f');
        case '\r' -> b.append('r');
        default -> b.append("u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
      }
      start = i + 1;
    }
    return b.append(s, start, s.length()).append('"');
  }
}
