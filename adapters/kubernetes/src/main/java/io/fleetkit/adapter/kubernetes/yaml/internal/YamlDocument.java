package io.fleetkit.adapter.kubernetes.yaml.internal;

import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One YAML document of a source.
 *
 * @param index 1-based position in the source
 * @param line 1-based line of the document's first token
 * @param root the document's content, {@code null} for an empty document
 * @param lines the line of every field and list element, keyed by field path ({@code spec.containers[0].name})
 */
public record YamlDocument(int index, int line, @Nullable JsonNode root, Map<String, Integer> lines) {
  public YamlDocument {
    lines = Map.copyOf(lines);
  }

  /** The line of {@code path}, or of its closest recorded ancestor, or of the document. */
  public int lineOf(String path) {
    String p = path;
    while (!p.isEmpty()) {
      Integer l = lines.get(p);
      if (l != null) {
        return l;
      }
      p = parent(p);
    }
    return line;
  }

  static String parent(String path) {
    int dot = path.lastIndexOf('.');
    int bracket = path.lastIndexOf('[');
    int cut = Math.max(dot, bracket);
    return cut <= 0 ? "" : path.substring(0, cut);
  }
}
