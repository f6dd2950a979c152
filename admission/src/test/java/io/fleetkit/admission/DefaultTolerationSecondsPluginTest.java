package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes plugin/pkg/admission/defaulttolerationseconds/admission_test.go TestForgivenessAdmission (the
 * rule on a pod's tolerations; one case through a store's chain below).
 */
final class DefaultTolerationSecondsPluginTest {
  private static final String NR = DefaultTolerationSecondsPlugin.NOT_READY;
  private static final String UR = DefaultTolerationSecondsPlugin.UNREACHABLE;

  private static List<Toleration> apply(List<Toleration> tolerations) {
    return DefaultTolerationSecondsPlugin.withDefaults(tolerations, DefaultTolerationSecondsPlugin.DEFAULT_SECONDS,
        DefaultTolerationSecondsPlugin.DEFAULT_SECONDS);
  }

  private static Toleration exists(String key, TaintEffect effect, Long seconds) {
    return new Toleration(key, TolerationOperator.Exists, "", effect, seconds);
  }

  @Test
  void apply_noTolerations_addsBoth() {
    assertThat(apply(List.of()))
        .containsExactly(exists(NR, TaintEffect.NoExecute, 300L), exists(UR, TaintEffect.NoExecute, 300L));
  }

  @Test
  void apply_unrelatedToleration_keepsItAndAddsBoth() {
    Toleration foo = new Toleration("foo", TolerationOperator.Equal, "bar", TaintEffect.NoSchedule, 700L);
    assertThat(apply(List.of(foo)))
        .containsExactly(foo, exists(NR, TaintEffect.NoExecute, 300L), exists(UR, TaintEffect.NoExecute, 300L));
  }

  @Test
  void apply_notReadyTolerated_addsUnreachable() {
    Toleration nr = exists(NR, TaintEffect.NoExecute, 700L);
    assertThat(apply(List.of(nr))).containsExactly(nr, exists(UR, TaintEffect.NoExecute, 300L));
  }

  @Test
  void apply_unreachableTolerated_addsNotReady() {
    Toleration ur = exists(UR, TaintEffect.NoExecute, 700L);
    assertThat(apply(List.of(ur))).containsExactly(ur, exists(NR, TaintEffect.NoExecute, 300L));
  }

  @Test
  void apply_bothTolerated_unchanged() {
    List<Toleration> both = List.of(exists(NR, TaintEffect.NoExecute, 700L), exists(UR, TaintEffect.NoExecute, 700L));
    assertThat(apply(both)).isSameAs(both);
  }

  @Test
  void apply_unreachableWithoutEffect_addsNotReady() {
    Toleration ur = exists(UR, null, 700L);
    assertThat(apply(List.of(ur))).containsExactly(ur, exists(NR, TaintEffect.NoExecute, 300L));
  }

  @Test
  void apply_wildcard_unchanged() {
    List<Toleration> all = List.of(exists("", null, 700L));
    assertThat(apply(all)).isSameAs(all);
  }

  @Test
  void aPodCreatedThroughTheChain_isStoredWithTheDefaults_andAnUpdateKeepsThem() {
    try (ObjectStore store = ObjectStore.builder().directDelivery()
        .admission(AdmissionChain.of(new DefaultTolerationSecondsPlugin())).build()) {
      Pod pod = store.create(Pod.of(ObjectMeta.of("ns", "p"), PodSpec.builder().container("c", "img",
          ResourceList.EMPTY).build()));
      assertThat(pod.spec().tolerations())
          .containsExactly(exists(NR, TaintEffect.NoExecute, 300L), exists(UR, TaintEffect.NoExecute, 300L));
      Pod updated = store.update(pod.withMetadata(pod.metadata().toBuilder().labels(java.util.Map.of("a", "b"))
          .build()));
      assertThat(updated.spec().tolerations()).isEqualTo(pod.spec().tolerations());
    }
  }
}
