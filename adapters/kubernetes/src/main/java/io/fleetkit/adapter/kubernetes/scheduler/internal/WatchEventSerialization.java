package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;

/**
 * fabric8's {@link KubernetesSerialization} (same mapper, modules and registered kinds) with a shorter way from a
 * watch event's text to its {@link WatchEvent}, the call fabric8's watches make for every event they receive
 * ({@code unmarshal(text, WatchEvent.class)}).
 *
 * <p>fabric8's own way copies the text into bytes behind a new 8 KB buffered stream, sniffs JSON from YAML, builds a
 * new reader for {@code WatchEvent} (whose deserializer Jackson does not cache, so it is built again), reads the
 * {@code object} as a tree to find its {@code apiVersion} and {@code kind}, and binds the tree to the registered class
 * through the context, which resolves and contextualises that class's deserializer again on every call. This class
 * reads the event in one pass instead: when the event's {@code object} begins with its {@code apiVersion} and
 * {@code kind} (in either order; API servers write {@code kind} first, fabric8 {@code apiVersion} first) and they name
 * a registered class, the object is bound straight from the text with a reader kept per class. The class is the one
 * fabric8 would choose ({@link #getRegisteredKubernetesResource}); binding from the text rather than from a tree of the
 * same text gives equal objects (a property test checks it against fabric8's way for random pods and nodes). Any other
 * event (other fields, another order, an unregistered kind, anything unparsable) goes through fabric8's way unchanged,
 * errors included. Every other method is fabric8's.
 *
 * <p>Thread-safe, as fabric8's is.
 */
public final class WatchEventSerialization extends KubernetesSerialization {
  private static final String API_VERSION = "\"apiVersion\":\"";
  private static final String KIND = "\"kind\":\"";

  /** The configured mapper (captured in {@link #configureMapper}, which fabric8's constructor calls). */
  private volatile @Nullable ObjectMapper mapper;
  /** Registered classes by {@code apiVersion + " " + kind}, empty when fabric8 has none for the pair. */
  private final Map<String, Optional<Class<? extends KubernetesResource>>> classes = new ConcurrentHashMap<>();
  private final Map<Class<?>, ObjectReader> readers = new ConcurrentHashMap<>();

  /** fabric8's default serialization ({@code new KubernetesSerialization()}), with the shorter watch-event path. */
  public WatchEventSerialization() {
    super();
  }

  @Override
  protected ObjectMapper configureMapper(ObjectMapper m) {
    ObjectMapper configured = super.configureMapper(m);
    this.mapper = configured;
    return configured;
  }

  @Override
  public <T> T unmarshal(String str, Class<T> type) {
    if (type == WatchEvent.class) {
      WatchEvent e = watchEvent(str);
      if (e != null) {
        return type.cast(e);
      }
    }
    return super.unmarshal(str, type);
  }

  @Override
  public void registerKubernetesResource(Class<? extends KubernetesResource> clazz) {
    super.registerKubernetesResource(clazz);
    classes.clear();
  }

  @Override
  public void registerKubernetesResource(String apiVersion, String kind, Class<? extends KubernetesResource> clazz) {
    super.registerKubernetesResource(apiVersion, kind, clazz);
    classes.clear();
  }

  /**
   * {@code str} read as {@code {"type":T,"object":{...}}} (the two fields in either order, nothing else) in one pass,
   * or {@code null} when it is not of that shape or its object does not begin with a registered apiVersion and kind.
   */
  @Nullable WatchEvent watchEvent(String str) {
    ObjectMapper m = mapper;
    if (m == null) {
      return null;
    }
    try (JsonParser p = m.createParser(str)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      String type = null;
      Object object = null;
      JsonToken t;
      for (t = p.nextToken(); t == JsonToken.PROPERTY_NAME; t = p.nextToken()) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if ("type".equals(name) && value == JsonToken.VALUE_STRING && type == null) {
          type = p.getString();
        } else if ("object".equals(name) && value == JsonToken.START_OBJECT && object == null) {
          Class<? extends KubernetesResource> c = classAt(str, p.currentTokenLocation().getCharOffset());
          if (c == null) {
            return null;
          }
          object = readers.computeIfAbsent(c, m::readerFor).readValue(p);
          if (object == null) {
            return null;
          }
        } else {
          return null;
        }
      }
      if (t != JsonToken.END_OBJECT || p.nextToken() != null || type == null || object == null) {
        return null;
      }
      return new WatchEvent(object, type);
    } catch (JacksonException | IllegalArgumentException e) {
      return null; // fabric8's way reads it again and reports what is wrong
    }
  }

  /**
   * The registered class named by the {@code apiVersion} and {@code kind} that the object starting at {@code start}
   * (its opening brace) begins with, or {@code null}.
   */
  private @Nullable Class<? extends KubernetesResource> classAt(String str, long start) {
    if (start < 0 || start >= str.length() || str.charAt((int) start) != '{') {
      return null;
    }
    int i = (int) start + 1;
    String apiVersion;
    String kind;
    if (str.startsWith(API_VERSION, i)) {
      int end = stringEnd(str, i + API_VERSION.length());
      if (end < 0 || !str.startsWith("," + KIND, end + 1)) {
        return null;
      }
      apiVersion = str.substring(i + API_VERSION.length(), end);
      int kindStart = end + 2 + KIND.length();
      int kindEnd = stringEnd(str, kindStart);
      if (kindEnd < 0) {
        return null;
      }
      kind = str.substring(kindStart, kindEnd);
    } else if (str.startsWith(KIND, i)) {
      int end = stringEnd(str, i + KIND.length());
      if (end < 0 || !str.startsWith("," + API_VERSION, end + 1)) {
        return null;
      }
      kind = str.substring(i + KIND.length(), end);
      int apiStart = end + 2 + API_VERSION.length();
      int apiEnd = stringEnd(str, apiStart);
      if (apiEnd < 0) {
        return null;
      }
      apiVersion = str.substring(apiStart, apiEnd);
    } else {
      return null;
    }
    return classes.computeIfAbsent(apiVersion + " " + kind,
        k -> Optional.ofNullable(registered(apiVersion, kind))).orElse(null);
  }

  private @Nullable Class<? extends KubernetesResource> registered(String apiVersion, String kind) {
    Class<? extends KubernetesResource> c = getRegisteredKubernetesResource(apiVersion, kind);
    return c != null && KubernetesResource.class.isAssignableFrom(c) ? c : null;
  }

  /** The index of the quote closing the JSON string whose text starts at {@code from}, or -1 if it has escapes. */
  private static int stringEnd(String str, int from) {
    for (int i = from; i < str.length(); i++) {
      char c = str.charAt(i);
      if (c == '"') {
        return i;
      }
      if (c == '\\' || c < 0x20) {
        return -1;
      }
    }
    return -1;
  }
}
