package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.apps.ClaimTemplate;
import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.PodManagementPolicy;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetUpdateStrategy;
import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The update rules of the workload kinds.
 *
 * <ul>
 *   <li>kubernetes {@code pkg/apis/apps/validation/validation_test.go} at commit
 *       afd5df58bd7dcb7b8c3f00e2065936bd0c508b77: {@code TestValidateStatefulSetUpdate} 16 of 19 (left out:
 *       "update name" and "update namespace", the store key; "update pod management policy 1", whose old value is
 *       unset, which FleetKit defaults to OrderedReady, the new value), {@code TestValidateControllerRevisionUpdate}
 *       3 of 4 (left out: "invalid", an update without resourceVersion, which FleetKit's store accepts as an
 *       unconditional update), {@code TestValidateDeploymentUpdate} 3 of 5 and {@code TestValidateReplicaSetUpdate}
 *       3 of 5 (left out in each: "invalid selector" and "invalid pod", which count upstream's errors for an invalid
 *       new object; FleetKit refuses such an object when it is built, with its own count).</li>
 *   <li>kubernetes {@code pkg/apis/batch/validation/validation_test.go} at commit
 *       019f335d6b88bcf40180069e160f22f880afd409: {@code TestValidateJobUpdate} 4 of 5 (left out: "immutable pod
 *       template", which empties the template's containers: FleetKit cannot build that Job).</li>
 * </ul>
 *
 * <p>The immutable selectors of Deployment and ReplicaSet come from apps/v1's registry strategies ({@code
 * pkg/registry/apps/deployment/strategy.go}, {@code .../replicaset/strategy.go}), the elastic Indexed Job and the
 * suspended Job's scheduling directives from {@code ValidateJobSpecUpdate}; their tests here are FleetKit's own.
 */
final class WorkloadUpdateRulesTest {
  private static final Map<String, String> VALID_LABELS = Map.of("a", "b");
  private static final Map<String, String> VALID_LABELS_2 = Map.of("c", "d");

  // ------------------------------------------------------------------------------------------ StatefulSet

  private static PodSpec podSpec(Container... containers) {
    PodSpec.Builder b = PodSpec.builder().restartPolicy(RestartPolicy.Always);
    for (Container c : containers) {
      b.container(c);
    }
    return b.build();
  }

  private static final PodSpec VALID_POD_SPEC = podSpec(Container.of("abc", "image", ResourceList.EMPTY));
  private static final PodSpec ADD_CONTAINERS_SPEC = podSpec(Container.of("abc", "image", ResourceList.EMPTY),
      Container.of("def", "image2", ResourceList.EMPTY));

  /** Upstream's {@code mkStatefulSet}: "abc" in "default", selecting the template's labels. */
  private static StatefulSet.Builder set(PodSpec spec) {
    return StatefulSet.builder().name("abc").namespace("default").matchLabels(VALID_LABELS).podSpec(spec);
  }

  private static ClaimTemplate pvc(String name, String storageClass, String size) {
    return ClaimTemplate.of(name, storageClass, ResourceList.builder().put("storage", size).build());
  }

  @Test
  void statefulSet_successCases_accepted() {
    ok(set(VALID_POD_SPEC).build(), set(VALID_POD_SPEC).replicas(3).build()); // update replica count
    ok(set(VALID_POD_SPEC).build(), set(ADD_CONTAINERS_SPEC).build()); // update containers 1
    ok(set(ADD_CONTAINERS_SPEC).build(), set(VALID_POD_SPEC).build()); // update containers 2
    ok(set(VALID_POD_SPEC).build(), set(VALID_POD_SPEC).updateStrategy(StatefulSetUpdateStrategy.ON_DELETE)
        .build()); // update update strategy
    ok(set(VALID_POD_SPEC).build(), set(VALID_POD_SPEC).minReadySeconds(10).build()); // min ready seconds 1
    ok(set(VALID_POD_SPEC).minReadySeconds(5).build(), set(VALID_POD_SPEC).minReadySeconds(10).build()); // 2
    StatefulSet finalized = set(VALID_POD_SPEC).build();
    finalized = finalized.withMetadata(finalized.metadata().toBuilder().finalizer("final").build());
    ok(finalized, set(VALID_POD_SPEC).build()); // update existing instance with now-invalid name (finalizers)
    // update containers and pvc retention policy 1
    ok(set(ADD_CONTAINERS_SPEC).build(), set(VALID_POD_SPEC).persistentVolumeClaimRetentionPolicy(
        PersistentVolumeClaimRetentionPolicyType.Retain, PersistentVolumeClaimRetentionPolicyType.Retain).build());
    // update containers and pvc retention policy 2: upstream's old policy sets whenScaled only (whenDeleted is
    // empty, defaulted to Retain in apps/v1)
    ok(set(VALID_POD_SPEC).persistentVolumeClaimRetentionPolicy(PersistentVolumeClaimRetentionPolicyType.Retain,
        PersistentVolumeClaimRetentionPolicyType.Retain).build(), set(VALID_POD_SPEC).build());
    // update existing instance with .spec.ordinals.start
    ok(set(VALID_POD_SPEC).build(), set(VALID_POD_SPEC).startOrdinal(3).build());
  }

