package io.fleetkit.networking.gateway;

import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;

/**
 * Condition types and reasons of the Gateway API's status, spelled as upstream spells them. The status records of
 * {@code io.fleetkit.api.gateway} look conditions up by type ({@code condition(type)}).
 */
public final class Conditions {
  public static final String ACCEPTED = "Accepted";
  public static final String RESOLVED_REFS = "ResolvedRefs";
  public static final String PROGRAMMED = "Programmed";
  public static final String CONFLICTED = "Conflicted";
  /** GatewayClass: whether the controller supports the Gateway API version installed (GEP-922). */
  public static final String SUPPORTED_VERSION = "SupportedVersion";

  // GatewayClass reasons (besides Accepted and SupportedVersion, each its condition's True reason).
  public static final String UNSUPPORTED_VERSION = "UnsupportedVersion";
  // Route parent reasons.
  public static final String NOT_ALLOWED_BY_LISTENERS = "NotAllowedByListeners";
  public static final String NO_MATCHING_LISTENER_HOSTNAME = "NoMatchingListenerHostname";
  public static final String NO_MATCHING_PARENT = "NoMatchingParent";
  public static final String PENDING = "Pending";
  public static final String BACKEND_NOT_FOUND = "BackendNotFound";
  public static final String REF_NOT_PERMITTED = "RefNotPermitted";
  public static final String INVALID_KIND = "InvalidKind";
  // Listener and Gateway reasons.
  public static final String UNSUPPORTED_PROTOCOL = "UnsupportedProtocol";
  public static final String INVALID_ROUTE_KINDS = "InvalidRouteKinds";
  public static final String INVALID_CERTIFICATE_REF = "InvalidCertificateRef";
  public static final String PROTOCOL_CONFLICT = "ProtocolConflict";
  public static final String NO_CONFLICTS = "NoConflicts";
  public static final String INVALID = "Invalid";
  public static final String LISTENERS_NOT_VALID = "ListenersNotValid";
  public static final String LISTENERS_NOT_RESOLVED = "ListenersNotResolved";
  public static final String INVALID_CLIENT_CERTIFICATE_REF = "InvalidClientCertificateRef";

  private Conditions() {}

  static Condition of(String type, boolean status, String reason, String message) {
    return Condition.of(type, status ? ConditionStatus.True : ConditionStatus.False, reason, message);
  }
}
