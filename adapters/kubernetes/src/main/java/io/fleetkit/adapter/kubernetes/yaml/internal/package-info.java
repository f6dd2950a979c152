/**
 * Implementation of the YAML adapter; not part of FleetKit's public contract. {@code YamlDocuments} splits a
 * source into documents with the line of every field, {@code ManifestReader} drives fabric8 deserialization and the
 * per-kind {@code KindConverter}s, {@code DocumentContext} collects every problem of one document, and
 * {@code NotModelledFields} finds the fields a converter does not carry by writing its object back. Stateless
 * converters are thread-safe; contexts are confined to one load.
 */
@NullMarked
package io.fleetkit.adapter.kubernetes.yaml.internal;

import org.jspecify.annotations.NullMarked;
