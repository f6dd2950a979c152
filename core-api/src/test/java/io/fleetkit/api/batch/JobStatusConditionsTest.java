package io.fleetkit.api.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.ConditionStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link JobStatus#finishedCondition}, {@link JobStatus#isFinished}, {@link JobStatus#isConditionTrue} and
 * {@link JobStatus#trueCondition}. The cases of TestFinishedCondition and TestIsJobSucceeded are kube's
 * {@code pkg/controller/job/util/utils_test.go} (commit 4d7ca8687c66efcd2a4f01eac5a16465181c5f50); upstream's
 * {@code IsJobSucceeded} is {@code isConditionTrue(Complete)}.
 */
final class JobStatusConditionsTest {
  private static JobCondition cond(String type, ConditionStatus status) {
    return new JobCondition(type, status, "", "", null, null);
  }

  /** Conditions as {@code type=status} pairs, e.g. {@code "Complete=True"}. */
  private static JobStatus status(String... conditions) {
    List<JobCondition> list = new ArrayList<>();
    for (String c : conditions) {
      String[] p = c.split("=");
      list.add(cond(p[0], ConditionStatus.valueOf(p[1])));
    }
    return JobStatus.EMPTY.withConditions(list);
  }

  static Stream<Arguments> finishedConditionCases() {
    return Stream.of(
        Arguments.of("Job doesn't have any conditions", new String[] {}, null),
        Arguments.of("Job is completed and condition is true", new String[] {"Complete=True"}, "Complete"),
        Arguments.of("Job is completed and condition is false", new String[] {"Complete=False"}, null),
        Arguments.of("Job is completed and condition is unknown", new String[] {"Complete=Unknown"}, null),
        Arguments.of("Job has multiple conditions, one of them being complete and condition true",
            new String[] {"Suspended=False", "Complete=True", "Failed=False"}, "Complete"),
        Arguments.of("Job is failed and condition is true", new String[] {"Failed=True"}, "Failed"),
        Arguments.of("Job is failed and condition is false", new String[] {"Failed=False"}, null),
        Arguments.of("Job is failed and condition is unknown", new String[] {"Failed=Unknown"}, null),
        Arguments.of("Job has multiple conditions, none of them has condition true",
            new String[] {"Suspended=False", "Complete=False", "Failed=False"}, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("finishedConditionCases")
  void finishedCondition_upstreamCases(String name, String[] conditions, @Nullable String wantType) {
    JobStatus s = status(conditions);
    JobCondition got = s.finishedCondition();
    assertThat(got == null ? null : got.type()).isEqualTo(wantType);
    assertThat(s.isFinished()).isEqualTo(wantType != null);
    if (got != null) {
      assertThat(got.status()).isEqualTo(ConditionStatus.True);
    }
  }

  static Stream<Arguments> succeededCases() {
    return Stream.of(
        Arguments.of("job doesn't have any conditions", new String[] {}, false),
        Arguments.of("job has Complete=True condition", new String[] {"Suspended=False", "Complete=True"}, true),
        Arguments.of("job has Complete=False condition", new String[] {"Failed=True", "Complete=False"}, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("succeededCases")
  void isConditionTrueComplete_upstreamIsJobSucceededCases(String name, String[] conditions, boolean want) {
    JobStatus s = status(conditions);
    assertThat(s.isConditionTrue(JobCondition.COMPLETE)).isEqualTo(want);
    assertThat(s.trueCondition(JobCondition.COMPLETE) != null).isEqualTo(want);
  }

  static Stream<Arguments> trueConditionCases() {
    return Stream.of(
        Arguments.of(new String[] {"Suspended=True"}, "Suspended", true),
        Arguments.of(new String[] {"Suspended=False"}, "Suspended", false),
        Arguments.of(new String[] {"Suspended=Unknown"}, "Suspended", false),
        Arguments.of(new String[] {"FailureTarget=True"}, "Suspended", false),
        // the first condition of a type counts, as upstream's findConditionByType
        Arguments.of(new String[] {"Suspended=False", "Suspended=True"}, "Suspended", false),
        Arguments.of(new String[] {"Suspended=True", "Suspended=False"}, "Suspended", true));
  }

  @ParameterizedTest
  @MethodSource("trueConditionCases")
  void trueCondition_onlyTheFirstOfItsTypeWhenTrue(String[] conditions, String type, boolean want) {
    JobStatus s = status(conditions);
    JobCondition got = s.trueCondition(type);
    assertThat(got != null).isEqualTo(want);
    assertThat(s.isConditionTrue(type)).isEqualTo(want);
    if (got != null) {
      assertThat(got).isSameAs(s.condition(type));
    }
  }
}
