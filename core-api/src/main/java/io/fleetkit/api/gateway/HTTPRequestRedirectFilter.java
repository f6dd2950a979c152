package io.fleetkit.api.gateway;

import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A {@code RequestRedirect} filter: the request is answered with a redirect instead of being forwarded. Each unset
 * part of the {@code Location} comes from the request (the listener port when neither {@code port} nor
 * {@code scheme} is set; the scheme's well-known port, 80 or 443, when only {@code scheme} is set).
 *
 * @param scheme {@code http} or {@code https}; {@code null} keeps the request's
 * @param hostname a precise host name (no wildcard); {@code null} keeps the request's
 * @param path {@code null} keeps the request's path
 * @param port 1..65535; {@code null} derives it as above
 * @param statusCode 301, 302 (the default), 303, 307 or 308
 */
public record HTTPRequestRedirectFilter(@Nullable String scheme, @Nullable String hostname,
    @Nullable HTTPPathModifier path, @Nullable Integer port, int statusCode) {
  /** The API's default status code. */
  public static final int DEFAULT_STATUS_CODE = 302;
  /** The status codes the API allows. */
  public static final Set<Integer> STATUS_CODES = Set.of(301, 302, 303, 307, 308);
  /** The schemes the API allows. */
  public static final Set<String> SCHEMES = Set.of("http", "https");
}
