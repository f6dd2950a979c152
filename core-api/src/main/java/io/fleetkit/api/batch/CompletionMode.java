package io.fleetkit.api.batch;

/** How a Job counts completions. */
public enum CompletionMode {
  /** Done when {@code completions} pods succeeded; the default. */
  NonIndexed,
  /** Each pod gets an index 0..completions-1; done when every index succeeded once. */
  Indexed
}
