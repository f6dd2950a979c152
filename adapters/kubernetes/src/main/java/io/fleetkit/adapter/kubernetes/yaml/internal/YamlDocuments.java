package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import io.fleetkit.api.Violation;
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

/**
 * Splits a multi-document YAML source into trees, recording the line of every field so that errors can point at
 * it. Builds the trees itself from the token stream (rather than {@code readTree}) to keep the locations, and to
 * reject duplicate keys, which a plain tree would silently overwrite.
 */
public final class YamlDocuments {
  private static final YAMLMapper YAML = YAMLMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final String source;
  private final List<ManifestProblem> problems;
  private final Map<String, Integer> lines = new HashMap<>();
  private int documentIndex;
  private int documentLine;

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
    try (JsonParser p = YAML.createParser(text)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        documentIndex++;
        documentLine = line(p.currentTokenLocation());
        lines.clear();
        JsonNode root = t == JsonToken.VALUE_NULL ? null : value(p, t, "");
        docs.add(new YamlDocument(documentIndex, documentLine, root, lines));
      }
    } catch (JacksonException e) {
      int errorLine = e.getLocation() == null ? 0 : line(e.getLocation());
      problems.add(new ManifestProblem(source, documentIndex + (docs.size() == documentIndex ? 1 : 0),
          docs.size() == documentIndex ? 0 : documentLine, errorLine,
          new Violation("", "YAML", "is not valid: " + oneLine(e.getOriginalMessage()), null)));
    }
    return docs;
  }

  private JsonNode value(JsonParser p, JsonToken t, String path) {
    switch (t) {
      case START_OBJECT: {
        ObjectNode obj = NODES.objectNode();
        JsonToken k;
        while ((k = p.nextToken()) == JsonToken.PROPERTY_NAME) {
          String name = p.currentName();
          String child = path.isEmpty() ? name : path + "." + name;
          int keyLine = line(p.currentTokenLocation());
          JsonNode v = value(p, p.nextToken(), child);
          if (obj.has(name)) {
            problems.add(new ManifestProblem(source, documentIndex, documentLine, keyLine,
                new Violation("", child, "is a duplicate key (first at line " + lines.get(child) + ")", null)));
            continue;
          }
          lines.put(child, keyLine);
          obj.set(name, v);
        }
        expect(k, JsonToken.END_OBJECT);
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
