package io.fleetkit.store.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.StoreUnavailableException;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.LeaderCallbacks;
import io.fleetkit.reconcile.LeaderElectionConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The store over TLS with client certificates and etcd user authentication, against the secured member of
 * {@code scripts/etcd-local.sh} (system properties {@code fleetkit.etcd.tls}, its endpoint, and
 * {@code fleetkit.etcd.tls.dir}, the directory with {@code ca.crt}, {@code client.crt}, {@code client.key},
 * {@code user} and {@code password}). Skipped when they are unset; when set, an unreachable etcd fails the tests.
 */
@ExtendWith(EtcdTlsTest.Secured.class)
final class EtcdTlsTest {
  static final String PROPERTY = "fleetkit.etcd.tls";

  static final class Secured implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      String v = System.getProperty(PROPERTY, "");
      return v.isBlank()
          ? ConditionEvaluationResult.disabled("etcd TLS tests skipped: " + PROPERTY + " is not set (pass the"
              + " FLEETKIT_ETCD_TLS_* values of scripts/etcd-local.sh env as -D" + PROPERTY + " and -D" + PROPERTY
              + ".dir)")
          : ConditionEvaluationResult.enabled(PROPERTY + "=" + v);
    }
  }

  private static final String ENDPOINT = System.getProperty(PROPERTY, "").trim();
  private static final Path DIR = Path.of(System.getProperty(PROPERTY + ".dir", "").trim());
  private final String prefix = "/fleetkit-tls-test/" + UUID.randomUUID();

  private static String read(String file) throws IOException {
    return Files.readString(DIR.resolve(file)).trim();
  }

  private EtcdStoreBuilder secured(String endpoint) {
    return EtcdStore.builder(endpoint).prefix(prefix).trustedCertificates(DIR.resolve("ca.crt"))
        .clientCertificate(DIR.resolve("client.crt"), DIR.resolve("client.key"));
  }

  @Test
  void tlsClientCertificateAndPassword_theStoreWorks_andElectsALeader() throws Exception {
    try (ObjectStore store = secured(ENDPOINT).credentials(read("user"), read("password")).build()) {
      LinkedBlockingQueue<WatchEvent<Namespace>> events = new LinkedBlockingQueue<>();
      try (Watch w = store.watch(Namespace.class, store.resourceVersion(), events::add)) {
        Namespace created = store.create(Namespace.of("team-a"));
        assertThat(store.require(Namespace.class, "", "team-a").metadata().uid()).isEqualTo(created.metadata().uid());
        store.update(created.withMetadata(created.metadata().withLabels(Map.of("tier", "gold"))));
        assertThatThrownBy(() -> store.update(created)).isInstanceOf(ConflictException.class);
        WatchEvent<Namespace> first = events.poll(10, TimeUnit.SECONDS);
        WatchEvent<Namespace> second = events.poll(10, TimeUnit.SECONDS);
        assertThat(first).isNotNull();
        assertThat(second).isNotNull();
        assertThat(second.object().metadata().labels()).containsEntry("tier", "gold");
      }
      EtcdLeaderElector elector = EtcdLeaderElector.onLease(store, LeaderElectionConfig.of("ns", "lock", "a"),
          new LeaderCallbacks() {}, TimerClock.system());
      assertThat(elector.tryAcquireOrRenew()).isTrue();
      elector.fencedStore().create(Namespace.of("by-the-leader"));
      elector.close();
    }
  }

  @Test
  void etcdsScheme_meansTls() throws Exception {
    String etcds = ENDPOINT.replaceFirst("^https://", "etcds://");
    try (ObjectStore store = secured(etcds).credentials(read("user"), read("password")).build()) {
      assertThat(store.list(Namespace.class).items()).isEmpty();
    }
  }

  @Test
  void wrongPassword_isRefusedByEtcd_withItsReason() throws Exception {
    assertThatThrownBy(() -> secured(ENDPOINT).credentials(read("user"), "not-the-password").build())
        .isInstanceOf(FleetKitException.class).isNotInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("etcd at " + ENDPOINT).hasMessageContaining("the credentials were not accepted");
  }

  @Test
  void certificateWithoutCredentials_grantsNothing() {
    // The client certificate's CN names no etcd user: with auth enabled, a request without a password is refused.
    assertThatThrownBy(() -> secured(ENDPOINT).build())
        .isInstanceOf(FleetKitException.class).isNotInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("etcd at " + ENDPOINT);
  }

  @Test
  void noClientCertificate_orUntrustedServer_failsToConnect_namingTheEndpoint() throws Exception {
    String user = read("user");
    String password = read("password");
    assertThatThrownBy(() -> EtcdStore.builder(ENDPOINT).prefix(prefix).trustedCertificates(DIR.resolve("ca.crt"))
        .credentials(user, password).requestTimeout(Duration.ofSeconds(1)).build())
        .as("etcd requires a client certificate").isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("etcd at " + ENDPOINT);
    assertThatThrownBy(() -> EtcdStore.builder(ENDPOINT).prefix(prefix)
        .clientCertificate(DIR.resolve("client.crt"), DIR.resolve("client.key"))
        .credentials(user, password).requestTimeout(Duration.ofSeconds(1)).build())
        .as("the JDK does not trust the test CA").isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("etcd at " + ENDPOINT);
  }
}
