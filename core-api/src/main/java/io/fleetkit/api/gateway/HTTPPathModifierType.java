package io.fleetkit.api.gateway;

/** How a redirect or rewrite changes the path, spelled as in the Gateway API. */
public enum HTTPPathModifierType {
  /** The whole path becomes {@code replaceFullPath}. */
  ReplaceFullPath,
  /** The part of the path the rule's {@code PathPrefix} matched becomes {@code replacePrefixMatch}. */
  ReplacePrefixMatch
}
