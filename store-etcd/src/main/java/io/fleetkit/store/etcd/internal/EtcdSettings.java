package io.fleetkit.store.etcd.internal;

import io.fleetkit.api.admission.AdmissionChain;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The settings of one etcd store, checked by the builder.
 *
 * @param deliveryExecutor {@code null} for a store-owned pool
 * @param historyLimit revisions kept when the store compacts after its writes; -1 when it never compacts
 */
public record EtcdSettings(List<URI> endpoints, String prefix, Clock clock, Supplier<String> uids,
    @Nullable Executor deliveryExecutor, boolean directDelivery, int watchQueueLimit, int historyLimit,
    AdmissionChain admission, Duration requestTimeout, Security security) {
  public EtcdSettings {
    endpoints = List.copyOf(endpoints);
  }

  /**
   * How the client proves itself and checks etcd.
   *
   * @param tls whether the endpoints are {@code https://}
   * @param trustedCertificates PEM certificate authorities; {@code null} for the JDK's
   * @param clientCertificate PEM certificate chain for TLS client authentication, with {@code clientKey}
   * @param user etcd user, with {@code password}; {@code null} for none
   */
  public record Security(boolean tls, @Nullable Path trustedCertificates, @Nullable Path clientCertificate,
      @Nullable Path clientKey, @Nullable String user, @Nullable String password) {
    @Override
    public String toString() {
      return "Security{tls=" + tls + ", ca=" + trustedCertificates + ", cert=" + clientCertificate + ", user=" + user
          + (password != null ? ", password=(hidden)" : "") + "}";
    }
  }

  /** The endpoints as a user wrote them, for messages. */
  String where() {
    return endpoints.size() == 1 ? endpoints.get(0).toString() : endpoints.toString();
  }
}
