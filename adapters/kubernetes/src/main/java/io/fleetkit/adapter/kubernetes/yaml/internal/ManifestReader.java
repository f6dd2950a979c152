package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.FieldValidation;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.adapter.kubernetes.yaml.ManifestException;
import io.fleetkit.adapter.kubernetes.yaml.ManifestLocation;
import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ApiObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Reads sources one after another, collecting objects, problems and warnings (fields not modelled,
 * {@link NotModelledFields}); {@link #result()} then returns every object with the warnings, or throws with every
 * problem. Not thread-safe: one reader per load.
 */
public final class ManifestReader {
  private static final Logger LOG = LoggerFactory.getLogger(ManifestReader.class);

  /** The top-level sections of kinds fabric8 reads generically; their content is checked by the converters. */
  private static final Set<String> GENERIC_SECTIONS = Set.of("spec", "status");

  /** fabric8's serializer (Jackson 3 inside); thread-safe. */
  static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final KindRegistry registry;
  private final FieldValidation fieldValidation;
  private final List<ApiObject<?>> objects = new ArrayList<>();
  /** Where each of {@link #objects} was written, at the same index. */
  private final List<ManifestLocation> locations = new ArrayList<>();
  private final List<ManifestProblem> problems = new ArrayList<>();
  private final List<ManifestProblem> warnings = new ArrayList<>();
  private final Map<String, String> origins = new HashMap<>();
  private final NotModelledFields notModelled = new NotModelledFields();

  public ManifestReader(KindRegistry registry) {
    this(registry, FieldValidation.STRICT);
  }

  public ManifestReader(KindRegistry registry, FieldValidation fieldValidation) {
    this.registry = registry;
    this.fieldValidation = fieldValidation;
  }

  /** Reports a problem with a whole source (missing, unreadable). */
  public void sourceProblem(String source, String rule) {
    problems.add(new ManifestProblem(source, 0, 0, 0, new Violation("", "file", rule, null)));
  }

  /** Reads every document of {@code text}. */
  public void read(String text, String source) {
    List<YamlDocument> docs = YamlDocuments.read(text, source, problems);
    for (YamlDocument doc : docs) {
      if (doc.root() != null) {
        readDocument(doc, doc.root(), source);
      }
    }
    LOG.debug("read {}: {} documents", source, docs.size());
  }

  /** Every object read, or a {@link ManifestException} with every problem found. */
  public LoadedObjects result() {
    if (!problems.isEmpty()) {
      throw new ManifestException(problems);
    }
    return LoadedObjects.of(objects).withWarnings(warnings).withLocations(locations);
  }

  private void readDocument(YamlDocument doc, JsonNode root, String source) {
    DocumentContext ctx = new DocumentContext(source, doc);
    if (!root.isObject()) {
      ctx.error("", "a document must be a map (a Kubernetes object) with apiVersion, kind and metadata", null);
      problems.addAll(ctx.problems());
      return;
    }
    String kind = text(root.get("kind"));
    String apiVersion = text(root.get("apiVersion"));

    if (kind == null) {
      ctx.error("kind", "is required and must be a string", null);
    }
    if (apiVersion == null) {
      ctx.error("apiVersion", "is required and must be a string", null);
    }
    KindConverter<?, ?> converter = kind == null ? null : registry.forKind(kind);
    ctx.object(preliminaryName(root, kind, converter != null && converter.namespaced()));
    if (kind != null && converter == null) {
      ctx.error("kind", "is not a supported kind (supported: " + String.join(", ", registry.kinds()) + ")", kind);
    } else if (converter != null && apiVersion != null && !converter.apiVersion().equals(apiVersion)) {
      ctx.error("apiVersion", "must be " + converter.apiVersion() + " for kind " + kind, apiVersion);
    }
    if (converter == null || ctx.hasErrors()) {
      problems.addAll(ctx.problems());
      return;
    }
    ApiObject<?> object = convert(converter, root, ctx, fieldValidation);
    if (object == null || ctx.hasErrors()) {
      problems.addAll(ctx.problems());
      return;
    }
    String key = object.kind() + "|" + object.metadata().namespace() + "|" + object.metadata().name();
    String here = source + " document " + doc.index() + " (line " + doc.line() + ")";
    String first = origins.putIfAbsent(key, here);
    if (first != null) {
      ctx.error("metadata.name", "must be unique per kind and namespace; already defined in " + first,
          object.metadata().name());
      problems.addAll(ctx.problems());
      return;
    }
    objects.add(object);
    locations.add(doc.location(source));
    findNotModelled(converter, root, object, ctx);
  }

  /**
   * Warns of every field of the document that the object built from it does not carry ({@link NotModelledFields}).
   * A kind whose object cannot be written back is not checked.
   */
  private void findNotModelled(KindConverter<?, ?> converter, JsonNode root, ApiObject<?> object,
      DocumentContext ctx) {
    if (notModelled.covered(converter.kind(), root)) {
      return; // every field of it was written back for another object of its kind
    }
    JsonNode written;
    try {
      written = SERIALIZATION.convertValue(ManifestWriter.toFabric8(converter, object), JsonNode.class);
    } catch (RuntimeException e) {
      LOG.debug("{} in {} cannot be written back; its fields are not checked", object.describe(), ctx.source(), e);
      return;
    }
    Set<String> excluded = Set.of();
    if (fieldValidation == FieldValidation.IGNORE) {
      excluded = new HashSet<>();
      for (UnknownFields.Unknown u : unknownFields(converter, SERIALIZATION.convertValue(root,
          converter.fabric8Type()))) {
        excluded.add(u.path());
      }
    }
    List<String> paths = notModelled.find(converter.kind(), root, written, excluded, changed -> {
      DocumentContext probe = DocumentContext.detached(ctx.source());
      ApiObject<?> o = convert(converter, changed, probe, FieldValidation.IGNORE);
      return o == null || probe.hasErrors() || !o.equals(object);
    });
    YamlDocument doc = ctx.document();
    for (String path : paths) {
      warnings.add(new ManifestProblem(ctx.source(), doc.index(), doc.line(), doc.lineOf(path),
          new Violation(object.describe(), path, LoadedObjects.NOT_MODELLED, null)));
    }
  }

  private static <F, C extends ApiObject<C>> @Nullable C convert(KindConverter<F, C> converter, JsonNode root,
      DocumentContext ctx, FieldValidation fieldValidation) {
    F typed;
    try {
      typed = SERIALIZATION.convertValue(root, converter.fabric8Type());
    } catch (RuntimeException e) {
      Fabric8Errors.report(e, root, ctx);
      return null;
    }
    if (fieldValidation == FieldValidation.STRICT) {
      for (UnknownFields.Unknown u : unknownFields(converter, typed)) {
        ctx.error(u.path(), "unknown field" + (u.suggestion() == null ? "" : " (did you mean \"" + u.suggestion()
            + "\"?)"), null);
      }
      if (ctx.hasErrors()) {
        return null;
      }
    }
    try {
      return converter.toCore(typed, ctx);
    } catch (RuntimeException e) {
      // A converter bug or an unforeseen shape: report it against the document rather than crash the load.
      LOG.debug("converter for {} failed in {}", converter.kind(), ctx.source(), e);
      ctx.error("", "could not be converted: " + e, null);
      return null;
    }
  }

  /** The fields of {@code typed} outside the Kubernetes schema that {@code converter} does not read either. */
  private static List<UnknownFields.Unknown> unknownFields(KindConverter<?, ?> converter, Object typed) {
    Set<String> allowed = new HashSet<>(converter.extensionFields());
    if (typed instanceof GenericKubernetesResource) {
      allowed.addAll(GENERIC_SECTIONS);
    }
    return UnknownFields.find(typed, allowed);
  }

  /** How problems name the object before it is converted: as {@link ApiObject#describe()} will. */
  private static String preliminaryName(JsonNode root, @Nullable String kind, boolean namespaced) {
    JsonNode meta = root.get("metadata");
    String name = meta == null ? null : text(meta.get("name"));
    String ns = meta == null ? null : text(meta.get("namespace"));
    if (ns == null && namespaced) {
      ns = Fabric8Meta.DEFAULT_NAMESPACE;
    }
    return (kind == null ? "object" : kind) + " " + (ns == null ? "" : ns + "/")
        + (name == null ? "<unnamed>" : name);
  }

  private static @Nullable String text(@Nullable JsonNode n) {
    return n != null && n.isString() && !n.asString().isEmpty() ? n.asString() : null;
  }
}
