package io.fleetkit.api.gateway;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The path change of a redirect or rewrite. As in the API the value field must be the one of the type
 * ({@code replaceFullPath} for {@code ReplaceFullPath}, {@code replacePrefixMatch} for {@code ReplacePrefixMatch}):
 * {@link HTTPRoute} checks it.
 *
 * @param replaceFullPath the new path (at most 1024 characters)
 * @param replacePrefixMatch what replaces the matched prefix, element-wise; may be empty (at most 1024 characters)
 */
public record HTTPPathModifier(HTTPPathModifierType type, @Nullable String replaceFullPath,
    @Nullable String replacePrefixMatch) {
  public HTTPPathModifier {
    Objects.requireNonNull(type, "type");
  }

  public static HTTPPathModifier replaceFullPath(String path) {
    return new HTTPPathModifier(HTTPPathModifierType.ReplaceFullPath, path, null);
  }

  public static HTTPPathModifier replacePrefixMatch(String prefix) {
    return new HTTPPathModifier(HTTPPathModifierType.ReplacePrefixMatch, null, prefix);
  }
}
