package io.fleetkit.api.simulation;

/**
 * Which engines a scenario runs beside the store, the workload controllers, the scheduler, the node lifecycle and
 * the simulated kubelets (those always run).
 *
 * @param horizontalPodAutoscaler the HPA controller, every 15 s, reading usage that follows the load
 * @param clusterAutoscaler the cluster autoscaler over the NodePools, every 10 s
 * @param storage PersistentVolume binding and dynamic provisioning
 * @param verticalPodAutoscaler the VPA recommender and updater every minute, and the VPA admission of new pods
 * @param queueAdmission Kueue-style admission of queued Jobs over the scenario's {@code queues}
 * @param queueScaling KEDA-style scaling of the scenario's {@code queueScalers}
 * @param provisioner the Karpenter-style provisioner instead of the cluster autoscaler, every 10 s, launching
 *     nodes shaped like the NodePools (one instance type per pool); never on together with {@code clusterAutoscaler}
 * @param networking Service networking when the manifests have Services: node IPAM and pod IPs, cluster IPs and
 *     node ports, EndpointSlices
 * @param admission the store's standard admission chain (NamespaceLifecycle, LimitRanger, Priority,
 *     DefaultTolerationSeconds, ResourceQuota) when the objects hold Namespaces, ResourceQuotas or LimitRanges: a
 *     create the chain denies is not stored (a workload controller records {@code FailedCreate})
 * @param rollouts the Argo-Rollouts-style Rollout and AnalysisRun controllers (off: Rollouts are stored but nothing
 *     acts on them)
 * @param podGarbageCollector kube's pod garbage collector (terminated pods beyond the threshold, pods bound to
 *     nodes that no longer exist, terminating pods on out-of-service nodes); off, such pods stay in the store
 * @param dynamicResources Dynamic Resource Allocation when the manifests have DRA objects (DeviceClasses,
 *     ResourceSlices, ResourceClaims, ResourceClaimTemplates) or pods that ask for claims: the resource-claim
 *     controller (claims from templates, reservations released and generated claims deleted when pods finish); the
 *     scheduler's DynamicResources plugin allocates devices either way. Off, pods that need a claim from a template
 *     wait for it
 */
public record ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
    boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling, boolean provisioner,
    boolean networking, boolean admission, boolean rollouts, boolean podGarbageCollector, boolean dynamicResources) {
  /** Everything on, with the cluster autoscaler (not the provisioner). */
  public static final ScenarioFeatures ALL = builder().build();

  /** A builder with every feature on except the provisioner (the cluster autoscaler runs instead). */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these features. */
  public Builder toBuilder() {
    return new Builder().horizontalPodAutoscaler(horizontalPodAutoscaler).clusterAutoscaler(clusterAutoscaler)
        .storage(storage).verticalPodAutoscaler(verticalPodAutoscaler).queueAdmission(queueAdmission)
        .queueScaling(queueScaling).provisioner(provisioner).networking(networking).admission(admission)
        .rollouts(rollouts).podGarbageCollector(podGarbageCollector).dynamicResources(dynamicResources);
  }

  /** The eleven as given, Dynamic Resource Allocation on. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
      boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling, boolean provisioner,
      boolean networking, boolean admission, boolean rollouts, boolean podGarbageCollector) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, verticalPodAutoscaler, queueAdmission, queueScaling,
        provisioner, networking, admission, rollouts, podGarbageCollector, true);
  }

  /** The ten as given, the pod garbage collector on. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
      boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling, boolean provisioner,
      boolean networking, boolean admission, boolean rollouts) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, verticalPodAutoscaler, queueAdmission, queueScaling,
        provisioner, networking, admission, rollouts, true);
  }

  /** The nine as given, rollouts on. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
      boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling, boolean provisioner,
      boolean networking, boolean admission) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, verticalPodAutoscaler, queueAdmission, queueScaling,
        provisioner, networking, admission, true);
  }

  /** The eight as given, admission on. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
      boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling, boolean provisioner,
      boolean networking) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, verticalPodAutoscaler, queueAdmission, queueScaling,
        provisioner, networking, true);
  }

  /** The seven as given, networking on. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
      boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling, boolean provisioner) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, verticalPodAutoscaler, queueAdmission, queueScaling,
        provisioner, true);
  }

  /** The six as given, the provisioner off, networking on. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage,
      boolean verticalPodAutoscaler, boolean queueAdmission, boolean queueScaling) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, verticalPodAutoscaler, queueAdmission, queueScaling,
        false, true);
  }

  /** These features with the provisioner on and the cluster autoscaler off. */
  public ScenarioFeatures withProvisioner() {
    return toBuilder().clusterAutoscaler(false).provisioner(true).build();
  }

  /** The first three as given, the others on except the provisioner. */
  public ScenarioFeatures(boolean horizontalPodAutoscaler, boolean clusterAutoscaler, boolean storage) {
    this(horizontalPodAutoscaler, clusterAutoscaler, storage, true, true, true, false, true);
  }

  /** Builds {@link ScenarioFeatures}; every feature starts on except the provisioner. */
  public static final class Builder {
    private boolean horizontalPodAutoscaler = true;
    private boolean clusterAutoscaler = true;
    private boolean storage = true;
    private boolean verticalPodAutoscaler = true;
    private boolean queueAdmission = true;
    private boolean queueScaling = true;
    private boolean provisioner;
    private boolean networking = true;
    private boolean admission = true;
    private boolean rollouts = true;
    private boolean podGarbageCollector = true;
    private boolean dynamicResources = true;

    private Builder() {}

    /** The HPA controller. */
    public Builder horizontalPodAutoscaler(boolean on) {
      this.horizontalPodAutoscaler = on;
      return this;
    }

    /** The cluster autoscaler. */
    public Builder clusterAutoscaler(boolean on) {
      this.clusterAutoscaler = on;
      return this;
    }

    /** PersistentVolume binding and provisioning. */
    public Builder storage(boolean on) {
      this.storage = on;
      return this;
    }

    /** The VPA recommender, updater and admission. */
    public Builder verticalPodAutoscaler(boolean on) {
      this.verticalPodAutoscaler = on;
      return this;
    }

    /** Kueue-style admission of queued Jobs. */
    public Builder queueAdmission(boolean on) {
      this.queueAdmission = on;
      return this;
    }

    /** KEDA-style queue scaling. */
    public Builder queueScaling(boolean on) {
      this.queueScaling = on;
      return this;
    }

    /** The Karpenter-style provisioner (never on together with the cluster autoscaler). */
    public Builder provisioner(boolean on) {
      this.provisioner = on;
      return this;
    }

    /** Service networking. */
    public Builder networking(boolean on) {
      this.networking = on;
      return this;
    }

    /** The store's standard admission chain. */
    public Builder admission(boolean on) {
      this.admission = on;
      return this;
    }

    /** The Rollout and AnalysisRun controllers. */
    public Builder rollouts(boolean on) {
      this.rollouts = on;
      return this;
    }

    /** The pod garbage collector. */
    public Builder podGarbageCollector(boolean on) {
      this.podGarbageCollector = on;
      return this;
    }

    /** The resource-claim controller of Dynamic Resource Allocation. */
    public Builder dynamicResources(boolean on) {
      this.dynamicResources = on;
      return this;
    }

    /** The features. */
    public ScenarioFeatures build() {
      return new ScenarioFeatures(horizontalPodAutoscaler, clusterAutoscaler, storage, verticalPodAutoscaler,
          queueAdmission, queueScaling, provisioner, networking, admission, rollouts, podGarbageCollector,
          dynamicResources);
    }
  }
}
