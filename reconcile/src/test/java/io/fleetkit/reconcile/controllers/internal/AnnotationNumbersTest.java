package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The numbers the workload controllers read from annotations, labels and status strings are Go's {@code
 * strconv.Atoi}/{@code ParseInt} numbers: ASCII digits with an optional sign. Java's {@code Integer.parseInt} also
 * read the digits of other scripts, so {@code "\u0663"} (Arabic-Indic three) or {@code "\uff13"} (fullwidth three) was
 * 3; upstream cannot parse them and takes its "not a number" branch, as these readers now do.
 */
final class AnnotationNumbersTest {
  private static final PodSpec SPEC = PodSpec.builder().container("c", "img", ResourceList.ofCpuMemory(100, 0))
      .build();

  private static Pod pod(String key, String value) {
    return Pod.builder().namespace("ns").name("p").annotation(key, value).spec(SPEC).build();
  }

  @Test
  void indexIntervals_digitOfAnotherScript_corruptedIntervalSkipped() {
    // parseIndexesFromString: an interval Atoi cannot read is skipped ("Corrupted indexes interval, ignoring")
    assertThat(IndexIntervals.parse("0,\u0663,5", 10).toString()).isEqualTo(IndexIntervals.parse("0,5", 10)
        .toString());
    assertThat(IndexIntervals.parse("1-\uff14", 10).toString()).isEqualTo(IndexIntervals.parse("", 10).toString());
    assertThat(IndexIntervals.parse("1-3", 10).toString()).isEqualTo("1-3");
  }

  @Test
  void failureCount_digitOfAnotherScript_zero() {
    assertThat(IndexFailures.failureCount(pod(WorkloadLabels.JOB_INDEX_FAILURE_COUNT, "\u0663"))).isZero();
    assertThat(IndexFailures.ignoredFailureCount(pod(WorkloadLabels.JOB_INDEX_IGNORED_FAILURE_COUNT, "\uff13")))
        .isZero();
    assertThat(IndexFailures.failureCount(pod(WorkloadLabels.JOB_INDEX_FAILURE_COUNT, "3"))).isEqualTo(3);
    assertThat(IndexFailures.failureCount(pod(WorkloadLabels.JOB_INDEX_FAILURE_COUNT, "+3"))).as("Atoi's sign")
        .isEqualTo(3);
  }

  @Test
  void completionIndex_digitOfAnotherScript_unknown() {
    assertThat(JobReconciler.index(pod(WorkloadLabels.JOB_COMPLETION_INDEX, "\u0663"), 5)).isEqualTo(-1);
    assertThat(JobReconciler.index(pod(WorkloadLabels.JOB_COMPLETION_INDEX, "3"), 5)).isEqualTo(3);
  }

  @Test
  void templateGeneration_digitOfAnotherScript_none() {
    DaemonSet.Builder b = DaemonSet.builder().name("agent").namespace("kube-system")
        .matchLabels(Map.of("app", "agent")).podSpec(SPEC);
    assertThat(DaemonSetPods.templateGeneration(b.annotation(WorkloadLabels.DEPRECATED_TEMPLATE_GENERATION,
        "\u0663").build())).isNull();
    assertThat(DaemonSetPods.templateGeneration(b.annotation(WorkloadLabels.DEPRECATED_TEMPLATE_GENERATION,
        "3").build())).isEqualTo(3L);
  }
}
