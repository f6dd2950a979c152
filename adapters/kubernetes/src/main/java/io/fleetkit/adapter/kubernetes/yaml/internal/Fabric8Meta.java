package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** {@code metadata} both ways, with the loader's rules: a name is required, namespaced kinds default to "default". */
public final class Fabric8Meta {
  /** The namespace of namespaced objects whose manifest names none, as kubectl does. */
  public static final String DEFAULT_NAMESPACE = "default";

  private Fabric8Meta() {}

  /**
   * Core metadata for an object of {@code kind}; also names the object in {@code ctx}. A missing name is reported
   * and left empty. The namespace of a cluster-scoped kind is dropped.
   */
  public static ObjectMeta toCore(io.fabric8.kubernetes.api.model.@Nullable ObjectMeta m, String kind,
      boolean namespaced, DocumentContext ctx) {
    io.fabric8.kubernetes.api.model.ObjectMeta in = m == null ? new io.fabric8.kubernetes.api.model.ObjectMeta() : m;
    String name = Values.orEmpty(in.getName());
    String namespace = namespaced ? (in.getNamespace() == null || in.getNamespace().isEmpty()
        ? DEFAULT_NAMESPACE : in.getNamespace()) : "";
    ctx.object(kind + " " + (namespace.isEmpty() ? "" : namespace + "/") + (name.isEmpty() ? "<unnamed>" : name));
    if (name.isEmpty()) {
      ctx.error("metadata.name", "is required", null);
    }
    List<OwnerReference> owners = new ArrayList<>();
    List<io.fabric8.kubernetes.api.model.OwnerReference> refs = in.getOwnerReferences();
    for (int i = 0; refs != null && i < refs.size(); i++) {
      io.fabric8.kubernetes.api.model.OwnerReference r = refs.get(i);
      String p = "metadata.ownerReferences[" + i + "]";
      OwnerReference o = ctx.build(p, () -> new OwnerReference(Values.required(r.getApiVersion(), p + ".apiVersion",
          ctx), Values.required(r.getKind(), p + ".kind", ctx), Values.required(r.getName(), p + ".name", ctx),
          Values.orEmpty(r.getUid()), Values.boolOr(r.getController(), false),
          Values.boolOr(r.getBlockOwnerDeletion(), false)));
      if (o != null) {
        owners.add(o);
      }
    }
    return ObjectMeta.builder()
        .name(name)
        .namespace(namespace)
        .uid(Values.orEmpty(in.getUid()))
        .resourceVersion(Values.orEmpty(in.getResourceVersion()))
        .generation(Values.longOr(in.getGeneration(), 0))
        .labels(Values.stringMap(in.getLabels(), "metadata.labels", ctx))
        .annotations(Values.stringMap(in.getAnnotations(), "metadata.annotations", ctx))
        .ownerReferences(owners)
        .finalizers(Values.stringList(in.getFinalizers(), "metadata.finalizers", ctx))
        .creationTimestamp(Values.instant(in.getCreationTimestamp(), "metadata.creationTimestamp", ctx))
        .deletionTimestamp(Values.instant(in.getDeletionTimestamp(), "metadata.deletionTimestamp", ctx))
        .deletionGracePeriodSeconds(in.getDeletionGracePeriodSeconds())
        .build();
  }

  public static io.fabric8.kubernetes.api.model.ObjectMeta toFabric8(ObjectMeta m) {
    List<io.fabric8.kubernetes.api.model.OwnerReference> owners = new ArrayList<>();
    for (OwnerReference r : m.ownerReferences()) {
      owners.add(new OwnerReferenceBuilder().withApiVersion(r.apiVersion()).withKind(r.kind()).withName(r.name())
          .withUid(Values.emptyToNull(r.uid())).withController(r.controller() ? Boolean.TRUE : null)
          .withBlockOwnerDeletion(r.blockOwnerDeletion() ? Boolean.TRUE : null).build());
    }
    return new ObjectMetaBuilder()
        .withName(Values.emptyToNull(m.name()))
        .withNamespace(Values.emptyToNull(m.namespace()))
        .withUid(Values.emptyToNull(m.uid()))
        .withResourceVersion(Values.emptyToNull(m.resourceVersion()))
        .withGeneration(m.generation() == 0 ? null : m.generation())
        .withLabels(Values.emptyToNull(new java.util.TreeMap<>(m.labels())))
        .withAnnotations(Values.emptyToNull(new java.util.TreeMap<>(m.annotations())))
        .withOwnerReferences(Values.emptyToNull(owners))
        .withFinalizers(Values.emptyToNull(m.finalizers()))
        .withCreationTimestamp(Values.instant(m.creationTimestamp()))
        .withDeletionTimestamp(Values.instant(m.deletionTimestamp()))
        .withDeletionGracePeriodSeconds(m.deletionGracePeriodSeconds())
        .build();
  }
}
