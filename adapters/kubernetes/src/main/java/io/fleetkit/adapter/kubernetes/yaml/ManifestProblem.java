package io.fleetkit.adapter.kubernetes.yaml;

import io.fleetkit.api.Violation;
import java.util.Objects;

/**
 * One problem found in a manifest: where it is and which rule it breaks.
 *
 * @param source the file (as given or as found under a given directory) or the source name passed to
 *     {@link KubernetesYaml#parse}
 * @param document the 1-based index of the YAML document in the source, or 0 when the problem concerns the whole
 *     source (a missing file, say)
 * @param documentLine the 1-based line where the document starts, or 0 when unknown
 * @param line the 1-based line of the offending field, or 0 when unknown
 * @param violation the object, field path, rule and offending value
 * @param item the 0-based index of the object in the {@code items} of a list document ({@code kind: List}, what
 *     {@code kubectl get -o yaml} prints), or {@link #NO_ITEM} when the object is a document of its own; for an item
 *     {@code documentLine} is the item's first line and field paths are the item's own ({@code spec.nodeName})
 */
public record ManifestProblem(String source, int document, int documentLine, int line, Violation violation,
    int item) {
  /** The {@code item} of a problem that is not in an item of a list document. */
  public static final int NO_ITEM = -1;

  public ManifestProblem {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(violation, "violation");
    if (document < 0 || documentLine < 0 || line < 0 || item < NO_ITEM) {
      throw new IllegalArgumentException("ManifestProblem: document " + document + ", documentLine " + documentLine
          + ", line " + line + " and item " + item + " must not be negative (item -1: not in a list)");
    }
  }

  /** A problem outside any list item. */
  public ManifestProblem(String source, int document, int documentLine, int line, Violation violation) {
    this(source, document, documentLine, line, violation, NO_ITEM);
  }

  /**
   * Renders as {@code pods.yaml: document 2 (line 14): Pod default/web: spec.containers[0].resources.requests.cpu
   * "-1" must be greater than or equal to 0 (at line 22)}; the trailing line is given when known and different from
   * the document's first line. A problem in an item of a list document names the item after the document:
   * {@code cluster.yaml: document 1, items[3] (line 40): Pod default/web: ...}.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(source);
    if (document > 0) {
      sb.append(": document ").append(document);
      if (item >= 0) {
        sb.append(", items[").append(item).append(']');
      }
      if (documentLine > 0) {
        sb.append(" (line ").append(documentLine).append(')');
      }
    } else if (line > 0) {
      sb.append(": line ").append(line);
    }
    sb.append(": ").append(violation);
    if (document > 0 && line > 0 && line != documentLine) {
      sb.append(" (at line ").append(line).append(')');
    }
    return sb.toString();
  }
}
