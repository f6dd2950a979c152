/**
 * Labels, label selectors (structured and string syntax) and Kubernetes name/label validation.
 * Immutable and thread-safe.
 */
@NullMarked
package io.fleetkit.api.labels;

import org.jspecify.annotations.NullMarked;
