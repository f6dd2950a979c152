package io.fleetkit.store.etcd;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.StoreBuilder;
import io.fleetkit.store.etcd.internal.EtcdObjectStore;
import io.fleetkit.store.etcd.internal.EtcdSettings;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Configures an etcd-backed {@link ObjectStore} (see {@link EtcdStore}): the settings every store takes
 * ({@link StoreBuilder}) and etcd's own (endpoints, prefix, timeout, TLS, credentials). Each setting may be made
 * once; a second call, or choosing both a delivery executor and direct delivery, fails with
 * {@link IllegalStateException}. Not thread-safe.
 */
public final class EtcdStoreBuilder extends StoreBuilder<EtcdStoreBuilder> {
  /** The key prefix of a store unless told otherwise. */
  public static final String DEFAULT_PREFIX = "/fleetkit";

  /** How long one call may wait for etcd unless told otherwise. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

  private final List<URI> endpoints;
  private @Nullable String prefix;
  private @Nullable Duration requestTimeout;
  private @Nullable Path trustedCertificates;
  private @Nullable Path clientCertificate;
  private @Nullable Path clientKey;
  private @Nullable String user;
  private @Nullable String password;

  EtcdStoreBuilder(List<URI> endpoints) {
    this.endpoints = List.copyOf(endpoints);
  }

  /**
   * The key prefix under which this store keeps everything; default {@value #DEFAULT_PREFIX}. Processes that are to
   * share a state use the same prefix.
   *
   * @throws IllegalArgumentException unless it starts with {@code /}, does not end with {@code /} and has no
   *     whitespace
   */
  public EtcdStoreBuilder prefix(String prefix) {
    Objects.requireNonNull(prefix, "prefix");
    if (!prefix.startsWith("/") || prefix.endsWith("/") || prefix.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("etcd store prefix \"" + prefix
          + "\" must start with '/', must not end with '/' and must not contain whitespace");
    }
    requireUnset("prefix", this.prefix);
    this.prefix = prefix;
    return this;
  }

  /**
   * Writes wait for this store's own watches: a write returns only after every watch opened on this store has
   * delivered every event of this store's writes so far (those of other processes are not awaited). Listeners run
   * on store delivery threads; a write made by a listener does not wait (it could wait for itself), so, as with the
   * in-memory store's direct mode, its event reaches the listener after the current call. Deterministic enough for
   * tests and single-threaded simulations; costs a round trip per write and watch.
   */
  @Override
  public EtcdStoreBuilder directDelivery() {
    return super.directDelivery();
  }

  /**
   * Watches may start at any of the last {@code limit} revisions and no earlier, as with
   * {@link StoreBuilder#historyLimit}: an older start is "too old". The store compacts etcd's history itself,
   * once every {@code limit} of its writes, so etcd keeps between {@code limit} and {@code 2 * limit}. Compaction
   * applies to the whole etcd cluster, other prefixes included. Default: the store never compacts and leaves it to
   * etcd's own {@code --auto-compaction-retention}, as the Kubernetes API server leaves it to its compactor.
   *
   * @throws IllegalArgumentException if {@code limit < 1}
   */
  @Override
  public EtcdStoreBuilder historyLimit(int limit) {
    return super.historyLimit(limit);
  }

  /**
   * How long one call waits for etcd before it fails with {@link io.fleetkit.api.StoreUnavailableException};
   * default 10 s.
   *
   * @throws IllegalArgumentException unless positive
   */
  public EtcdStoreBuilder requestTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("requestTimeout must be positive but was " + timeout);
    }
    requireUnset("requestTimeout", requestTimeout);
    requestTimeout = timeout;
    return this;
  }

  /**
   * TLS: the PEM file of the certificate authorities that sign etcd's server certificates (etcd's
   * {@code --trusted-ca-file} on the client side); default the JDK's trusted authorities. Needs {@code https://} or
   * {@code etcds://} endpoints.
   *
   * @throws IllegalArgumentException if the file is not readable
   */
  public EtcdStoreBuilder trustedCertificates(Path caPem) {
    Objects.requireNonNull(caPem, "caPem");
    requireUnset("trustedCertificates", trustedCertificates);
    trustedCertificates = readable("trustedCertificates", caPem);
    return this;
  }

  /**
   * TLS client authentication (etcd's {@code --client-cert-auth}): this client's certificate chain and its
   * unencrypted PKCS#8 private key, both PEM. Needs {@code https://} or {@code etcds://} endpoints.
   *
   * @throws IllegalArgumentException if a file is not readable
   */
  public EtcdStoreBuilder clientCertificate(Path certificatePem, Path privateKeyPem) {
    Objects.requireNonNull(certificatePem, "certificatePem");
    Objects.requireNonNull(privateKeyPem, "privateKeyPem");
    requireUnset("clientCertificate", clientCertificate);
    clientCertificate = readable("clientCertificate", certificatePem);
    clientKey = readable("clientCertificate private key", privateKeyPem);
    return this;
  }

  /**
   * etcd user authentication ({@code etcdctl auth enable}): the store logs in as {@code user} and sends etcd's
   * token with every request. Over clear endpoints ({@code http://}) only to loopback hosts, since the password
   * would cross the network in clear.
   *
   * @throws IllegalArgumentException if the user or password is empty
   */
  public EtcdStoreBuilder credentials(String user, String password) {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    if (user.isEmpty() || password.isEmpty()) {
      throw new IllegalArgumentException("etcd credentials: user and password must not be empty (user \"" + user
          + "\")");
    }
    requireUnset("credentials (user)", this.user);
    this.user = user;
    this.password = password;
    return this;
  }

  private static Path readable(String setting, Path file) {
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new IllegalArgumentException("etcd store " + setting + ": " + file + " is not a readable file");
    }
    return file;
  }

  private boolean tls() {
    return endpoints.get(0).getScheme().equals("https");
  }

  private void checkTransport() {
    if (!tls() && (trustedCertificates != null || clientCertificate != null)) {
      throw new IllegalStateException("etcd store: " + (trustedCertificates != null ? "trustedCertificates"
          : "clientCertificate") + " needs TLS endpoints (https:// or etcds://), but the endpoints are " + endpoints);
    }
    if (!tls() && user != null) {
      for (URI e : endpoints) {
        String host = e.getHost();
        if (!(host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]") || host.equals("::1"))) {
          throw new IllegalStateException("etcd store: credentials for user " + user + " would go in clear to " + e
              + "; use https:// or etcds:// endpoints");
        }
      }
    }
  }

  /**
   * Connects and returns the store (through {@link #build()}).
   *
   * @throws IllegalStateException if TLS files or credentials do not suit the endpoints (see each setting)
   * @throws IllegalArgumentException if a TLS file cannot be read as PEM
   * @throws io.fleetkit.api.StoreUnavailableException if etcd does not answer within the request timeout
   * @throws io.fleetkit.api.FleetKitException if etcd refuses the credentials
   */
  @Override
  protected ObjectStore open() {
    checkTransport();
    return EtcdObjectStore.open(new EtcdSettings(endpoints, prefix != null ? prefix : DEFAULT_PREFIX,
        clockSetting(), uidGeneratorSetting(), deliveryExecutorSetting(), directDeliverySetting(),
        watchQueueLimitSetting(), historyLimitSetting(), admissionSetting(),
        requestTimeout != null ? requestTimeout : DEFAULT_REQUEST_TIMEOUT,
        new EtcdSettings.Security(tls(), trustedCertificates, clientCertificate, clientKey, user, password)));
  }
}
