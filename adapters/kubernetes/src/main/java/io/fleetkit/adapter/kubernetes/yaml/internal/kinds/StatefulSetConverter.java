package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpecBuilder;
import io.fabric8.kubernetes.api.model.VolumeResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.apps.RollingUpdateStatefulSetStrategyBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetOrdinalsBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetPersistentVolumeClaimRetentionPolicyBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetUpdateStrategyBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.apps.ClaimTemplate;
import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.PodManagementPolicy;
import io.fleetkit.api.apps.RollingUpdateStatefulSetStrategy;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetOrdinals;
import io.fleetkit.api.apps.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.fleetkit.api.apps.StatefulSetSpec;
import io.fleetkit.api.apps.StatefulSetStatus;
import io.fleetkit.api.apps.StatefulSetUpdateStrategy;
import io.fleetkit.api.apps.StatefulSetUpdateStrategyType;
import io.fleetkit.api.meta.ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * apps/v1 StatefulSet, with Kubernetes' defaults: 1 replica, OrderedReady, RollingUpdate (partition 0, maxUnavailable
 * 1), a revision history of 10, {@code persistentVolumeClaimRetentionPolicy} Retain for an absent or empty
 * {@code whenDeleted}/{@code whenScaled} ({@code SetDefaults_StatefulSet}), ordinals from 0 when {@code spec.ordinals}
 * (or its {@code start}) is absent. Volume claim templates keep name, labels, storage class, access modes and
 * requests. Written back, the defaults are left out.
 */
public final class StatefulSetConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.apps.StatefulSet, StatefulSet> {
  public StatefulSetConverter() {
    super(StatefulSet.API_VERSION, StatefulSet.KIND, true,
        io.fabric8.kubernetes.api.model.apps.StatefulSet.class, StatefulSet.class);
  }
  static final int DEFAULT_REVISION_HISTORY_LIMIT = 10;

  @Override
  public @Nullable StatefulSet toCore(io.fabric8.kubernetes.api.model.apps.StatefulSet in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec();
    if (s == null) {
      ctx.error("spec", "is required", null);
      return null;
    }
    var selector = Workloads.selector(s.getSelector(), "spec.selector", ctx);
    var template = PodSpecs.template(s.getTemplate(), "spec.template", ctx);
    var claims = Fabric8Scheduling.list(s.getVolumeClaimTemplates(), "spec.volumeClaimTemplates", ctx,
        (c, p, cx) -> {
          var m = c.getMetadata() == null ? new io.fabric8.kubernetes.api.model.ObjectMeta() : c.getMetadata();
          var cs = c.getSpec() == null ? new io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec() : c.getSpec();
          var requests = Values.resources(cs.getResources() == null ? null : cs.getResources().getRequests(),
              p + ".spec.resources.requests", cx);
          return cx.build(p, () -> new ClaimTemplate(Values.required(m.getName(), p + ".metadata.name", cx),
              cs.getStorageClassName(), Values.stringList(cs.getAccessModes(), p + ".spec.accessModes", cx),
              requests, Values.stringMap(m.getLabels(), p + ".metadata.labels", cx)));
        });
    var policy = Values.enumValue(PodManagementPolicy.class, s.getPodManagementPolicy(),
        PodManagementPolicy.OrderedReady, "spec.podManagementPolicy", ctx);
    StatefulSetUpdateStrategy strategy = StatefulSetUpdateStrategy.ROLLING_UPDATE;
    if (s.getUpdateStrategy() != null) {
      var u = s.getUpdateStrategy();
      var type = Values.enumValue(StatefulSetUpdateStrategyType.class, u.getType(),
          StatefulSetUpdateStrategyType.RollingUpdate, "spec.updateStrategy.type", ctx);
      RollingUpdateStatefulSetStrategy rolling = null;
      if (u.getRollingUpdate() != null) {
        var ru = u.getRollingUpdate();
        var unavailable = Values.intOrPercent(ru.getMaxUnavailable(),
            RollingUpdateStatefulSetStrategy.DEFAULT.maxUnavailable(), "spec.updateStrategy.rollingUpdate"
                + ".maxUnavailable", ctx);
        rolling = ctx.build("spec.updateStrategy.rollingUpdate", () -> new RollingUpdateStatefulSetStrategy(
            Values.intOr(ru.getPartition(), 0), unavailable));
      }
      RollingUpdateStatefulSetStrategy r = rolling;
      strategy = type == null ? null : ctx.build("spec.updateStrategy", () -> new StatefulSetUpdateStrategy(type, r));
    }
    StatefulSetUpdateStrategy strat = strategy;
    var retention = retentionPolicy(s.getPersistentVolumeClaimRetentionPolicy(), ctx);
    var ordinals = s.getOrdinals() == null ? StatefulSetOrdinals.DEFAULT
        : StatefulSetOrdinals.startingAt(Values.intOr(s.getOrdinals().getStart(), 0));
    StatefulSetSpec spec = template == null || strat == null ? null : ctx.build("spec", () -> new StatefulSetSpec(
        Values.intOr(s.getReplicas(), 1), selector, template, Values.orEmpty(s.getServiceName()), claims, policy,
        strat, Values.intOr(s.getRevisionHistoryLimit(), DEFAULT_REVISION_HISTORY_LIMIT),
        Values.intOr(s.getMinReadySeconds(), 0), retention, ordinals));
    var st = in.getStatus();
    StatefulSetStatus status = st == null ? StatefulSetStatus.EMPTY : ctx.build("status", () -> new StatefulSetStatus(
        Values.longOr(st.getObservedGeneration(), 0), Values.intOr(st.getReplicas(), 0),
        Values.intOr(st.getReadyReplicas(), 0), Values.intOr(st.getCurrentReplicas(), 0),
        Values.intOr(st.getUpdatedReplicas(), 0), Values.intOr(st.getAvailableReplicas(), 0),
        Values.orEmpty(st.getCurrentRevision()), Values.orEmpty(st.getUpdateRevision()), st.getCollisionCount()));
    return spec == null || status == null ? null : ctx.build("", () -> new StatefulSet(meta, spec, status));
  }

