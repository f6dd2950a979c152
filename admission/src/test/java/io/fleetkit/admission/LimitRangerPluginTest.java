package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerRestartPolicy;
import io.fleetkit.api.core.LimitRange;
import io.fleetkit.api.core.LimitRangeItem;
import io.fleetkit.api.core.LimitType;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeMode;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.VolumeResourceRequirements;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from Kubernetes {@code plugin/pkg/admission/limitranger/admission_test.go}: TestPodLimitFunc (37 success
 * and 42 error cases, each run through the defaulting then the checks, as upstream runs PodMutateLimitFunc then
 * PodValidateLimitFunc), TestDefaultContainerResourceRequirements, TestMergePodResourceRequirements,
 * TestPodLimitFuncApplyDefault, TestLimitRangerAdmitPod (terminating pod) and TestPersistentVolumeClaimLimitFunc.
 */
final class LimitRangerPluginTest {

  /** {@code getComputeResourceList(cpu, memory)}. */
  static ResourceList c(String cpu, String memory) {
    ResourceList.Builder b = ResourceList.builder();
    if (!cpu.isEmpty()) {
      b.put("cpu", cpu);
    }
    if (!memory.isEmpty()) {
      b.put("memory", memory);
    }
    return b.build();
  }

  /** {@code getLocalStorageResourceList(ephemeralStorage)}. */
  static ResourceList ls(String ephemeral) {
    return ephemeral.isEmpty() ? ResourceList.EMPTY : ResourceList.builder().put("ephemeral-storage", ephemeral)
        .build();
  }

  static ResourceList storage(String s) {
    return s.isEmpty() ? ResourceList.EMPTY : ResourceList.builder().put("storage", s).build();
  }

  static final ResourceList E = ResourceList.EMPTY;

  /**
   * A maxLimitRequestRatio such as {@code memory: 1.5}: kept exactly (a {@link ResourceList} would round a memory
   * ratio to whole units).
   */
  static Map<String, Quantity> ratio(String name, String value) {
    return Map.of(name, Quantity.parse(value));
  }

  /** {@code createLimitRange(type, min, max, default, defaultRequest, maxLimitRequestRatio)}. */
  static LimitRange lr(LimitType type, ResourceList min, ResourceList max, ResourceList dflt, ResourceList dreq,
      ResourceList noRatio) {
    return lr(type, min, max, dflt, dreq, noRatio.asMap());
  }

  static LimitRange lr(LimitType type, ResourceList min, ResourceList max, ResourceList dflt, ResourceList dreq,
      Map<String, Quantity> ratio) {
    return LimitRange.of("test", "abc", new LimitRangeItem(type, max, min, dflt, dreq, ratio));
  }

  static ResourceRequirements rr(ResourceList requests, ResourceList limits) {
    return new ResourceRequirements(requests, limits);
  }

  /** {@code validPod(name, n, resources)}: containers foo-0..foo-(n-1). */
  static Pod pod(String name, int n, ResourceRequirements r) {
    PodSpec.Builder spec = PodSpec.builder();
    for (int i = 0; i < n; i++) {
      spec.container(new Container("foo-" + i, "foo:V" + i, r, List.of(), List.of(), null));
    }
    return Pod.of(ObjectMeta.of("test", name), spec.build());
  }

  /**
   * {@code validPodInit(pod, resources...)}. Upstream names init containers {@code foo-i} like the regular ones,
   * which pod validation rejects as duplicates (its unit tests skip validation); here they are {@code init-i}.
   */
  static Pod init(Pod pod, ResourceRequirements... rs) {
    List<Container> inits = new ArrayList<>(pod.spec().initContainers());
    for (int i = 0; i < rs.length; i++) {
      inits.add(new Container("init-" + i, "foo:V" + i, rs[i], List.of(), List.of(), null));
    }
    return pod.withSpec(pod.spec().toBuilder().initContainers(inits).build());
  }

