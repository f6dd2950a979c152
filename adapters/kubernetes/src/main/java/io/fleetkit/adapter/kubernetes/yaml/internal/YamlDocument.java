package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fleetkit.adapter.kubernetes.yaml.ManifestLocation;
import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import java.util.HashMap;
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
 * @param item the 0-based index of this object in the {@code items} of a list document, or
 *     {@link ManifestProblem#NO_ITEM}; an item's {@code line} is its first line and its {@code lines} its own paths
 */
public record YamlDocument(int index, int line, @Nullable JsonNode root, Map<String, Integer> lines, int item) {
  public YamlDocument {
    lines = Map.copyOf(lines);
  }

  /** A whole document. */
  public YamlDocument(int index, int line, @Nullable JsonNode root, Map<String, Integer> lines) {
    this(index, line, root, lines, ManifestProblem.NO_ITEM);
  }

  /**
   * Item {@code i} of this list document's {@code items}, as a document of its own: {@code root} is the item (as
   * given, or completed by the caller), its lines those under {@code items[i]} with that prefix taken off.
   */
  public YamlDocument item(int i, JsonNode root) {
    String prefix = "items[" + i + "]";
    Map<String, Integer> own = new HashMap<>();
    for (Map.Entry<String, Integer> e : lines.entrySet()) {
      String k = e.getKey();
      if (k.startsWith(prefix + ".")) {
        own.put(k.substring(prefix.length() + 1), e.getValue());
      }
    }
    return new YamlDocument(index, lines.getOrDefault(prefix, line), root, own, i);
  }

  /** The line of {@code path}, or of its closest recorded ancestor, or of the document. */
  public int lineOf(String path) {
    return ManifestLocation.lineOf(lines, path, line);
  }

  /** This document's location in {@code source}, for an object read from it. */
  public ManifestLocation location(String source) {
    return new ManifestLocation(source, index, line, lines, item);
  }
}
