package io.fleetkit.api.rollouts;

import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.WorkloadChecks;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A progressively delivered workload ({@code argoproj.io/v1alpha1 Rollout}): like a Deployment, but a new pod
 * template is shipped by a canary (weights, pauses, analysis) or blue-green (preview, promotion) strategy, with
 * automatic rollback when an analysis fails or the progress deadline passes. Immutable; the canonical constructor
 * validates with Argo Rollouts' rules and messages and throws one {@link io.fleetkit.api.ValidationException}.
 */
public record Rollout(ObjectMeta metadata, RolloutSpec spec, RolloutStatus status) implements ApiObject<Rollout> {
  public static final String API_VERSION = "argoproj.io/v1alpha1";
  public static final String KIND = "Rollout";
  /** The label (on ReplicaSets, pods and Service selectors) holding the pod template hash. */
  public static final String POD_TEMPLATE_HASH_LABEL = "rollouts-pod-template-hash";

  public Rollout {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    v.nonNegative("spec.replicas", spec.replicas());
    WorkloadChecks.selectorAndTemplate(spec.selector(), spec.template(), "rollout", v);
    v.nonNegative("spec.minReadySeconds", spec.minReadySeconds());
    v.nonNegative("spec.revisionHistoryLimit", spec.revisionHistoryLimit());
    if (spec.progressDeadlineSeconds() <= spec.minReadySeconds()) {
      v.add("spec.progressDeadlineSeconds", "must be greater than minReadySeconds", spec.progressDeadlineSeconds());
    }
    RolloutStrategy s = spec.strategy();
    if (s.canary() == null && s.blueGreen() == null) {
      v.add("spec.strategy", "Rollout has missing field '.spec.strategy.canary or .spec.strategy.blueGreen'", null);
    } else if (s.canary() != null && s.blueGreen() != null) {
      v.add("spec.strategy", "Multiple Strategies can not be listed", null);
    }
    if (s.canary() != null) {
      canary(s.canary(), v);
    }
    if (s.blueGreen() != null) {
      blueGreen(s.blueGreen(), spec.revisionHistoryLimit(), v);
    }
    v.throwIfAny();
  }

  private static void canary(CanaryStrategy c, Violations v) {
    String at = "spec.strategy.canary";
    v.nonNegative(at + ".maxSurge", c.maxSurge());
    v.nonNegative(at + ".maxUnavailable", c.maxUnavailable());
    v.notMoreThan100Percent(at + ".maxUnavailable", c.maxUnavailable());
    if (c.maxSurge().value() == 0 && c.maxUnavailable().value() == 0) {
      v.add(at + ".maxSurge", "MaxSurge and MaxUnavailable both can not be zero", c.maxSurge());
    }
    if (c.stableService() != null && c.stableService().equals(c.canaryService())) {
      v.add(at + ".stableService", "This rollout uses the same service for the stable and canary services, but two "
          + "different services are required.", c.stableService());
    }
    if (c.trafficRouting() != null && (c.stableService() == null || c.canaryService() == null)) {
      v.add(at + ".trafficRouting", "Canary service and Stable service must to be set to use Traffic Routing", null);
    }
    if (c.dynamicStableScale() && c.trafficRouting() == null) {
      v.add(at + ".dynamicStableScale", "Canary dynamicStableScale can only be used with traffic routing", true);
    }
    v.nonNegative(at + ".abortScaleDownDelaySeconds", c.abortScaleDownDelaySeconds());
    v.nonNegative(at + ".scaleDownDelaySeconds", c.scaleDownDelaySeconds());
    v.nonNegative(at + ".scaleDownDelayRevisionLimit", c.scaleDownDelayRevisionLimit());
    if (c.scaleDownDelaySeconds() != null && c.trafficRouting() == null) {
      v.add(at + ".scaleDownDelaySeconds", "Canary scaleDownDelaySeconds can only be used with traffic routing",
          c.scaleDownDelaySeconds());
    } else if (c.scaleDownDelaySeconds() != null && c.dynamicStableScale()) {
      v.add(at + ".dynamicStableScale", "Canary dynamicStableScale cannot be used with scaleDownDelaySeconds", true);
    }
    ephemeralMetadata(c.canaryMetadata(), at + ".canaryMetadata", v);
    ephemeralMetadata(c.stableMetadata(), at + ".stableMetadata", v);
    for (int i = 0; i < c.steps().size(); i++) {
      CanaryStep step = c.steps().get(i);
      String sp = at + ".steps[" + i + "]";
      if (step instanceof CanaryStep.SetWeight w && (w.weight() < 0 || w.weight() > 100)) {
        v.add(sp + ".setWeight", "SetWeight needs to be between 0 and 100", w.weight());
      } else if (step instanceof CanaryStep.Pause p && p.duration() != null
          && (p.duration().isNegative() || p.duration().isZero())) {
        v.add(sp + ".pause.duration", "Duration needs to be greater than 0", p.duration());
      } else if (step instanceof CanaryStep.SetCanaryScale scs) {
        if (c.trafficRouting() == null) {
          v.add(sp + ".setCanaryScale", "SetCanaryScale requires TrafficRouting to be set", null);
        }
        if (scs.weight() != null && (scs.weight() < 0 || scs.weight() > 100)) {
          v.add(sp + ".setCanaryScale.weight", "must be between 0 and 100", scs.weight());
        }
        if (scs.replicas() != null && scs.replicas() < 0) {
          v.add(sp + ".setCanaryScale.replicas", Violations.NON_NEGATIVE, scs.replicas());
        }
      } else if (step instanceof CanaryStep.Analysis a) {
        analysis(a.analysis(), sp + ".analysis", v);
      } else if (step instanceof CanaryStep.SetHeaderRoute h) {
        ManagedRouteChecks.headerRoute(h, c.trafficRouting(), sp + ".setHeaderRoute", at, v);
      } else if (step instanceof CanaryStep.SetMirrorRoute m) {
        ManagedRouteChecks.mirrorRoute(m, c.trafficRouting(), sp + ".setMirrorRoute", at, v);
      }
    }
    if (c.trafficRouting() != null) {
      ManagedRouteChecks.managedRoutes(c.trafficRouting().managedRoutes(), at + ".trafficRouting.managedRoutes", v);
    }
    if (c.analysis() != null) {
      analysis(c.analysis(), at + ".analysis", v);
    }
  }