  /** {@code spec.persistentVolumeClaimRetentionPolicy}: an absent or empty value is Retain, another is an error. */
  private static StatefulSetPersistentVolumeClaimRetentionPolicy retentionPolicy(
      io.fabric8.kubernetes.api.model.apps.@Nullable StatefulSetPersistentVolumeClaimRetentionPolicy in,
      DocumentContext ctx) {
    if (in == null) {
      return StatefulSetPersistentVolumeClaimRetentionPolicy.RETAIN;
    }
    String path = "spec.persistentVolumeClaimRetentionPolicy";
    PersistentVolumeClaimRetentionPolicyType retain = PersistentVolumeClaimRetentionPolicyType.Retain;
    var whenDeleted = Values.enumValue(PersistentVolumeClaimRetentionPolicyType.class, in.getWhenDeleted(), retain,
        path + ".whenDeleted", ctx);
    var whenScaled = Values.enumValue(PersistentVolumeClaimRetentionPolicyType.class, in.getWhenScaled(), retain,
        path + ".whenScaled", ctx);
    return StatefulSetPersistentVolumeClaimRetentionPolicy.of(whenDeleted == null ? retain : whenDeleted,
        whenScaled == null ? retain : whenScaled);
  }

  @Override
  public io.fabric8.kubernetes.api.model.apps.StatefulSet toFabric8(StatefulSet in) {
    StatefulSetSpec s = in.spec();
    StatefulSetStatus st = in.status();
    StatefulSetUpdateStrategy u = s.updateStrategy();
    return new StatefulSetBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new StatefulSetSpecBuilder()
            .withReplicas(s.replicas())
            .withSelector(Fabric8Selectors.toFabric8(s.selector()))
            .withTemplate(PodSpecs.template(s.template()))
            .withServiceName(Values.emptyToNull(s.serviceName()))
            .withVolumeClaimTemplates(Fabric8Scheduling.out(s.volumeClaimTemplates(), c ->
                new PersistentVolumeClaimBuilder()
                    .withMetadata(new ObjectMetaBuilder().withName(c.name())
                        .withLabels(Values.emptyToNull(new java.util.TreeMap<>(c.labels()))).build())
                    .withSpec(new PersistentVolumeClaimSpecBuilder()
                        .withAccessModes(Values.emptyToNull(c.accessModes()))
                        .withStorageClassName(c.storageClassName())
                        .withResources(new VolumeResourceRequirementsBuilder()
                            .withRequests(Values.resources(c.requests())).build())
                        .build())
                    .build()))
            .withPodManagementPolicy(s.podManagementPolicy() == PodManagementPolicy.OrderedReady ? null
                : s.podManagementPolicy().name())
            .withUpdateStrategy(u.equals(StatefulSetUpdateStrategy.ROLLING_UPDATE) ? null
                : new StatefulSetUpdateStrategyBuilder().withType(u.type().name())
                    .withRollingUpdate(u.rollingUpdate() == null ? null : new RollingUpdateStatefulSetStrategyBuilder()
                        .withPartition(u.rollingUpdate().partition())
                        .withMaxUnavailable(Values.intOrString(u.rollingUpdate().maxUnavailable())).build())
                    .build())
            .withRevisionHistoryLimit(s.revisionHistoryLimit() == DEFAULT_REVISION_HISTORY_LIMIT ? null
                : s.revisionHistoryLimit())
            .withMinReadySeconds(s.minReadySeconds() == 0 ? null : s.minReadySeconds())
            .withPersistentVolumeClaimRetentionPolicy(s.persistentVolumeClaimRetentionPolicy().retainsAll() ? null
                : new StatefulSetPersistentVolumeClaimRetentionPolicyBuilder()
                    .withWhenDeleted(s.persistentVolumeClaimRetentionPolicy().whenDeleted().name())
                    .withWhenScaled(s.persistentVolumeClaimRetentionPolicy().whenScaled().name()).build())
            .withOrdinals(s.ordinals().start() == 0 ? null
                : new StatefulSetOrdinalsBuilder().withStart(s.ordinals().start()).build())
            .build())
        .withStatus(st.equals(StatefulSetStatus.EMPTY) ? null : new StatefulSetStatusBuilder()
            .withObservedGeneration(st.observedGeneration()).withReplicas(st.replicas())
            .withReadyReplicas(st.readyReplicas()).withCurrentReplicas(st.currentReplicas())
            .withUpdatedReplicas(st.updatedReplicas()).withAvailableReplicas(st.availableReplicas())
            .withCurrentRevision(Values.emptyToNull(st.currentRevision()))
            .withUpdateRevision(Values.emptyToNull(st.updateRevision()))
            .withCollisionCount(st.collisionCount()).build())
        .build();
  }
}
