package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.internal.RootCACertReconciler;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;

/**
 * Keeps a ConfigMap {@value #CONFIG_MAP_NAME} in every namespace with the cluster's CA bundle under
 * {@value #CA_KEY}, as kube-controller-manager's root CA certificate publisher (kubernetes
 * {@code pkg/controller/certificates/rootcacertpublisher}); pods read it through the projected
 * {@code kube-api-access-*} volume the ServiceAccount admission gives them. A namespace is synced when it is added,
 * when it is updated while Active, and when its {@value #CONFIG_MAP_NAME} ConfigMap is updated or deleted (other
 * ConfigMaps are ignored): a missing ConfigMap is created with the {@value #DESCRIPTION_ANNOTATION} annotation; one
 * whose {@code data} is not exactly the bundle, or that has no description, gets the bundle back and the annotation
 * (a description of other text is kept). Namespaces that are gone or terminating are left alone; a create refused
 * because the namespace went meanwhile is not retried, other failures are retried with the queue's backoff. The sync
 * itself is {@link RootCACertReconciler}'s.
 *
 * <pre>{@code
 * RootCACertPublisher p = RootCACertPublisher.builder(store, caBundlePem).clock(clock).stepping().build();
 * }</pre>
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class RootCACertPublisher extends ControllerHandle<Namespace> {
  /** The ConfigMap's name in every namespace (upstream {@code RootCACertConfigMapName}). */
  public static final String CONFIG_MAP_NAME = ConfigMap.ROOT_CA_NAME;
  /** The key of the CA bundle in the ConfigMap's data. */
  public static final String CA_KEY = ConfigMap.ROOT_CA_KEY;
  /** The annotation that says what the ConfigMap is for (upstream {@code DescriptionAnnotation}). */
  public static final String DESCRIPTION_ANNOTATION = "kubernetes.io/description";
  /** The annotation's text (upstream {@code Description}). */
  public static final String DESCRIPTION = "Contains a CA bundle that can be used to verify the kube-apiserver when "
      + "using internal endpoints such as the internal service IP or kubernetes.default.svc. "
      + "No other usage is guaranteed across distributions of Kubernetes clusters.";

  private RootCACertPublisher(Builder b) {
    super(b.buildController(Namespace.class, cb -> cb.reconciler(new RootCACertReconciler(b.rootCA))
        // upstream's namespaceUpdated: only an Active namespace is queued by its update
        .eventFilter(ns -> !ns.terminating())
        .watches(ConfigMap.class, EnumSet.of(WatchEventType.MODIFIED, WatchEventType.DELETED),
            (cm, cache) -> cm.metadata().name().equals(CONFIG_MAP_NAME)
                ? List.of(ObjectKey.of(cm.metadata().namespace())) : List.of())));
  }

  /**
   * A builder for a publisher over {@code store} that publishes {@code rootCA}, the cluster's CA bundle as PEM text
   * (kube-controller-manager's {@code --root-ca-file}, else the service account CA).
   *
   * @throws IllegalArgumentException if {@code rootCA} is blank
   */
  public static Builder builder(ObjectStore store, String rootCA) {
    return new Builder(store, rootCA);
  }

  /** Configures a {@link RootCACertPublisher}: default name {@code root-ca-cert-publisher}. Not thread-safe. */
  public static final class Builder extends WorkloadControllerBuilder<Builder, RootCACertPublisher> {
    private final String rootCA;

    private Builder(ObjectStore store, String rootCA) {
      super(store, "RootCACertPublisher", "root-ca-cert-publisher");
      Objects.requireNonNull(rootCA, "rootCA");
      if (rootCA.isBlank()) {
        throw new IllegalArgumentException("root CA cert publisher: rootCA \"" + rootCA
            + "\" must be a CA bundle (PEM text), not blank");
      }
      this.rootCA = rootCA;
    }

    @Override
    public RootCACertPublisher build() {
      return new RootCACertPublisher(this);
    }
  }
}
