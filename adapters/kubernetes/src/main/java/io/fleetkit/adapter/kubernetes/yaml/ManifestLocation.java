package io.fleetkit.adapter.kubernetes.yaml;

import io.fleetkit.api.Violation;
import java.util.Map;
import java.util.Objects;

/**
 * Where a loaded object was written: its source, its document and the line of each of its fields, so that a rule an
 * object breaks only among other objects (checked after the load) can still be shown at its line.
 *
 * @param source the file (as given or as found under a given directory) or the source name given to the loader
 * @param document the 1-based index of the YAML document in the source
 * @param documentLine the 1-based line where the document starts
 * @param lines the line of every field and list element of the document, keyed by field path
 *     ({@code spec.loads[0].target})
 * @param item the 0-based index of the object in the {@code items} of a list document, or
 *     {@link ManifestProblem#NO_ITEM} when it is a document of its own; for an item, {@code documentLine} is the
 *     item's first line and {@code lines} are keyed by the item's own paths ({@code spec.nodeName}, not
 *     {@code items[3].spec.nodeName})
 */
public record ManifestLocation(String source, int document, int documentLine, Map<String, Integer> lines,
    int item) {
  public ManifestLocation {
    Objects.requireNonNull(source, "source");
    lines = Map.copyOf(lines);
    if (document < 1 || documentLine < 1 || item < ManifestProblem.NO_ITEM) {
      throw new IllegalArgumentException("ManifestLocation: document " + document + " and documentLine "
          + documentLine + " must be at least 1, item " + item + " at least -1 (not in a list)");
    }
  }

  /** The location of an object that is a document of its own. */
  public ManifestLocation(String source, int document, int documentLine, Map<String, Integer> lines) {
    this(source, document, documentLine, lines, ManifestProblem.NO_ITEM);
  }

  /** The line of {@code path}, or of its closest recorded ancestor, or the document's first line. */
  public int lineOf(String path) {
    return lineOf(lines, path, documentLine);
  }

  /** {@code violation} of this object, shown at the line of its field. */
  public ManifestProblem problem(Violation violation) {
    return new ManifestProblem(source, document, documentLine, lineOf(violation.field()), violation, item);
  }

  /**
   * The line of {@code path} in {@code lines}, or of its closest recorded ancestor ({@code spec.a[2].b}, then
   * {@code spec.a[2]}, {@code spec.a}, {@code spec}), or {@code fallback} when none is recorded.
   */
  public static int lineOf(Map<String, Integer> lines, String path, int fallback) {
    String p = path;
    while (!p.isEmpty()) {
      Integer l = lines.get(p);
      if (l != null) {
        return l;
      }
      p = parent(p);
    }
    return fallback;
  }

  private static String parent(String path) {
    int dot = path.lastIndexOf('.');
    int bracket = path.lastIndexOf('[');
    int cut = Math.max(dot, bracket);
    return cut <= 0 ? "" : path.substring(0, cut);
  }
}
