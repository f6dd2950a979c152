package io.fleetkit.api.gateway;

import org.jspecify.annotations.Nullable;

/**
 * A {@code URLRewrite} filter: the forwarded request gets another {@code Host} and/or path.
 *
 * @param hostname a precise host name (no wildcard); {@code null} keeps the request's
 * @param path {@code null} keeps the request's path
 */
public record HTTPURLRewriteFilter(@Nullable String hostname, @Nullable HTTPPathModifier path) {}
