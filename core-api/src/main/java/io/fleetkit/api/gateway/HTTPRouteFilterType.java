package io.fleetkit.api.gateway;

/**
 * The HTTPRoute filter types modelled, spelled as in the Gateway API. {@code RequestMirror}, {@code CORS},
 * {@code ExternalAuth} and {@code ExtensionRef} are not modelled.
 */
public enum HTTPRouteFilterType {
  /** Changes the headers of the forwarded request (core). */
  RequestHeaderModifier,
  /** Changes the headers of the response (extended). */
  ResponseHeaderModifier,
  /** Answers with a redirect instead of forwarding (core). */
  RequestRedirect,
  /** Changes the host and/or path of the forwarded request (extended). */
  URLRewrite
}
