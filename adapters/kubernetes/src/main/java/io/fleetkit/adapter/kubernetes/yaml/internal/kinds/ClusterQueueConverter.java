package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.AdmissionCheckStrategyRule;
import io.fleetkit.queueing.AdmissionMode;
import io.fleetkit.queueing.BorrowWithinCohort;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorFungibility;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.QueueingStrategy;
import io.fleetkit.queueing.ResourceGroup;
import io.fleetkit.queueing.StopPolicy;
import io.fleetkit.queueing.manifest.ClusterQueueObject;
import io.fleetkit.queueing.manifest.KueueObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's ClusterQueue, {@code kueue.x-k8s.io/v1beta2} and {@code v1beta1} (where the cohort is {@code spec.cohort},
 * not {@code spec.cohortName}, {@code spec.admissionChecks} lists checks for every flavor, and flavor fungibility also
 * accepts the older {@code Borrow} and {@code Preempt}, both Kueue's {@code MayStopSearch}). Every spec field the
 * queueing engine honours is read into {@link ClusterQueue}, which validates it as Kueue's webhook does. An omitted
 * {@code namespaceSelector} is Kueue's nothing selector ({@link ClusterQueueObject#NO_NAMESPACE}). {@code
 * spec.concurrentAdmissionPolicy} (an alpha feature: a workload pursuing several flavors at once) is refused, the
 * engine admitting a workload in one flavor at a time; a field that is no field of the version is refused; {@code
 * status} is not modelled (a warning).
 */
public final class ClusterQueueConverter extends AbstractKindConverter<GenericKubernetesResource, ClusterQueueObject> {
  private static final Set<String> V1BETA2_FIELDS = Set.of("resourceGroups", "cohortName", "queueingStrategy",
      "namespaceSelector", "flavorFungibility", "preemption", "admissionChecksStrategy", "stopPolicy", "fairSharing",
      "admissionScope", "concurrentAdmissionPolicy");
  private static final Set<String> V1BETA1_FIELDS = Set.of("resourceGroups", "cohort", "queueingStrategy",
      "namespaceSelector", "flavorFungibility", "preemption", "admissionChecks", "admissionChecksStrategy",
      "stopPolicy", "fairSharing", "admissionScope");
  private static final Map<String, QueueingStrategy> STRATEGIES = ordered(
      "StrictFIFO", QueueingStrategy.STRICT_FIFO, "BestEffortFIFO", QueueingStrategy.BEST_EFFORT_FIFO);
  private static final Map<String, BorrowWithinCohort.Policy> BORROW_POLICIES = ordered(
      "Never", BorrowWithinCohort.Policy.NEVER, "LowerPriority", BorrowWithinCohort.Policy.LOWER_PRIORITY);

  public ClusterQueueConverter() {
    super(KueueObject.V1BETA2, ClusterQueue.KIND, false, GenericKubernetesResource.class, ClusterQueueObject.class);
  }

  private static <E> Map<String, E> ordered(String first, E a, String second, E b) {
    Map<String, E> m = new LinkedHashMap<>();
    m.put(first, a);
    m.put(second, b);
    return java.util.Collections.unmodifiableMap(m);
  }

  @Override
  public Set<String> apiVersions() {
    return KueueObject.VERSIONS;
  }

