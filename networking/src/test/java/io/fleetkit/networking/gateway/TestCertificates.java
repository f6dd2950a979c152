package io.fleetkit.networking.gateway;

import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.meta.ObjectMeta;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The self-signed certificates and keys of {@code src/test/resources/tls} (made with OpenSSL, see the README there),
 * as the Secrets listeners refer to.
 */
public final class TestCertificates {
  private TestCertificates() {}

  /** The bytes of {@code tls/<file>}. */
  public static Bytes pem(String file) {
    try (InputStream in = TestCertificates.class.getResourceAsStream("/tls/" + file)) {
      if (in == null) {
        throw new IllegalStateException("test resource tls/" + file + " not found");
      }
      return Bytes.of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A {@code kubernetes.io/tls} Secret holding {@code crtFile} and {@code keyFile}. */
  public static Secret tls(String namespace, String name, String crtFile, String keyFile) {
    return new Secret(ObjectMeta.of(namespace, name), Secret.TYPE_TLS,
        Map.of("tls.crt", pem(crtFile), "tls.key", pem(keyFile)), false);
  }

  /**
   * A valid {@code kubernetes.io/tls} Secret: the RSA certificate with its PKCS#1 key, the form upstream's suite
   * writes ({@code conformance/utils/kubernetes/certificate.go}).
   */
  public static Secret tls(String namespace, String name) {
    return tls(namespace, name, "rsa-cert.pem", "rsa-key-pkcs1.pem");
  }
}
