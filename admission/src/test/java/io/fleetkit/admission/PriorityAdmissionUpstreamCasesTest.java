package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The table cases of kubernetes {@code plugin/pkg/admission/priority/admission_test.go}: TestPriorityClassAdmission,
 * TestDefaultPriority and TestPodAdmission. As upstream adds the existing classes straight to the plugin's informer,
 * they are created here in a store without a chain, and the plugin is called directly (mutate, then validate, as
 * the chain does).
 */
final class PriorityAdmissionUpstreamCasesTest {
  static final PriorityClass DEFAULT_CLASS_1 = cls("default1", 1000, true, PreemptionPolicy.PreemptLowerPriority);
  static final PriorityClass DEFAULT_CLASS_2 = cls("default2", 2000, true, PreemptionPolicy.PreemptLowerPriority);
  static final PriorityClass NONDEFAULT_CLASS_1 = cls("nondefault1", 2000, false,
      PreemptionPolicy.PreemptLowerPriority);
  static final PriorityClass SYSTEM_CLUSTER_CRITICAL = cls("system-cluster-critical", 2_000_000_000, true,
      PreemptionPolicy.PreemptLowerPriority);
  static final PriorityClass PREEMPTION_POLICY_CLASS = cls("nopreemptionpolicy", 2000, true,
      PreemptionPolicy.PreemptLowerPriority);
  static final String MIRROR = "kubernetes.io/config.mirror";

  private final PriorityPlugin plugin = new PriorityPlugin();

  static PriorityClass cls(String name, int value, boolean dflt, PreemptionPolicy policy) {
    return PriorityClass.builder().name(name).value(value).globalDefault(dflt).preemptionPolicy(policy).build();
  }

  private static ObjectStore storeWith(List<PriorityClass> classes) {
    ObjectStore store = ObjectStore.builder().directDelivery().build();
    for (PriorityClass pc : classes) {
      store.create(pc);
    }
    return store;
  }

  /** Mutate then validate, as the chain runs a plugin that is both; the admitted object or {@code null}. */
  private @Nullable ApiObject<?> admit(ObjectStore store, AdmissionRequest request) {
    AdmissionVerdict m = plugin.mutate(request, store);
    if (!m.allowed()) {
      return null;
    }
    AdmissionRequest r = m.object() == null ? request : request.withObject(m.object());
    return plugin.validate(r, store).allowed() ? r.object() : null;
  }

  // ---- TestPriorityClassAdmission

