/**
 * Labels, label selectors (structured and string syntax) and Kubernetes name/label validation.
 * Immutable and thread-safe.
 *
 * <p>Entry types: {@link io.fleetkit.api.labels.LabelSelector} (the API record), {@link io.fleetkit.api.labels.Selector}
 * (compiled form: {@code parse}, {@code fromLabelSelector}, {@code fromSet}, allocation-free {@code matches}),
 * {@link io.fleetkit.api.labels.Requirement} and {@link io.fleetkit.api.labels.Validation} (apimachinery's
 * {@code IsDNS1123Subdomain}, {@code IsQualifiedName}, {@code IsValidLabelValue}, ... with upstream wording).
 */
@NullMarked
package io.fleetkit.api.labels;

import org.jspecify.annotations.NullMarked;