  @Test
  void statefulSet_retentionPolicyAndOrdinals_updatable_notInForbiddenList() {
    StatefulSet old = set(VALID_POD_SPEC).replicas(2).build();
    StatefulSet updated = set(VALID_POD_SPEC).replicas(2).startOrdinal(5).persistentVolumeClaimRetentionPolicy(
        PersistentVolumeClaimRetentionPolicyType.Delete, PersistentVolumeClaimRetentionPolicyType.Delete).build();
    ok(old, updated);
    ok(updated, old);
    // both changed next to a forbidden change: only the forbidden component is named
    assertThatThrownBy(() -> UpdateChecks.update(old, set(VALID_POD_SPEC).replicas(2).startOrdinal(5)
        .persistentVolumeClaimRetentionPolicy(PersistentVolumeClaimRetentionPolicyType.Delete,
            PersistentVolumeClaimRetentionPolicyType.Retain).serviceName("other").build(), false))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("'ordinals'").hasMessageContaining("'persistentVolumeClaimRetentionPolicy'")
        .hasMessageContaining("changed: spec.serviceName")
        .hasMessageNotContaining("changed: spec.ordinals")
        .hasMessageNotContaining("spec.persistentVolumeClaimRetentionPolicy,");
  }

  @Test
  void statefulSet_errorCases_refusedOnSpec() {
    // update selector
    refused(set(VALID_POD_SPEC).build(),
        () -> StatefulSet.builder().name("abc").namespace("default").matchLabels(VALID_LABELS_2)
            .podSpec(VALID_POD_SPEC).build(), "spec");
    // update pod management policy 2
    refused(set(VALID_POD_SPEC).podManagementPolicy(PodManagementPolicy.Parallel).build(),
        () -> set(VALID_POD_SPEC).podManagementPolicy(PodManagementPolicy.OrderedReady).build(), "spec");
    // update to negative replicas: refused when built, on spec.replicas
    refused(set(VALID_POD_SPEC).build(), () -> set(VALID_POD_SPEC).replicas(-1).build(), "spec.replicas");
    // update pvc template size
    refused(set(VALID_POD_SPEC).volumeClaimTemplate(pvc("pvc-abc", "storage-class1", "1Gi")).build(),
        () -> set(VALID_POD_SPEC).volumeClaimTemplate(pvc("pvc-abc", "storage-class1", "2Gi")).build(), "spec");
    // update pvc template storage class
    refused(set(VALID_POD_SPEC).volumeClaimTemplate(pvc("pvc-abc", "storage-class1", "1Gi")).build(),
        () -> set(VALID_POD_SPEC).volumeClaimTemplate(pvc("pvc-abc", "storage-class2", "1Gi")).build(), "spec");
    // add new pvc template
    refused(set(VALID_POD_SPEC).volumeClaimTemplate(pvc("pvc-abc", "storage-class1", "1Gi")).build(),
        () -> set(VALID_POD_SPEC).volumeClaimTemplate(pvc("pvc-abc", "storage-class1", "1Gi"))
            .volumeClaimTemplate(pvc("pvc-abc2", "storage-class2", "2Gi")).build(), "spec");
  }

  @Test
  void statefulSet_revisionHistoryLimit_mayChange_serviceNameMayNot() {
    ok(set(VALID_POD_SPEC).build(), set(VALID_POD_SPEC).revisionHistoryLimit(3).build());
    assertThatThrownBy(() -> UpdateChecks.update(set(VALID_POD_SPEC).serviceName("a").build(),
        set(VALID_POD_SPEC).serviceName("b").build(), false))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("StatefulSet default/abc: spec Forbidden: updates to statefulset spec for fields other"
            + " than 'replicas'")
        .hasMessageContaining("changed: spec.serviceName");
  }

  // ------------------------------------------------------------------------------------ ControllerRevision

