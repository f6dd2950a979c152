package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import io.fleetkit.api.Violation;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * Splits a multi-document YAML source into trees, recording the line of every field so that errors can point at
 * it. Builds the trees itself from the token stream (rather than {@code readTree}) to keep the locations, and to
 * reject duplicate keys, which a plain tree would silently overwrite.
 *
 * <p>Aliases ({@code *name}) are expanded to a copy of their anchor's value and merge keys ({@code <<}) merged, as
 * kubectl's YAML decoder does; the token stream alone would give the anchor's <em>name</em> as a string. Expansion is
 * bounded by go-yaml's rule ({@code yaml.v3 decode.go}, {@code allowedAliasRatio}): past 100 aliased nodes and 1,000
 * nodes in all, the share of nodes that came from aliases may not exceed 99% up to 400,000 nodes, falling linearly
 * to 10% at 4,000,000; a document beyond it is refused as "excessive aliasing" before the copy is made.
 */
public final class YamlDocuments {
  private static final YAMLMapper YAML = YAMLMapper.builder(AnchorYaml.factory()).build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String MERGE_KEY = "<<";

  private final String source;
  private final List<ManifestProblem> problems;
  private final Map<String, Integer> lines = new HashMap<>();
  /** Anchored values of the current document, with their node counts. */
  private final Map<String, Anchored> anchors = new HashMap<>();
  private int documentIndex;
  private int documentLine;
  private long decodeCount;
  private long aliasCount;

  private record Anchored(JsonNode value, long nodes) {}