  /** {@code withRestartableInitContainer(requests, limits, pod)}. */
  static Pod sidecar(ResourceList requests, ResourceList limits, Pod pod) {
    List<Container> inits = new ArrayList<>(pod.spec().initContainers());
    int i = inits.size();
    inits.add(new Container("init-" + i, "foo:V" + i, rr(requests, limits), List.of(), List.of(),
        ContainerRestartPolicy.Always));
    return pod.withSpec(pod.spec().toBuilder().initContainers(inits).build());
  }

  static final LimitType CTR = LimitType.Container;
  static final LimitType POD = LimitType.Pod;

  static Stream<Arguments> successCases() {
    return Stream.of(
        Arguments.of(pod("ctr-min-cpu-request", 1, rr(c("100m", ""), c("", ""))), lr(CTR, c("50m", ""), E, E, E, E)),
        Arguments.of(pod("ctr-min-cpu-request-limit", 1, rr(c("100m", ""), c("200m", ""))),
            lr(CTR, c("50m", ""), E, E, E, E)),
        Arguments.of(pod("ctr-min-memory-request", 1, rr(c("", "60Mi"), c("", ""))),
            lr(CTR, c("", "50Mi"), E, E, E, E)),
        Arguments.of(pod("ctr-min-memory-request-limit", 1, rr(c("", "60Mi"), c("", "100Mi"))),
            lr(CTR, c("", "50Mi"), E, E, E, E)),
        Arguments.of(pod("ctr-max-cpu-request-limit", 1, rr(c("500m", ""), c("1", ""))), lr(CTR, E, c("2", ""), E, E, E)),
        Arguments.of(pod("ctr-max-cpu-limit", 1, rr(c("", ""), c("1", ""))), lr(CTR, E, c("2", ""), E, E, E)),
        Arguments.of(pod("ctr-max-mem-request-limit", 1, rr(c("", "250Mi"), c("", "500Mi"))),
            lr(CTR, E, c("", "1Gi"), E, E, E)),
        Arguments.of(pod("ctr-max-cpu-ratio", 1, rr(c("500m", ""), c("750m", ""))), lr(CTR, E, E, E, E, ratio("cpu", "1.5"))),
        Arguments.of(pod("ctr-max-mem-limit", 1, rr(c("", ""), c("", "500Mi"))), lr(CTR, E, c("", "1Gi"), E, E, E)),
        Arguments.of(pod("pod-min-cpu-request", 2, rr(c("75m", ""), c("", ""))), lr(POD, c("100m", ""), E, E, E, E)),
        Arguments.of(pod("pod-min-cpu-request-limit", 2, rr(c("75m", ""), c("200m", ""))),
            lr(POD, c("100m", ""), E, E, E, E)),
        Arguments.of(pod("pod-min-memory-request", 2, rr(c("", "60Mi"), c("", ""))),
            lr(POD, c("", "100Mi"), E, E, E, E)),
        Arguments.of(pod("pod-min-memory-request-limit", 2, rr(c("", "60Mi"), c("", "100Mi"))),
            lr(POD, c("", "100Mi"), E, E, E, E)),
        Arguments.of(init(pod("pod-init-min-memory-request", 2, rr(c("", "60Mi"), c("", ""))),
            rr(c("", "100Mi"), c("", ""))), lr(POD, c("", "100Mi"), E, E, E, E)),
        Arguments.of(init(pod("pod-init-min-memory-request-limit", 2, rr(c("", "60Mi"), c("", "100Mi"))),
            rr(c("", "80Mi"), c("", "100Mi"))), lr(POD, c("", "100Mi"), E, E, E, E)),
        Arguments.of(pod("pod-max-cpu-request-limit", 2, rr(c("500m", ""), c("1", ""))), lr(POD, E, c("2", ""), E, E, E)),
        Arguments.of(pod("pod-max-cpu-limit", 2, rr(c("", ""), c("1", ""))), lr(POD, E, c("2", ""), E, E, E)),
        Arguments.of(init(pod("pod-init-max-cpu-request-limit", 2, rr(c("500m", ""), c("1", ""))),
            rr(c("1", ""), c("2", "")), rr(c("1", ""), c("1", ""))), lr(POD, E, c("2", ""), E, E, E)),
        Arguments.of(init(pod("pod-init-max-cpu-limit", 2, rr(c("", ""), c("1", ""))),
            rr(c("", ""), c("2", "")), rr(c("", ""), c("2", ""))), lr(POD, E, c("2", ""), E, E, E)),
        Arguments.of(pod("pod-max-mem-request-limit", 2, rr(c("", "250Mi"), c("", "500Mi"))),
            lr(POD, E, c("", "1Gi"), E, E, E)),
        Arguments.of(pod("pod-max-mem-limit", 2, rr(c("", ""), c("", "500Mi"))), lr(POD, E, c("", "1Gi"), E, E, E)),
        Arguments.of(pod("pod-max-mem-ratio", 3, rr(c("", "300Mi"), c("", "450Mi"))),
            lr(POD, E, c("", "2Gi"), E, E, ratio("memory", "1.5"))),
        Arguments.of(pod("ctr-1-min-local-ephemeral-storage-request", 1, rr(ls("60Mi"), ls(""))),
            lr(CTR, ls("50Mi"), E, E, E, E)),
        Arguments.of(pod("ctr-1-min-local-ephemeral-storage-request-limit", 1, rr(ls("60Mi"), ls("100Mi"))),
            lr(CTR, ls("50Mi"), E, E, E, E)),
        Arguments.of(pod("ctr-1-max-local-ephemeral-storage-request-limit", 1, rr(ls("250Mi"), ls("500Mi"))),
            lr(CTR, E, ls("1Gi"), E, E, E)),
        Arguments.of(pod("ctr-1-max-local-ephemeral-storage-limit", 1, rr(ls(""), ls("500Mi"))),
            lr(CTR, E, ls("1Gi"), E, E, E)),
        Arguments.of(pod("ctr-2-min-local-ephemeral-storage-request", 2, rr(ls("60Mi"), ls(""))),
            lr(CTR, ls("50Mi"), E, E, E, E)),
        Arguments.of(pod("ctr-2-min-local-ephemeral-storage-request-limit", 2, rr(ls("60Mi"), ls("100Mi"))),
            lr(CTR, ls("50Mi"), E, E, E, E)),
        Arguments.of(pod("ctr-2-max-local-ephemeral-storage-request-limit", 2, rr(ls("250Mi"), ls("500Mi"))),
            lr(CTR, E, ls("600Mi"), E, E, E)),
        Arguments.of(pod("ctr-2-max-local-ephemeral-storage-limit", 2, rr(ls(""), ls("500Mi"))),
            lr(CTR, E, ls("600Mi"), E, E, E)),
        Arguments.of(pod("pod-min-local-ephemeral-storage-request", 2, rr(ls("60Mi"), ls(""))),
            lr(POD, ls("100Mi"), E, E, E, E)),
        Arguments.of(pod("pod-min-local-ephemeral-storage-request-limit", 2, rr(ls("60Mi"), ls("100Mi"))),
            lr(POD, ls("100Mi"), E, E, E, E)),
        Arguments.of(init(pod("pod-init-min-local-ephemeral-storage-request", 2, rr(ls("60Mi"), ls(""))),
            rr(ls("100Mi"), ls(""))), lr(POD, ls("100Mi"), E, E, E, E)),
        Arguments.of(init(pod("pod-init-min-local-ephemeral-storage-request-limit", 2, rr(ls("60Mi"), ls("100Mi"))),
            rr(ls("80Mi"), ls("100Mi"))), lr(POD, ls("100Mi"), E, E, E, E)),
        Arguments.of(pod("pod-max-local-ephemeral-storage-request-limit", 2, rr(ls("250Mi"), ls("500Mi"))),
            lr(POD, E, ls("1Gi"), E, E, E)),
        Arguments.of(pod("pod-max-local-ephemeral-storage-limit", 2, rr(ls(""), ls("500Mi"))),
            lr(POD, E, ls("1Gi"), E, E, E)),
        Arguments.of(pod("pod-max-local-ephemeral-storage-ratio", 3, rr(ls("300Mi"), ls("450Mi"))),
            lr(POD, E, ls("2Gi"), E, E, ratio("ephemeral-storage", "1.5"))));
  }

