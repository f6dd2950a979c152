package io.fleetkit.api.scheduling;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A priority class (scheduling.k8s.io/v1, cluster-scoped): maps {@code priorityClassName} to a priority value.
 * Like Kubernetes it has no spec/status split; {@link #spec()} returns the desired fields as a {@link Desired}
 * value and there is no status.
 *
 * @param globalDefault whether pods without a class get this one (at most one class should say so)
 */
public record PriorityClass(ObjectMeta metadata, int value, boolean globalDefault, PreemptionPolicy preemptionPolicy,
    String description) implements ApiObject<PriorityClass> {
  public static final String API_VERSION = "scheduling.k8s.io/v1";
  public static final String KIND = "PriorityClass";
  /** The highest value a user-defined class may have. */
  public static final int HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
  /** {@code system-} names are reserved for the built-in classes. */
  public static final String SYSTEM_PREFIX = "system-";

  /** The desired fields of a priority class, what {@link #spec()} returns. */
  public record Desired(int value, boolean globalDefault, PreemptionPolicy preemptionPolicy, String description) {
    public Desired {
      Objects.requireNonNull(preemptionPolicy, "preemptionPolicy");
      Objects.requireNonNull(description, "description");
    }
  }

  public PriorityClass {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(preemptionPolicy, "preemptionPolicy");
    Objects.requireNonNull(description, "description");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, false);
    if (!metadata.name().startsWith(SYSTEM_PREFIX) && value > HIGHEST_USER_DEFINABLE_PRIORITY) {
      v.add("value", "maximum allowed value of a user defined priority is " + HIGHEST_USER_DEFINABLE_PRIORITY,
          value);
    }
    v.throwIfAny();
  }

  /**
   * The global default class among {@code classes}: of those with {@code globalDefault}, the one with the lowest
   * value (the rule of kube's Priority admission plugin and Kueue when a race left several), or {@code null} if none.
   */
  public static @Nullable PriorityClass globalDefaultOf(Iterable<PriorityClass> classes) {
    PriorityClass best = null;
    for (PriorityClass pc : classes) {
      if (pc.globalDefault() && (best == null || pc.value() < best.value())) {
        best = pc;
      }
    }
    return best;
  }

  public static PriorityClass of(String name, int value) {
    return new PriorityClass(ObjectMeta.of(name), value, false, PreemptionPolicy.PreemptLowerPriority, "");
  }

  public static Builder builder() {
    return new Builder();
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
    return false;
  }

  @Override
  public PriorityClass withMetadata(ObjectMeta newMetadata) {
    return new PriorityClass(newMetadata, value, globalDefault, preemptionPolicy, description);
  }

  @Override
  public Desired spec() {
    return new Desired(value, globalDefault, preemptionPolicy, description);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  /** Priority classes have no status: returns this. */
  @Override
  public PriorityClass withStatusOf(PriorityClass other) {
    return this;
  }

  public PriorityClass withSpec(Desired d) {
    return new PriorityClass(metadata, d.value(), d.globalDefault(), d.preemptionPolicy(), d.description());
  }

  public PriorityClass withGlobalDefault(boolean v) {
    return new PriorityClass(metadata, value, v, preemptionPolicy, description);
  }

  public PriorityClass withPreemptionPolicy(PreemptionPolicy p) {
    return new PriorityClass(metadata, value, globalDefault, p, description);
  }

  /** Mutable builder (preemptionPolicy PreemptLowerPriority by default); not thread-safe. */
  public static final class Builder {
    private ObjectMeta.Builder meta = ObjectMeta.builder();
    private int value;
    private boolean globalDefault;
    private PreemptionPolicy preemptionPolicy = PreemptionPolicy.PreemptLowerPriority;
    private String description = "";

    private Builder() {}

    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder name(String v) { meta.name(v); return this; }
    public Builder value(int v) { value = v; return this; }
    public Builder globalDefault(boolean v) { globalDefault = v; return this; }
    public Builder preemptionPolicy(PreemptionPolicy v) { preemptionPolicy = v; return this; }
    public Builder description(String v) { description = v; return this; }

    public PriorityClass build() {
      return new PriorityClass(meta.build(), value, globalDefault, preemptionPolicy, description);
    }
  }
}
