package io.fleetkit.store.etcd;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An {@link io.fleetkit.api.store.ObjectStore} kept in etcd v3: {@code EtcdStore.builder("http://127.0.0.1:2379")
 * .build()}. It keeps the whole store contract (linearizable writes, optimistic concurrency, finalizers, exact
 * watches, admission) and adds what one process cannot give: several processes on several machines see one state,
 * which survives their restarts.
 *
 * <h2>How the contract maps onto etcd</h2>
 * <ul>
 *   <li>Each object is one key, {@code <prefix>/objects/<kind class>/<namespace>/<name>}, holding the object as
 *       JSON. A store's prefix (default {@value EtcdStoreBuilder#DEFAULT_PREFIX}) is its own: stores with different
 *       prefixes share an etcd cluster without seeing each other's objects.</li>
 *   <li>resourceVersions are etcd revisions, counted from the prefix's creation: version = revision &minus; the
 *       revision before the prefix was first used (kept in etcd under {@code <prefix>/genesis}, so every process
 *       agrees). A new store is at {@code "1"}, as the in-memory store. With the etcd cluster to itself a store's
 *       versions are consecutive; writes of other prefixes to the same cluster also advance them.</li>
 *   <li>Every write is one etcd transaction conditioned on the key's {@code mod_revision} (or its absence for a
 *       create): a write based on a stale read fails and, if the caller gave no resourceVersion, is retried on a
 *       fresh read; with one it is a {@link io.fleetkit.api.ConflictException}, as from the API server.</li>
 *   <li>A list is one range read, so it holds exactly the writes up to its revision; a watch is an etcd watch from
 *       the revision after its start version, so list-then-watch loses and repeats nothing. When etcd has compacted
 *       that revision the watch throws {@link io.fleetkit.api.ExpiredException} ("too old resource version"), and
 *       a watch that is running when its next revision is compacted away (after a long disconnection) ends through
 *       {@link io.fleetkit.api.store.WatchListener#onExpired}; informers relist.</li>
 *   <li>When etcd cannot be reached, calls fail after the request timeout with
 *       {@link io.fleetkit.api.StoreUnavailableException} naming the endpoints and the operation; a running watch
 *       reconnects by itself and resumes exactly after the last event it delivered.</li>
 *   <li>A write that fails with {@link io.fleetkit.api.StoreUnavailableException} has an unknown outcome: its
 *       transaction may have committed with only the answer lost (a member died, a connection broke). Neither the
 *       store nor jetcd resends a transaction, so it was applied at most once; read the object again before
 *       retrying, or retry at the resourceVersion read before (a {@link io.fleetkit.api.ConflictException} if the
 *       first attempt landed; a create retried is "already exists"). A failed compare is always a conflict, even if
 *       the key now holds the very bytes this write would have put: another writer made the same change.</li>
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class EtcdStore {
  private EtcdStore() {}

  /**
   * A builder for a store on the etcd cluster at {@code endpoints}: {@code http://host:port} (or
   * {@code etcd://host:port}, the same) in clear, {@code https://host:port} (or {@code etcds://host:port}) over TLS.
   * All endpoints use the same transport.
   *
   * @throws IllegalArgumentException if there is no endpoint, one is not of these forms, or clear and TLS endpoints
   *     are mixed
   */
  public static EtcdStoreBuilder builder(String... endpoints) {
    Objects.requireNonNull(endpoints, "endpoints");
    if (endpoints.length == 0) {
      throw new IllegalArgumentException("etcd store: at least one endpoint is required (http://host:port)");
    }
    List<URI> uris = new ArrayList<>();
    for (String e : endpoints) {
      URI u = endpoint(e);
      if (!uris.isEmpty() && !uris.get(0).getScheme().equals(u.getScheme())) {
        throw new IllegalArgumentException("etcd endpoints " + List.of(endpoints)
            + " mix clear (http://, etcd://) and TLS (https://, etcds://) endpoints; use one transport");
      }
      uris.add(u);
    }
    return new EtcdStoreBuilder(uris);
  }

  /**
   * The etcd client URL {@code spec} names: {@code etcd://host:port} or {@code http://host:port} (a trailing
   * {@code /} is allowed) as {@code http://host:port}; {@code etcds://host:port} or {@code https://host:port} as
   * {@code https://host:port}.
   *
   * @throws IllegalArgumentException naming the value and the expected form
   */
  public static URI endpoint(String spec) {
    Objects.requireNonNull(spec, "endpoint");
    String expected = "etcd endpoint \"" + spec + "\" must be http://HOST:PORT, etcd://HOST:PORT, https://HOST:PORT"
        + " or etcds://HOST:PORT";
    URI u;
    try {
      u = new URI(spec.trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(expected + ": " + e.getMessage(), e);
    }
    String scheme = u.getScheme();
    if (scheme == null || !List.of("http", "etcd", "https", "etcds").contains(scheme)) {
      throw new IllegalArgumentException(expected);
    }
    boolean tls = scheme.equals("https") || scheme.equals("etcds");
    if (u.getHost() == null || u.getPort() < 1 || u.getPort() > 65535) {
      throw new IllegalArgumentException(expected + " (host and port are required)");
    }
    String path = u.getRawPath();
    if (u.getRawQuery() != null || u.getRawFragment() != null || u.getRawUserInfo() != null
        || (path != null && !path.isEmpty() && !path.equals("/"))) {
      throw new IllegalArgumentException(expected + " (nothing after the port)");
    }
    return URI.create((tls ? "https://" : "http://") + (u.getHost().contains(":") && !u.getHost().startsWith("[")
        ? "[" + u.getHost() + "]" : u.getHost()) + ":" + u.getPort());
  }
}
