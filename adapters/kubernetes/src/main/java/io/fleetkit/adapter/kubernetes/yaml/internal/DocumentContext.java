package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Collects the problems of one document while its object is converted. Converters report a problem and carry on
 * (leaving the broken part out) so that one pass finds every problem of the document; the object is discarded if
 * any was found. Not thread-safe: one context per document.
 */
public final class DocumentContext {
  private final String source;
  private final YamlDocument document;
  private final List<ManifestProblem> problems = new ArrayList<>();
  private final List<String[]> notModelled = new ArrayList<>();
  private final List<Violation> warnings = new ArrayList<>();
  private String object = "";

  public DocumentContext(String source, YamlDocument document) {
    this.source = source;
    this.document = document;
  }

  /** For tests and for converting objects that do not come from YAML: no source lines. */
  public static DocumentContext detached(String source) {
    return new DocumentContext(source, new YamlDocument(1, 1, null, java.util.Map.of()));
  }

  public String source() {
    return source;
  }

  public YamlDocument document() {
    return document;
  }

  /** Names the object ({@code Kind namespace/name}) for the problems reported from now on. */
  public void object(String describe) {
    object = describe;
  }

  public String object() {
    return object;
  }

  /** Reports that {@code path} (with value {@code value}, if any) breaks {@code rule}. */
  public void error(String path, String rule, @Nullable Object value) {
    problems.add(new ManifestProblem(source, document.index(), document.line(), document.lineOf(path),
        new Violation(object, path, rule, value == null ? null : String.valueOf(value)), document.item()));
  }

  /**
   * Reports that the part at {@code path} was left out because its {@code field} (a volume's {@code nfs}) is one
   * FleetKit does not model: a warning at {@code path.field}, not a problem.
   */
  public void notModelled(String path, String field) {
    notModelled.add(new String[] {path, field});
  }

  /**
   * Reports the API server's warnings of a loaded object ({@code Endpoints#warnings()}, {@code Service#warnings()},
   * {@code PodSpec#warnings(String)}, ...): each, at its field, a
   * warning of the load, not a problem. Their object is replaced by the loaded object's name.
   */
  public void warn(List<Violation> objectWarnings) {
    warnings.addAll(objectWarnings);
  }

  /**
   * {@link #build} for an object the API server warns of: when built, its warnings ({@code Service#warnings()} and
   * the like) are {@link #warn reported}.
   */
  public <T> @Nullable T buildWarned(String path, Supplier<T> constructor,
      java.util.function.Function<T, List<Violation>> objectWarnings) {
    T built = build(path, constructor);
    if (built != null) {
      warn(objectWarnings.apply(built));
    }
    return built;
  }

  /** The warnings {@link #warn reported}. */
  public List<Violation> warnings() {
    return List.copyOf(warnings);
  }

  /** The parts {@link #notModelled left out}: each as its path and the field not modelled. */
  public List<String[]> notModelledParts() {
    return List.copyOf(notModelled);
  }

  public boolean hasErrors() {
    return !problems.isEmpty();
  }

  public List<ManifestProblem> problems() {
    return List.copyOf(problems);
  }

  /**
   * Runs a core-api constructor or factory for the part at {@code path}, turning its validation failure into
   * problems. A failure is not reported when a problem under {@code path} was reported already: it is then the
   * consequence of the part left out (a {@code null} where a value was required), not a new mistake.
   *
   * @return the built value, or {@code null} when it failed
   */
  public <T> @Nullable T build(String path, Supplier<T> constructor) {
    try {
      return constructor.get();
    } catch (ValidationException e) {
      // Keep the record's own rules, except for fields already reported (a required value the converter found
      // missing, reported again by the record in its own words).
      List<ManifestProblem> extra = new ArrayList<>();
      for (Violation v : e.violations()) {
        String field = join(path, v.field());
        if (!reported(field)) {
          extra.add(new ManifestProblem(source, document.index(), document.line(), document.lineOf(field),
              new Violation(object, field, v.rule(), v.value()), document.item()));
        }
      }
      problems.addAll(extra);
    } catch (IllegalArgumentException | IllegalStateException | NullPointerException e) {
      if (countUnder(path) == 0) {
        String msg = e.getMessage();
        error(path, "is invalid: " + (msg == null ? e.getClass().getSimpleName() : YamlDocuments.oneLine(msg)), null);
      }
    }
    return null;
  }

  /** Whether a problem was reported at {@code field} or inside it. */
  private boolean reported(String field) {
    for (ManifestProblem p : problems) {
      String f = p.violation().field();
      if (f.equals(field) || f.startsWith(field + ".") || f.startsWith(field + "[")) {
        return true;
      }
    }
    return false;
  }

  private int countUnder(String path) {
    int n = 0;
    for (ManifestProblem p : problems) {
      String f = p.violation().field();
      if (path.isEmpty() || f.equals(path) || f.startsWith(path + ".") || f.startsWith(path + "[")) {
        n++;
      }
    }
    return n;
  }

  /**
   * The path of {@code field} inside {@code path}. A violation from a record names a field relative to that record
   * ({@code requests.cpu}), or already the full path; both are handled.
   */
  static String join(String path, String field) {
    if (path.isEmpty()) {
      return field;
    }
    if (field.startsWith("metadata.") || field.startsWith("spec.") || field.startsWith("status.")) {
      return field;
    }
    if (field.isEmpty() || field.equals(path) || field.startsWith(path + ".") || field.startsWith(path + "[")) {
      return field.isEmpty() ? path : field;
    }
    return field.startsWith("[") ? path + field : path + "." + field;
  }
}
