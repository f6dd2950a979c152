package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpecBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.UncountedTerminatedPodsBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.batch.PodFailurePolicy;
import io.fleetkit.api.batch.PodFailurePolicyAction;
import io.fleetkit.api.batch.PodFailurePolicyOnExitCodesOperator;
import io.fleetkit.api.batch.PodFailurePolicyOnExitCodesRequirement;
import io.fleetkit.api.batch.PodFailurePolicyOnPodConditionsPattern;
import io.fleetkit.api.batch.PodFailurePolicyRule;
import io.fleetkit.api.batch.PodReplacementPolicy;
import io.fleetkit.api.batch.SuccessPolicy;
import io.fleetkit.api.batch.SuccessPolicyRule;
import io.fleetkit.api.batch.UncountedTerminatedPods;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** batch/v1 Job, with Kubernetes' defaults: parallelism 1, NonIndexed, a backoff limit of 6. */
public final class JobConverter extends AbstractKindConverter<io.fabric8.kubernetes.api.model.batch.v1.Job, Job> {
  public JobConverter() {
    super(Job.API_VERSION, Job.KIND, true, io.fabric8.kubernetes.api.model.batch.v1.Job.class, Job.class);
  }

  @Override
  public @Nullable Job toCore(io.fabric8.kubernetes.api.model.batch.v1.Job in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec();
    if (s == null) {
      ctx.error("spec", "is required", null);
      return null;
    }
    JobSpec spec = spec(s, "spec", ctx);
    JobStatus status = JobStatus.EMPTY;
    var st = in.getStatus();
    if (st != null) {
      var conditions = Fabric8Scheduling.list(st.getConditions(), "status.conditions", ctx, (c, p, cx) -> {
        var cs = Values.requiredEnum(ConditionStatus.class, c.getStatus(), p + ".status", cx);
        var probe = Values.instant(c.getLastProbeTime(), p + ".lastProbeTime", cx);
        var transition = Values.instant(c.getLastTransitionTime(), p + ".lastTransitionTime", cx);
        return cs == null ? null : cx.build(p, () -> new JobCondition(Values.required(c.getType(), p + ".type", cx),
            cs, Values.orEmpty(c.getReason()), Values.orEmpty(c.getMessage()), probe, transition));
      });
      var start = Values.instant(st.getStartTime(), "status.startTime", ctx);
      var completion = Values.instant(st.getCompletionTime(), "status.completionTime", ctx);
      var u = st.getUncountedTerminatedPods();
      var uncounted = u == null ? UncountedTerminatedPods.EMPTY : new UncountedTerminatedPods(
          u.getSucceeded() == null ? List.of() : u.getSucceeded(), u.getFailed() == null ? List.of() : u.getFailed());
      status = ctx.build("status", () -> new JobStatus(Values.intOr(st.getActive(), 0),
          Values.intOr(st.getSucceeded(), 0), Values.intOr(st.getFailed(), 0), st.getReady(), conditions, start,
          completion, Values.orEmpty(st.getCompletedIndexes()), st.getTerminating(), st.getFailedIndexes(),
          uncounted));
    }
    JobStatus fs = status;
    return spec == null || fs == null ? null : ctx.build("", () -> new Job(meta, spec, fs));
  }

  @Override
  public io.fabric8.kubernetes.api.model.batch.v1.Job toFabric8(Job in) {
    JobSpec s = in.spec();
    JobStatus st = in.status();
    return new JobBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(spec(s))
        .withStatus(st.equals(JobStatus.EMPTY) ? null : new JobStatusBuilder()
            .withActive(st.active() == 0 ? null : st.active())
            .withSucceeded(st.succeeded() == 0 ? null : st.succeeded())
            .withFailed(st.failed() == 0 ? null : st.failed())
            .withReady(st.ready())
            .withConditions(Fabric8Scheduling.out(st.conditions(), c -> new JobConditionBuilder().withType(c.type())
                .withStatus(c.status().name()).withReason(Values.emptyToNull(c.reason()))
                .withMessage(Values.emptyToNull(c.message())).withLastProbeTime(Values.instant(c.lastProbeTime()))
                .withLastTransitionTime(Values.instant(c.lastTransitionTime())).build()))
            .withStartTime(Values.instant(st.startTime()))
            .withCompletionTime(Values.instant(st.completionTime()))
            .withCompletedIndexes(Values.emptyToNull(st.completedIndexes()))
            .withTerminating(st.terminating())
            .withFailedIndexes(st.failedIndexes())
            .withUncountedTerminatedPods(st.uncountedTerminatedPods().isEmpty() ? null
                : new UncountedTerminatedPodsBuilder()
                    .withSucceeded(st.uncountedTerminatedPods().succeeded().isEmpty() ? null
                        : st.uncountedTerminatedPods().succeeded())
                    .withFailed(st.uncountedTerminatedPods().failed().isEmpty() ? null
                        : st.uncountedTerminatedPods().failed())
                    .build())
            .build())
        .build();
  }

