package io.fleetkit.networking.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which Secrets can serve a listener as its certificate, on the OpenSSL-made pairs of {@code tls/}. */
final class TlsKeyPairTest {
  private static Secret tls(Bytes crt, Bytes key) {
    return new Secret(ObjectMeta.of("ns", "cert"), Secret.TYPE_TLS, Map.of("tls.crt", crt, "tls.key", key), false);
  }

  @ParameterizedTest(name = "{0} + {1}")
  @CsvSource({"rsa-cert.pem, rsa-key-pkcs8.pem", "rsa-cert.pem, rsa-key-pkcs1.pem", "ec-cert.pem, ec-key-sec1.pem"})
  void certificateWithItsKey_usable(String crt, String key) {
    assertThat(TlsKeyPair.problem(TestCertificates.tls("ns", "cert", crt, key))).isNull();
  }

  @Test
  void chainWithTwoCertificates_firstOneMustMatchTheKey() {
    Bytes chain = Bytes.ofUtf8(TestCertificates.pem("rsa-cert.pem").utf8() + TestCertificates.pem("ec-cert.pem")
        .utf8());
    assertThat(TlsKeyPair.problem(tls(chain, TestCertificates.pem("rsa-key-pkcs1.pem")))).isNull();
    assertThat(TlsKeyPair.problem(tls(chain, TestCertificates.pem("ec-key-sec1.pem"))))
        .contains("tls.key").contains("not a valid RSA private key");
  }

  @Test
  void keyOfAnotherCertificate_refused() {
    assertThat(TlsKeyPair.problem(TestCertificates.tls("ns", "cert", "rsa-cert.pem", "other-rsa-key-pkcs8.pem")))
        .isEqualTo("tls.key does not belong to the first certificate of tls.crt");
  }

  /** gateway-invalid-tls-configuration.yaml's malformed-certificate: base64 of "Hello world" as both. */
  @Test
  void helloWorld_noCertificate() {
    Bytes hello = Bytes.ofBase64("SGVsbG8gd29ybGQK");
    assertThat(TlsKeyPair.problem(tls(hello, hello))).isEqualTo("tls.crt holds no PEM certificate");
  }

  @Test
  void keyInTheCertificateSlot_noCertificate() {
    Bytes key = TestCertificates.pem("rsa-key-pkcs8.pem");
    assertThat(TlsKeyPair.problem(tls(key, key))).isEqualTo("tls.crt holds no PEM certificate");
  }

  @Test
  void certificateInTheKeySlot_noKey() {
    Bytes crt = TestCertificates.pem("rsa-cert.pem");
    assertThat(TlsKeyPair.problem(tls(crt, crt))).isEqualTo("tls.key holds no PEM private key");
  }

  @Test
  void corruptCertificateBody_notX509_andNoKeyMaterialInTheMessage() {
    String pem = TestCertificates.pem("rsa-cert.pem").utf8();
    int mid = pem.indexOf('\n', pem.length() / 2);
    Bytes corrupt = Bytes.ofUtf8(pem.substring(0, mid + 1) + "AAAA" + pem.substring(mid + 1));
    Bytes key = TestCertificates.pem("rsa-key-pkcs1.pem");
    String problem = TlsKeyPair.problem(tls(corrupt, key));
    assertThat(problem).isEqualTo("tls.crt: certificate 1 is not a valid X.509 certificate");
    String keyBody = key.utf8().split("\n")[1];
    assertThat(problem).doesNotContain(keyBody.substring(0, 16));
  }

  @Test
  void corruptKeyBody_refused() {
    String pem = TestCertificates.pem("rsa-key-pkcs1.pem").utf8();
    String[] lines = pem.split("\n");
    lines[3] = "A".repeat(lines[3].length());
    String problem = TlsKeyPair.problem(tls(TestCertificates.pem("rsa-cert.pem"),
        Bytes.ofUtf8(String.join("\n", lines))));
    // a garbled field makes the DER unreadable or the key another one: either way not this certificate's key
    assertThat(problem).isIn("tls.key: the RSA PRIVATE KEY is not a valid RSA private key",
        "tls.key does not belong to the first certificate of tls.crt");
  }

  @Test
  void opaqueSecret_wrongType() {
    Secret opaque = new Secret(ObjectMeta.of("ns", "cert"), Secret.TYPE_OPAQUE,
        Map.of("tls.crt", TestCertificates.pem("rsa-cert.pem"), "tls.key", TestCertificates.pem("rsa-key-pkcs1.pem")),
        false);
    assertThat(TlsKeyPair.problem(opaque)).isEqualTo("is of type Opaque, not kubernetes.io/tls");
  }
}
