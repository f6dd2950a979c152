package io.fleetkit.store.etcd.internal;

import io.fleetkit.api.apps.DaemonSetSpec;
import io.fleetkit.api.apps.DaemonSetUpdateStrategy;
import io.fleetkit.api.apps.DaemonSetUpdateStrategyType;
import io.fleetkit.api.apps.DeploymentSpec;
import io.fleetkit.api.apps.DeploymentStrategy;
import io.fleetkit.api.apps.DeploymentStrategyType;
import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.PodManagementPolicy;
import io.fleetkit.api.apps.ReplicaSetSpec;
import io.fleetkit.api.core.ReplicationControllerSpec;
import io.fleetkit.api.apps.StatefulSetOrdinals;
import io.fleetkit.api.apps.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.fleetkit.api.apps.StatefulSetSpec;
import io.fleetkit.api.apps.StatefulSetUpdateStrategy;
import io.fleetkit.api.apps.StatefulSetUpdateStrategyType;
import io.fleetkit.api.autoscaling.ContainerControlledValues;
import io.fleetkit.api.autoscaling.ContainerResourcePolicy;
import io.fleetkit.api.autoscaling.ContainerScalingMode;
import io.fleetkit.api.autoscaling.HPAScalingRules;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.NodePoolAutoscalingOptions;
import io.fleetkit.api.autoscaling.NodePoolSpec;
import io.fleetkit.api.autoscaling.PodUpdatePolicy;
import io.fleetkit.api.autoscaling.ScalingPolicySelect;
import io.fleetkit.api.autoscaling.UpdateMode;
import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.ConcurrencyPolicy;
import io.fleetkit.api.batch.CronJobSpec;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.core.DNSPolicy;
import io.fleetkit.api.core.Endpoints;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
import io.fleetkit.api.core.PersistentVolumeMode;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeReclaimPolicy;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.PersistentVolumeStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceTrafficPolicy;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.core.SessionAffinity;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.gateway.AllowedRoutes;
import io.fleetkit.api.gateway.Fraction;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPCORSFilter;
import io.fleetkit.api.gateway.HTTPHeaderMatch;
import io.fleetkit.api.gateway.HTTPPathMatch;
import io.fleetkit.api.gateway.HTTPQueryParamMatch;
import io.fleetkit.api.gateway.HTTPRequestRedirectFilter;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.gateway.SecretObjectReference;
import io.fleetkit.api.gateway.ValueMatchType;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.AnalysisRunStatus;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.RolloutSpec;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.PodGroupSpec;
import io.fleetkit.api.scheduling.PodGroupStatus;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.simulation.QueueScaler;
import io.fleetkit.api.simulation.ScenarioCohort;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioScheduler;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.VolumeBindingMode;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What a record component is when its stored JSON has no value for it (the property is missing, written by a
 * FleetKit that did not have it yet, or is {@code null}): the value the kind gives when the field is not set, as the
 * Kubernetes API server decodes an object stored by an older version (Go's zero value, then the kind's defaults).
 *
 * <p>In order: a default of the kind listed in {@link #KIND_DEFAULTS} (the value the kind's builder starts from,
 * Kubernetes' {@code SetDefaults_*}); {@code null} for a {@code @Nullable} component; an empty collection, resource
 * list or {@code Optional}; {@code ""} for a string; zero for a duration; zero or {@code false} for a primitive; for a record, the record
 * whose own components are all unset, if its constructor accepts that. Anything else (an enum, a time, a duration,
 * a quantity, one of several record types) has no unset value: the component is required, and a stored object
 * without it cannot be read. Computed once per record type, when the codec first meets it.
 */
final class UnsetValues {
  /** Marks a required component: it has no value when unset. */
  static final Object REQUIRED = new Object() {
    @Override
    public String toString() {
      return "REQUIRED";
    }
  };

  /**
   * Defaults of the kinds that are not the zero value of their type, by record type and component name: the value the
   * kind's builder starts from, and for the kinds without a builder the one the Kubernetes manifest reader gives a
   * field the manifest leaves out (Kubernetes' {@code SetDefaults_*}). {@code ObjectCodecEvolutionTest} checks them
   * against the builders.
   */
  private static final Map<Class<?>, Map<String, Object>> KIND_DEFAULTS = new HashMap<>();

  static {
    // core/v1
    kindDefault(PodSpec.class, "preemptionPolicy", PreemptionPolicy.PreemptLowerPriority);
    kindDefault(PodSpec.class, "schedulerName", PodSpec.DEFAULT_SCHEDULER);
    kindDefault(PodSpec.class, "restartPolicy", RestartPolicy.Always);
    kindDefault(PodSpec.class, "terminationGracePeriodSeconds", PodSpec.DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
    kindDefault(PodSpec.class, "dnsPolicy", DNSPolicy.ClusterFirst);
    kindDefault(PodStatus.class, "phase", PodStatus.PENDING.phase());
    kindDefault(Probe.class, "periodSeconds", Probe.DEFAULT_PERIOD_SECONDS);
    kindDefault(Probe.class, "timeoutSeconds", Probe.DEFAULT_TIMEOUT_SECONDS);
    kindDefault(Probe.class, "successThreshold", Probe.DEFAULT_SUCCESS_THRESHOLD);
    kindDefault(Probe.class, "failureThreshold", Probe.DEFAULT_FAILURE_THRESHOLD);
    kindDefault(ServiceSpec.class, "type", ServiceType.ClusterIP);
    kindDefault(ServiceSpec.class, "sessionAffinity", SessionAffinity.None);
    kindDefault(ServiceSpec.class, "sessionAffinityTimeoutSeconds", ServiceSpec.DEFAULT_AFFINITY_TIMEOUT);
    kindDefault(ServiceSpec.class, "internalTrafficPolicy", ServiceTrafficPolicy.Cluster);
    kindDefault(ServiceSpec.class, "externalTrafficPolicy", ServiceTrafficPolicy.Cluster);
    kindDefault(PersistentVolumeSpec.class, "persistentVolumeReclaimPolicy", PersistentVolumeReclaimPolicy.Retain);
    kindDefault(PersistentVolumeSpec.class, "volumeMode", PersistentVolumeMode.Filesystem);
    kindDefault(PersistentVolumeClaimSpec.class, "volumeMode", PersistentVolumeMode.Filesystem);
    kindDefault(PersistentVolumeStatus.class, "phase", PersistentVolumePhase.Pending);
    kindDefault(PersistentVolumeClaimStatus.class, "phase", PersistentVolumeClaimPhase.Pending);
    kindDefault(NamespaceStatus.class, "phase", NamespacePhase.Active);
    kindDefault(ReplicationControllerSpec.class, "replicas", 1);
    kindDefault(ServicePort.class, "protocol", ServiceProtocol.TCP);
    kindDefault(EndpointPort.class, "protocol", ServiceProtocol.TCP);
    kindDefault(Endpoints.Port.class, "protocol", ServiceProtocol.TCP);
    // apps/v1
    kindDefault(DeploymentSpec.class, "replicas", 1);
    kindDefault(DeploymentSpec.class, "strategy", DeploymentStrategy.ROLLING_UPDATE);
    kindDefault(DeploymentSpec.class, "revisionHistoryLimit", DeploymentSpec.DEFAULT_REVISION_HISTORY_LIMIT);
    kindDefault(DeploymentSpec.class, "progressDeadlineSeconds", DeploymentSpec.DEFAULT_PROGRESS_DEADLINE_SECONDS);
    kindDefault(ReplicaSetSpec.class, "replicas", 1);
    kindDefault(StatefulSetSpec.class, "replicas", 1);
    kindDefault(StatefulSetSpec.class, "podManagementPolicy", PodManagementPolicy.OrderedReady);
    kindDefault(StatefulSetSpec.class, "updateStrategy", StatefulSetUpdateStrategy.ROLLING_UPDATE);
    kindDefault(StatefulSetSpec.class, "revisionHistoryLimit", 10);
    kindDefault(StatefulSetSpec.class, "persistentVolumeClaimRetentionPolicy",
        StatefulSetPersistentVolumeClaimRetentionPolicy.RETAIN);
    kindDefault(StatefulSetSpec.class, "ordinals", StatefulSetOrdinals.DEFAULT);
    kindDefault(DaemonSetSpec.class, "updateStrategy", DaemonSetUpdateStrategy.ROLLING_UPDATE);
    kindDefault(DaemonSetSpec.class, "revisionHistoryLimit", DaemonSetSpec.DEFAULT_REVISION_HISTORY_LIMIT);
    kindDefault(DeploymentStrategy.class, "type", DeploymentStrategyType.RollingUpdate);
    kindDefault(DaemonSetUpdateStrategy.class, "type", DaemonSetUpdateStrategyType.RollingUpdate);
    kindDefault(StatefulSetUpdateStrategy.class, "type", StatefulSetUpdateStrategyType.RollingUpdate);
    kindDefault(StatefulSetPersistentVolumeClaimRetentionPolicy.class, "whenDeleted",
        PersistentVolumeClaimRetentionPolicyType.Retain);
    kindDefault(StatefulSetPersistentVolumeClaimRetentionPolicy.class, "whenScaled",
        PersistentVolumeClaimRetentionPolicyType.Retain);
    // batch/v1
    kindDefault(JobSpec.class, "completionMode", CompletionMode.NonIndexed);
    kindDefault(JobSpec.class, "backoffLimit", JobSpec.DEFAULT_BACKOFF_LIMIT);
    kindDefault(JobSpec.class, "parallelism", 1);
    kindDefault(CronJobSpec.class, "concurrencyPolicy", ConcurrencyPolicy.Allow);
    kindDefault(CronJobSpec.class, "successfulJobsHistoryLimit", CronJobSpec.DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT);
    kindDefault(CronJobSpec.class, "failedJobsHistoryLimit", CronJobSpec.DEFAULT_FAILED_JOBS_HISTORY_LIMIT);
    // scheduling, storage, autoscaling
    kindDefault(PriorityClass.class, "preemptionPolicy", PreemptionPolicy.PreemptLowerPriority);
    kindDefault(Toleration.class, "operator", TolerationOperator.Equal);
    kindDefault(TopologySpreadConstraint.class, "nodeAffinityPolicy", NodeInclusionPolicy.Honor);
    kindDefault(TopologySpreadConstraint.class, "nodeTaintsPolicy", NodeInclusionPolicy.Ignore);
    kindDefault(PodGroupSpec.class, "minMember", 1);
    kindDefault(PodGroupStatus.class, "phase", PodGroupStatus.PENDING.phase());
    kindDefault(StorageClassSpec.class, "reclaimPolicy", PersistentVolumeReclaimPolicy.Delete);
    kindDefault(StorageClassSpec.class, "volumeBindingMode", VolumeBindingMode.Immediate);
    kindDefault(HorizontalPodAutoscalerSpec.class, "minReplicas", 1);
    kindDefault(NodePoolSpec.class, "autoscalingOptions", NodePoolAutoscalingOptions.NONE);
    kindDefault(HPAScalingRules.class, "selectPolicy", ScalingPolicySelect.Max);
    kindDefault(PodUpdatePolicy.class, "updateMode", UpdateMode.Auto);
    kindDefault(ContainerResourcePolicy.class, "mode", ContainerScalingMode.Auto);
    kindDefault(ContainerResourcePolicy.class, "controlledValues", ContainerControlledValues.RequestsAndLimits);
    // Argo Rollouts
    kindDefault(RolloutSpec.class, "replicas", 1);
    kindDefault(RolloutSpec.class, "revisionHistoryLimit", RolloutSpec.DEFAULT_REVISION_HISTORY_LIMIT);
    kindDefault(RolloutSpec.class, "progressDeadlineSeconds", RolloutSpec.DEFAULT_PROGRESS_DEADLINE_SECONDS);
    kindDefault(RolloutStatus.class, "phase", RolloutStatus.EMPTY.phase());
    kindDefault(AnalysisRunStatus.class, "phase", AnalysisRunStatus.EMPTY.phase());
    kindDefault(Metric.class, "consecutiveErrorLimit", Metric.DEFAULT_CONSECUTIVE_ERROR_LIMIT);
    // Gateway API
    kindDefault(HTTPBackendRef.class, "weight", HTTPBackendRef.DEFAULT_WEIGHT);
    kindDefault(HTTPPathMatch.class, "type", PathMatchType.PathPrefix);
    kindDefault(HTTPHeaderMatch.class, "type", ValueMatchType.Exact);
    kindDefault(HTTPQueryParamMatch.class, "type", ValueMatchType.Exact);
    kindDefault(AllowedRoutes.class, "from", FromNamespaces.Same);
    kindDefault(Fraction.class, "denominator", Fraction.DEFAULT_DENOMINATOR);
    kindDefault(HTTPRequestRedirectFilter.class, "statusCode", HTTPRequestRedirectFilter.DEFAULT_STATUS_CODE);
    kindDefault(HTTPCORSFilter.class, "maxAge", HTTPCORSFilter.DEFAULT_MAX_AGE);
    kindDefault(SecretObjectReference.class, "kind", SecretObjectReference.SECRET);
    // simulation scenarios
    kindDefault(ScenarioSpec.class, "sampleInterval", ScenarioSpec.DEFAULT_SAMPLE_INTERVAL);
    kindDefault(QueueScaler.class, "pollingInterval", QueueScaler.DEFAULT_POLLING_INTERVAL);
    kindDefault(QueueScaler.class, "cooldown", QueueScaler.DEFAULT_COOLDOWN);
    kindDefault(QueueScaler.class, "maxReplicas", QueueScaler.DEFAULT_MAX_REPLICAS);
    kindDefault(ScenarioCohort.class, "flavor", ScenarioCohort.DEFAULT_FLAVOR);
    kindDefault(ScenarioScheduler.class, "profile", ScenarioScheduler.DEFAULT_PROFILE);
    for (String feature : List.of("horizontalPodAutoscaler", "clusterAutoscaler", "storage", "verticalPodAutoscaler",
        "queueAdmission", "queueScaling", "networking", "admission", "rollouts", "podGarbageCollector",
        "dynamicResources")) {
      kindDefault(ScenarioFeatures.class, feature, true);
    }
  }

  private UnsetValues() {}

  /**
   * The defaults of {@code form}'s type that depend on whether another component is set, applied to the values of a
   * read ({@code set[i]}: component {@code i} had a value in the JSON), or {@code null} if it has none. A JobSpec's
   * {@code completions} is 1 when neither it nor {@code parallelism} is set, and stays unset ({@code null}) when
   * {@code parallelism} is (Kubernetes' {@code SetDefaults_Job}, the Job builder).
   */
  static @Nullable BiConsumer<@Nullable Object[], boolean[]> dependentDefaults(RecordForm form) {
    if (form.type == JobSpec.class) {
      int completions = form.index.get("completions");
      int parallelism = form.index.get("parallelism");
      return (values, set) -> {
        if (!set[completions] && !set[parallelism]) {
          values[completions] = 1;
        }
      };
    }
    return null;
  }

  /**
   * Records an earlier FleetKit stored as a JSON string, with how to read that string: a listener's certificate
   * reference was the Secret's name (in the Gateway's namespace) before it had a group, kind and namespace.
   */
  private static final Map<Class<?>, Function<String, Object>> EARLIER_SCALAR_FORMS = Map.of(
      SecretObjectReference.class, SecretObjectReference::secret);

  /** How to read a record of type {@code record} stored as a JSON string, or {@code null} if it never was. */
  static @Nullable Function<String, Object> earlierScalarForm(Class<?> record) {
    return EARLIER_SCALAR_FORMS.get(record);
  }

  private static void kindDefault(Class<?> record, String component, Object value) {
    Map<String, Object> m = KIND_DEFAULTS.computeIfAbsent(record, r -> new HashMap<>());
    if (m.put(component, value) != null) {
      throw new IllegalStateException(record.getSimpleName() + "." + component + ": two defaults");
    }
  }

  /** The kind's own default for this component, or {@code null} if it has none besides its type's. */
  static @Nullable Object kindDefault(Class<?> record, String component) {
    Map<String, Object> m = KIND_DEFAULTS.get(record);
    return m == null ? null : m.get(component);
  }

  /**
   * The unset value of a component of type {@code raw} that is not {@code @Nullable} and has no kind default, when
   * the type alone decides it; {@code null} if it does not (a record, or a required component).
   */
  static @Nullable Object ofType(Class<?> raw) {
    if (raw == List.class || raw == java.util.Collection.class) {
      return List.of();
    }
    if (raw == Set.class) {
      return Set.of();
    }
    if (raw == Map.class) {
      return Map.of();
    }
    if (raw == ResourceList.class) {
      return ResourceList.EMPTY;
    }
    if (raw == Optional.class) {
      return Optional.empty();
    }
    if (raw == String.class) {
      return "";
    }
    if (raw == Duration.class) {
      return Duration.ZERO;
    }
    if (raw == int.class) {
      return 0;
    }
    if (raw == long.class) {
      return 0L;
    }
    if (raw == double.class) {
      return 0.0;
    }
    if (raw == float.class) {
      return 0.0f;
    }
    if (raw == boolean.class) {
      return false;
    }
    if (raw == short.class) {
      return (short) 0;
    }
    if (raw == byte.class) {
      return (byte) 0;
    }
    if (raw == char.class) {
      return (char) 0;
    }
    return null;
  }
}