  static Stream<Arguments> errorCases() {
    return Stream.of(
        Arguments.of(pod("ctr-min-cpu-request", 1, rr(c("40m", ""), c("", ""))), lr(CTR, c("50m", ""), E, E, E, E),
            "minimum cpu usage per Container is 50m, but request is 40m."),
        Arguments.of(pod("ctr-min-cpu-request-limit", 1, rr(c("40m", ""), c("200m", ""))),
            lr(CTR, c("50m", ""), E, E, E, E), "minimum cpu usage per Container is 50m, but request is 40m."),
        Arguments.of(pod("ctr-min-cpu-no-request-limit", 1, rr(c("", ""), c("", ""))),
            lr(CTR, c("50m", ""), E, E, E, E), "minimum cpu usage per Container is 50m.  No request is specified."),
        Arguments.of(pod("ctr-min-memory-request", 1, rr(c("", "40Mi"), c("", ""))),
            lr(CTR, c("", "50Mi"), E, E, E, E), "minimum memory usage per Container is 50Mi, but request is 40Mi."),
        Arguments.of(pod("ctr-min-memory-request-limit", 1, rr(c("", "40Mi"), c("", "100Mi"))),
            lr(CTR, c("", "50Mi"), E, E, E, E), "minimum memory usage per Container is 50Mi, but request is 40Mi."),
        Arguments.of(pod("ctr-min-memory-no-request-limit", 1, rr(c("", ""), c("", ""))),
            lr(CTR, c("", "50Mi"), E, E, E, E), "minimum memory usage per Container is 50Mi.  No request is specified."),
        Arguments.of(pod("ctr-max-cpu-request-limit", 1, rr(c("500m", ""), c("2500m", ""))),
            lr(CTR, E, c("2", ""), E, E, E), "maximum cpu usage per Container is 2, but limit is 2500m."),
        Arguments.of(pod("ctr-max-cpu-limit", 1, rr(c("", ""), c("2500m", ""))), lr(CTR, E, c("2", ""), E, E, E),
            "maximum cpu usage per Container is 2, but limit is 2500m."),
        Arguments.of(pod("ctr-max-cpu-no-request-limit", 1, rr(c("", ""), c("", ""))), lr(CTR, E, c("2", ""), E, E, E),
            "maximum cpu usage per Container is 2.  No limit is specified."),
        Arguments.of(pod("ctr-max-cpu-ratio", 1, rr(c("1250m", ""), c("2500m", ""))),
            lr(CTR, E, E, E, E, ratio("cpu", "1")),
            "cpu max limit to request ratio per Container is 1, but provided ratio is 2.000000."),
        Arguments.of(pod("ctr-max-mem-request-limit", 1, rr(c("", "250Mi"), c("", "2Gi"))),
            lr(CTR, E, c("", "1Gi"), E, E, E), "maximum memory usage per Container is 1Gi, but limit is 2Gi."),
        Arguments.of(pod("ctr-max-mem-limit", 1, rr(c("", ""), c("", "2Gi"))), lr(CTR, E, c("", "1Gi"), E, E, E),
            "maximum memory usage per Container is 1Gi, but limit is 2Gi."),
        Arguments.of(pod("ctr-max-mem-no-request-limit", 1, rr(c("", ""), c("", ""))),
            lr(CTR, E, c("", "1Gi"), E, E, E), "maximum memory usage per Container is 1Gi.  No limit is specified."),
        Arguments.of(pod("pod-min-cpu-request", 1, rr(c("75m", ""), c("", ""))), lr(POD, c("100m", ""), E, E, E, E),
            "minimum cpu usage per Pod is 100m, but request is 75m."),
        Arguments.of(pod("pod-min-cpu-request-limit", 1, rr(c("75m", ""), c("200m", ""))),
            lr(POD, c("100m", ""), E, E, E, E), "minimum cpu usage per Pod is 100m, but request is 75m."),
        Arguments.of(pod("pod-min-memory-request", 1, rr(c("", "60Mi"), c("", ""))),
            lr(POD, c("", "100Mi"), E, E, E, E), "minimum memory usage per Pod is 100Mi, but request is 60Mi."),
        Arguments.of(pod("pod-min-memory-request-limit", 1, rr(c("", "60Mi"), c("", "100Mi"))),
            lr(POD, c("", "100Mi"), E, E, E, E), "minimum memory usage per Pod is 100Mi, but request is 60Mi."),
        Arguments.of(pod("pod-max-cpu-request-limit", 3, rr(c("500m", ""), c("1", ""))), lr(POD, E, c("2", ""), E, E, E),
            "maximum cpu usage per Pod is 2, but limit is 3."),
        Arguments.of(pod("pod-max-cpu-limit", 3, rr(c("", ""), c("1", ""))), lr(POD, E, c("2", ""), E, E, E),
            "maximum cpu usage per Pod is 2, but limit is 3."),
        Arguments.of(pod("pod-max-mem-request-limit", 3, rr(c("", "250Mi"), c("", "500Mi"))),
            lr(POD, E, c("", "1Gi"), E, E, E), "maximum memory usage per Pod is 1Gi, but limit is 1500Mi."),
        Arguments.of(pod("pod-max-mem-limit", 3, rr(c("", ""), c("", "500Mi"))), lr(POD, E, c("", "1Gi"), E, E, E),
            "maximum memory usage per Pod is 1Gi, but limit is 1500Mi."),
        Arguments.of(init(pod("pod-init-max-mem-limit", 1, rr(c("", ""), c("", "500Mi"))), rr(c("", ""), c("", "1.5Gi"))),
            lr(POD, E, c("", "1Gi"), E, E, E), "maximum memory usage per Pod is 1Gi, but limit is 1536Mi."),
        Arguments.of(pod("pod-max-mem-ratio", 3, rr(c("", "250Mi"), c("", "500Mi"))),
            lr(POD, E, c("", "2Gi"), E, E, ratio("memory", "1.5")),
            "memory max limit to request ratio per Pod is 1500m, but provided ratio is 2.000000."),
        Arguments.of(pod("ctr-1-min-local-ephemeral-storage-request", 1, rr(ls("40Mi"), ls(""))),
            lr(CTR, ls("50Mi"), E, E, E, E),
            "minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi."),
        Arguments.of(pod("ctr-1-min-local-ephemeral-storage-request-limit", 1, rr(ls("40Mi"), ls("100Mi"))),
            lr(CTR, ls("50Mi"), E, E, E, E),
            "minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi."),
        Arguments.of(pod("ctr-1-min-local-ephemeral-storage-no-request-limit", 1, rr(ls(""), ls(""))),
            lr(CTR, ls("50Mi"), E, E, E, E),
            "minimum ephemeral-storage usage per Container is 50Mi.  No request is specified."),
        Arguments.of(pod("ctr-1-max-local-ephemeral-storage-request-limit", 1, rr(ls("250Mi"), ls("2Gi"))),
            lr(CTR, E, ls("1Gi"), E, E, E),
            "maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi."),
        Arguments.of(pod("ctr-1-max-local-ephemeral-storage-limit", 1, rr(ls(""), ls("2Gi"))),
            lr(CTR, E, ls("1Gi"), E, E, E),
            "maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi."),
        Arguments.of(pod("ctr-1-max-local-ephemeral-storage-no-request-limit", 1, rr(ls(""), ls(""))),
            lr(CTR, E, ls("1Gi"), E, E, E),
            "maximum ephemeral-storage usage per Container is 1Gi.  No limit is specified."),
        Arguments.of(pod("ctr-2-min-local-ephemeral-storage-request", 2, rr(ls("40Mi"), ls(""))),
            lr(CTR, ls("50Mi"), E, E, E, E),
            "minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi."),
        Arguments.of(pod("ctr-2-min-local-ephemeral-storage-request-limit", 2, rr(ls("40Mi"), ls("100Mi"))),
            lr(CTR, ls("50Mi"), E, E, E, E),
            "minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi."),
        Arguments.of(pod("ctr-2-min-local-ephemeral-storage-no-request-limit", 2, rr(ls(""), ls(""))),
            lr(CTR, ls("50Mi"), E, E, E, E),
            "minimum ephemeral-storage usage per Container is 50Mi.  No request is specified."),
        Arguments.of(pod("ctr-2-max-local-ephemeral-storage-request-limit", 2, rr(ls("250Mi"), ls("2Gi"))),
            lr(CTR, E, ls("1Gi"), E, E, E),
            "maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi."),
        Arguments.of(pod("ctr-2-max-local-ephemeral-storage-limit", 2, rr(ls(""), ls("2Gi"))),
            lr(CTR, E, ls("1Gi"), E, E, E),
            "maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi."),
        Arguments.of(pod("ctr-2-max-local-ephemeral-storage-no-request-limit", 2, rr(ls(""), ls(""))),
            lr(CTR, E, ls("1Gi"), E, E, E),
            "maximum ephemeral-storage usage per Container is 1Gi.  No limit is specified."),
        Arguments.of(pod("pod-min-local-ephemeral-storage-request", 1, rr(ls("60Mi"), ls(""))),
            lr(POD, ls("100Mi"), E, E, E, E),
            "minimum ephemeral-storage usage per Pod is 100Mi, but request is 60Mi."),
        Arguments.of(pod("pod-min-local-ephemeral-storage-request-limit", 1, rr(ls("60Mi"), ls("100Mi"))),
            lr(POD, ls("100Mi"), E, E, E, E),
            "minimum ephemeral-storage usage per Pod is 100Mi, but request is 60Mi."),
        Arguments.of(pod("pod-max-local-ephemeral-storage-request-limit", 3, rr(ls("250Mi"), ls("500Mi"))),
            lr(POD, E, ls("1Gi"), E, E, E),
            "maximum ephemeral-storage usage per Pod is 1Gi, but limit is 1500Mi."),
        Arguments.of(pod("pod-max-local-ephemeral-storage-limit", 3, rr(ls(""), ls("500Mi"))),
            lr(POD, E, ls("1Gi"), E, E, E),
            "maximum ephemeral-storage usage per Pod is 1Gi, but limit is 1500Mi."),
        Arguments.of(init(pod("pod-init-max-local-ephemeral-storage-limit", 1, rr(ls(""), ls("500Mi"))),
            rr(ls(""), ls("1.5Gi"))), lr(POD, E, ls("1Gi"), E, E, E),
            "maximum ephemeral-storage usage per Pod is 1Gi, but limit is 1536Mi."),
        Arguments.of(pod("pod-max-local-ephemeral-storage-ratio", 3, rr(ls("250Mi"), ls("500Mi"))),
            lr(POD, E, ls("2Gi"), E, E, ratio("ephemeral-storage", "1.5")),
            "ephemeral-storage max limit to request ratio per Pod is 1500m, but provided ratio is 2.000000."),
        Arguments.of(sidecar(c("1500m", ""), E, pod("ctr-max-cpu-limit-restartable-init-container", 1,
            rr(c("1000m", ""), c("1500m", "")))), lr(POD, E, c("2", ""), E, E, E),
            "maximum cpu usage per Pod is 2, but request is 2500m."));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("successCases")
  void podLimitFunc_successCase_admitted(Pod pod, LimitRange lr) {
    Pod mutated = LimitRangerPlugin.applyDefaults(lr, pod);

    assertThat(LimitRangerPlugin.podErrors(lr, mutated)).as(pod.metadata().name()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errorCases")
  void podLimitFunc_errorCase_denied(Pod pod, LimitRange lr, String message) {
    Pod mutated = LimitRangerPlugin.applyDefaults(lr, pod);

    // Upstream checks only that an error occurs; the message is its format for this case (once per container
    // that breaks the rule).
    assertThat(LimitRangerPlugin.podErrors(lr, mutated)).as(pod.metadata().name()).isNotEmpty()
        .containsOnly(message);
  }

  /**
   * Type Pod reads a pod as upstream's limitranger {@code podRequests}/{@code podLimits}: the containers' aggregate
   * with the pod-level values (KEP-2837) taking precedence, overhead left out.
   */
  @Test
  void podLimitFunc_typePod_podLevelResourcesTakePrecedenceOverTheContainers() {
    Pod budget = pod("pod-level", 2, rr(c("100m", ""), c("", "")));
    budget = budget.withSpec(budget.spec().toBuilder().resources(rr(c("500m", ""), c("2", ""))).build());
    // the containers have no limit; the pod-level limit 2 is what the Pod maximum of 1 is compared with
    assertThat(LimitRangerPlugin.podErrors(lr(POD, E, c("1", ""), E, E, E), budget))
        .containsExactly("maximum cpu usage per Pod is 1, but limit is 2.");
    assertThat(LimitRangerPlugin.podErrors(lr(POD, E, c("3", ""), E, E, E), budget)).isEmpty();
    // the minimum reads the pod-level request (500m), not the containers' 2 x 100m
    assertThat(LimitRangerPlugin.podErrors(lr(POD, c("600m", ""), E, E, E, E), budget))
        .containsExactly("minimum cpu usage per Pod is 600m, but request is 500m.");
    // overhead is not counted
    Pod withOverhead = budget.withSpec(budget.spec().toBuilder().overhead(c("2", "")).build());
    assertThat(LimitRangerPlugin.podErrors(lr(POD, E, c("3", ""), E, E, E), withOverhead)).isEmpty();
  }

  @Test
  void successAndErrorTables_haveUpstreamsCaseCounts() {
    assertThat(successCases()).hasSize(37);
    assertThat(errorCases()).hasSize(42);
  }

  /** {@code validLimitRange()}: Pod 50m..200m, 2Mi..4Gi; Container 25m..100m, 1Mi..2Gi, defaults 75m/10Mi, 50m/5Mi. */
  static LimitRange validLimitRange() {
    return LimitRange.of("test", "abc",
        LimitRangeItem.of(POD).withMax(c("200m", "4Gi")).withMin(c("50m", "2Mi")),
        LimitRangeItem.of(CTR).withMax(c("100m", "2Gi")).withMin(c("25m", "1Mi")).withDefaultLimit(c("75m", "10Mi"))
            .withDefaultRequest(c("50m", "5Mi")));
  }

  @Test
  void defaultContainerResourceRequirements_areTheContainerItemsDefaults() {
    LimitRangeItem item = validLimitRange().item(CTR);

    assertThat(item.defaultRequest()).isEqualTo(c("50m", "5Mi"));
    assertThat(item.defaultLimit()).isEqualTo(c("75m", "10Mi"));
  }

  @Test
  void mergePodResourceRequirements_noResources_getsDefaultsAndAnnotation() {
    Pod out = LimitRangerPlugin.applyDefaults(validLimitRange(), pod("empty-resources", 1, rr(E, E)));

    assertThat(out.metadata().annotations()).containsEntry(LimitRangerPlugin.ANNOTATION,
        "LimitRanger plugin set: cpu, memory request for container foo-0; cpu, memory limit for container foo-0");
  }

  @Test
  void mergePodResourceRequirements_allResourcesSet_changesNothing() {
    Pod in = init(pod("limit-memory", 1, rr(c("100m", "512Mi"), c("200m", "1G"))),
        rr(c("200m", "1G"), c("400m", "2G")));

    Pod out = LimitRangerPlugin.applyDefaults(validLimitRange(), in);

    assertThat(out).isSameAs(in);
    assertThat(out.metadata().annotations()).doesNotContainKey(LimitRangerPlugin.ANNOTATION);
  }

  @Test
  void podLimitFuncApplyDefault_defaultsReachInitContainersToo() {
    Pod out = LimitRangerPlugin.applyDefaults(validLimitRange(), init(pod("foo", 1, rr(E, E)), rr(E, E)));

    for (Container ctr : List.of(out.spec().containers().get(0), out.spec().initContainers().get(0))) {
      assertThat(ctr.resources().limits().get("memory")).hasToString("10Mi");
      assertThat(ctr.resources().limits().get("cpu")).hasToString("75m");
      assertThat(ctr.resources().requests().get("memory")).hasToString("5Mi");
      assertThat(ctr.resources().requests().get("cpu")).hasToString("50m");
    }
  }

  static PersistentVolumeClaim pvc(String name, ResourceList requests) {
    return PersistentVolumeClaim.of(ObjectMeta.of("test", name), new PersistentVolumeClaimSpec(
        List.of(PersistentVolumeAccessMode.ReadWriteOnce), null, new VolumeResourceRequirements(requests, E), null,
        PersistentVolumeMode.Filesystem, ""));
  }

  @Test
  void persistentVolumeClaimLimitFunc_upstreamCases() {
    LimitType claim = LimitType.PersistentVolumeClaim;
    assertThat(LimitRangerPlugin.claimErrors(lr(claim, storage("1Gi"), E, E, E, E),
        pvc("pvc-is-min-storage-request", storage("1Gi")))).isEmpty();
    assertThat(LimitRangerPlugin.claimErrors(lr(claim, E, storage("1Gi"), E, E, E),
        pvc("pvc-is-max-storage-request", storage("1Gi")))).isEmpty();
    assertThat(LimitRangerPlugin.claimErrors(lr(claim, storage("1Gi"), storage("10Gi"), E, E, E),
        pvc("pvc-within-minmax-storage-request", storage("5Gi")))).isEmpty();
    assertThat(LimitRangerPlugin.claimErrors(lr(claim, storage("1Gi"), E, E, E, E),
        pvc("pvc-below-min-storage-request", storage("500Mi"))))
        .containsExactly("minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi.");
    assertThat(LimitRangerPlugin.claimErrors(lr(claim, storage("1Gi"), storage("1Gi"), E, E, E),
        pvc("pvc-exceeds-max-storage-request", storage("100Gi"))))
        .containsExactly("maximum storage usage per PersistentVolumeClaim is 1Gi, but request is 100Gi.");
  }

  @Test
  void limitRangerAdmitPod_terminatingPod_isNeverBlocked() {
    LimitRange noDefaults = LimitRange.of("test", "abc",
        LimitRangeItem.of(POD).withMax(c("200m", "4Gi")).withMin(c("50m", "2Mi")),
        LimitRangeItem.of(CTR).withMax(c("100m", "2Gi")).withMin(c("25m", "1Mi")));
    Pod bare = pod("test-pod", 1, rr(E, E)); // upstream: "testPod", not a valid name outside its unit test
    Pod terminating = bare.withMetadata(bare.metadata().toBuilder().deletionTimestamp(Instant.EPOCH).build());

    assertThat(LimitRangerPlugin.podErrors(noDefaults, bare)).isNotEmpty();
    assertThat(StoreFixture.withChain(new LimitRangerPlugin()).admitsCreateInto(noDefaults, terminating)).isTrue();
  }
}
