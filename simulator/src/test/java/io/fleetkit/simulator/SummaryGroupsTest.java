package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The end-of-run summary's groups, which the HTML report and the command line's table share. */
final class SummaryGroupsTest {

  @Test
  void workloads_eightListed_moreCounted_notReadyNamedUpToEight() {
    List<WorkloadSummary> eight = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      eight.add(new WorkloadSummary("default/app-" + i, 2, 2));
    }
    assertThat(SummaryGroups.workloads("Deployment", eight)).isNull();
    List<WorkloadSummary> nine = new ArrayList<>(eight);
    nine.add(new WorkloadSummary("default/app-8", 2, 2));
    assertThat(SummaryGroups.workloads("Deployment", nine)).isEqualTo("9 Deployments, 9 with every replica ready");
    List<WorkloadSummary> many = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      many.add(new WorkloadSummary("shop/s-" + i, 3, i < 10 ? 3 : 1));
    }
    assertThat(SummaryGroups.workloads("StatefulSet", many)).isEqualTo("20 StatefulSets, 10 with every replica ready"
        + " (not: shop/s-10 1/3, shop/s-11 1/3, shop/s-12 1/3, shop/s-13 1/3, shop/s-14 1/3, shop/s-15 1/3,"
        + " shop/s-16 1/3, shop/s-17 1/3 and 2 more)");
  }

  @Test
  void loads_summed_thoseBeyondCapacityListedMostFirst_atMostEight() {
    List<LoadOutcome> few = List.of(new LoadOutcome("Deployment/a/web", 100, 0, null, 0));
    assertThat(SummaryGroups.loads(few)).isNull();

    List<LoadOutcome> calm = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      calm.add(new LoadOutcome("Deployment/a/w-" + i, 1_000, 0.4, null, 0));
    }
    SummaryGroups.Loads none = SummaryGroups.loads(calm);
    assertThat(none).isNotNull();
    assertThat(none.count()).isEqualTo(9);
    // each load's 0.4 rounds to none, so none is listed; their sum is counted
    assertThat(none.missed()).isEmpty();
    assertThat(none.all().summary()).isEqualTo("4 of 9,000 requests beyond capacity (0.04 %)");
    assertThat(none.missedClause()).isEmpty();

    List<LoadOutcome> loads = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      loads.add(new LoadOutcome("Deployment/a/w-" + i, 1_000, i < 10 ? i % 5 : 0, Duration.ofMinutes(i), i % 5));
    }
    SummaryGroups.Loads some = SummaryGroups.loads(loads);
    assertThat(some).isNotNull();
    assertThat(some.all().requests()).isEqualTo(12_000);
    assertThat(some.all().unserved()).isEqualTo(20);
    assertThat(some.all().target()).isEqualTo("all");
    // w-0 and w-5 had none; the rest the most first, equal ones by target
    assertThat(some.missed()).extracting(LoadOutcome::target).containsExactly("Deployment/a/w-4",
        "Deployment/a/w-9", "Deployment/a/w-3", "Deployment/a/w-8", "Deployment/a/w-2", "Deployment/a/w-7",
        "Deployment/a/w-1", "Deployment/a/w-6");
    assertThat(some.listed()).hasSize(8);
    assertThat(some.missedClause()).isEqualTo(", on 8 of them:");
    loads.add(new LoadOutcome("Deployment/a/w-12", 1_000, 0.6, null, 0)); // counted as 1, the least
    SummaryGroups.Loads nine = SummaryGroups.loads(loads);
    assertThat(nine.missed()).hasSize(9);
    assertThat(nine.listed()).hasSize(8).extracting(LoadOutcome::target).doesNotContain("Deployment/a/w-12");
    assertThat(nine.missedClause()).isEqualTo(", on 9 of them; the 8 with the most:");
  }

  @Test
  void jobs_countedByStatus_failedNamed() {
    List<JobSummary> jobs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      jobs.add(new JobSummary("batch/j-" + i, 1, 0, "Complete"));
    }
    assertThat(SummaryGroups.jobs(jobs)).isNull();
    jobs.add(new JobSummary("batch/j-8", 0, 6, "Failed"));
    jobs.add(new JobSummary("batch/j-9", 0, 0, "Running"));
    assertThat(SummaryGroups.jobs(jobs)).isEqualTo("10 Jobs: 8 Complete, 1 Failed, 1 Running (failed: batch/j-8)");
  }

  @Test
  void names_firstEightThenHowManyMore() {
    assertThat(SummaryGroups.names(List.of("a", "b"))).isEqualTo("a, b");
    List<String> ten = List.of("1", "2", "3", "4", "5", "6", "7", "8", "9", "10");
    assertThat(SummaryGroups.names(ten)).isEqualTo("1, 2, 3, 4, 5, 6, 7, 8 and 2 more");
  }
}
