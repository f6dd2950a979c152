package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.KindConverter;
import io.fleetkit.api.meta.ApiObject;

/**
 * The identity of a kind fabric8 does not model (a CRD such as Rollout or PodGroup, or one of FleetKit's own
 * kinds), read from and written to {@code GenericKubernetesResource}: subclasses give the apiVersion, kind, scope
 * and record type once and implement only the conversion.
 *
 * @param <C> the core-api record
 */
abstract class CustomKindConverter<C extends ApiObject<C>> implements KindConverter<GenericKubernetesResource, C> {
  private final String apiVersion;
  private final String kind;
  private final boolean namespaced;
  private final Class<C> coreType;

  CustomKindConverter(String apiVersion, String kind, boolean namespaced, Class<C> coreType) {
    this.apiVersion = apiVersion;
    this.kind = kind;
    this.namespaced = namespaced;
    this.coreType = coreType;
  }

  @Override
  public final String apiVersion() {
    return apiVersion;
  }

  @Override
  public final String kind() {
    return kind;
  }

  @Override
  public final boolean namespaced() {
    return namespaced;
  }

  @Override
  public final Class<GenericKubernetesResource> fabric8Type() {
    return GenericKubernetesResource.class;
  }

  @Override
  public final Class<C> coreType() {
    return coreType;
  }
}
