package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.LabelSelectorFixtures;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

final class PodTest {
  private static final ResourceList SMALL = ResourceList.builder().put("cpu", "100m").put("memory", "128Mi").build();

  private static ResourceList rl(String... kv) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < kv.length; i += 2) {
      b.put(kv[i], kv[i + 1]);
    }
    return b.build();
  }

  private static List<String> fields(ValidationException e) {
    return e.violations().stream().map(Violation::field).toList();
  }

  // component-helpers scheduling/corev1/helpers_test.go TestPodPriority: 2 cases (no priority resolves to 0; a set
  // priority is returned).
  @Test
  void priority_upstreamPodPriorityCases() {
    Container c = Container.of("container", "image", ResourceList.EMPTY);
    assertThat(Pod.of(ObjectMeta.of("default", "p"), PodSpec.builder().container(c).build()).priority()).isZero();
    assertThat(Pod.of(ObjectMeta.of("default", "p"), PodSpec.builder().container(c).priority(20).build()).priority())
        .isEqualTo(20);
  }

  @Test
  void builder_minimal_appliesKubernetesDefaults() {
    Pod pod = Pod.builder().name("web-0").container("app", "nginx:1.27", SMALL).build();

    assertThat(pod.apiVersion()).isEqualTo("v1");
    assertThat(pod.kind()).isEqualTo("Pod");
    assertThat(pod.namespaced()).isTrue();
    assertThat(pod.metadata().namespace()).isEqualTo("default");
    assertThat(pod.describe()).isEqualTo("Pod default/web-0");
    PodSpec s = pod.spec();
    assertThat(s.schedulerName()).isEqualTo("default-scheduler");
    assertThat(s.restartPolicy()).isEqualTo(RestartPolicy.Always);
    assertThat(s.terminationGracePeriodSeconds()).isEqualTo(30);
    assertThat(s.preemptionPolicy()).isEqualTo(PreemptionPolicy.PreemptLowerPriority);
    assertThat(s.affinity()).isEqualTo(Affinity.NONE);
    assertThat(s.priority()).isNull();
    assertThat(pod.priority()).isZero();
    assertThat(s.nodeName()).isEmpty();
    assertThat(pod.isBound()).isFalse();
    assertThat(pod.status()).isEqualTo(PodStatus.PENDING);
    assertThat(pod.status().phase()).isEqualTo(PodPhase.Pending);
    assertThat(pod.effectiveRequests()).isEqualTo(SMALL);
  }

  @Test
  void builder_everyField_keepsWhatWasSet() {
    Toleration t = Toleration.equal("gpu", "true", TaintEffect.NoSchedule);
    Pod pod = Pod.builder().namespace("ml").name("train-0").label("app", "train").podGroup("gang-a")
        .container("main", "trainer:1", rl("cpu", "4", "nvidia.com/gpu", "2"))
        .initContainer("fetch", "busybox", rl("cpu", "1"))
        .priority(1000).priorityClassName("high").preemptionPolicy(PreemptionPolicy.Never)
        .nodeSelector("zone", "a").toleration(t).schedulerName("volcano").nodeName("n1")
        .volume(Volume.persistentVolumeClaim("data", "data-claim")).restartPolicy(RestartPolicy.Never)
        .terminationGracePeriodSeconds(5).activeDeadlineSeconds(600L).phase(PodPhase.Running).build();

    assertThat(pod.metadata().key()).isEqualTo("ml/train-0");
    assertThat(pod.podGroupName()).isEqualTo("gang-a");
    assertThat(pod.priority()).isEqualTo(1000);
    assertThat(pod.spec().priorityClassName()).isEqualTo("high");
    assertThat(pod.spec().nodeSelector()).containsEntry("zone", "a");
    assertThat(pod.spec().tolerations()).containsExactly(t);
    assertThat(pod.spec().schedulerName()).isEqualTo("volcano");
    assertThat(pod.isBound()).isTrue();
    assertThat(pod.spec().volumes().get(0).claim()).isEqualTo(new VolumeSource.PersistentVolumeClaim("data-claim",
        false));
    assertThat(pod.spec().restartPolicy()).isEqualTo(RestartPolicy.Never);
    assertThat(pod.spec().activeDeadlineSeconds()).isEqualTo(600L);
    assertThat(pod.status().phase()).isEqualTo(PodPhase.Running);
    // GPU request given alone gets an equal limit, as Kubernetes requires for extended resources
    assertThat(pod.spec().containers().get(0).resources().limits().get("nvidia.com/gpu").value()).isEqualTo(2);
    assertThat(pod.effectiveRequests().milliCpu()).isEqualTo(4000);
  }

  @Test
  void toBuilder_roundTrip_equalPod() {
    Pod pod = Pod.builder().name("a").label("x", "y").container("c", "i", SMALL).priority(5).build();
    assertThat(pod.toBuilder().build()).isEqualTo(pod);
    assertThat(pod.toBuilder().nodeName("n2").build().spec().nodeName()).isEqualTo("n2");
  }

  @Test
  void resources_limitWithoutRequest_requestDefaultsToLimit() {
    ResourceRequirements r = ResourceRequirements.of(rl("memory", "1Gi"), rl("cpu", "2", "memory", "2Gi"));
    assertThat(r.requests().get("cpu")).isEqualByComparingTo(r.limits().get("cpu"));
    assertThat(r.requests().get("memory").value()).isEqualTo(1L << 30);
  }

  @Test
  void podGroupName_noLabelOrEmpty_null() {
    assertThat(Pod.builder().name("a").container("c", "i", SMALL).build().podGroupName()).isNull();
    assertThat(Pod.builder().name("a").label(Pod.POD_GROUP_LABEL, "").container("c", "i", SMALL).build()
        .podGroupName()).isNull();
  }

  @Test
  void isTerminal_byPhase() {
    Pod pod = Pod.builder().name("a").container("c", "i", SMALL).build();
    assertThat(pod.isTerminal()).isFalse();
    assertThat(pod.withStatus(PodStatus.of(PodPhase.Running)).isTerminal()).isFalse();
    assertThat(pod.withStatus(PodStatus.of(PodPhase.Unknown)).isTerminal()).isFalse();
    assertThat(pod.withStatus(PodStatus.of(PodPhase.Succeeded)).isTerminal()).isTrue();
    assertThat(pod.withStatus(PodStatus.of(PodPhase.Failed)).isTerminal()).isTrue();
  }

  @Test
  void isReady_onlyReadyConditionTrue() {
    Pod pod = Pod.builder().name("a").container("c", "i", SMALL).build();
    PodStatus running = PodStatus.of(PodPhase.Running);
    assertThat(pod.isReady()).isFalse();
    assertThat(pod.withStatus(running).isReady()).isFalse();
    for (ConditionStatus s : ConditionStatus.values()) {
      Pod withReady = pod.withStatus(running.withCondition(PodCondition.of(PodCondition.READY, s, "", "", null)));
      assertThat(withReady.isReady()).as("Ready=%s", s).isEqualTo(s == ConditionStatus.True);
    }
    // another condition True is not Ready
    assertThat(pod.withStatus(running.withCondition(PodCondition.of(PodCondition.CONTAINERS_READY,
        ConditionStatus.True, "", "", null))).isReady()).isFalse();
  }

  @Test
  void withStatusOf_otherPod_takesOnlyStatus() {
    Pod mine = Pod.builder().name("a").label("v", "1").container("c", "i", SMALL).build();
    PodStatus running = PodStatus.of(PodPhase.Running).withNominatedNodeName("n1")
        .withCondition(PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", Instant.EPOCH));
    Pod theirs = Pod.builder().name("b").label("v", "2").container("other", "j", SMALL).priority(9)
        .status(running).build();

    Pod merged = mine.withStatusOf(theirs);

    assertThat(merged.metadata()).isEqualTo(mine.metadata());
    assertThat(merged.spec()).isEqualTo(mine.spec());
    assertThat(merged.status()).isEqualTo(running);
    assertThat(merged.status().condition(PodCondition.READY)).isNotNull();
    assertThat(merged.status().condition(PodCondition.POD_SCHEDULED)).isNull();
  }

  @Test
  void withCondition_sameType_replaces() {
    PodStatus s = PodStatus.PENDING
        .withCondition(PodCondition.of(PodCondition.POD_SCHEDULED, ConditionStatus.False, "Unschedulable", "x", null))
        .withCondition(PodCondition.of(PodCondition.POD_SCHEDULED, ConditionStatus.True, "", "", null));
    assertThat(s.conditions()).hasSize(1);
    assertThat(s.conditions().get(0).status()).isEqualTo(ConditionStatus.True);
  }

  @Test
  void withMetadataAndSpec_keepTheRest() {
    Pod pod = Pod.builder().name("a").container("c", "i", SMALL).phase(PodPhase.Running).build();
    Pod renamed = pod.withMetadata(ObjectMeta.of("default", "b"));
    assertThat(renamed.metadata().name()).isEqualTo("b");
    assertThat(renamed.status()).isEqualTo(pod.status());
    Pod bound = pod.withNodeName("n1");
    assertThat(bound.spec().nodeName()).isEqualTo("n1");
    assertThat(bound.metadata()).isEqualTo(pod.metadata());
  }

  @Test
  void validate_manyViolations_reportsEveryOneAtOnce() {
    ResourceList negative = rl("cpu", "-1");
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder().name("web-0")
        .container("app", "nginx", SMALL)
        .container("app", "", rl("cpu", "2"), rl("cpu", "1"))
        .container("side", "x", negative)
        .build());

    assertThat(fields(e)).containsExactly(
        "spec.containers[1].name",
        "spec.containers[1].image",
        "spec.containers[1].resources.requests.cpu",
        "spec.containers[2].resources.requests.cpu");
    assertThat(e.violations()).allSatisfy(v -> assertThat(v.object()).isEqualTo("Pod default/web-0"));
    assertThat(e.violations().get(0).rule()).isEqualTo("Duplicate value");
    assertThat(e.violations().get(1).rule()).isEqualTo("Required value");
    assertThat(e.violations().get(2).rule()).isEqualTo("must be less than or equal to cpu limit of 1");
    assertThat(e.violations().get(2).value()).isEqualTo("2");
    assertThat(e.violations().get(3).rule()).isEqualTo("must be greater than or equal to 0");
    assertThat(e.getMessage()).startsWith("4 violations:")
        .contains("Pod default/web-0: spec.containers[1].resources.requests.cpu \"2\" must be less than or equal"
            + " to cpu limit of 1");
  }

  @Test
  void validate_gpuRequestDifferentFromLimit_rejected() {
    assertThatThrownBy(() -> Pod.builder().name("g").container("c", "i", rl("nvidia.com/gpu", "1"),
        rl("nvidia.com/gpu", "2")).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.containers[0].resources.requests.nvidia.com/gpu \"1\" must be equal to"
            + " nvidia.com/gpu limit of 2");
  }

  @Test
  void validate_gpuRequestWithoutLimit_rejectedAsInKubernetes() {
    Container c = Container.of("c", "i", ResourceRequirements.of(rl("nvidia.com/gpu", "1"), ResourceList.EMPTY));
    assertThatThrownBy(() -> Pod.builder().name("g").container(c).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Limit must be set for non overcommitable resources");
  }

  @Test
  void validate_fractionalGpu_mustBeInteger() {
    assertThatThrownBy(() -> Pod.builder().name("g").container("c", "i", rl("nvidia.com/gpu", "500m")).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("must be an integer");
  }

  @Test
  void validate_cpuRequestBelowLimit_accepted() {
    Pod pod = Pod.builder().name("burst").container("c", "i", rl("cpu", "500m"), rl("cpu", "2")).build();
    assertThat(pod.effectiveRequests().milliCpu()).isEqualTo(500);
  }

  @Test
  void validate_badNames_useKubernetesWording() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder().name("Web_0")
        .namespace("Bad.NS").container("App", "i", SMALL).build());
    assertThat(fields(e)).containsExactly("metadata.name", "metadata.namespace", "spec.containers[0].name");
    assertThat(e.violations().get(0).rule()).startsWith("a lowercase RFC 1123 subdomain must consist of");
    assertThat(e.violations().get(1).rule()).startsWith("a lowercase RFC 1123 label must consist of");
    assertThat(e.violations().get(2).value()).isEqualTo("App");
  }

  @Test
  void validate_missingNameAndContainers_required() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder().build());
    assertThat(e.violations()).extracting(Violation::field, Violation::rule).containsExactly(
        org.assertj.core.groups.Tuple.tuple("metadata.name", "Required value: name or generateName is required"),
        org.assertj.core.groups.Tuple.tuple("spec.containers", "Required value"));
    assertThat(e.violations().get(0).object()).isEqualTo("Pod default/<unnamed>");
  }

  @Test
  void validate_initAndRegularShareName_duplicate() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder().name("p")
        .initContainer("app", "i", SMALL).container("app", "i", SMALL).build());
    assertThat(fields(e)).containsExactly("spec.containers[0].name");
  }

  @Test
  void validate_restartPolicyOnRegularContainer_forbidden() {
    Container c = Container.sidecar("app", "i", SMALL);
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> Pod.builder().name("p").container(c).build());
    assertThat(e.violations().get(0).rule()).isEqualTo("Forbidden: may not be set for non-init containers");
  }

  @Test
  void validate_podLevelFields_checked() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder().name("p")
        .container("c", "i", SMALL)
        .overhead(rl("cpu", "-100m"))
        .toleration(new Toleration("k", TolerationOperator.Exists, "v", null, null))
        .toleration(new Toleration("", TolerationOperator.Equal, "", TaintEffect.NoSchedule, 5L))
        .topologySpreadConstraint(TopologySpreadConstraint.of(0, "zone", UnsatisfiableConstraintAction.DoNotSchedule,
            LabelSelectorFixtures.app("web")))
        .topologySpreadConstraint(new TopologySpreadConstraint(1, "", UnsatisfiableConstraintAction.ScheduleAnyway,
            null, 2, io.fleetkit.api.scheduling.NodeInclusionPolicy.Honor,
            io.fleetkit.api.scheduling.NodeInclusionPolicy.Ignore, List.of()))
        .volume(Volume.persistentVolumeClaim("data", ""))
        .volume(Volume.emptyDir("data"))
        .terminationGracePeriodSeconds(-1)
        .activeDeadlineSeconds(0L)
        .build());
    assertThat(fields(e)).containsExactly(
        "spec.overhead.cpu",
        "spec.tolerations[0].operator",
        "spec.tolerations[1].operator",
        "spec.tolerations[1].effect",
        "spec.topologySpreadConstraints[0].maxSkew",
        "spec.topologySpreadConstraints[1].topologyKey",
        "spec.topologySpreadConstraints[1].minDomains",
        "spec.volumes[0].persistentVolumeClaim.claimName",
        "spec.volumes[1].name",
        "spec.terminationGracePeriodSeconds",
        "spec.activeDeadlineSeconds");
    assertThat(e.violations().get(1).rule()).isEqualTo("value must be empty when `operator` is 'Exists'");
    assertThat(e.violations().get(6).rule())
        .isEqualTo("can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway");
    assertThat(e.violations().get(10).rule()).isEqualTo("must be between 1 and 2147483647, inclusive");
  }

  @Test
  void validate_gtToleration_nonNumericValueRejectedWithPodAndField() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder().name("p")
        .namespace("ns").container("c", "i", SMALL)
        .toleration(Toleration.greaterThan("node.kubernetes.io/sla", 950, TaintEffect.NoSchedule))
        .toleration(new Toleration("node.kubernetes.io/sla", TolerationOperator.Lt, "high", null, null))
        .build());
    assertThat(fields(e)).containsExactly("spec.tolerations[1].value");
    assertThat(e.violations().get(0).rule()).isEqualTo("must be a valid decimal integer in canonical form");
    assertThat(e.getMessage()).contains("ns/p").contains("spec.tolerations[1].value").contains("high");
  }

  @Test
  void schedulerName_emptyInCanonicalConstructor_defaulted() {
    PodSpec s = PodSpec.builder().schedulerName("").container("c", "i", SMALL).build();
    assertThat(s.schedulerName()).isEqualTo(PodSpec.DEFAULT_SCHEDULER);
  }

  @Test
  void validate_badLabelsNodeSelectorAndKeys_upstreamWording() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder().name("p")
        .label("bad key", "v").nodeSelector("zone", "not valid!")
        .toleration(Toleration.exists("a/b/c", null))
        .topologySpreadConstraint(TopologySpreadConstraint.of(1, "-zone", UnsatisfiableConstraintAction.DoNotSchedule,
            LabelSelectorFixtures.app("web")))
        .container("c", "i", SMALL).build());
    assertThat(fields(e)).containsExactly("metadata.labels", "spec.nodeSelector", "spec.tolerations[0].key",
        "spec.topologySpreadConstraints[0].topologyKey");
    assertThat(e.violations().get(0).rule()).startsWith("name part must consist of alphanumeric characters");
    assertThat(e.violations().get(1).rule()).startsWith("a valid label must be an empty string or consist of");
  }

  @Test
  void validate_namespaceWithDots_mustNotContainDots() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Pod.builder().name("p")
        .namespace("team.a").container("c", "i", SMALL).build());
    assertThat(e.violations()).extracting(Violation::rule).containsExactly("must not contain dots");
  }

  @Test
  void derivedPriorityAndTolerations_checkTheChangedFields_asTheFullValidationWould() {
    Pod pod = Pod.builder().name("web-0").container("app", "nginx", SMALL).build();
    Pod resolved = pod.withResolvedPriority(1000, "high", PreemptionPolicy.Never);
    assertThat(resolved.spec()).isEqualTo(pod.spec().toBuilder().priority(1000).priorityClassName("high")
        .preemptionPolicy(PreemptionPolicy.Never).build());
    ValidationException badClass = catchThrowableOfType(ValidationException.class,
        () -> pod.withResolvedPriority(1, "Not_A_Name", PreemptionPolicy.Never));
    assertThat(fields(badClass)).containsExactly("spec.priorityClassName");

    Toleration ok = new Toleration("node.kubernetes.io/not-ready", TolerationOperator.Exists, "",
        TaintEffect.NoExecute, 300L);
    assertThat(pod.withTolerations(List.of(ok)).spec().tolerations()).containsExactly(ok);
    Toleration bad = new Toleration("", TolerationOperator.Equal, "x", TaintEffect.NoExecute, 300L);
    ValidationException badToleration = catchThrowableOfType(ValidationException.class,
        () -> pod.withTolerations(List.of(ok, bad)));
    assertThat(fields(badToleration)).contains("spec.tolerations[1].operator");
  }
  @Test
  void copies_unchangedValidatedParts_keptAndEqual_changedMetadataStillChecked() {
    Pod pod = Pod.builder().namespace("ml").name("a").label("app", "x").container("c", "i", SMALL).build();
    Pod running = pod.withStatus(PodStatus.of(PodPhase.Running));
    assertThat(running.spec()).isSameAs(pod.spec());
    assertThat(running.withStatus(pod.status())).isEqualTo(pod);
    assertThat(pod.withStatusOf(running)).isEqualTo(running);
    ObjectMeta m = pod.metadata();
    ObjectMeta versioned = new ObjectMeta(m.name(), m.namespace(), "u", "9", 1, m.labels(), m.annotations(),
        List.of(), List.of(), null, null);
    assertThat(pod.withMetadata(versioned).metadata().resourceVersion()).isEqualTo("9");
    ObjectMeta badName = new ObjectMeta("A_1", m.namespace(), "u", "9", 1, m.labels(), m.annotations(), List.of(),
        List.of(), null, null);
    assertThat(catchThrowableOfType(ValidationException.class, () -> pod.withMetadata(badName)).violations())
        .extracting(Violation::field).containsExactly("metadata.name");
    ObjectMeta badLabel = m.toBuilder().label("bad key!", "v").build();
    assertThatThrownBy(() -> pod.withMetadata(badLabel)).isInstanceOf(ValidationException.class)
        .hasMessageContaining("metadata.labels");
  }
}
