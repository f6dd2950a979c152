package io.fleetkit.adapter.kubernetes.yaml;

/**
 * What the loader does with a field that the Kubernetes schema of its kind does not have ({@code containres},
 * {@code resurces}), as kubectl's {@code --validate} / the API server's {@code fieldValidation}.
 */
public enum FieldValidation {
  /**
   * Refuse the object, naming the field's path ({@code spec.containres unknown field (did you mean
   * "containers"?)}): kubectl's default. A misspelled field would otherwise vanish with what it asked for.
   */
  STRICT,
  /** Drop unknown fields without a word, as the API server does with {@code fieldValidation=Ignore}. */
  IGNORE
}
