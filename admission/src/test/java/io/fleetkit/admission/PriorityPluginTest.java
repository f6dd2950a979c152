package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Priority and DefaultTolerationSeconds in the chain, with the behaviour of upstream's
 * {@code plugin/pkg/admission/priority/admission.go} (cases after its TestPodAdmission and
 * TestPriorityClassAdmission: default class, lowest of several defaults, missing class, integer priority in the
 * spec, one default only) and {@code defaulttolerationseconds/admission.go} (whose table is ported in
 * DefaultTolerationSecondsPluginTest).
 */
final class PriorityPluginTest {
  final ObjectStore store = ObjectStore.builder().directDelivery()
      .admission(AdmissionChain.of(new PriorityPlugin(), new DefaultTolerationSecondsPlugin())).build();

  @AfterEach
  void close() {
    store.close();
  }

  static Pod pod(String name, UnaryOperator<PodSpec.Builder> f) {
    return Pod.of(ObjectMeta.of("ns", name), f.apply(PodSpec.builder().container("c", "img", ResourceList.EMPTY))
        .build());
  }

  static PriorityClass cls(String name, int value, boolean dflt) {
    return PriorityClass.builder().name(name).value(value).globalDefault(dflt).build();
  }

  String denial(Runnable r) {
    String[] out = new String[1];
    assertThatThrownBy(r::run).isInstanceOfSatisfying(AdmissionDeniedException.class, e -> out[0] = e.rule());
    return out[0];
  }

  @Test
  void podWithoutClass_getsTheGlobalDefault_orZeroWithoutOne() {
    assertThat(store.create(pod("no-default", b -> b)).spec().priority()).isZero();
    store.create(cls("default1", 1000, true));

    Pod p = store.create(pod("p", b -> b));

    assertThat(p.spec().priority()).isEqualTo(1000);
    assertThat(p.spec().priorityClassName()).isEqualTo("default1");
  }

  @Test
  void secondDefault_isRefused() {
    store.create(cls("default-b", 2000, true));

    assertThat(denial(() -> store.create(cls("default-c", 500, true))))
        .isEqualTo("PriorityClass default-b is already marked as default. Only one default can exist");
    store.update(store.require(PriorityClass.class, "", "default-b").withMetadata(ObjectMeta.builder()
        .name("default-b").label("kept", "yes").build())); // the default itself may be updated
  }

  @Test
  void severalDefaults_lowestValueWins() {
    // Two defaults can exist only through a race upstream; here they are stored without admission.
    try (ObjectStore raw = ObjectStore.inMemory()) {
      raw.create(cls("default-b", 2000, true));
      raw.create(cls("default-a", 1000, true));

      Pod p = AdmissionChain.of(new PriorityPlugin()).admit(io.fleetkit.api.admission.AdmissionOperation.CREATE,
          pod("p", b -> b), null, raw).object();

      assertThat(p.spec().priority()).isEqualTo(1000);
      assertThat(p.spec().priorityClassName()).isEqualTo("default-a");
    }
  }

  @Test
  void namedClass_setsValueAndPolicy_missingClassIsRefused() {
    store.create(PriorityClass.builder().name("batch").value(10).preemptionPolicy(PreemptionPolicy.Never).build());

    Pod p = store.create(pod("p", b -> b.priorityClassName("batch")));

    assertThat(p.spec().priority()).isEqualTo(10);
    assertThat(p.spec().preemptionPolicy()).isEqualTo(PreemptionPolicy.Never);
    assertThat(denial(() -> store.create(pod("q", b -> b.priorityClassName("nope")))))
        .isEqualTo("no PriorityClass with name nope was found");
    assertThat(store.create(pod("crit", b -> b.priorityClassName("system-node-critical"))).spec().priority())
        .isEqualTo(2_000_001_000);
  }

  @Test
  void integerPriorityInTheSpec_differingFromTheClass_isRefused() {
    store.create(cls("default1", 1000, true));

    assertThat(denial(() -> store.create(pod("p", b -> b.priority(5)))))
        .isEqualTo("the integer value of priority (5) must not be provided in pod spec; priority admission"
            + " controller computed 1000 from the given PriorityClass name");
    assertThat(store.create(pod("same", b -> b.priority(1000))).spec().priority()).isEqualTo(1000);
  }

  @Test
  void defaultTolerationSeconds_areAddedOnCreate() {
    List<Toleration> t = store.create(pod("p", b -> b)).spec().tolerations();

    assertThat(t).extracting(Toleration::key).containsExactly("node.kubernetes.io/not-ready",
        "node.kubernetes.io/unreachable");
    assertThat(t).allSatisfy(x -> assertThat(x.tolerationSeconds()).isEqualTo(300L));
  }

  @Test
  void keepingGivenPriorities_keepsAPodsOwnPriority_andResolvesTheOthers() {
    try (ObjectStore s = ObjectStore.builder().directDelivery()
        .admission(AdmissionChain.of(PriorityPlugin.keepingGivenPriorities())).build()) {
      s.create(cls("high", 1000, false));
      s.create(cls("default1", 10, true));
      assertThat(s.create(pod("given", b -> b.priority(100))).spec().priority()).isEqualTo(100);
      assertThat(s.create(pod("classed", b -> b.priorityClassName("high"))).spec().priority()).isEqualTo(1000);
      assertThat(s.create(pod("plain", b -> b)).spec().priority()).isEqualTo(10);
      assertThat(denial(() -> s.create(pod("missing", b -> b.priorityClassName("nope")))))
          .isEqualTo("no PriorityClass with name nope was found");
    }
    // upstream's plugin refuses the given priority that the (missing) class does not resolve to
    assertThat(denial(() -> store.create(pod("given", b -> b.priority(100)))))
        .startsWith("the integer value of priority (100) must not be provided in pod spec");
  }
}
