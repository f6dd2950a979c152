package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fleetkit.adapter.kubernetes.yaml.ManifestLocation;
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
    return ManifestLocation.lineOf(lines, path, line);
  }

  /** This document's location in {@code source}, for an object read from it. */
  public ManifestLocation location(String source) {
    return new ManifestLocation(source, index, line, lines);
  }
}
