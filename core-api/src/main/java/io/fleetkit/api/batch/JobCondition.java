package io.fleetkit.api.batch;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** One condition of a Job ({@code Complete}, {@code Failed}, {@code Suspended}, ...). */
public record JobCondition(String type, ConditionStatus status, String reason, String message,
    @Nullable Instant lastProbeTime, @Nullable Instant lastTransitionTime) {
  public static final String COMPLETE = "Complete";
  public static final String FAILED = "Failed";
  public static final String SUSPENDED = "Suspended";
  public static final String FAILURE_TARGET = "FailureTarget";
  public static final String SUCCESS_CRITERIA_MET = "SuccessCriteriaMet";
  /** Reason of {@code Failed} when the backoff limit was exceeded. */
  public static final String REASON_BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded";
  /** Reason of {@code FailureTarget} and {@code Failed} when a pod matched a {@code FailJob} rule. */
  public static final String REASON_POD_FAILURE_POLICY = "PodFailurePolicy";
  /** Reason of {@code FailureTarget} and {@code Failed} when every index finished and some failed. */
  public static final String REASON_FAILED_INDEXES = "FailedIndexes";
  /** Reason of {@code FailureTarget} and {@code Failed} when more indexes failed than {@code maxFailedIndexes}. */
  public static final String REASON_MAX_FAILED_INDEXES_EXCEEDED = "MaxFailedIndexesExceeded";
  /** Reason of {@code SuccessCriteriaMet} and {@code Complete} when a {@link SuccessPolicy} rule was met. */
  public static final String REASON_SUCCESS_POLICY = "SuccessPolicy";
  /** Reason of {@code FailureTarget} and {@code Failed} when {@code activeDeadlineSeconds} passed. */
  public static final String REASON_DEADLINE_EXCEEDED = "DeadlineExceeded";
  /** Upstream's {@code JobReasonCompletionsReached}: the Job has as many succeeded pods as it needs. */
  public static final String REASON_COMPLETIONS_REACHED = "CompletionsReached";

  public JobCondition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }
}
