package io.fleetkit.api.gateway;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A ReferenceGrant ({@code gateway.networking.k8s.io/v1}): lets objects of the {@code from} kinds and namespaces
 * refer to objects of the {@code to} kinds in the grant's own namespace. A cross-namespace reference without a
 * grant is refused ({@code RefNotPermitted}).
 *
 * @throws io.fleetkit.api.ValidationException when {@code from} or {@code to} is empty (1..16 items each) or an
 *     entry lacks its kind or namespace
 */
public record ReferenceGrant(ObjectMeta metadata, List<From> from, List<To> to)
    implements ApiObject<ReferenceGrant> {
  public static final String API_VERSION = Gateway.API_VERSION;
  public static final String KIND = "ReferenceGrant";

  /** Who may refer: objects of {@code group}/{@code kind} in {@code namespace}. */
  public record From(String group, String kind, String namespace) {
    public From {
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(namespace, "namespace");
    }
  }

  /** What may be referred to: objects of {@code group}/{@code kind} in the grant's namespace, named {@code name}
   * (empty for any name). */
  public record To(String group, String kind, String name) {
    public To {
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(name, "name");
    }
  }

  public ReferenceGrant {
    Objects.requireNonNull(metadata, "metadata");
    from = List.copyOf(from);
    to = List.copyOf(to);
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    if (from.isEmpty() || from.size() > 16) {
      v.add("spec.from", "must have 1 to 16 items", from.size());
    }
    if (to.isEmpty() || to.size() > 16) {
      v.add("spec.to", "must have 1 to 16 items", to.size());
    }
    for (int i = 0; i < from.size(); i++) {
      if (from.get(i).kind().isEmpty()) {
        v.required("spec.from[" + i + "].kind");
      }
      if (from.get(i).namespace().isEmpty()) {
        v.required("spec.from[" + i + "].namespace");
      }
    }
    for (int i = 0; i < to.size(); i++) {
      if (to.get(i).kind().isEmpty()) {
        v.required("spec.to[" + i + "].kind");
      }
    }
    v.throwIfAny();
  }

  /**
   * Whether this grant lets an object of {@code fromGroup}/{@code fromKind} in {@code fromNamespace} refer to the
   * object {@code toGroup}/{@code toKind} named {@code toName} in this grant's namespace.
   */
  public boolean permits(String fromGroup, String fromKind, String fromNamespace, String toGroup, String toKind,
      String toName) {
    boolean fromOk = false;
    for (From f : from) {
      if (f.group().equals(fromGroup) && f.kind().equals(fromKind) && f.namespace().equals(fromNamespace)) {
        fromOk = true;
        break;
      }
    }
    if (!fromOk) {
      return false;
    }
    for (To t : to) {
      if (t.group().equals(toGroup) && t.kind().equals(toKind) && (t.name().isEmpty() || t.name().equals(toName))) {
        return true;
      }
    }
    return false;
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
  public ReferenceGrant withMetadata(ObjectMeta m) {
    return new ReferenceGrant(m, from, to);
  }

  /** The grant's {@code from} and {@code to} lists. */
  @Override
  public List<List<?>> spec() {
    return List.of(from, to);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  /** No status kept: returns this. */
  @Override
  public ReferenceGrant withStatusOf(ReferenceGrant other) {
    return this;
  }
}