  /**
   * A Job spec at {@code path} ({@code spec} of a Job, {@code spec.jobTemplate.spec} of a CronJob), with Kubernetes'
   * defaults; {@code null} after recording an error.
   */
  static @Nullable JobSpec spec(io.fabric8.kubernetes.api.model.batch.v1.JobSpec s, String path,
      DocumentContext ctx) {
    var mode = Values.enumValue(CompletionMode.class, s.getCompletionMode(), CompletionMode.NonIndexed,
        path + ".completionMode", ctx);
    var selector = Fabric8Selectors.toCore(s.getSelector(), path + ".selector", ctx);
    var template = PodSpecs.template(s.getTemplate(), path + ".template", ctx);
    var replacement = Values.enumValue(PodReplacementPolicy.class, s.getPodReplacementPolicy(), null,
        path + ".podReplacementPolicy", ctx);
    var failurePolicy = podFailurePolicy(s.getPodFailurePolicy(), path + ".podFailurePolicy", ctx);
    var successPolicy = successPolicy(s.getSuccessPolicy(), path + ".successPolicy", ctx);
    Integer perIndex = s.getBackoffLimitPerIndex();
    return template == null ? null : ctx.build(path, () -> new JobSpec(Values.intOr(s.getParallelism(), 1),
        s.getCompletions(), mode, Values.intOr(s.getBackoffLimit(), defaultBackoffLimit(perIndex)),
        s.getActiveDeadlineSeconds(), s.getTtlSecondsAfterFinished(), Values.boolOr(s.getSuspend(), false),
        selector, template, failurePolicy, replacement, perIndex, s.getMaxFailedIndexes(), successPolicy,
        s.getManagedBy()));
  }

  /** Kubernetes' default backoffLimit: 6, or MaxInt32 with backoffLimitPerIndex. */
  private static int defaultBackoffLimit(@Nullable Integer backoffLimitPerIndex) {
    return backoffLimitPerIndex == null ? JobSpec.DEFAULT_BACKOFF_LIMIT : JobSpec.DEFAULT_BACKOFF_LIMIT_PER_INDEX_JOB;
  }

  /** A success policy; its rules are checked by the Job's validation. */
  private static @Nullable SuccessPolicy successPolicy(
      io.fabric8.kubernetes.api.model.batch.v1.@Nullable SuccessPolicy in, String path, DocumentContext ctx) {
    if (in == null) {
      return null;
    }
    List<SuccessPolicyRule> rules = Fabric8Scheduling.list(in.getRules(), path + ".rules", ctx, (r, p, cx) ->
        new SuccessPolicyRule(r.getSucceededIndexes(), r.getSucceededCount()));
    return new SuccessPolicy(rules);
  }

  private static io.fabric8.kubernetes.api.model.batch.v1.@Nullable SuccessPolicy successPolicy(
      @Nullable SuccessPolicy in) {
    if (in == null) {
      return null;
    }
    var rules = new java.util.ArrayList<io.fabric8.kubernetes.api.model.batch.v1.SuccessPolicyRule>();
    for (SuccessPolicyRule r : in.rules()) {
      rules.add(new io.fabric8.kubernetes.api.model.batch.v1.SuccessPolicyRuleBuilder()
          .withSucceededIndexes(r.succeededIndexes()).withSucceededCount(r.succeededCount()).build());
    }
    return new io.fabric8.kubernetes.api.model.batch.v1.SuccessPolicyBuilder().withRules(rules).build();
  }

