package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fleetkit.api.meta.ApiObject;
import org.jspecify.annotations.Nullable;

/**
 * Converts one kind between its fabric8 model class and its core-api record. Implementations are stateless and
 * thread-safe.
 *
 * @param <F> the fabric8 type ({@code GenericKubernetesResource} for kinds fabric8 does not model)
 * @param <C> the core-api record
 */
public interface KindConverter<F, C extends ApiObject<C>> {

  /** {@code apiVersion} as written in manifests, e.g. {@code apps/v1}. */
  String apiVersion();

  String kind();

  /**
   * Every {@code apiVersion} the kind is read in ({@link #apiVersion()} alone unless the kind is served in several,
   * as Kueue's v1beta1 and v1beta2); {@link #toCore} reads the version from the object.
   */
  default java.util.Set<String> apiVersions() {
    return java.util.Set.of(apiVersion());
  }

  boolean namespaced();

  Class<F> fabric8Type();

  Class<C> coreType();

  /**
   * The core object, or {@code null} when a problem was reported to {@code ctx}. The metadata is already
   * checked and defaulted (name present, namespace set for namespaced kinds); converters read it from
   * {@link Fabric8Meta#toCore}.
   */
  @Nullable C toCore(F in, DocumentContext ctx);

  F toFabric8(C in);

  /**
   * Paths of fields outside the Kubernetes schema that this converter reads from fabric8's additionalProperties
   * ({@code status.gpus}); strict field validation accepts them. Kinds read as {@code GenericKubernetesResource}
   * have their {@code spec} and {@code status} accepted without listing them.
   */
  default java.util.Set<String> extensionFields() {
    return java.util.Set.of();
  }
}