  private static void blueGreen(BlueGreenStrategy b, int revisionHistoryLimit, Violations v) {
    String at = "spec.strategy.blueGreen";
    if (b.activeService().isEmpty()) {
      v.add(at + ".activeService", "Rollout has missing field '.spec.strategy.blueGreen.activeService'", null);
    } else if (b.activeService().equals(b.previewService())) {
      v.add(at + ".previewService", "This rollout uses the same service for the active and preview services, but "
          + "two different services are required.", b.previewService());
    }
    v.nonNegative(at + ".autoPromotionSeconds", b.autoPromotionSeconds());
    v.nonNegative(at + ".scaleDownDelaySeconds", b.scaleDownDelaySeconds());
    v.nonNegative(at + ".previewReplicaCount", b.previewReplicaCount());
    v.nonNegative(at + ".abortScaleDownDelaySeconds", b.abortScaleDownDelaySeconds());
    v.nonNegative(at + ".scaleDownDelayRevisionLimit", b.scaleDownDelayRevisionLimit());
    if (b.scaleDownDelayRevisionLimit() != null && revisionHistoryLimit < b.scaleDownDelayRevisionLimit()) {
      v.add(at + ".scaleDownDelayRevisionLimit", "This rollout's revision history limit can not be smaller than the "
          + "rollout's scale down limit", b.scaleDownDelayRevisionLimit());
    }
    ephemeralMetadata(b.activeMetadata(), at + ".activeMetadata", v);
    ephemeralMetadata(b.previewMetadata(), at + ".previewMetadata", v);
    if (b.prePromotionAnalysis() != null) {
      analysis(b.prePromotionAnalysis(), at + ".prePromotionAnalysis", v);
    }
    if (b.postPromotionAnalysis() != null) {
      analysis(b.postPromotionAnalysis(), at + ".postPromotionAnalysis", v);
    }
  }

  /**
   * Ephemeral metadata ends up on pod templates and pods, so it must pass the API server's rules there: label keys
   * and values ({@code ValidateLabels}) and annotation keys and size ({@code ValidateAnnotations}). Argo Rollouts
   * leaves these to the API server, which refuses the ReplicaSet or pod update.
   */
  private static void ephemeralMetadata(@Nullable PodTemplateMetadata m, String at, Violations v) {
    if (m != null) {
      v.labels(at + ".labels", m.labels());
      io.fleetkit.api.internal.ClaimSpecChecks.annotations(v, at + ".annotations", m.annotations());
    }
  }

