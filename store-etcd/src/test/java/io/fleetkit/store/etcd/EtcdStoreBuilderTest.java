package io.fleetkit.store.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Endpoint forms and the TLS and credential settings, checked before any connection is made. */
final class EtcdStoreBuilderTest {

  @Test
  void endpoint_clearAndTlsForms() {
    assertThat(EtcdStore.endpoint("etcd://10.0.0.1:2379")).isEqualTo(URI.create("http://10.0.0.1:2379"));
    assertThat(EtcdStore.endpoint("http://10.0.0.1:2379/")).isEqualTo(URI.create("http://10.0.0.1:2379"));
    assertThat(EtcdStore.endpoint("etcds://10.0.0.1:2379")).isEqualTo(URI.create("https://10.0.0.1:2379"));
    assertThat(EtcdStore.endpoint("https://etcd.example:2379")).isEqualTo(URI.create("https://etcd.example:2379"));
    assertThatThrownBy(() -> EtcdStore.endpoint("unix:///run/etcd.sock")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("etcd endpoint \"unix:///run/etcd.sock\" must be http://HOST:PORT, etcd://HOST:PORT,"
            + " https://HOST:PORT or etcds://HOST:PORT");
  }

  @Test
  void builder_mixedTransports_refused() {
    assertThatThrownBy(() -> EtcdStore.builder("https://a:2379", "http://b:2379"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mix clear").hasMessageContaining("TLS");
  }

  @Test
  void tlsFiles_withClearEndpoints_refusedAtBuild(@TempDir Path dir) throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.crt"), "x");
    assertThatThrownBy(() -> EtcdStore.builder("http://127.0.0.1:1").trustedCertificates(ca).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("etcd store: trustedCertificates needs TLS endpoints (https:// or etcds://), but the endpoints"
            + " are [http://127.0.0.1:1]");
  }

  @Test
  void missingFile_namedInTheMessage(@TempDir Path dir) {
    Path missing = dir.resolve("nope.crt");
    assertThatThrownBy(() -> EtcdStore.builder("https://127.0.0.1:1").trustedCertificates(missing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("etcd store trustedCertificates: " + missing + " is not a readable file");
  }

  @Test
  void credentials_inClearToAnotherHost_refused_toLoopbackAllowedToTry() {
    assertThatThrownBy(() -> EtcdStore.builder("http://10.0.0.1:2379").credentials("u", "p").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("etcd store: credentials for user u would go in clear to http://10.0.0.1:2379; use https://"
            + " or etcds:// endpoints");
    assertThatThrownBy(() -> EtcdStore.builder("http://127.0.0.1:2379").credentials("u", ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be empty");
  }

  @Test
  void unreadablePem_refusedWithTheFileNamed(@TempDir Path dir) throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.crt"), "not a certificate");
    assertThatThrownBy(() -> EtcdStore.builder("https://127.0.0.1:1").trustedCertificates(ca).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("etcd store: trustedCertificates " + ca + " could not be used");
  }

  @Test
  void eachSetting_once_sharedAndEtcdOwn() {
    assertThatThrownBy(() -> EtcdStore.builder("http://127.0.0.1:1").prefix("/a").prefix("/b"))
        .isInstanceOf(IllegalStateException.class).hasMessage("prefix was already set to /a");
    assertThatThrownBy(() -> EtcdStore.builder("http://127.0.0.1:1").requestTimeout(java.time.Duration.ofSeconds(1))
        .requestTimeout(java.time.Duration.ofSeconds(2)))
        .isInstanceOf(IllegalStateException.class).hasMessage("requestTimeout was already set to PT1S");
    assertThatThrownBy(() -> EtcdStore.builder("http://127.0.0.1:1").credentials("u", "p").credentials("v", "q"))
        .isInstanceOf(IllegalStateException.class).hasMessage("credentials (user) was already set to u");
    assertThatThrownBy(() -> EtcdStore.builder("http://127.0.0.1:1").historyLimit(5).historyLimit(6))
        .isInstanceOf(IllegalStateException.class).hasMessage("historyLimit was already set to 5");
  }
}
