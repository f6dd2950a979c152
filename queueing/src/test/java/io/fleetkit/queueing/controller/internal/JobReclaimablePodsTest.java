package io.fleetkit.queueing.controller.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/controller/jobs/job/job_controller_test.go} (commit ff69552e):
 * {@code TestTerminalIndexesCount} (all 22 cases) and {@code TestReclaimablePods} (all 4), plus the non-indexed
 * rule of {@code ReclaimablePods} on which those do not touch.
 */
final class JobReclaimablePodsTest {
  private static final PodSpec POD = PodSpec.builder().container("c", "i", ResourceList.EMPTY)
      .restartPolicy(RestartPolicy.Never).build();

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', nullValues = "~", textBlock = """
      empty                               | ''         | ~      | 10 | 0
      zero completions                    | 0-9        | ~      | 0  | 0
      single completed index              | 0          | ~      | 10 | 1
      single failed index                 | ''         | 1      | 10 | 1
      single range                        | 0-4        | ~      | 10 | 5
      mixed intervals                     | 0-4,7,9-11 | ~      | 10 | 7
      completed and failed indexes        | 0-2,7      | 3-5,8  | 10 | 8
      overlapping terminal indexes        | 0-4        | 3-7    | 10 | 8
      contained failed indexes            | 0-9        | 2-3    | 10 | 10
      surviving low indexes               | 0-8        | ~      | 10 | 9
      all completed within range          | 0-14       | ~      | 10 | 10
      range straddling the cap            | 5-19       | ~      | 10 | 5
      all removed (above the cap)         | 10-19      | ~      | 10 | 0
      failed range straddling the cap     | ''         | 5-19   | 10 | 5
      all failed removed (above the cap)  | ''         | 10-19  | 10 | 0
      stale failed index after scale-down | ''         | 4      | 3  | 0
      cap applied to completed and failed | 0-1        | 2-19   | 5  | 5
      range capped tighter                | 0-4        | ~      | 3  | 3
      discrete indexes                    | 3,5,7      | ~      | 10 | 3
      discrete indexes partly above       | 3,5,12     | ~      | 10 | 2
      malformed interval skipped          | abc,0-2    | ~      | 10 | 3
      malformed range end skipped         | 0-x,4      | ~      | 10 | 1
      """)
  void terminalIndexesCount(String name, String completed, @Nullable String failed, int completions, int want) {
    assertThat(JobReclaimablePods.terminalIndexesCount(completed, failed, completions)).isEqualTo(want);
  }

  private static Job indexed(int succeeded, int failed, String completedIndexes, @Nullable String failedIndexes,
      @Nullable Integer backoffLimitPerIndex) {
    return Job.builder().namespace("ns").name("job").parallelism(8).completions(8)
        .completionMode(CompletionMode.Indexed).backoffLimitPerIndex(backoffLimitPerIndex).podSpec(POD)
        .status(new JobStatus(0, succeeded, failed, null, List.of(), null, null, completedIndexes, null,
            failedIndexes))
        .build();
  }

  @Test
  void indexedJobReclaimsItsCompletedIndexes() {
    assertThat(JobReclaimablePods.of(indexed(4, 0, "0-3", null, null), 8)).isEqualTo(Map.of("main", 4));
  }

  @Test
  void indexedJobHoldsQuotaForARetryableFailure() {
    assertThat(JobReclaimablePods.of(indexed(1, 1, "0", null, 1), 8)).isEqualTo(Map.of("main", 1));
  }

  @Test
  void indexedJobReclaimsCompletedAndFailedIndexes() {
    assertThat(JobReclaimablePods.of(indexed(1, 1, "0", "1", 0), 8)).isEqualTo(Map.of("main", 2));
  }

  @Test
  void indexedJobWithEmptyTerminalIndexesHoldsQuota() {
    assertThat(JobReclaimablePods.of(indexed(4, 0, "", null, null), 8)).isEmpty();
  }

  private static Job nonIndexed(int parallelism, @Nullable Integer completions, int succeeded) {
    return Job.builder().namespace("ns").name("job").parallelism(parallelism).completions(completions)
        .podSpec(POD).status(new JobStatus(0, succeeded, 0, null, List.of(), null, null, ""))
        .build();
  }

  // ReclaimablePods: nothing for a single-pod Job, for none succeeded, or while the work left fills parallelism;
  // else parallelism - remaining, remaining = completions - succeeded
  @Test
  void nonIndexed_reclaimsWhatTheRemainingWorkNoLongerFills() {
    assertThat(JobReclaimablePods.of(nonIndexed(1, 5, 4), 1)).isEmpty();
    assertThat(JobReclaimablePods.of(nonIndexed(4, 10, 0), 4)).isEmpty();
    assertThat(JobReclaimablePods.of(nonIndexed(4, 10, 6), 4)).isEmpty();
    assertThat(JobReclaimablePods.of(nonIndexed(4, 10, 7), 4)).isEqualTo(Map.of("main", 1));
    assertThat(JobReclaimablePods.of(nonIndexed(4, 4, 2), 4)).isEqualTo(Map.of("main", 2));
    // completions unset: a work queue of parallelism pods
    assertThat(JobReclaimablePods.of(nonIndexed(4, null, 1), 4)).isEqualTo(Map.of("main", 1));
    // more succeeded than completions: every pod, at most the pod set's count
    assertThat(JobReclaimablePods.of(nonIndexed(4, 4, 9), 4)).isEqualTo(Map.of("main", 4));
    assertThat(JobReclaimablePods.of(nonIndexed(4, 4, 3), 2)).isEqualTo(Map.of("main", 2));
  }
}