  private static void analysis(RolloutAnalysis a, String at, Violations v) {
    if (a.templates().isEmpty()) {
      v.required(at + ".templates", "at least one template is required");
    }
    for (int i = 0; i < a.templates().size(); i++) {
      v.dnsSubdomain(at + ".templates[" + i + "].templateName", a.templates().get(i));
    }
    v.nonNegative(at + ".startingStep", a.startingStep());
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public Rollout withMetadata(ObjectMeta m) {
    return new Rollout(m, spec, status);
  }

  @Override
  public Rollout withStatusOf(Rollout other) {
    return new Rollout(metadata, spec, other.status);
  }

  public Rollout withSpec(RolloutSpec s) {
    return new Rollout(metadata, s, status);
  }

  public Rollout withStatus(RolloutStatus s) {
    return new Rollout(metadata, spec, s);
  }

  /** The canary strategy, or {@code null} for blue-green. */
  public @Nullable CanaryStrategy canary() {
    return spec.strategy().canary();
  }

  /** The blue-green strategy, or {@code null} for canary. */
  public @Nullable BlueGreenStrategy blueGreen() {
    return spec.strategy().blueGreen();
  }

  /** Mutable builder with Argo Rollouts' defaults (namespace {@code default}, 1 replica, deadline 600 s). */
  public static final class Builder {
    private ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default");
    private int replicas = 1;
    private @Nullable Map<String, String> matchLabels;
    private @Nullable PodSpec podSpec;
    private @Nullable PodTemplateSpec template;
    private @Nullable LabelSelector selector;
    private RolloutStrategy strategy = RolloutStrategy.canary(new CanaryStrategy(java.util.List.of(),
        IntOrPercent.TWENTY_FIVE_PERCENT, IntOrPercent.TWENTY_FIVE_PERCENT, null, null, null, null, false, null,
        null));
    private int minReadySeconds;
    private int revisionHistoryLimit = RolloutSpec.DEFAULT_REVISION_HISTORY_LIMIT;
    private int progressDeadlineSeconds = RolloutSpec.DEFAULT_PROGRESS_DEADLINE_SECONDS;
    private boolean progressDeadlineAbort;
    private boolean paused;
    private RolloutStatus status = RolloutStatus.EMPTY;

    private Builder() {}

    public Builder name(String v) { meta.name(v); return this; }
    public Builder namespace(String v) { meta.namespace(v); return this; }
    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder replicas(int v) { replicas = v; return this; }
    /** The selector's {@code matchLabels} and the template's labels, unless a selector or template is set. */
    public Builder matchLabels(Map<String, String> v) { matchLabels = Map.copyOf(v); return this; }
    public Builder podSpec(PodSpec v) { podSpec = v; return this; }
    public Builder template(PodTemplateSpec v) { template = v; return this; }
    public Builder selector(LabelSelector v) { selector = v; return this; }
    public Builder canary(CanaryStrategy v) { strategy = RolloutStrategy.canary(v); return this; }
    public Builder blueGreen(BlueGreenStrategy v) { strategy = RolloutStrategy.blueGreen(v); return this; }
    public Builder strategy(RolloutStrategy v) { strategy = v; return this; }
    public Builder minReadySeconds(int v) { minReadySeconds = v; return this; }
    public Builder revisionHistoryLimit(int v) { revisionHistoryLimit = v; return this; }
    public Builder progressDeadlineSeconds(int v) { progressDeadlineSeconds = v; return this; }
    public Builder progressDeadlineAbort(boolean v) { progressDeadlineAbort = v; return this; }
    public Builder paused(boolean v) { paused = v; return this; }
    public Builder status(RolloutStatus v) { status = v; return this; }

    /**
     * @throws IllegalStateException if neither a template nor a pod spec was given
     * @throws io.fleetkit.api.ValidationException if the rollout breaks a rule
     */
    public Rollout build() {
      Map<String, String> labels = matchLabels == null ? Map.of() : matchLabels;
      LabelSelector sel = selector != null ? selector : LabelSelector.of(labels);
      PodTemplateSpec tpl = template;
      if (tpl == null) {
        if (podSpec == null) {
          throw new IllegalStateException("rollout " + meta.build().key() + ": template or podSpec is required");
        }
        tpl = new PodTemplateSpec(ObjectMeta.builder().labels(labels).build(), podSpec);
      }
      return new Rollout(meta.build(), new RolloutSpec(replicas, sel, tpl, strategy, minReadySeconds,
          revisionHistoryLimit, progressDeadlineSeconds, progressDeadlineAbort, paused), status);
    }
  }
}
