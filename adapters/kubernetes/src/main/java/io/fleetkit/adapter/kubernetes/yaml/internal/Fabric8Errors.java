package io.fleetkit.adapter.kubernetes.yaml.internal;

import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** Turns a fabric8/Jackson deserialization failure into a field path and a rule a user can act on. */
final class Fabric8Errors {
  private Fabric8Errors() {}

  /** Reports {@code e} (thrown while binding {@code root}) to {@code ctx}. */
  static void report(RuntimeException e, JsonNode root, DocumentContext ctx) {
    JacksonException je = jacksonCause(e);
    if (je == null) {
      ctx.error("", "could not be read: " + YamlDocuments.oneLine(String.valueOf(e.getMessage())), null);
      return;
    }
    String path = path(je.getPath());
    JsonNode node = at(root, path);
    String expected = expected(String.valueOf(je.getOriginalMessage()));
    String actual = describe(node);
    String value = node != null && node.isValueNode() ? node.asString() : null;
    String rule = expected == null
        ? "could not be read: " + YamlDocuments.oneLine(String.valueOf(je.getOriginalMessage()))
        : "must be " + expected + (actual == null ? "" : ", not " + actual);
    ctx.error(path, rule, value);
  }

  private static @Nullable JacksonException jacksonCause(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof JacksonException je) {
        return je;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return null;
  }

  static String path(List<JacksonException.Reference> refs) {
    StringBuilder sb = new StringBuilder();
    for (JacksonException.Reference r : refs) {
      if (r.getPropertyName() != null) {
        if (sb.length() > 0) {
          sb.append('.');
        }
        sb.append(r.getPropertyName());
      } else if (r.getIndex() >= 0) {
        sb.append('[').append(r.getIndex()).append(']');
      }
    }
    return sb.toString();
  }

  private static @Nullable JsonNode at(JsonNode root, String path) {
    JsonNode n = root;
    for (String part : path.split("\\.")) {
      if (part.isEmpty() || n == null) {
        continue;
      }
      int b = part.indexOf('[');
      String name = b < 0 ? part : part.substring(0, b);
      if (!name.isEmpty()) {
        n = n.get(name);
      }
      while (b >= 0 && n != null) {
        int e = part.indexOf(']', b);
        n = n.get(Integer.parseInt(part.substring(b + 1, e)));
        b = part.indexOf('[', e);
      }
    }
    return n;
  }

  /** What Jackson wanted, from its message ("Cannot deserialize value of type `java.util.ArrayList<..>`"). */
  private static @Nullable String expected(String message) {
    int s = message.indexOf('`');
    int e = s < 0 ? -1 : message.indexOf('`', s + 1);
    if (e < 0) {
      return null;
    }
    String type = message.substring(s + 1, e);
    if (type.contains("List") || type.endsWith("[]")) {
      return "a list";
    }
    if (type.contains("Map")) {
      return "a map";
    }
    if (type.equals("int") || type.equals("long") || type.endsWith("Integer") || type.endsWith("Long")) {
      return "an integer";
    }
    if (type.equals("boolean") || type.endsWith("Boolean")) {
      return "a boolean (true or false)";
    }
    if (type.equals("double") || type.endsWith("Double")) {
      return "a number";
    }
    if (type.endsWith("String")) {
      return "a string";
    }
    if (type.endsWith("Quantity") || type.endsWith("IntOrString")) {
      return "a string or number";
    }
    return "a map (object)";
  }

  private static @Nullable String describe(@Nullable JsonNode n) {
    if (n == null) {
      return null;
    }
    if (n.isArray()) {
      return "a list";
    }
    if (n.isObject()) {
      return "a map";
    }
    if (n.isString()) {
      return "a string";
    }
    if (n.isBoolean()) {
      return "a boolean";
    }
    if (n.isNumber()) {
      return "a number";
    }
    return null;
  }
}
