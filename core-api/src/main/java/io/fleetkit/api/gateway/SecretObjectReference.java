package io.fleetkit.api.gateway;

import java.util.Objects;

/**
 * A listener's reference to its certificate ({@code tls.certificateRefs[]}): by default a core Secret in the
 * Gateway's namespace. Another namespace needs a {@link ReferenceGrant} there from the Gateway's namespace (else the
 * listener's {@code ResolvedRefs} is False with {@code RefNotPermitted}); another group or kind is not resolvable
 * ({@code InvalidCertificateRef}).
 *
 * @param group empty for the core group, where Secrets are
 * @param kind the referent's kind; {@value #SECRET} by default
 * @param namespace empty for the Gateway's own
 */
public record SecretObjectReference(String group, String kind, String name, String namespace) {
  public static final String SECRET = "Secret";

  public SecretObjectReference {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
  }

  /** The Secret {@code name} in the Gateway's namespace. */
  public static SecretObjectReference secret(String name) {
    return new SecretObjectReference("", SECRET, name, "");
  }

  /** The Secret {@code name} in {@code namespace} ({@code ""}: the Gateway's). */
  public static SecretObjectReference secret(String namespace, String name) {
    return new SecretObjectReference("", SECRET, name, namespace);
  }

  /** Whether this names a core Secret (the only certificate kind supported). */
  public boolean isSecret() {
    return group.isEmpty() && kind.equals(SECRET);
  }

  /** The referent's namespace: {@link #namespace()}, or {@code gatewayNamespace} when that is empty. */
  public String namespaceOr(String gatewayNamespace) {
    return namespace.isEmpty() ? gatewayNamespace : namespace;
  }
}
