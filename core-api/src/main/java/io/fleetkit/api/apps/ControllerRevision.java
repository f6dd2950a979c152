package io.fleetkit.api.apps;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A controller revision (apps/v1): an immutable snapshot of a workload's pod template, kept by the StatefulSet
 * controller so that pods of an older revision can be recreated and a set can roll back. Its name is
 * {@code <owner>-<hash>} (the value pods carry in {@code controller-revision-hash}), its {@code revision} orders the
 * snapshots of one owner, and its controller reference names the owning workload, so that deleting the owner deletes
 * its revisions (garbage collector). It has no status; {@link #spec()} returns the desired fields as a
 * {@link Desired}.
 *
 * <p>Kubernetes keeps the data as a raw JSON patch of the owner ({@code {"spec":{"template":...}}}); FleetKit keeps
 * the template itself, which is what every controller of the kind (StatefulSet, DaemonSet) stores in it.
 *
 * <p>The constructor checks Kubernetes' {@code ValidateControllerRevision}: {@code metadata} as every object
 * (name a DNS-1123 subdomain, namespace a DNS-1123 label, valid labels), {@code data} is mandatory, {@code revision}
 * is not negative. It throws one {@link io.fleetkit.api.ValidationException} listing every violation.
 *
 * @param metadata name, namespace, labels (the template's and {@code controller.kubernetes.io/hash}), the owner
 * @param data the pod template of this revision
 * @param revision the revision number; higher is newer among the revisions of one owner
 */
public record ControllerRevision(ObjectMeta metadata, PodTemplateSpec data, long revision)
    implements ApiObject<ControllerRevision> {
  public static final String API_VERSION = "apps/v1";
  public static final String KIND = "ControllerRevision";

  /** The desired fields of a controller revision, what {@link #spec()} returns. */
  public record Desired(PodTemplateSpec data, long revision) {}

  public ControllerRevision {
    Objects.requireNonNull(metadata, "metadata");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    if (data == null) {
      v.required("data", "data is mandatory");
    }
    v.nonNegative("revision", revision);
    v.throwIfAny();
  }

  /**
   * A revision {@code namespace/name} of {@code data} with number {@code revision}, controlled by {@code owner}
   * (when not null) and labelled with {@code data}'s labels.
   */
  public static ControllerRevision of(String namespace, String name, PodTemplateSpec data, long revision,
      @Nullable ApiObject<?> owner) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(namespace).name(name).labels(data.labels());
    if (owner != null) {
      m.ownerReference(OwnerReference.controllerOf(owner));
    }
    return new ControllerRevision(m.build(), data, revision);
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public ControllerRevision withMetadata(ObjectMeta m) {
    return new ControllerRevision(m, data, revision);
  }

  /** This revision with another revision number (what a rollback to it does). */
  public ControllerRevision withRevision(long newRevision) {
    return new ControllerRevision(metadata, data, newRevision);
  }

  @Override
  public Desired spec() {
    return new Desired(data, revision);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  @Override
  public ControllerRevision withStatusOf(ControllerRevision other) {
    return this;
  }
}