  @Test
  void controllerRevision_upstreamCases() {
    PodTemplateSpec data = PodTemplateSpec.of(VALID_LABELS, VALID_POD_SPEC);
    PodTemplateSpec modified = PodTemplateSpec.of(VALID_LABELS, ADD_CONTAINERS_SPEC);
    ControllerRevision valid = ControllerRevision.of("validns", "validname", data, 0, null);
    ok(valid, valid); // valid
    refused(valid, () -> ControllerRevision.of("validns", "validname", modified, 0, null), "data"); // changed data
    ok(valid, ControllerRevision.of("validns", "validname", data, 1, null)); // changed revision
  }

  // ------------------------------------------------------------------------------- Deployment, ReplicaSet

  @Test
  void deploymentAndReplicaSet_upstreamCases() {
    PodSpec readWriteVolume = VALID_POD_SPEC; // a GCE PD volume in upstream: any template change will do
    // positive replicas, Read-write volume verification
    ok(deployment(VALID_LABELS).build(), deployment(VALID_LABELS).replicas(1).podSpec(readWriteVolume).build());
    ok(deployment(VALID_LABELS).build(), deployment(VALID_LABELS).replicas(2).podSpec(readWriteVolume).build());
    // negative replicas: refused when built, one violation on spec.replicas
    assertThatThrownBy(() -> deployment(VALID_LABELS).replicas(-1).build())
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(((ValidationException) e).violations()).extracting(Violation::field)
            .containsExactly("spec.replicas"));
    ok(replicaSet(VALID_LABELS).build(), replicaSet(VALID_LABELS).replicas(3).build());
    ok(replicaSet(VALID_LABELS).build(), replicaSet(VALID_LABELS).replicas(2).podSpec(readWriteVolume).build());
    assertThatThrownBy(() -> replicaSet(VALID_LABELS).replicas(-1).build())
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(((ValidationException) e).violations()).extracting(Violation::field)
            .containsExactly("spec.replicas"));
  }

  @Test
  void deploymentAndReplicaSet_selectorChange_refusedAsImmutable() {
    refused(deployment(VALID_LABELS).build(), () -> deployment(VALID_LABELS_2).build(), "spec.selector");
    refused(replicaSet(VALID_LABELS).build(), () -> replicaSet(VALID_LABELS_2).build(), "spec.selector");
    assertThatThrownBy(() -> UpdateChecks.update(deployment(VALID_LABELS).build(),
        deployment(VALID_LABELS_2).build(), false))
        .hasMessageContaining("Deployment default/abc: spec.selector")
        .hasMessageContaining("field is immutable");
  }

  private static Deployment.Builder deployment(Map<String, String> labels) {
    return Deployment.builder().name("abc").namespace("default").matchLabels(labels).podSpec(VALID_POD_SPEC);
  }

  private static ReplicaSet.Builder replicaSet(Map<String, String> labels) {
    return ReplicaSet.builder().name("abc").namespace("default").matchLabels(labels).podSpec(VALID_POD_SPEC);
  }

  // ------------------------------------------------------------------------------------------------- Job

  private static final PodSpec JOB_POD = PodSpec.builder().restartPolicy(RestartPolicy.OnFailure)
      .container(Container.of("abc", "image", ResourceList.EMPTY)).build();
  private static final LabelSelector GENERATED = LabelSelector.of(Map.of("controller-uid", "1a2b3c"));

  private static Job.Builder job() {
    return Job.builder().name("abc").namespace("default").selector(GENERATED)
        .template(PodTemplateSpec.of(GENERATED.matchLabels(), JOB_POD));
  }

  @Test
  void job_upstreamCases() {
    // mutable fields
    ok(job().parallelism(5).completions(null).activeDeadlineSeconds(2L).ttlSecondsAfterFinished(1).build(),
        job().parallelism(2).completions(null).activeDeadlineSeconds(3L).ttlSecondsAfterFinished(2).build());
    // immutable completion
    refused(job().parallelism(1).completions(null).build(), () -> job().parallelism(1).completions(1).build(),
        "spec.completions");
    // immutable selector: upstream adds foo=bar to the selector alone; FleetKit refuses, when built, a selector the
    // template's labels do not meet, so the added requirement here is one they meet (foo NotIn [bar])
    refused(job().build(), () -> job().selector(new LabelSelector(GENERATED.matchLabels(), List.of(
        new LabelSelectorRequirement("foo", LabelSelectorOperator.NotIn, List.of("bar"))))).build(), "spec.selector");
    // immutable completion mode
    refused(job().completionMode(CompletionMode.Indexed).completions(2).build(),
        () -> job().completionMode(CompletionMode.NonIndexed).completions(2).build(), "spec.completionMode");
  }

  @Test
  void job_indexedCompletions_changeOnlyInTandemWithParallelism() {
    Job old = job().completionMode(CompletionMode.Indexed).completions(2).parallelism(2).build();
    ok(old, job().completionMode(CompletionMode.Indexed).completions(4).parallelism(4).build());
    refused(old, () -> job().completionMode(CompletionMode.Indexed).completions(4).parallelism(2).build(),
        "spec.completions");
  }

  @Test
  void job_suspendedNeverStarted_mayChangeSchedulingDirectives_otherwiseTemplateImmutable() {
    Toleration t = Toleration.exists("gpu", TaintEffect.NoSchedule);
    PodSpec directed = JOB_POD.toBuilder().nodeSelector("zone", "a").toleration(t).build();
    Job suspended = job().suspend(true).build();
    Job moved = job().suspend(true).template(PodTemplateSpec.of(GENERATED.matchLabels(), directed)).build();
    ok(suspended, moved);
    Job started = suspended.withStatus(new JobStatus(0, 0, 0, null, List.of(), Instant.EPOCH, null, ""));
    refused(started, () -> moved, "spec.template");
    Job running = job().build();
    refused(running, () -> job().template(PodTemplateSpec.of(GENERATED.matchLabels(), directed)).build(),
        "spec.template");
    PodSpec otherImage = JOB_POD.toBuilder().containers(List.of(Container.of("abc", "image2", ResourceList.EMPTY)))
        .build();
    refused(suspended, () -> job().suspend(true).template(PodTemplateSpec.of(GENERATED.matchLabels(), otherImage))
        .build(), "spec.template");
  }

  @Test
  void job_podFailurePolicy_immutable() {
    PodSpec never = JOB_POD.toBuilder().restartPolicy(RestartPolicy.Never).build();
    io.fleetkit.api.batch.PodFailurePolicy ignore = io.fleetkit.api.batch.PodFailurePolicy.of(
        io.fleetkit.api.batch.PodFailurePolicyRule.onPodConditions(io.fleetkit.api.batch.PodFailurePolicyAction.Ignore,
            io.fleetkit.api.batch.PodFailurePolicyOnPodConditionsPattern.of("DisruptionTarget")));
    Job old = job().template(PodTemplateSpec.of(GENERATED.matchLabels(), never)).podFailurePolicy(ignore).build();
    ok(old, job().template(PodTemplateSpec.of(GENERATED.matchLabels(), never)).podFailurePolicy(ignore).build());
    refused(old, () -> job().template(PodTemplateSpec.of(GENERATED.matchLabels(), never)).build(),
        "spec.podFailurePolicy");
  }

  @Test
  void job_suspendedNeverStarted_mayChangeSchedulingGates() {
    // upstream's JobMutableSchedulingDirectives: scheduling gates are among the directives (Kueue adds and removes
    // its topology gate on a suspended Job)
    PodSpec gated = JOB_POD.toBuilder().schedulingGates(List.of("kueue.x-k8s.io/topology")).build();
    Job suspended = job().suspend(true).template(PodTemplateSpec.of(GENERATED.matchLabels(), gated)).build();
    ok(suspended, job().suspend(true).build());
    ok(job().suspend(true).build(), suspended);
    Job started = suspended.withStatus(new JobStatus(0, 0, 0, null, List.of(), Instant.EPOCH, null, ""));
    refused(started, () -> job().suspend(true).build(), "spec.template");
  }

  @Test
  void job_managedBy_immutable() {
    Job external = job().managedBy("kueue.x-k8s.io/multikueue").build();
    ok(external, job().managedBy("kueue.x-k8s.io/multikueue").build());
    refused(external, () -> job().build(), "spec.managedBy");
    refused(job().build(), () -> job().managedBy("example.com/foo").build(), "spec.managedBy");
  }

  // --------------------------------------------------------------------------------------------- helpers

  private static void ok(ApiObject<?> old, ApiObject<?> updated) {
    assertThatCode(() -> UpdateChecks.update(old, updated, false)).doesNotThrowAnyException();
  }

  /** The update (or, where FleetKit refuses the new object when built, its building) fails on {@code field}. */
  private static void refused(ApiObject<?> old, Supplier<ApiObject<?>> updated, String field) {
    assertThatThrownBy(() -> UpdateChecks.update(old, updated.get(), false))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(((ValidationException) e).violations()).extracting(Violation::field)
            .contains(field));
  }
}