  /**
   * A pod failure policy; an unknown action, operator or condition status is an error here, a missing action or
   * operator is left for the Job's validation (which names the rule), a missing pattern status is Kubernetes'
   * default {@code True}.
   */
  private static @Nullable PodFailurePolicy podFailurePolicy(
      io.fabric8.kubernetes.api.model.batch.v1.@Nullable PodFailurePolicy in, String path, DocumentContext ctx) {
    if (in == null) {
      return null;
    }
    List<PodFailurePolicyRule> rules = Fabric8Scheduling.list(in.getRules(), path + ".rules", ctx, (r, p, cx) -> {
      var action = Values.enumValue(PodFailurePolicyAction.class, r.getAction(), null, p + ".action", cx);
      PodFailurePolicyOnExitCodesRequirement codes = null;
      var e = r.getOnExitCodes();
      if (e != null) {
        var op = Values.enumValue(PodFailurePolicyOnExitCodesOperator.class, e.getOperator(), null,
            p + ".onExitCodes.operator", cx);
        codes = new PodFailurePolicyOnExitCodesRequirement(e.getContainerName(), op,
            e.getValues() == null ? List.of() : e.getValues());
      }
      var patterns = Fabric8Scheduling.list(r.getOnPodConditions(), p + ".onPodConditions", cx, (c, cp, ccx) ->
          new PodFailurePolicyOnPodConditionsPattern(Values.orEmpty(c.getType()), Values.enumValue(
              ConditionStatus.class, c.getStatus(), ConditionStatus.True, cp + ".status", ccx)));
      return new PodFailurePolicyRule(action, codes, patterns);
    });
    return new PodFailurePolicy(rules);
  }

  private static io.fabric8.kubernetes.api.model.batch.v1.@Nullable PodFailurePolicy podFailurePolicy(
      @Nullable PodFailurePolicy in) {
    if (in == null) {
      return null;
    }
    var rules = new java.util.ArrayList<io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule>();
    for (PodFailurePolicyRule r : in.rules()) {
      var e = r.onExitCodes();
      var patterns = new java.util.ArrayList<io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnPodConditionsPattern>();
      for (PodFailurePolicyOnPodConditionsPattern c : r.onPodConditions()) {
        patterns.add(new io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnPodConditionsPatternBuilder()
            .withType(c.type()).withStatus(c.status() == null ? null : c.status().name()).build());
      }
      rules.add(new io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRuleBuilder()
          .withAction(r.action() == null ? null : r.action().name())
          .withOnExitCodes(e == null ? null
              : new io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnExitCodesRequirementBuilder()
                  .withContainerName(e.containerName())
                  .withOperator(e.operator() == null ? null : e.operator().name())
                  .withValues(e.values()).build())
          .withOnPodConditions(patterns.isEmpty() ? null : patterns)
          .build());
    }
    return new io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyBuilder().withRules(rules).build();
  }

  /** The manifest form of a Job spec, defaults left out. */
  static io.fabric8.kubernetes.api.model.batch.v1.JobSpec spec(JobSpec s) {
    return new JobSpecBuilder()
        .withParallelism(s.parallelism() == 1 ? null : s.parallelism())
        .withCompletions(s.completions())
        .withCompletionMode(s.completionMode() == CompletionMode.NonIndexed ? null : s.completionMode().name())
        .withBackoffLimit(s.backoffLimit() == defaultBackoffLimit(s.backoffLimitPerIndex()) ? null : s.backoffLimit())
        .withBackoffLimitPerIndex(s.backoffLimitPerIndex())
        .withMaxFailedIndexes(s.maxFailedIndexes())
        .withSuccessPolicy(successPolicy(s.successPolicy()))
        .withManagedBy(s.managedBy())
        .withActiveDeadlineSeconds(s.activeDeadlineSeconds())
        .withTtlSecondsAfterFinished(s.ttlSecondsAfterFinished())
        .withSuspend(s.suspend() ? Boolean.TRUE : null)
        .withSelector(Fabric8Selectors.toFabric8(s.selector()))
        .withTemplate(PodSpecs.template(s.template()))
        .withPodFailurePolicy(podFailurePolicy(s.podFailurePolicy()))
        .withPodReplacementPolicy(s.podReplacementPolicy() == null ? null : s.podReplacementPolicy().name())
        .build();
  }
}
