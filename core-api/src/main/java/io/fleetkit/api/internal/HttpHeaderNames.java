package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import java.util.regex.Pattern;

/**
 * The Gateway API's rule for an HTTP header name ({@code HTTPHeaderName}: 1 to 256 characters of RFC 7230's token
 * alphabet), shared by the HTTPRoute filters and the rollouts' managed routes that become HTTPRoute rules. Stateless.
 */
public final class HttpHeaderNames {
  private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+\\-.^_`|~]+");

  private HttpHeaderNames() {}

  /** Adds to {@code v}, at {@code field}, what is wrong with {@code name} as an HTTP header name. */
  public static void check(Violations v, String field, String name) {
    if (name.isEmpty()) {
      v.required(field);
    } else if (name.length() > 256) {
      v.add(field, "must have at most 256 characters", name.length());
    } else if (!HEADER_NAME.matcher(name).matches()) {
      v.add(field, "must be an HTTP header name (matching ^[A-Za-z0-9!#$%&'*+\\-.^_`|~]+$)", name);
    }
  }
}
