package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fleetkit.adapter.kubernetes.yaml.internal.KindConverter;
import io.fleetkit.api.meta.ApiObject;

/**
 * A kind's identity, given once: apiVersion, kind, scope, the fabric8 type ({@code GenericKubernetesResource} for
 * a kind fabric8 does not model, such as a CRD or one of FleetKit's own kinds) and the core record type.
 * Subclasses implement only the conversion.
 *
 * @param <F> the fabric8 type
 * @param <C> the core-api record
 */
abstract class AbstractKindConverter<F, C extends ApiObject<C>> implements KindConverter<F, C> {
  private final String apiVersion;
  private final String kind;
  private final boolean namespaced;
  private final Class<F> fabric8Type;
  private final Class<C> coreType;

  AbstractKindConverter(String apiVersion, String kind, boolean namespaced, Class<F> fabric8Type,
      Class<C> coreType) {
    this.apiVersion = apiVersion;
    this.kind = kind;
    this.namespaced = namespaced;
    this.fabric8Type = fabric8Type;
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
  public final Class<F> fabric8Type() {
    return fabric8Type;
  }

  @Override
  public final Class<C> coreType() {
    return coreType;
  }
}
