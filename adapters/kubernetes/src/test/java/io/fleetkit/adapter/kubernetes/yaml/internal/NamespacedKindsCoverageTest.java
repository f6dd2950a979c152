package io.fleetkit.adapter.kubernetes.yaml.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.admission.NamespacedKinds;
import io.fleetkit.queueing.manifest.KueueObject;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Admission's {@link NamespacedKinds#all()} (what a namespace's deletion removes and a quota recount lists) names every
 * namespaced kind the loader knows, so that a kind added to core-api and the loader is not left behind when its
 * namespace goes. Kueue's kinds are left out: they configure a simulation's queue engine and are not stored.
 */
final class NamespacedKindsCoverageTest {

  @Test
  void namespacedKinds_coverEveryNamespacedKindOfTheLoader() {
    Set<String> loaded = new TreeSet<>();
    for (String kind : KindRegistry.standard().kinds()) {
      KindConverter<?, ?> c = KindRegistry.standard().forKind(kind);
      if (c != null && c.namespaced() && !(KueueObject.class.isAssignableFrom(c.coreType()))) {
        loaded.add(c.coreType().getName());
      }
    }
    Set<String> listed = new TreeSet<>();
    NamespacedKinds.all().forEach(k -> listed.add(k.getName()));

    assertThat(listed).containsAll(loaded);
  }
}
