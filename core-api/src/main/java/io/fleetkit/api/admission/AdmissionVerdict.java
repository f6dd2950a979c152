package io.fleetkit.api.admission;

import io.fleetkit.api.meta.ApiObject;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A plugin's answer, as a value: allow (optionally with a changed object, from a mutating plugin, and an undo action
 * for side effects such as a quota charge), or deny with the field and the rule broken. Immutable.
 */
public final class AdmissionVerdict {
  private static final AdmissionVerdict ALLOW = new AdmissionVerdict(null, null, null, null);

  private final @Nullable ApiObject<?> object;
  private final @Nullable String field;
  private final @Nullable String rule;
  private final @Nullable Runnable undo;

  private AdmissionVerdict(@Nullable ApiObject<?> object, @Nullable String field, @Nullable String rule,
      @Nullable Runnable undo) {
    this.object = object;
    this.field = field;
    this.rule = rule;
    this.undo = undo;
  }

  /** Admit unchanged. */
  public static AdmissionVerdict allow() {
    return ALLOW;
  }

  /** Admit {@code changed} instead of the request's object (mutating plugins only; same kind, namespace and name). */
  public static AdmissionVerdict mutate(ApiObject<?> changed) {
    return new AdmissionVerdict(Objects.requireNonNull(changed, "changed"), null, null, null);
  }

  /**
   * Admit, having done a side effect that {@code undo} reverses. The chain runs {@code undo} if a later plugin denies
   * the request or the store's write fails, so a charge is never kept for an object that was not stored.
   */
  public static AdmissionVerdict allowWithUndo(Runnable undo) {
    return new AdmissionVerdict(null, null, null, Objects.requireNonNull(undo, "undo"));
  }

  /**
   * Refuse the request.
   *
   * @param field the field at fault, e.g. {@code metadata.namespace} or {@code spec.containers[0].resources}
   * @param rule what does not hold, in upstream's words, e.g. {@code exceeded quota: compute, requested: ...}
   */
  public static AdmissionVerdict deny(String field, String rule) {
    return new AdmissionVerdict(null, Objects.requireNonNull(field, "field"), Objects.requireNonNull(rule, "rule"),
        null);
  }

  public boolean allowed() {
    return rule == null;
  }

  /** The changed object of a mutating plugin, or {@code null}. */
  public @Nullable ApiObject<?> object() {
    return object;
  }

  /** The field at fault of a denial, or {@code null}. */
  public @Nullable String field() {
    return field;
  }

  /** The rule of a denial, or {@code null}. */
  public @Nullable String rule() {
    return rule;
  }

  /** The undo action of an allowed request with a side effect, or {@code null}. */
  public @Nullable Runnable undo() {
    return undo;
  }

  @Override
  public String toString() {
    return allowed() ? (object != null ? "mutate(" + object.describe() + ")" : "allow") : "deny(" + field + ": "
        + rule + ")";
  }
}
