package io.fleetkit.adapter.kubernetes.yaml.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Finds the fields of a manifest that the Kubernetes schema has and FleetKit's model does not carry: the loader
 * would otherwise drop them without a word ({@code lifecycle}, {@code env}, {@code securityContext}...).
 *
 * <p>The object a converter built is written back with the same converter, and the document's tree is compared with
 * the written tree by key presence (values differ legitimately: {@code cpu: 1} is written {@code 1000m}). A path
 * with a non-empty value in the document (not null, {@code {}} or {@code []}) that the written tree lacks is either a
 * value the writer leaves out because it is the default ({@code revisionHistoryLimit: 10}) or a field FleetKit does
 * not model. A probe tells them apart: the document is converted again with every scalar under the path changed
 * (a number plus one, a boolean negated, a string suffixed); if the object built and the original are equal and no
 * problem was reported, nothing under the path is read, and the path is reported. Otherwise its children are
 * examined the same way, so that a subtree is reported once at its highest path. Probe outcomes are cached per path
 * (list indexes generalised) and value, so the same field in many objects costs one probe; at most
 * {@link #MAX_PROBES_PER_DOCUMENT} probes run per document, beyond which absent paths are reported unprobed. A
 * document {@linkplain #covered covered} by the paths earlier objects of its kind were written back with needs no
 * write-back at all.
 *
 * <p>Maps whose keys are data rather than schema (labels, annotations, {@code data}, selectors' labels, resource
 * lists) are compared as leaves. Server bookkeeping that no manifest means as input ({@code metadata.managedFields},
 * {@code metadata.selfLink}) is not reported. Not thread-safe: one instance per load.
 */
final class NotModelledFields {
  /** Probes per document beyond which absent paths are reported without one. */
  static final int MAX_PROBES_PER_DOCUMENT = 64;

  /** Keys whose map values are free-form (their keys are data), compared as leaves. */
  private static final Set<String> FREE_FORM = Set.of("labels", "annotations", "data", "stringData", "binaryData",
      "nodeSelector", "matchLabels", "requests", "limits", "capacity", "allocatable", "overhead", "parameters",
      "hard", "used", "default", "defaultRequest", "max", "min", "maxLimitRequestRatio");

  /** Server-written fields of exported objects that carry nothing a simulation could use. */
  private static final Set<String> BOOKKEEPING = Set.of("metadata.managedFields", "metadata.selfLink");

  private static final String PROBE_SUFFIX = "-fleetkit-probe";

  /**
   * Converts a changed copy of the document; {@code true} when the result differs from the object first built (or
   * the copy could not be converted): something under the changed path is read.
   */
  @FunctionalInterface
  interface Probe {
    boolean changes(JsonNode changedDocument);
  }

  private final Map<String, Boolean> probed = new HashMap<>();
  /**
   * Per kind, the paths (list indexes generalised, free-form maps as leaves) that some object of the kind was written
   * back with: the converter writes them, so it models them.
   */
  private final Map<String, Set<String>> writtenPaths = new HashMap<>();

  /**
   * Whether every path of {@code document} with a non-empty value is one some object of {@code kind} was written
   * back with ({@link #find} records them): then no field of it can be one FleetKit does not model (a path the
   * converter writes is one it reads; where the write-back leaves it out, it is a default, which the probe would find
   * read), and the document needs no write-back. The documents of a manifest of many objects from one template
   * (10,000 pods) are checked in full once.
   */
  boolean covered(String kind, JsonNode document) {
    Set<String> seen = writtenPaths.get(kind);
    return seen != null && within(document, new ArrayList<>(), new StringBuilder(), seen);
  }

  private static boolean within(JsonNode in, List<Object> path, StringBuilder generalised, Set<String> seen) {
    if (isEmpty(in)) {
      return true;
    }
    if (!path.isEmpty() && !seen.contains(generalised.toString())) {
      return BOOKKEEPING.contains(render(path));
    }
    if (in.isObject() && !isFreeForm(path, in)) {
      for (Map.Entry<String, JsonNode> e : in.properties()) {
        int mark = generalised.length();
        generalised.append('.').append(e.getKey());
        path.add(e.getKey());
        boolean ok = within(e.getValue(), path, generalised, seen);
        path.remove(path.size() - 1);
        generalised.setLength(mark);
        if (!ok) {
          return false;
        }
      }
    } else if (in.isArray()) {
      int mark = generalised.length();
      generalised.append("[*]");
      for (int i = 0; i < in.size(); i++) {
        path.add(i);
        boolean ok = within(in.get(i), path, generalised, seen);
        path.remove(path.size() - 1);
        if (!ok) {
          generalised.setLength(mark);
          return false;
        }
      }
      generalised.setLength(mark);
    }
    return true;
  }

  /** Records the paths of {@code written} (a write-back of a {@code kind}) for {@link #covered}. */
  private void record(String kind, JsonNode written) {
    Set<String> into = writtenPaths.computeIfAbsent(kind, k -> new java.util.HashSet<>());
    collect(written, new ArrayList<>(), new StringBuilder(), into);
  }

  private static void collect(JsonNode out, List<Object> path, StringBuilder generalised, Set<String> into) {
    if (isEmpty(out)) {
      return;
    }
    if (!path.isEmpty()) {
      into.add(generalised.toString());
    }
    if (out.isObject() && !isFreeForm(path, out)) {
      for (Map.Entry<String, JsonNode> e : out.properties()) {
        int mark = generalised.length();
        generalised.append('.').append(e.getKey());
        path.add(e.getKey());
        collect(e.getValue(), path, generalised, into);
        path.remove(path.size() - 1);
        generalised.setLength(mark);
      }
    } else if (out.isArray()) {
      int mark = generalised.length();
      generalised.append("[*]");
      for (int i = 0; i < out.size(); i++) {
        path.add(i);
        collect(out.get(i), path, generalised, into);
        path.remove(path.size() - 1);
      }
      generalised.setLength(mark);
    }
  }

  /**
   * The highest paths of {@code document} absent from {@code written} and read by nothing, in document order.
   *
   * @param kind names the kind in the probe cache
   * @param excluded paths not to report (unknown fields the caller chose to ignore)
   */
  List<String> find(String kind, JsonNode document, JsonNode written, Set<String> excluded, Probe probe) {
    Walk w = new Walk(kind, document, excluded, probe);
    w.compare(document, written, new ArrayList<>());
    record(kind, written);
    return w.found;
  }

  private final class Walk {
    private final String kind;
    private final JsonNode document;
    private final Set<String> excluded;
    private final Probe probe;
    private final List<String> found = new ArrayList<>();
    private int probes;

    Walk(String kind, JsonNode document, Set<String> excluded, Probe probe) {
      this.kind = kind;
      this.document = document;
      this.excluded = excluded;
      this.probe = probe;
    }

    /** Compares {@code in} (present in the document at {@code path}) with {@code out}, its written counterpart. */
    void compare(JsonNode in, @Nullable JsonNode out, List<Object> path) {
      if (isEmpty(in)) {
        return;
      }
      String p = render(path);
      if (excluded.contains(p) || BOOKKEEPING.contains(p)) {
        return;
      }
      if (out == null || out.isNull() || out.isMissingNode()) {
        absent(in, path);
        return;
      }
      if (in.isObject() && out.isObject() && !isFreeForm(path, in)) {
        for (Map.Entry<String, JsonNode> e : in.properties()) {
          path.add(e.getKey());
          compare(e.getValue(), out.get(e.getKey()), path);
          path.remove(path.size() - 1);
        }
      } else if (in.isArray() && out.isArray()) {
        for (int i = 0; i < in.size(); i++) {
          path.add(i);
          compare(in.get(i), i < out.size() ? out.get(i) : null, path);
          path.remove(path.size() - 1);
        }
      }
    }

    /** {@code in} is absent from the written tree: reported whole, or examined child by child if partly read. */
    private void absent(JsonNode in, List<Object> path) {
      if (!read(in, path)) {
        found.add(render(path));
        return;
      }
      if (in.isObject()) {
        for (Map.Entry<String, JsonNode> e : in.properties()) {
          path.add(e.getKey());
          if (!isEmpty(e.getValue()) && !excluded.contains(render(path))) {
            absent(e.getValue(), path);
          }
          path.remove(path.size() - 1);
        }
      } else if (in.isArray()) {
        for (int i = 0; i < in.size(); i++) {
          path.add(i);
          if (!isEmpty(in.get(i)) && !excluded.contains(render(path))) { // an element left out whole is reported
            absent(in.get(i), path);
          }
          path.remove(path.size() - 1);
        }
      }
    }

    /** Whether anything under {@code path} is read by the converter, probing when not known. */
    private boolean read(JsonNode in, List<Object> path) {
      String key = kind + "|" + generalised(path) + "|" + in;
      Boolean known = probed.get(key);
      if (known != null) {
        return known;
      }
      if (probes >= MAX_PROBES_PER_DOCUMENT) {
        return false;
      }
      probes++;
      JsonNode changed = document.deepCopy();
      replace(changed, path, perturbed(in));
      boolean result = probe.changes(changed);
      probed.put(key, result);
      return result;
    }
  }

  private static boolean isFreeForm(List<Object> path, JsonNode in) {
    if (path.isEmpty() || !(path.get(path.size() - 1) instanceof String name)) {
      return false;
    }
    if (FREE_FORM.contains(name)) {
      return true;
    }
    if (name.equals("selector")) { // a Service's selector is a label map; a workload's a LabelSelector
      for (JsonNode v : in.values()) {
        if (v.isContainer()) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /**
   * Whether {@code n} carries nothing: null, {@code {}}, {@code []}, or a map of such ({@code status: {loadBalancer:
   * {}}}, as the API server prints a Service without a load balancer).
   */
  static boolean isEmpty(JsonNode n) {
    if (n.isNull() || n.isMissingNode() || (n.isContainer() && n.isEmpty())) {
      return true;
    }
    if (n.isObject()) {
      for (JsonNode v : n.values()) {
        if (!isEmpty(v)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /** A copy of {@code n} with every scalar changed to a value a reader of it cannot take for the original. */
  private static JsonNode perturbed(JsonNode n) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (n.isObject()) {
      ObjectNode o = f.objectNode();
      for (Map.Entry<String, JsonNode> e : n.properties()) {
        o.set(e.getKey(), perturbed(e.getValue()));
      }
      return o;
    }
    if (n.isArray()) {
      ArrayNode a = f.arrayNode();
      for (JsonNode e : n.values()) {
        a.add(perturbed(e));
      }
      return a;
    }
    if (n.isBoolean()) {
      return f.booleanNode(!n.booleanValue());
    }
    if (n.isIntegralNumber()) {
      return f.numberNode(n.bigIntegerValue().add(java.math.BigInteger.ONE));
    }
    if (n.isNumber()) {
      return f.numberNode(n.doubleValue() * 2 + 1);
    }
    if (n.isString()) {
      return f.stringNode(n.asString() + PROBE_SUFFIX);
    }
    return n.deepCopy();
  }

  private static void replace(JsonNode root, List<Object> path, JsonNode value) {
    JsonNode parent = root;
    for (int i = 0; i < path.size() - 1; i++) {
      Object s = path.get(i);
      parent = s instanceof Integer idx ? parent.get(idx) : parent.get((String) s);
    }
    Object last = path.get(path.size() - 1);
    if (last instanceof Integer idx) {
      ((ArrayNode) parent).set(idx, value);
    } else {
      ((ObjectNode) parent).set((String) last, value);
    }
  }

  /** {@code spec.containers[0].env} from its segments. */
  static String render(List<Object> path) {
    StringBuilder sb = new StringBuilder();
    for (Object s : path) {
      if (s instanceof Integer i) {
        sb.append('[').append(i).append(']');
      } else {
        if (!sb.isEmpty()) {
          sb.append('.');
        }
        sb.append(s);
      }
    }
    return sb.toString();
  }

  /** As {@link #render} with every list index as {@code [*]}: the probe cache's key. */
  private static String generalised(List<Object> path) {
    StringBuilder sb = new StringBuilder();
    for (Object s : path) {
      if (s instanceof Integer) {
        sb.append("[*]");
      } else {
        sb.append('.').append(s);
      }
    }
    return sb.toString();
  }
}