  static Stream<Arguments> priorityClassAdmission() {
    PriorityClass systemClass = cls("system-test", PriorityClass.HIGHEST_USER_DEFINABLE_PRIORITY + 1, false,
        PreemptionPolicy.PreemptLowerPriority);
    return Stream.of(
        Arguments.of("one default class", List.of(), DEFAULT_CLASS_1, false),
        Arguments.of("more than one default classes", List.of(DEFAULT_CLASS_1), DEFAULT_CLASS_2, true),
        Arguments.of("system name and value are allowed by admission controller", List.of(), systemClass, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("priorityClassAdmission")
  void priorityClassAdmission(String name, List<PriorityClass> existing, PriorityClass created, boolean error) {
    try (ObjectStore store = storeWith(existing)) {
      ApiObject<?> admitted = admit(store, new AdmissionRequest(AdmissionOperation.CREATE, created, null));
      assertThat(admitted == null).as(name).isEqualTo(error);
    }
  }

  // ---- TestDefaultPriority (the default read by admitting a pod without a class, which takes its name and value)

  static Stream<Arguments> defaultPriority() {
    PriorityClass updated1 = cls("default1", 1000, false, PreemptionPolicy.PreemptLowerPriority);
    return Stream.of(
        Arguments.of("simple resolution with a default class", List.of(DEFAULT_CLASS_1), List.of(DEFAULT_CLASS_1),
            null, 1000, "default1", 1000, "default1"),
        Arguments.of("add a default class", List.of(NONDEFAULT_CLASS_1), List.of(NONDEFAULT_CLASS_1,
            DEFAULT_CLASS_1), new AdmissionRequest(AdmissionOperation.CREATE, DEFAULT_CLASS_1, null),
            0, "", 1000, "default1"),
        Arguments.of("multiple default classes resolves to the minimum value among them",
            List.of(DEFAULT_CLASS_1, DEFAULT_CLASS_2), List.of(DEFAULT_CLASS_2),
            new AdmissionRequest(AdmissionOperation.DELETE, DEFAULT_CLASS_1, null), 1000, "default1", 2000,
            "default2"),
        Arguments.of("delete default priority class", List.of(DEFAULT_CLASS_1), List.of(),
            new AdmissionRequest(AdmissionOperation.DELETE, DEFAULT_CLASS_1, null), 1000, "default1", 0, ""),
        Arguments.of("update default class and remove its global default", List.of(DEFAULT_CLASS_1),
            List.of(updated1), new AdmissionRequest(AdmissionOperation.UPDATE, updated1, DEFAULT_CLASS_1), 1000,
            "default1", 0, ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("defaultPriority")
  void defaultPriority(String name, List<PriorityClass> before, List<PriorityClass> after,
      @Nullable AdmissionRequest request, int defaultBefore, String nameBefore, int defaultAfter, String nameAfter) {
    try (ObjectStore store = storeWith(before)) {
      assertDefault(store, defaultBefore, nameBefore);
      if (request != null) {
        assertThat(admit(store, request)).as(name).isNotNull();
      }
      for (PriorityClass pc : store.list(PriorityClass.class).items()) {
        store.delete(PriorityClass.class, "", pc.metadata().name());
      }
      for (PriorityClass pc : after) {
        store.create(pc);
      }
      assertDefault(store, defaultAfter, nameAfter);
    }
  }

  private void assertDefault(ObjectStore store, int value, String className) {
    Pod admitted = (Pod) admit(store, new AdmissionRequest(AdmissionOperation.CREATE, pod("probe", "ns", b -> b),
        null));
    assertThat(admitted).isNotNull();
    assertThat(admitted.spec().priority()).isEqualTo(value);
    assertThat(admitted.spec().priorityClassName()).isEqualTo(className);
  }

  // ---- TestPodAdmission

  static Pod pod(String name, String namespace, UnaryOperator<PodSpec.Builder> f) {
    return pod(name, namespace, Map.of(), f);
  }

  static Pod pod(String name, String namespace, Map<String, String> annotations, UnaryOperator<PodSpec.Builder> f) {
    return Pod.of(ObjectMeta.builder().namespace(namespace).name(name).annotations(annotations).build(),
        f.apply(PodSpec.builder().container("container", "img", ResourceList.EMPTY)).build());
  }

  static Stream<Arguments> podAdmission() {
    Pod[] pods = {
        pod("pod-w-priorityclass", "namespace", b -> b.priorityClassName("default1")),
        pod("pod-wo-priorityclass", "namespace", b -> b),
        pod("pod-w-non-existing-priorityclass", "namespace", b -> b.priorityClassName("non-existing")),
        pod("pod-w-integer-priority", "namespace", b -> b.priorityClassName("default1").priority(1000)),
        pod("pod-w-system-priority", "kube-system", b -> b.priorityClassName("system-cluster-critical")),
        pod("mirror-pod-w-system-priority", "kube-system", Map.of(MIRROR, ""),
            b -> b.priorityClassName("system-cluster-critical")),
        pod("mirror-pod-w-integer-priority", "namespace", Map.of(MIRROR, ""),
            b -> b.priorityClassName("default1").priority(1000)),
        pod("pod-w-system-priority-in-nonsystem-namespace", "non-system-namespace",
            b -> b.priorityClassName("system-cluster-critical")),
        pod("pod-w-zero-priority-in-nonsystem-namespace", "non-system-namespace", b -> b.priority(0)),
        pod("pod-w-priority-matching-default-priority", "non-system-namespace", b -> b.priority(2000)),
        pod("pod-w-priority-matching-resolved-default-priority", "kube-system",
            b -> b.priorityClassName("system-cluster-critical").priority(2_000_000_000)),
        // upstream's nil preemption policy: FleetKit's spec holds the default, PreemptLowerPriority
        pod("pod-never-preemption-policy-matching-resolved-preemption-policy", "kube-system",
            b -> b.priorityClassName("nopreemptionpolicy").priority(2000)),
        pod("pod-preemption-policy-matching-resolved-preemption-policy", "kube-system",
            b -> b.priorityClassName("nopreemptionpolicy").priority(2000)
                .preemptionPolicy(PreemptionPolicy.PreemptLowerPriority)),
        pod("pod-preemption-policy-not-matching-resolved-preemption-policy", "kube-system",
            b -> b.priorityClassName("nopreemptionpolicy").priority(2000)
                .preemptionPolicy(PreemptionPolicy.Never)),
    };
    PreemptionPolicy lower = PreemptionPolicy.PreemptLowerPriority;
    return Stream.of(
        Arguments.of("Pod with priority class", List.of(DEFAULT_CLASS_1, NONDEFAULT_CLASS_1), pods[0], 1000, false,
            null),
        Arguments.of("Pod without priority class", List.of(DEFAULT_CLASS_1), pods[1], 1000, false, null),
        Arguments.of("pod without priority class and no existing priority class", List.of(), pods[1], 0, false,
            null),
        Arguments.of("pod without priority class and no default class", List.of(NONDEFAULT_CLASS_1), pods[1], 0,
            false, null),
        Arguments.of("pod with a system priority class", List.of(SYSTEM_CLUSTER_CRITICAL), pods[4],
            2_000_000_000, false, null),
        Arguments.of("Pod with non-existing priority class", List.of(DEFAULT_CLASS_1, NONDEFAULT_CLASS_1), pods[2],
            0, true, null),
        Arguments.of("pod with integer priority", List.of(), pods[3], 0, true, null),
        Arguments.of("mirror pod with system priority class", List.of(SYSTEM_CLUSTER_CRITICAL), pods[5],
            2_000_000_000, false, null),
        Arguments.of("mirror pod with integer priority", List.of(), pods[6], 0, true, null),
        Arguments.of("pod with system critical priority in non-system namespace", List.of(SYSTEM_CLUSTER_CRITICAL),
            pods[7], 2_000_000_000, false, null),
        Arguments.of("pod with priority that matches computed priority", List.of(NONDEFAULT_CLASS_1), pods[8], 0,
            false, null),
        Arguments.of("pod with priority that matches default priority", List.of(DEFAULT_CLASS_2), pods[9], 2000,
            false, null),
        Arguments.of("pod with priority that matches resolved priority", List.of(SYSTEM_CLUSTER_CRITICAL),
            pods[10], 2_000_000_000, false, null),
        Arguments.of("pod with nil preemtpion policy", List.of(PREEMPTION_POLICY_CLASS), pods[11], 2000, false,
            null),
        Arguments.of("pod with preemtpion policy that matches resolved preemtpion policy",
            List.of(PREEMPTION_POLICY_CLASS), pods[12], 2000, false, lower),
        Arguments.of("pod with preemtpion policy that does't matches resolved preemtpion policy",
            List.of(PREEMPTION_POLICY_CLASS), pods[13], 2000, true, lower));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podAdmission")
  void podAdmission(String name, List<PriorityClass> existing, Pod pod, int expectedPriority, boolean error,
      @Nullable PreemptionPolicy expectedPolicy) {
    try (ObjectStore store = storeWith(existing)) {
      ApiObject<?> admitted = admit(store, new AdmissionRequest(AdmissionOperation.CREATE, pod, null));
      if (error) {
        assertThat(admitted).as(name).isNull();
        return;
      }
      assertThat(admitted).as(name).isInstanceOf(Pod.class);
      Pod p = (Pod) admitted;
      assertThat(p.spec().priority()).as(name).isEqualTo(expectedPriority);
      if (expectedPolicy != null) {
        assertThat(p.spec().preemptionPolicy()).as(name).isEqualTo(expectedPolicy);
      }
    }
  }
}
