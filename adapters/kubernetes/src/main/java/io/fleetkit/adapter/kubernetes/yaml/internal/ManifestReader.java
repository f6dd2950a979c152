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
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads sources one after another, collecting objects, problems and warnings (fields not modelled,
 * {@link NotModelledFields}); {@link #result()} then returns every object with the warnings, or throws with every
 * problem. Not thread-safe: one reader per load.
 */
public final class ManifestReader {
  private static final Logger LOG = LoggerFactory.getLogger(ManifestReader.class);

  /** The top-level sections of kinds fabric8 reads generically; their content is checked by the converters. */
  private static final Set<String> GENERIC_SECTIONS = Set.of("spec", "status");

  /** The kind of a list document of any objects, as kubectl prints several ({@code kubectl get a,b -o yaml}). */
  private static final String LIST_KIND = "List";
  private static final String LIST_API_VERSION = "v1";
  /** The fields of a list document. */
  private static final Set<String> LIST_FIELDS = Set.of("apiVersion", "kind", "metadata", "items");

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
    String kind = root.isObject() ? text(root.get("kind")) : null;
    if (kind != null && listElementKind(kind) != null) {
      readList(doc, root, kind, source);
    } else {
      readObject(doc, root, source);
    }
  }

  /**
   * The kind of the items of list kind {@code kind}: {@code ""} for {@code List} (each item names its own), the
   * element kind for an API server's typed list ({@code PodList}, {@code LeaseList}) of a kind FleetKit models or
   * knows as built-in ({@link UnmodelledKinds}), {@code null} when {@code kind} is no list.
   */
  private @Nullable String listElementKind(String kind) {
    if (kind.equals(LIST_KIND)) {
      return "";
    }
    if (!kind.endsWith(LIST_KIND) || kind.length() == LIST_KIND.length()) {
      return null;
    }
    String element = kind.substring(0, kind.length() - LIST_KIND.length());
    return registry.forKind(element) != null || UnmodelledKinds.isKind(element) ? element : null;
  }

  /** The apiVersions under which kind {@code kind} (modelled or built-in) is served; empty when unknown. */
  private Set<String> apiVersionsOf(String kind) {
    KindConverter<?, ?> c = registry.forKind(kind);
    return c != null ? c.apiVersions() : UnmodelledKinds.apiVersions(kind);
  }

  /**
   * A list document, as {@code kubectl get -o yaml} prints: {@code apiVersion: v1, kind: List} whose items name
   * their own kinds, or an API server's typed list ({@code kind: PodList} with the kind's apiVersion) whose items
   * may leave their apiVersion and kind out. Each item is read as a document of its own ({@link #readObject}), its
   * problems and warnings placed at its lines; an item that is itself a list is refused.
   */
  private void readList(YamlDocument doc, JsonNode root, String kind, String source) {
    DocumentContext ctx = new DocumentContext(source, doc);
    ctx.object(kind);
    String element = listElementKind(kind);
    String apiVersion = text(root.get("apiVersion"));
    Set<String> versions = element.isEmpty() ? Set.of(LIST_API_VERSION) : apiVersionsOf(element);
    if (apiVersion == null) {
      ctx.error("apiVersion", "is required and must be a string", null);
    } else if (!versions.contains(apiVersion)) {
      ctx.error("apiVersion", "must be " + String.join(" or ", new java.util.TreeSet<>(versions)) + " for kind "
          + kind, apiVersion);
    }
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      if (!LIST_FIELDS.contains(e.getKey()) && fieldValidation == FieldValidation.STRICT) {
        ctx.error(e.getKey(), "unknown field (a list has apiVersion, kind, metadata and items)", null);
      }
    }
    JsonNode meta = root.get("metadata");
    if (meta != null && !meta.isNull() && !meta.isObject()) {
      ctx.error("metadata", "must be a map", null);
    }
    JsonNode items = root.get("items");
    if (items != null && !items.isNull() && !items.isArray()) {
      ctx.error("items", "must be a list of objects", null);
    }
    if (ctx.hasErrors() || items == null || !items.isArray()) {
      problems.addAll(ctx.problems());
      return;
    }
    // an item refused as an item (not a map, of another kind) is reported; the others are read all the same
    for (int i = 0; i < items.size(); i++) {
      DocumentContext itemCtx = new DocumentContext(source, doc);
      itemCtx.object(kind);
      JsonNode item = listItem(items.get(i), "items[" + i + "]", element, apiVersion, itemCtx);
      if (item == null) {
        problems.addAll(itemCtx.problems());
      } else {
        readObject(doc.item(i, item), item, source);
      }
    }
  }

  /**
   * Item {@code path} of a list whose items are of kind {@code element} ({@code ""}: any), with the apiVersion and
   * kind of a typed list's item filled in when left out; {@code null} when it cannot be an item (reported on
   * {@code ctx}).
   */
  private @Nullable JsonNode listItem(JsonNode item, String path, String element, @Nullable String apiVersion,
      DocumentContext ctx) {
    if (!item.isObject()) {
      ctx.error(path, "must be a map (a Kubernetes object) with apiVersion, kind and metadata", null);
      return null;
    }
    String kind = text(item.get("kind"));
    if (kind != null && listElementKind(kind) != null) {
      ctx.error(path + ".kind", "must not be a list: the items of a list are objects", kind);
      return null;
    }
    if (element.isEmpty()) {
      return item;
    }
    if (kind != null && !kind.equals(element)) {
      ctx.error(path + ".kind", "must be " + element + " in a " + element + LIST_KIND, kind);
      return null;
    }
    ObjectNode typed = ((ObjectNode) item).deepCopy();
    if (kind == null && !typed.has("kind")) {
      typed.put("kind", element);
    }
    if (apiVersion != null && !typed.has("apiVersion")) {
      typed.put("apiVersion", apiVersion);
    }
    return typed;
  }

  /** One object: a document, or an item of a list document ({@link YamlDocument#item}). */
  private void readObject(YamlDocument doc, JsonNode root, String source) {
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
    if (kind != null && converter == null && UnmodelledKinds.isKind(kind)) {
      if (apiVersion != null && UnmodelledKinds.contains(kind, apiVersion)) {
        warnings.add(new ManifestProblem(source, doc.index(), doc.line(), doc.lineOf("kind"), new Violation(
            unmodelledName(root, kind), "kind", kind + " (" + apiVersion + ") is " + LoadedObjects.NOT_MODELLED, null),
            doc.item()));
        return;
      }
      if (apiVersion != null) {
        ctx.error("apiVersion", "must be " + String.join(" or ", UnmodelledKinds.apiVersions(kind)) + " for kind "
            + kind, apiVersion);
      }
    } else if (kind != null && converter == null) {
      ctx.error("kind", "is not a supported kind (supported: " + String.join(", ", registry.kinds()) + ")", kind);
    } else if (converter != null && apiVersion != null && !converter.apiVersions().contains(apiVersion)) {
      ctx.error("apiVersion", "must be " + String.join(" or ", new java.util.TreeSet<>(converter.apiVersions()))
          + " for kind " + kind, apiVersion);
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
    String here = source + " document " + doc.index() + (doc.item() >= 0 ? ", items[" + doc.item() + "]" : "")
        + " (line " + doc.line() + ")";
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
   * Warns of what the converter reported ({@link DocumentContext#warn}, the API server's warnings), then of every
   * field of the document that the object built from it does not carry ({@link NotModelledFields}). A kind whose
   * object cannot be written back is not checked for the latter.
   */
  private void findNotModelled(KindConverter<?, ?> converter, JsonNode root, ApiObject<?> object,
      DocumentContext ctx) {
    YamlDocument doc = ctx.document();
    for (Violation w : ctx.warnings()) {
      warnings.add(new ManifestProblem(ctx.source(), doc.index(), doc.line(), doc.lineOf(w.field()),
          new Violation(object.describe(), w.field(), w.rule(), w.value()), doc.item()));
    }
    Set<String> excluded = new HashSet<>();
    for (String[] part : ctx.notModelledParts()) {
      String path = part[0] + "." + part[1];
      warnings.add(new ManifestProblem(ctx.source(), doc.index(), doc.line(), doc.lineOf(path),
          new Violation(object.describe(), path, LoadedObjects.NOT_MODELLED, null), doc.item()));
      excluded.add(part[0]); // the part is left out whole; what follows it in its list is compared shifted
    }
    if (excluded.isEmpty() && notModelled.covered(converter.kind(), root)) {
      return; // every field of it was written back for another object of its kind
    }
    JsonNode written;
    try {
      written = SERIALIZATION.convertValue(ManifestWriter.toFabric8(converter, object), JsonNode.class);
    } catch (RuntimeException e) {
      LOG.debug("{} in {} cannot be written back; its fields are not checked", object.describe(), ctx.source(), e);
      return;
    }
    if (fieldValidation == FieldValidation.IGNORE) {
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
    for (String path : paths) {
      warnings.add(new ManifestProblem(ctx.source(), doc.index(), doc.line(), doc.lineOf(path),
          new Violation(object.describe(), path, LoadedObjects.NOT_MODELLED, null), doc.item()));
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

  /**
   * How a warning names an object of a kind FleetKit does not model: {@code Lease kube-system/kube-scheduler}, or the
   * name alone when it has no namespace (cluster-scoped kinds and namespaced ones alike: which is which is not
   * known here).
   */
  private static String unmodelledName(JsonNode root, String kind) {
    JsonNode meta = root.get("metadata");
    String name = meta == null ? null : text(meta.get("name"));
    String ns = meta == null ? null : text(meta.get("namespace"));
    return kind + " " + (ns == null ? "" : ns + "/") + (name == null ? "<unnamed>" : name);
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
