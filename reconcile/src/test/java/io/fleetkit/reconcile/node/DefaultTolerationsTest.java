package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ported from kubernetes plugin/pkg/admission/defaulttolerationseconds/admission_test.go TestForgivenessAdmission. */
final class DefaultTolerationsTest {
  private static final String NR = NodeLifecycleController.TAINT_NOT_READY;
  private static final String UR = NodeLifecycleController.TAINT_UNREACHABLE;

  private static Toleration exists(String key, TaintEffect effect, Long seconds) {
    return new Toleration(key, TolerationOperator.Exists, "", effect, seconds);
  }

  @Test
  void apply_noTolerations_addsBoth() {
    assertThat(DefaultTolerations.apply(List.of()))
        .containsExactly(exists(NR, TaintEffect.NoExecute, 300L), exists(UR, TaintEffect.NoExecute, 300L));
  }

  @Test
  void apply_unrelatedToleration_keepsItAndAddsBoth() {
    Toleration foo = new Toleration("foo", TolerationOperator.Equal, "bar", TaintEffect.NoSchedule, 700L);
    assertThat(DefaultTolerations.apply(List.of(foo)))
        .containsExactly(foo, exists(NR, TaintEffect.NoExecute, 300L), exists(UR, TaintEffect.NoExecute, 300L));
  }

  @Test
  void apply_notReadyTolerated_addsUnreachable() {
    Toleration nr = exists(NR, TaintEffect.NoExecute, 700L);
    assertThat(DefaultTolerations.apply(List.of(nr))).containsExactly(nr, exists(UR, TaintEffect.NoExecute, 300L));
  }

  @Test
  void apply_unreachableTolerated_addsNotReady() {
    Toleration ur = exists(UR, TaintEffect.NoExecute, 700L);
    assertThat(DefaultTolerations.apply(List.of(ur))).containsExactly(ur, exists(NR, TaintEffect.NoExecute, 300L));
  }

  @Test
  void apply_bothTolerated_unchanged() {
    List<Toleration> both = List.of(exists(NR, TaintEffect.NoExecute, 700L), exists(UR, TaintEffect.NoExecute, 700L));
    assertThat(DefaultTolerations.apply(both)).isSameAs(both);
  }

  @Test
  void apply_unreachableWithoutEffect_addsNotReady() {
    Toleration ur = exists(UR, null, 700L);
    assertThat(DefaultTolerations.apply(List.of(ur))).containsExactly(ur, exists(NR, TaintEffect.NoExecute, 300L));
  }

  @Test
  void apply_wildcard_unchanged() {
    List<Toleration> all = List.of(exists("", null, 700L));
    assertThat(DefaultTolerations.apply(all)).isSameAs(all);
  }
}
