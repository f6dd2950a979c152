package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.admission.AdmissionPlugin;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;

/** A direct-delivery store with an admission chain, for plugin tests. */
final class StoreFixture {
  final ObjectStore store;

  private StoreFixture(AdmissionChain chain) {
    store = ObjectStore.builder().directDelivery().admission(chain).build();
  }

  static StoreFixture withChain(AdmissionPlugin... plugins) {
    return new StoreFixture(AdmissionChain.of(plugins));
  }

  /** Creates namespace {@code config}'s namespace if missing, then {@code config}, then tries {@code object}. */
  <A extends ApiObject<A>, B extends ApiObject<B>> boolean admitsCreateInto(A config, B object) {
    if (store.get(Namespace.class, "", config.metadata().namespace()).isEmpty()) {
      store.create(Namespace.of(config.metadata().namespace()));
    }
    store.create(config);
    try {
      store.create(object);
      return true;
    } catch (AdmissionDeniedException e) {
      return false;
    }
  }
}
