package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.AnalysisRunConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ClusterQueueConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.AdmissionCheckConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.CohortConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.TopologyConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.LocalQueueConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ResourceFlavorConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.WorkloadPriorityClassConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.AnalysisTemplateConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ControllerRevisionConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.CronJobConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.DaemonSetConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.DeviceClassConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.DeviceTaintRuleConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.DeploymentConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.EndpointSliceConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.EndpointsConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.GatewayClassConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.GatewayConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.HTTPRouteConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ReferenceGrantConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ServiceAccountConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.SecretConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ResourceQuotaConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.NamespaceConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.LimitRangeConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ConfigMapConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.HorizontalPodAutoscalerConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.IngressClassConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.IngressConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.JobConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.NodeConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.NodePoolConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.PersistentVolumeClaimConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.PersistentVolumeConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.PodConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.PodDisruptionBudgetConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.PodGroupConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.PriorityClassConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ReplicaSetConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ReplicationControllerConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ResourceClaimConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ResourceClaimTemplateConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ResourceSliceConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.RolloutConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ScenarioConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.ServiceConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.StatefulSetConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.StorageClassConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.VerticalPodAutoscalerCheckpointConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.kinds.VerticalPodAutoscalerConverter;
import io.fleetkit.api.meta.ApiObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** The kinds the YAML adapter knows, by kind name and by core type. Immutable; thread-safe. */
public final class KindRegistry {
  private static final KindRegistry DEFAULT = new KindRegistry(List.of(
      new NodeConverter(),
      new PodConverter(),
      new DeploymentConverter(),
      new ReplicaSetConverter(),
      new ReplicationControllerConverter(),
      new StatefulSetConverter(),
      new ControllerRevisionConverter(),
      new DaemonSetConverter(),
      new JobConverter(),
      new CronJobConverter(),
      new ServiceConverter(),
      new PersistentVolumeConverter(),
      new PersistentVolumeClaimConverter(),
      new StorageClassConverter(),
      new PriorityClassConverter(),
      new HorizontalPodAutoscalerConverter(),
      new VerticalPodAutoscalerConverter(),
      new VerticalPodAutoscalerCheckpointConverter(),
      new PodDisruptionBudgetConverter(),
      new PodGroupConverter(),
      new NodePoolConverter(),
      new EndpointSliceConverter(),
      new EndpointsConverter(),
      new IngressConverter(),
      new IngressClassConverter(),
      new HTTPRouteConverter(),
      new GatewayClassConverter(),
      new GatewayConverter(),
      new ReferenceGrantConverter(),
      new RolloutConverter(),
      new AnalysisTemplateConverter(),
      new AnalysisRunConverter(),
      new NamespaceConverter(),
      new ResourceQuotaConverter(),
      new LimitRangeConverter(),
      new ConfigMapConverter(),
      new SecretConverter(),
      new ServiceAccountConverter(),
      new DeviceClassConverter(),
      new DeviceTaintRuleConverter(),
      new ResourceSliceConverter(),
      new ResourceClaimConverter(),
      new ResourceClaimTemplateConverter(),
      new ScenarioConverter(),
      new ResourceFlavorConverter(),
      new ClusterQueueConverter(),
      new LocalQueueConverter(),
      new CohortConverter(),
      new AdmissionCheckConverter(),
      new TopologyConverter(),
      new WorkloadPriorityClassConverter()));

  private final Map<String, KindConverter<?, ?>> byKind;
  private final Map<Class<?>, KindConverter<?, ?>> byType;

  /**
   * @throws IllegalArgumentException if two converters claim the same kind or core type
   */
  public KindRegistry(List<KindConverter<?, ?>> converters) {
    Map<String, KindConverter<?, ?>> kinds = new TreeMap<>();
    Map<Class<?>, KindConverter<?, ?>> types = new LinkedHashMap<>();
    for (KindConverter<?, ?> c : converters) {
      KindConverter<?, ?> old = kinds.put(c.kind(), c);
      if (old != null || types.put(c.coreType(), c) != null) {
        throw new IllegalArgumentException("KindRegistry: kind " + c.kind() + " (" + c.coreType().getName()
            + ") is registered twice");
      }
    }
    byKind = Collections.unmodifiableMap(kinds);
    byType = Collections.unmodifiableMap(types);
  }

  /** Every kind FleetKit models. */
  public static KindRegistry standard() {
    return DEFAULT;
  }

  public @Nullable KindConverter<?, ?> forKind(String kind) {
    return byKind.get(kind);
  }

  public @Nullable KindConverter<?, ?> forObject(ApiObject<?> object) {
    return byType.get(object.getClass());
  }

  /** Kind names, sorted. */
  public List<String> kinds() {
    return List.copyOf(byKind.keySet());
  }
}
