package io.fleetkit.admission;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes' ServiceAccounts controller ({@code pkg/controller/serviceaccount/serviceaccounts_controller.go}),
 * embedded: every Active namespace has the managed service accounts ({@value PodSpec#DEFAULT_SERVICE_ACCOUNT} unless
 * others are named). A namespace added or changed, or an account deleted, makes the controller create the
 * accounts its namespace lacks; a namespace that is gone or Terminating gets none. An account that exists is left as
 * it is, and one created meanwhile by someone else, or refused because the namespace began terminating, is not an
 * error.
 *
 * <p>{@link #sync} is idempotent and may be called from any thread; {@link #start} runs it from store watches (with a
 * store that delivers events directly, a namespace's accounts exist as soon as its create returns).
 */
public final class ServiceAccountsController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceAccountsController.class);

  private final ObjectStore store;
  private final List<String> managed;
  private final List<Watch> watches = new ArrayList<>();

  private ServiceAccountsController(ObjectStore store, List<String> managed) {
    this.store = Objects.requireNonNull(store, "store");
    this.managed = List.copyOf(managed);
  }

  /** The controller of upstream's defaults (the {@value PodSpec#DEFAULT_SERVICE_ACCOUNT} account), not started. */
  public static ServiceAccountsController of(ObjectStore store) {
    return new ServiceAccountsController(store, List.of(PodSpec.DEFAULT_SERVICE_ACCOUNT));
  }

  /** A controller keeping the accounts {@code names} in every Active namespace (upstream's options), not started. */
  public static ServiceAccountsController of(ObjectStore store, List<String> names) {
    return new ServiceAccountsController(store, names);
  }

  /**
   * Watches namespaces (added or changed) and service accounts (deleted), and syncs every namespace
   * that exists now.
   */
  public ServiceAccountsController start() {
    watches.add(store.watch(Namespace.class, "", e -> {
      if (e.type() != WatchEventType.DELETED) {
        sync(e.object().metadata().name());
      }
    }));
    watches.add(store.watch(ServiceAccount.class, "", e -> {
      if (e.type() == WatchEventType.DELETED) { // any account, as upstream's serviceAccountDeleted
        sync(e.object().metadata().namespace());
      }
    }));
    for (Namespace ns : store.list(Namespace.class).items()) {
      sync(ns.metadata().name());
    }
    return this;
  }

  /**
   * Creates the managed accounts {@code namespace} lacks, if it exists and is Active (upstream's
   * {@code syncNamespace}).
   *
   * @return the names of the accounts created, in the order managed
   */
  public List<String> sync(String namespace) {
    Namespace ns = store.get(Namespace.class, "", namespace).orElse(null);
    if (ns == null || ns.status().phase() != NamespacePhase.Active || ns.terminating()) {
      return List.of();
    }
    List<String> created = new ArrayList<>(0);
    for (String name : managed) {
      if (store.get(ServiceAccount.class, namespace, name).isPresent()) {
        continue;
      }
      try {
        store.create(ServiceAccount.of(namespace, name));
        created.add(name);
      } catch (ConflictException e) {
        LOG.debug("service account {}/{} exists already", namespace, name);
      } catch (AdmissionDeniedException e) {
        // the namespace began terminating meanwhile (upstream ignores NamespaceTerminatingCause); anything else a
        // chain refuses is retried at the next event, as upstream requeues
        LOG.debug("service account {}/{} not created: {}", namespace, name, e.getMessage());
      }
    }
    return created;
  }

  /**
   * Creates {@code account} in {@code store}, or replaces the account of its name that exists there (a namespace's
   * {@code default}, which this controller made when the namespace was created), as applying a manifest does.
   *
   * @return the account as stored
   */
  public static ServiceAccount apply(ObjectStore store, ServiceAccount account) {
    ServiceAccount made = store.get(ServiceAccount.class, account.metadata().namespace(), account.metadata().name())
        .orElse(null);
    if (made == null) {
      return store.create(account);
    }
    return store.update(account.withMetadata(account.metadata().toBuilder()
        .resourceVersion(made.metadata().resourceVersion()).build()));
  }

  @Override
  public void close() {
    for (Watch w : watches) {
      w.close();
    }
    watches.clear();
  }
}