  /** A document whose aliases expand beyond go-yaml's bound; ends the source. */
  private static final class ExcessiveAliasing extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ExcessiveAliasing(String message) {
      super(message, null, false, false);
    }
  }

  private YamlDocuments(String source, List<ManifestProblem> problems) {
    this.source = source;
    this.problems = problems;
  }

  /**
   * Reads every document of {@code text}. A syntax error is added to {@code problems} and ends the source (the
   * documents before it are returned); so are duplicate keys, which do not end it.
   */
  public static List<YamlDocument> read(String text, String source, List<ManifestProblem> problems) {
    return new YamlDocuments(source, problems).readAll(text);
  }

  private List<YamlDocument> readAll(String text) {
    List<YamlDocument> docs = new ArrayList<>();
    try (JsonParser p = YAML.createParser(new StringReader(text))) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        documentIndex++;
        documentLine = line(p.currentTokenLocation());
        lines.clear();
        anchors.clear();
        decodeCount = 0;
        aliasCount = 0;
        JsonNode root = t == JsonToken.VALUE_NULL ? null : value(p, t, "");
        docs.add(new YamlDocument(documentIndex, documentLine, root, lines));
      }
    } catch (JacksonException e) {
      int errorLine = e.getLocation() == null ? 0 : line(e.getLocation());
      problems.add(new ManifestProblem(source, documentIndex + (docs.size() == documentIndex ? 1 : 0),
          docs.size() == documentIndex ? 0 : documentLine, errorLine,
          new Violation("", "YAML", "is not valid: " + oneLine(e.getOriginalMessage()), null)));
    } catch (ExcessiveAliasing e) {
      problems.add(new ManifestProblem(source, documentIndex, documentLine, 0,
          new Violation("", "YAML", e.getMessage(), null)));
    }
    return docs;
  }

  private JsonNode value(JsonParser p, JsonToken t, String path) {
    if (p instanceof YAMLParser y && y.isCurrentAlias()) {
      return alias(p.getString(), path, line(p.currentTokenLocation()));
    }
    String anchor = p instanceof YAMLParser y ? AnchorYaml.anchor(y) : null;
    long before = decodeCount;
    decodeCount++;
    JsonNode v = build(p, t, path);
    if (anchor != null) {
      anchors.put(anchor, new Anchored(v, decodeCount - before));
    }
    return v;
  }

  /** A copy of the value anchored as {@code name}; refused when it would break the aliasing bound. */
  private JsonNode alias(String name, String path, int aliasLine) {
    Anchored a = anchors.get(name);
    if (a == null) {
      problems.add(new ManifestProblem(source, documentIndex, documentLine, aliasLine, new Violation("", path,
          "is the alias *" + name + ", which has no anchor &" + name + " before it in this document", null)));
      return NODES.nullNode();
    }
    long decoded = decodeCount + a.nodes();
    long aliased = aliasCount + a.nodes();
    if (aliased > 100 && decoded > 1000 && (double) aliased / decoded > allowedAliasRatio(decoded)) {
      throw new ExcessiveAliasing("document contains excessive aliasing: expanding *" + name + " at " + path
          + " (line " + aliasLine + ") would make " + decoded + " nodes, " + aliased + " of them from aliases");
    }
    decodeCount = decoded;
    aliasCount = aliased;
    lines.put(path, aliasLine);
    return a.value().deepCopy();
  }

  /** go-yaml's {@code allowedAliasRatio}. */
  static double allowedAliasRatio(long decodeCount) {
    if (decodeCount <= 400_000) {
      return 0.99;
    }
    if (decodeCount >= 4_000_000) {
      return 0.10;
    }
    return 0.99 - 0.89 * ((decodeCount - 400_000) / 3_600_000.0);
  }

  private JsonNode build(JsonParser p, JsonToken t, String path) {
    switch (t) {
      case START_OBJECT: {
        ObjectNode obj = NODES.objectNode();
        List<JsonNode> merges = new ArrayList<>();
        JsonToken k;
        while ((k = p.nextToken()) == JsonToken.PROPERTY_NAME) {
          String name = p.currentName();
          String child = path.isEmpty() ? name : path + "." + name;
          int keyLine = line(p.currentTokenLocation());
          JsonNode v = value(p, p.nextToken(), child);
          if (MERGE_KEY.equals(name)) {
            merge(v, child, keyLine, merges);
            continue;
          }
          if (obj.has(name)) {
            problems.add(new ManifestProblem(source, documentIndex, documentLine, keyLine,
                new Violation("", child, "is a duplicate key (first at line " + lines.get(child) + ")", null)));
            continue;
          }
          lines.put(child, keyLine);
          obj.set(name, v);
        }
        expect(k, JsonToken.END_OBJECT);
        // Merged keys never override the mapping's own keys; of several merged maps the first wins (YAML 1.1).
        for (JsonNode m : merges) {
          for (Map.Entry<String, JsonNode> e : m.properties()) {
            if (!obj.has(e.getKey())) {
              obj.set(e.getKey(), e.getValue());
            }
          }
        }
        return obj;
      }
      case START_ARRAY: {
        ArrayNode arr = NODES.arrayNode();
        JsonToken e;
        while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
          if (e == null) {
            throw new IllegalStateException("unexpected end of YAML input in " + path);
          }
          String child = path + "[" + arr.size() + "]";
          lines.put(child, line(p.currentTokenLocation()));
          arr.add(value(p, e, child));
        }
        return arr;
      }
      case VALUE_STRING:
        return NODES.stringNode(p.getString());
      case VALUE_NUMBER_INT:
        switch (p.getNumberType()) {
          case INT:
            return NODES.numberNode(p.getIntValue());
          case LONG:
            return NODES.numberNode(p.getLongValue());
          default:
            return NODES.numberNode(p.getBigIntegerValue());
        }
      case VALUE_NUMBER_FLOAT:
        if (notFinite(p.getString())) {
          // .nan, .inf, -.inf: go-yaml reads them, but JSON, and so the Kubernetes API, has no such number
          problems.add(new ManifestProblem(source, documentIndex, documentLine, line(p.currentTokenLocation()),
              new Violation("", path, "is " + p.getString() + ", which is not a finite number (JSON has no NaN or"
                  + " infinity)", null)));
          return NODES.nullNode();
        }
        return NODES.numberNode(p.getDecimalValue());
      case VALUE_TRUE:
        return NODES.booleanNode(true);
      case VALUE_FALSE:
        return NODES.booleanNode(false);
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        // Embedded objects (binary !!binary scalars) and anything else: keep the text form.
        return NODES.stringNode(p.getString());
    }
  }

  /** YAML's floats that are no number: {@code .nan}, {@code .inf} and {@code -.inf} in their spellings. */
  private static boolean notFinite(String text) {
    String t = text.startsWith("-") || text.startsWith("+") ? text.substring(1) : text;
    return t.equalsIgnoreCase(".nan") || t.equalsIgnoreCase(".inf");
  }

  /** Collects the map(s) of a merge key, or reports that it holds something else. */
  private void merge(JsonNode v, String path, int keyLine, List<JsonNode> merges) {
    if (v.isObject()) {
      merges.add(v);
      return;
    }
    if (v.isArray()) {
      boolean allMaps = true;
      for (JsonNode e : v) {
        allMaps &= e.isObject();
      }
      if (allMaps) {
        v.forEach(merges::add);
        return;
      }
    }
    problems.add(new ManifestProblem(source, documentIndex, documentLine, keyLine,
        new Violation("", path, "must be a map or a list of maps to merge (a YAML merge key)", null)));
  }

  private static void expect(JsonToken actual, JsonToken expected) {
    if (actual != expected) {
      throw new IllegalStateException("YAML token stream: expected " + expected + " but got " + actual);
    }
  }

  private static int line(TokenStreamLocation l) {
    return Math.max(0, l.getLineNr());
  }

  static String oneLine(String s) {
    return s.replaceAll("\\s*\\R\\s*", " ").trim();
  }
}