  @Override
  public @Nullable ClusterQueueObject toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    String version = KueueYaml.version(in);
    boolean v1beta1 = KueueObject.V1BETA1.equals(version);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    KueueYaml.known(spec, v1beta1 ? V1BETA1_FIELDS : V1BETA2_FIELDS, version, "spec", ctx);
    if (spec.containsKey("concurrentAdmissionPolicy")) {
      ctx.error("spec.concurrentAdmissionPolicy", "is not modelled: the queueing engine admits a workload in one"
          + " flavor at a time (Kueue's ConcurrentAdmission is an alpha feature); remove it", null);
    }
    ClusterQueue.Builder b = ClusterQueue.builder(meta.name());
    String cohortField = v1beta1 ? "cohort" : "cohortName";
    String cohort = Untyped.string(spec, cohortField, "", "spec." + cohortField, ctx);
    if (!cohort.isEmpty()) {
      b.cohort(cohort);
    }
    for (ResourceGroup g : KueueYaml.resourceGroups(spec, ctx)) {
      b.resourceGroup(g);
    }
    QueueingStrategy strategy = KueueYaml.apiEnum(STRATEGIES,
        Untyped.string(spec, "queueingStrategy", "", "spec.queueingStrategy", ctx), QueueingStrategy.BEST_EFFORT_FIFO,
        "spec.queueingStrategy", ctx);
    if (strategy != null) {
      b.queueingStrategy(strategy);
    }
    LabelSelector selector = Fabric8Selectors.untyped(spec.get("namespaceSelector"), "spec.namespaceSelector", ctx);
    // absent or null: Kueue's nothing selector; {} (or a selector left out after a reported problem): every namespace
    b.namespaceSelector(spec.get("namespaceSelector") == null ? ClusterQueueObject.NO_NAMESPACE
        : selector == null ? LabelSelector.EVERYTHING : selector);
    FlavorFungibility fungibility = fungibility(Untyped.map(spec, "flavorFungibility", "spec.flavorFungibility",
        ctx), v1beta1, ctx);
    if (fungibility != null) {
      b.flavorFungibility(fungibility);
    }
    ClusterQueuePreemption preemption = preemption(Untyped.map(spec, "preemption", "spec.preemption", ctx), ctx);
    if (preemption != null) {
      b.preemption(preemption);
    }
    if (v1beta1) {
      b.admissionChecks(Untyped.stringList(spec, "admissionChecks", "spec.admissionChecks", ctx)
          .toArray(String[]::new));
    }
    Map<String, Object> checks = Untyped.map(spec, "admissionChecksStrategy", "spec.admissionChecksStrategy", ctx);
    Untyped.known(checks, Set.of("admissionChecks"), "spec.admissionChecksStrategy", ctx);
    b.admissionCheckStrategy(Untyped.entries(checks, "admissionChecks", "spec.admissionChecksStrategy.admissionChecks",
        ctx, ClusterQueueConverter::rule).toArray(AdmissionCheckStrategyRule[]::new));
    StopPolicy stop = KueueYaml.stopPolicy(spec, ctx);
    if (stop != null) {
      b.stopPolicy(stop);
    }
    Quantity weight = KueueYaml.fairSharingWeight(spec, "spec.fairSharing", ctx);
    if (weight != null) {
      b.fairSharingWeight(weight);
    }
    AdmissionMode mode = admissionMode(Untyped.map(spec, "admissionScope", "spec.admissionScope", ctx), ctx);
    if (mode != null) {
      b.admissionMode(mode);
    }
    if (ctx.hasErrors()) {
      return null;
    }
    ClusterQueue queue = ctx.build("", b::build);
    return queue == null ? null : ctx.build("", () -> new ClusterQueueObject(version, meta, queue));
  }

  private static @Nullable AdmissionCheckStrategyRule rule(Map<String, Object> m, String p, DocumentContext ctx) {
    Untyped.known(m, Set.of("name", "onFlavors"), p, ctx);
    String name = Untyped.string(m, "name", "", p + ".name", ctx);
    if (name.isEmpty()) {
      ctx.error(p + ".name", "is required", null);
      return null;
    }
    return new AdmissionCheckStrategyRule(name, Untyped.stringList(m, "onFlavors", p + ".onFlavors", ctx));
  }

  private static @Nullable FlavorFungibility fungibility(Map<String, Object> m, boolean v1beta1,
      DocumentContext ctx) {
    String p = "spec.flavorFungibility";
    Untyped.known(m, Set.of("whenCanBorrow", "whenCanPreempt", "preference"), p, ctx);
    Map<String, FlavorFungibility.WhenCanBorrow> borrow = new LinkedHashMap<>();
    borrow.put("MayStopSearch", FlavorFungibility.WhenCanBorrow.BORROW);
    borrow.put("TryNextFlavor", FlavorFungibility.WhenCanBorrow.TRY_NEXT_FLAVOR);
    Map<String, FlavorFungibility.WhenCanPreempt> preempt = new LinkedHashMap<>();
    preempt.put("MayStopSearch", FlavorFungibility.WhenCanPreempt.PREEMPT);
    preempt.put("TryNextFlavor", FlavorFungibility.WhenCanPreempt.TRY_NEXT_FLAVOR);
    if (v1beta1) {
      borrow.put("Borrow", FlavorFungibility.WhenCanBorrow.BORROW);
      preempt.put("Preempt", FlavorFungibility.WhenCanPreempt.PREEMPT);
    }
    Map<String, FlavorFungibility.Preference> preferences = new LinkedHashMap<>();
    for (FlavorFungibility.Preference pr : FlavorFungibility.Preference.values()) {
      preferences.put(pr.apiName(), pr);
    }
    var whenCanBorrow = KueueYaml.apiEnum(borrow, Untyped.string(m, "whenCanBorrow", "", p + ".whenCanBorrow", ctx),
        FlavorFungibility.DEFAULT.whenCanBorrow(), p + ".whenCanBorrow", ctx);
    var whenCanPreempt = KueueYaml.apiEnum(preempt, Untyped.string(m, "whenCanPreempt", "", p + ".whenCanPreempt",
        ctx), FlavorFungibility.DEFAULT.whenCanPreempt(), p + ".whenCanPreempt", ctx);
    var preference = KueueYaml.apiEnum(preferences, Untyped.string(m, "preference", "", p + ".preference", ctx),
        null, p + ".preference", ctx);
    return whenCanBorrow == null || whenCanPreempt == null ? null
        : new FlavorFungibility(whenCanBorrow, whenCanPreempt, preference);
  }

  private static @Nullable ClusterQueuePreemption preemption(Map<String, Object> m, DocumentContext ctx) {
    String p = "spec.preemption";
    Untyped.known(m, Set.of("reclaimWithinCohort", "borrowWithinCohort", "withinClusterQueue"), p, ctx);
    Map<String, QueuePreemptionPolicy> policies = new LinkedHashMap<>();
    for (QueuePreemptionPolicy q : QueuePreemptionPolicy.values()) {
      policies.put(q.kueueName(), q);
    }
    var within = KueueYaml.apiEnum(policies, Untyped.string(m, "withinClusterQueue", "", p + ".withinClusterQueue",
        ctx), QueuePreemptionPolicy.NEVER, p + ".withinClusterQueue", ctx);
    var reclaim = KueueYaml.apiEnum(policies, Untyped.string(m, "reclaimWithinCohort", "", p + ".reclaimWithinCohort",
        ctx), QueuePreemptionPolicy.NEVER, p + ".reclaimWithinCohort", ctx);
    Map<String, Object> bwc = Untyped.map(m, "borrowWithinCohort", p + ".borrowWithinCohort", ctx);
    Untyped.known(bwc, Set.of("policy", "maxPriorityThreshold"), p + ".borrowWithinCohort", ctx);
    var policy = KueueYaml.apiEnum(BORROW_POLICIES, Untyped.string(bwc, "policy", "", p + ".borrowWithinCohort.policy",
        ctx), BorrowWithinCohort.Policy.NEVER, p + ".borrowWithinCohort.policy", ctx);
    Integer threshold = Untyped.int32(bwc, "maxPriorityThreshold", p + ".borrowWithinCohort.maxPriorityThreshold",
        ctx);
    return within == null || reclaim == null || policy == null ? null
        : new ClusterQueuePreemption(within, reclaim, new BorrowWithinCohort(policy, threshold));
  }

  private static @Nullable AdmissionMode admissionMode(Map<String, Object> m, DocumentContext ctx) {
    if (m.isEmpty()) {
      return null;
    }
    String p = "spec.admissionScope";
    Untyped.known(m, Set.of("admissionMode"), p, ctx);
    Map<String, AdmissionMode> modes = new LinkedHashMap<>();
    for (AdmissionMode a : AdmissionMode.values()) {
      modes.put(a.apiName(), a);
    }
    String text = Untyped.string(m, "admissionMode", "", p + ".admissionMode", ctx);
    if (text.isEmpty()) {
      ctx.error(p + ".admissionMode", "is required", null);
      return null;
    }
    return KueueYaml.apiEnum(modes, text, null, p + ".admissionMode", ctx);
  }

  @Override
  public GenericKubernetesResource toFabric8(ClusterQueueObject in) {
    ClusterQueue q = in.spec();
    boolean v1beta1 = KueueObject.V1BETA1.equals(in.apiVersion());
    Map<String, Object> spec = new LinkedHashMap<>();
    Untyped.put(spec, "resourceGroups", KueueYaml.write(q.resourceGroups()));
    Untyped.put(spec, v1beta1 ? "cohort" : "cohortName", q.cohort());
    spec.put("queueingStrategy", q.queueingStrategy() == QueueingStrategy.STRICT_FIFO ? "StrictFIFO"
        : "BestEffortFIFO");
    if (!q.namespaceSelector().equals(ClusterQueueObject.NO_NAMESPACE)) {
      spec.put("namespaceSelector", Fabric8Selectors.untyped(q.namespaceSelector()));
    }
    FlavorFungibility f = q.flavorFungibility();
    Map<String, Object> fm = new LinkedHashMap<>();
    fm.put("whenCanBorrow", f.whenCanBorrow() == FlavorFungibility.WhenCanBorrow.BORROW ? "MayStopSearch"
        : "TryNextFlavor");
    fm.put("whenCanPreempt", f.whenCanPreempt() == FlavorFungibility.WhenCanPreempt.PREEMPT ? "MayStopSearch"
        : "TryNextFlavor");
    if (f.preference() != null) {
      fm.put("preference", f.preference().apiName());
    }
    spec.put("flavorFungibility", fm);
    ClusterQueuePreemption pr = q.preemption();
    Map<String, Object> pm = new LinkedHashMap<>();
    pm.put("withinClusterQueue", pr.withinClusterQueue().kueueName());
    pm.put("reclaimWithinCohort", pr.reclaimWithinCohort().kueueName());
    Map<String, Object> bwc = new LinkedHashMap<>();
    bwc.put("policy", pr.borrowWithinCohort().policy() == BorrowWithinCohort.Policy.NEVER ? "Never"
        : "LowerPriority");
    Untyped.put(bwc, "maxPriorityThreshold", pr.borrowWithinCohort().maxPriorityThreshold());
    pm.put("borrowWithinCohort", bwc);
    spec.put("preemption", pm);
    if (v1beta1) {
      Untyped.put(spec, "admissionChecks", q.admissionChecks());
    }
    if (!q.admissionChecksStrategy().isEmpty()) {
      List<Object> rules = new ArrayList<>();
      for (AdmissionCheckStrategyRule r : q.admissionChecksStrategy()) {
        Map<String, Object> rm = new LinkedHashMap<>();
        rm.put("name", r.name());
        Untyped.put(rm, "onFlavors", r.onFlavors());
        rules.add(rm);
      }
      spec.put("admissionChecksStrategy", Map.of("admissionChecks", rules));
    }
    KueueYaml.putStopPolicy(spec, q.stopPolicy());
    KueueYaml.putFairSharing(spec, q.fairSharingWeight());
    if (q.admissionMode() != null) {
      spec.put("admissionScope", Map.of("admissionMode", q.admissionMode().apiName()));
    }
    return GenericKinds.resource(in, spec, null);
  }
}
