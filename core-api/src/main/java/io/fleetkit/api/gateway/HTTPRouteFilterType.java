package io.fleetkit.api.gateway;

/**
 * The HTTPRoute filter types modelled, spelled as in the Gateway API. {@code ExternalAuth} and
 * {@code ExtensionRef} are not modelled.
 */
public enum HTTPRouteFilterType {
  /** Changes the headers of the forwarded request (core). */
  RequestHeaderModifier,
  /** Changes the headers of the response (extended). */
  ResponseHeaderModifier,
  /** Answers with a redirect instead of forwarding (core). */
  RequestRedirect,
  /** Changes the host and/or path of the forwarded request (extended). */
  URLRewrite,
  /** Copies the forwarded request to another backend, whose response is ignored; may be repeated (extended). */
  RequestMirror,
  /** Answers CORS preflight requests and adds CORS headers to responses (extended). */
  CORS;

  /** Whether the API lets a filter list hold this type more than once. */
  public boolean repeatable() {
    return this == RequestMirror;
  }
}
