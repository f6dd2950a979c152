package io.fleetkit.api.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A scenario's {@code spec.provisioner}. The cases marked "upstream" are Karpenter's
 * {@code pkg/apis/v1/nodepool_validation_cel_test.go} (kubernetes-sigs/karpenter 2266468), Context "Disruption", for
 * the fields FleetKit's provisioner has: a value Karpenter's CRD accepts is accepted here, one it refuses is refused
 * naming {@code spec.provisioner.FIELD}. Go duration syntax ({@code 1hr}, {@code FooNever}) is the YAML loader's, and
 * tested there.
 */
final class ScenarioProvisionerTest {
  private static final ScenarioFeatures PROVISIONER = ScenarioFeatures.ALL.withProvisioner();

  private static Scenario scenario(ScenarioFeatures features, ScenarioProvisioner p) {
    return new Scenario(ObjectMeta.builder().name("what-if").build(), new ScenarioSpec(Duration.ofHours(1), 1,
        ScenarioSpec.DEFAULT_SAMPLE_INTERVAL, List.of(), List.of(), features).withProvisioner(p));
  }

  private static Scenario scenario(ScenarioProvisioner p) {
    return scenario(PROVISIONER, p);
  }

  private static ScenarioProvisioner budget(String nodes, String... reasons) {
    return ScenarioProvisioner.builder().budgets(List.of(new ScenarioProvisioner.Budget(nodes, List.of(reasons))))
        .build();
  }

  @Test
  void everyOption_kept_andAbsentMeansUnset() {
    ScenarioProvisioner p = ScenarioProvisioner.builder().batchIdleDuration(Duration.ofSeconds(5))
        .batchMaxDuration(Duration.ofMinutes(1)).consolidationPolicy("WhenEmpty")
        .consolidateAfter(Duration.ofMinutes(5)).budgets(List.of(ScenarioProvisioner.Budget.of("20%"),
            new ScenarioProvisioner.Budget("0", List.of("Underutilized", "Drifted")))).build();
    Scenario s = scenario(p);
    assertThat(s.spec().provisioner()).isEqualTo(p);
    assertThat(p.toBuilder().build()).isEqualTo(p);
    assertThat(p.consolidatesNever()).isFalse();
    assertThat(ScenarioProvisioner.DEFAULTS.budgets()).isEmpty();
    assertThat(ScenarioProvisioner.DEFAULTS.consolidateAfter()).isNull();
    assertThat(s.spec().withProvisioner(null).provisioner()).isNull();
    // the other with-ers keep the block
    assertThat(s.spec().withScheduler(ScenarioScheduler.DEFAULT).withCohorts(List.of()).withWaitForPodsReady(null)
        .withClusterAutoscaler(null).provisioner()).isEqualTo(p);
    assertThat(p.budgets().get(0).nodesValue()).isEqualTo(IntOrPercent.ofPercent(20));
    assertThat(p.budgets().get(1).nodesValue()).isEqualTo(IntOrPercent.of(0));
    assertThat(ScenarioProvisioner.Budget.of("99999999999").nodesValue()).isEqualTo(IntOrPercent.of(Integer.MAX_VALUE));
    // upstream AllowedDisruptions "should return zero values if a nodes value is invalid": refused here
    assertThatThrownBy(() -> ScenarioProvisioner.Budget.of("1000a%").nodesValue())
        .hasMessageContaining("nodes \"1000a%\" must match ^((100|[0-9]{1,2})%|[0-9]+)$");
  }

  @Test
  void withTheProvisionerOff_refusedNamingTheBlockAndTheSwitch() {
    assertThatThrownBy(() -> scenario(ScenarioFeatures.ALL, ScenarioProvisioner.DEFAULTS))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.provisioner \"set\" ")
        .hasMessageContaining("needs spec.features.provisioner: true")
        .hasMessageContaining("the cluster autoscaler runs instead");
    assertThatThrownBy(() -> scenario(ScenarioFeatures.builder().clusterAutoscaler(false).build(),
        ScenarioProvisioner.DEFAULTS))
        .hasMessageContaining("needs spec.features.provisioner: true")
        .hasMessageNotContaining("runs instead");
  }

  @Test
  void consolidateAfter_upstreamValidValues_accepted() {
    // upstream: "should succeed on a disabled consolidateAfter"; "should succeed on a valid consolidateAfter":
    // single unit 30s, multiple units 1h30m5s, never
    for (Duration d : List.of(ScenarioProvisioner.NEVER, Duration.ofSeconds(30),
        Duration.ofHours(1).plusMinutes(30).plusSeconds(5))) {
      assertThat(scenario(ScenarioProvisioner.builder().consolidateAfter(d).build()).spec().provisioner()
          .consolidateAfter()).isEqualTo(d);
    }
    assertThat(ScenarioProvisioner.builder().consolidateAfter(ScenarioProvisioner.NEVER).build().consolidatesNever())
        .isTrue();
    // upstream: consolidateAfter 30s or Never with consolidationPolicy WhenEmpty or WhenEmptyOrUnderutilized
    for (String policy : List.of("WhenEmpty", "WhenEmptyOrUnderutilized")) {
      for (Duration d : List.of(Duration.ofSeconds(30), ScenarioProvisioner.NEVER)) {
        assertThat(scenario(ScenarioProvisioner.builder().consolidationPolicy(policy).consolidateAfter(d).build())
            .spec().provisioner().consolidationPolicy()).isEqualTo(policy);
      }
    }
    assertThat(scenario(ScenarioProvisioner.builder().consolidateAfter(Duration.ZERO).build())).isNotNull();
  }

  @Test
  void consolidateAfter_negativeOrFractional_refused() {
    // upstream: "should fail on an invalid consolidateAfter", negative -1s
    assertThatThrownBy(() -> scenario(ScenarioProvisioner.builder().consolidateAfter(Duration.ofSeconds(-1)).build()))
        .hasMessageContaining("spec.provisioner.consolidateAfter \"-1s\" must be greater than or equal to 0");
    // Karpenter's pattern has whole s, m and h units only
    assertThatThrownBy(() -> scenario(ScenarioProvisioner.builder().consolidateAfter(Duration.ofMillis(1500))
        .build()))
        .hasMessageContaining("spec.provisioner.consolidateAfter")
        .hasMessageContaining("must be whole seconds, or Never");
  }

  @Test
  void consolidationPolicy_upstreamValidValues_accepted() {
    // upstream: "should succeed on a valid consolidationPolicy" and "should pass RuntimeValidate for valid
    // consolidationPolicy": WhenEmpty, WhenEmptyOrUnderutilized, Balanced
    for (String policy : List.of("WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced")) {
      assertThat(scenario(ScenarioProvisioner.builder().consolidationPolicy(policy).build()).spec().provisioner()
          .consolidationPolicy()).isEqualTo(policy);
    }
  }

  @Test
  void consolidationPolicy_upstreamInvalidValues_refused() {
    // upstream: "should fail on an invalid consolidationPolicy", every entry
    for (String bad : List.of("1", "2", "3", "0", "4", "10", "balanced", "whenempty", "", "WhenUnderutilized",
        "foo")) {
      assertThatThrownBy(() -> scenario(ScenarioProvisioner.builder().consolidationPolicy(bad).build()))
          .as(bad)
          .hasMessageContaining("spec.provisioner.consolidationPolicy \"" + bad + "\" must be one of WhenEmpty, "
              + "WhenEmptyOrUnderutilized, Balanced");
    }
  }

  @Test
  void budgetNodes_upstreamCases() {
    // upstream: "should fail when creating a budget with a negative value int", "... negative value percent",
    // "... a value percent with more than 3 digits"
    for (String bad : List.of("-10", "-10%", "1000%")) {
      assertThatThrownBy(() -> scenario(budget(bad)))
          .as(bad)
          .hasMessageContaining("spec.provisioner.budgets[0].nodes \"" + bad + "\" must be a count or a percentage up "
              + "to 100%");
    }
    // upstream: "should succeed when creating a budget with neither duration nor cron"
    assertThat(scenario(budget("10")).spec().provisioner().budgets()).hasSize(1);
    for (String ok : List.of("0", "0%", "100%", "99%", "7", "250")) {
      assertThat(scenario(budget(ok)).spec().provisioner().budgets().get(0).nodes()).isEqualTo(ok);
    }
    for (String bad : List.of("101%", "10.5%", "ten", "", " 10", "%")) {
      assertThatThrownBy(() -> scenario(budget(bad))).as(bad).hasMessageContaining("spec.provisioner.budgets[0].nodes");
    }
  }

  @Test
  void budgetReasons_upstreamCases() {
    // upstream: "should succeed when creating a budget with valid reasons": Drifted, Underutilized, Empty;
    // "should allow setting multiple reasons"
    for (String r : ScenarioProvisioner.REASONS) {
      assertThat(scenario(budget("10", r)).spec().provisioner().budgets().get(0).reasons()).containsExactly(r);
      // as upstream's entries, with the schedule "* * * * *" for 20m they carry
      assertThat(budgets(new ScenarioProvisioner.Budget("10", List.of(r), "* * * * *", Duration.ofMinutes(20))).spec()
          .provisioner().budgets().get(0).reasons()).containsExactly(r);
    }
    assertThat(scenario(budget("10", "Drifted", "Empty")).spec().provisioner().budgets().get(0).reasons())
        .containsExactly("Drifted", "Empty");
    // upstream: "should fail when creating a budget with invalid reasons": invalid, expired, empty
    for (String bad : List.of("invalid", "expired", "")) {
      assertThatThrownBy(() -> scenario(budget("10", bad)))
          .as(bad)
          .hasMessageContaining("spec.provisioner.budgets[0].reasons[0] \"" + bad + "\" must be one of "
              + "Underutilized, Empty, Drifted");
    }
    // the CRD's reasons are a set
    assertThatThrownBy(() -> scenario(budget("10", "Empty", "Empty")))
        .hasMessageContaining("spec.provisioner.budgets[0].reasons[1] \"Empty\" Duplicate value");
  }

  @Test
  void budgets_atMostFiftyOfThemAndOfTheirReasons() {
    List<ScenarioProvisioner.Budget> many = new ArrayList<>(Collections.nCopies(50, ScenarioProvisioner.Budget.of(
        "1")));
    assertThat(scenario(ScenarioProvisioner.builder().budgets(many).build())).isNotNull();
    many.add(ScenarioProvisioner.Budget.of("1"));
    assertThatThrownBy(() -> scenario(ScenarioProvisioner.builder().budgets(many).build()))
        .hasMessageContaining("spec.provisioner.budgets \"51\" must have at most 50 items");
  }

  private static ScenarioProvisioner.Budget scheduled(String schedule, Duration duration) {
    return new ScenarioProvisioner.Budget("10", List.of(), schedule, duration);
  }

  private static Scenario budgets(ScenarioProvisioner.Budget... budgets) {
    return scenario(ScenarioProvisioner.builder().budgets(List.of(budgets)).build());
  }

  @Test
  void budgetSchedule_upstreamInvalidCrons_refused() {
    // upstream: "should fail when creating a budget with an invalid cron" ("*"), "should fail when creating a schedule
    // with less than 5 entries" ("* * * * ")
    assertThatThrownBy(() -> budgets(scheduled("*", Duration.ofMinutes(20))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.provisioner.budgets[0].schedule \"*\" must be 5 cron fields or one of @annually");
    assertThatThrownBy(() -> budgets(scheduled("* * * * ", Duration.ofMinutes(20))))
        .hasMessageContaining("spec.provisioner.budgets[0].schedule \"* * * * \" must be 5 cron fields");
    // upstream: "should fail when creating two budgets where one has an invalid crontab"
    assertThatThrownBy(() -> budgets(scheduled("@annually", Duration.ofMinutes(20)),
        scheduled("*", Duration.ofMinutes(20))))
        .hasMessageContaining("spec.provisioner.budgets[1].schedule \"*\"")
        .hasMessageNotContaining("budgets[0]");
    // what the pattern lets through but robfig's parser refuses (Karpenter would fail closed at 0 disruptions);
    // Karpenter's own "TZ=UTC" prefix makes a schedule's zone a sixth field; @every is not in the pattern
    assertThatThrownBy(() -> budgets(scheduled("60 * * * *", Duration.ofMinutes(20))))
        .hasMessageContaining("spec.provisioner.budgets[0].schedule \"60 * * * *\" must be a cron schedule in UTC: "
            + "end of range (60) above maximum (59): 60");
    assertThatThrownBy(() -> budgets(scheduled("TZ=Europe/Paris 0 9 * * *", Duration.ofMinutes(20))))
        .hasMessageContaining("must be a cron schedule in UTC: expected exactly 5 fields, found 6");
    assertThatThrownBy(() -> budgets(scheduled("@every 1h", Duration.ofMinutes(20))))
        .hasMessageContaining("spec.provisioner.budgets[0].schedule \"@every 1h\" must be 5 cron fields");
    // upstream nodepool_budgets_test.go IsActive "should return an error indicating why the cron fails to parse"
    assertThatThrownBy(() -> budgets(scheduled("0 0 * * tue-mon", Duration.ofHours(6))))
        .hasMessageContaining("beginning of range (2) beyond end of range (1)");
    assertThatThrownBy(() -> scheduled("@wrongly", Duration.ofHours(1)).scheduleValue())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("schedule \"@wrongly\" must be 5 cron fields");
  }

  @Test
  void budgetDuration_upstreamNegativeAndSeconds_refused() {
    // upstream: "should fail when creating a budget with a negative duration" (-20m), "... with a seconds duration"
    // (30s)
    assertThatThrownBy(() -> budgets(scheduled("* * * * *", Duration.ofMinutes(-20))))
        .hasMessageContaining("spec.provisioner.budgets[0].duration \"-20m\" must be whole minutes or hours, not "
            + "negative");
    assertThatThrownBy(() -> budgets(scheduled("* * * * *", Duration.ofSeconds(30))))
        .hasMessageContaining("spec.provisioner.budgets[0].duration \"30s\" must be whole minutes or hours");
  }

  @Test
  void budgetScheduleAndDuration_eachWithoutTheOther_refused() {
    // upstream: "should fail when creating a budget with a cron but no duration", "... with a duration but no cron"
    assertThatThrownBy(() -> budgets(new ScenarioProvisioner.Budget("10", List.of(), "* * * * *", null)))
        .hasMessageContaining("spec.provisioner.budgets[0] \"schedule only\" 'schedule' must be set with 'duration'");
    assertThatThrownBy(() -> budgets(new ScenarioProvisioner.Budget("10", List.of(), null, Duration.ofMinutes(20))))
        .hasMessageContaining("spec.provisioner.budgets[0] \"duration only\" 'schedule' must be set with "
            + "'duration'");
    // upstream: "should fail when creating multiple budgets where one doesn't have both schedule and duration"
    assertThatThrownBy(() -> budgets(new ScenarioProvisioner.Budget("10", List.of(), null, Duration.ofMinutes(20)),
        scheduled("* * * * *", Duration.ofMinutes(20)), ScenarioProvisioner.Budget.of("10")))
        .hasMessageContaining("spec.provisioner.budgets[0] \"duration only\"")
        .hasMessageNotContaining("budgets[1]")
        .hasMessageNotContaining("budgets[2]");
  }

  @Test
  void budgetSchedule_upstreamValidCases_accepted() {
    // upstream: "should succeed when creating a budget with both duration and cron", "... with hours and minutes in
    // duration" (2h20m), "... with special cased crons" (@annually)
    assertThat(budgets(scheduled("* * * * *", Duration.ofMinutes(20))).spec().provisioner().budgets().get(0)
        .schedule()).isEqualTo("* * * * *");
    assertThat(budgets(scheduled("* * * * *", Duration.ofHours(2).plusMinutes(20))).spec().provisioner().budgets()
        .get(0).duration()).isEqualTo(Duration.ofMinutes(140));
    assertThat(budgets(scheduled("@annually", Duration.ofMinutes(20))).spec().provisioner().budgets().get(0)
        .scheduleValue()).isNotNull();
    // upstream: the valid reasons table and "should allow setting multiple reasons" carry a schedule
    assertThat(budgets(new ScenarioProvisioner.Budget("10", List.of("Drifted", "Empty"), "* * * * *",
        Duration.ofMinutes(20))).spec().provisioner().budgets().get(0).reasons()).containsExactly("Drifted", "Empty");
    // every descriptor of the pattern, day and month names, a zero duration (never active, as in Karpenter)
    for (String ok : List.of("@yearly", "@monthly", "@weekly", "@daily", "@midnight", "@hourly", "30 6 * * SUN",
        "0 9 * jan-mar mon-fri")) {
      assertThat(scheduled(ok, Duration.ZERO).scheduleValue()).as(ok).isNotNull();
      assertThat(budgets(scheduled(ok, Duration.ZERO))).as(ok).isNotNull();
    }
    assertThat(ScenarioProvisioner.Budget.of("10").scheduleValue()).isNull();
  }

  @Test
  void expireAfter_upstreamValidValues_accepted() {
    // upstream: "should succeed on a disabled expireAfter"; "should succeed on a valid expireAfter": single unit 30s,
    // multiple units 1h30m5s, never
    for (Duration d : List.of(ScenarioProvisioner.NEVER, Duration.ofSeconds(30),
        Duration.ofHours(1).plusMinutes(30).plusSeconds(5))) {
      assertThat(scenario(ScenarioProvisioner.builder().expireAfter(d).build()).spec().provisioner().expireAfter())
          .isEqualTo(d);
    }
    assertThat(ScenarioProvisioner.builder().expireAfter(ScenarioProvisioner.NEVER).build().expiresNever()).isTrue();
    assertThat(ScenarioProvisioner.DEFAULTS.expiresNever()).isFalse();
    assertThat(ScenarioProvisioner.DEFAULTS.expireAfter()).isNull();
    assertThat(ScenarioProvisioner.DEFAULT_EXPIRE_AFTER).isEqualTo(Duration.ofDays(30));
    ScenarioProvisioner p = ScenarioProvisioner.builder().expireAfter(Duration.ofHours(2)).build();
    assertThat(p.toBuilder().build()).isEqualTo(p);
  }

  @Test
  void terminationGracePeriod_upstreamValidValues_accepted() {
    // nodepool_validation_cel_test.go Context "TerminationGracePeriod", "should succeed on a valid
    // terminationGracePeriod": single unit 30s, multiple units 1h30m5s; unset is Karpenter's default (wait forever)
    for (Duration d : List.of(Duration.ofSeconds(30), Duration.ofHours(1).plusMinutes(30).plusSeconds(5))) {
      assertThat(scenario(ScenarioProvisioner.builder().terminationGracePeriod(d).build()).spec().provisioner()
          .terminationGracePeriod()).isEqualTo(d);
    }
    assertThat(ScenarioProvisioner.DEFAULTS.terminationGracePeriod()).isNull();
    ScenarioProvisioner p = ScenarioProvisioner.builder().terminationGracePeriod(Duration.ofMinutes(5)).build();
    assertThat(p.toBuilder().build()).isEqualTo(p);
  }

  @Test
  void terminationGracePeriod_upstreamInvalidValues_refused() {
    // "should fail on an invalid terminationGracePeriod": negative -1s, never (Never: NEVER is not a value of this
    // field); invalid unit 1hr and partial match FooNever are the loader's (it owns Go duration syntax)
    for (Duration bad : List.of(Duration.ofSeconds(-1), ScenarioProvisioner.NEVER, Duration.ofMillis(1500))) {
      assertThatThrownBy(() -> scenario(ScenarioProvisioner.builder().terminationGracePeriod(bad).build())).as("%s", bad)
          .hasMessageContaining("spec.provisioner.terminationGracePeriod")
          .hasMessageContaining("must be a duration of whole seconds, not negative (Karpenter's pattern "
              + "^([0-9]+(s|m|h))+$)");
    }
  }

  @Test
  void expireAfter_negativeOrFractional_refused() {
    // upstream: "should fail on an invalid expireAfter", negative -1s (1hr and FooNever: the loader's)
    assertThatThrownBy(() -> scenario(ScenarioProvisioner.builder().expireAfter(Duration.ofSeconds(-1)).build()))
        .hasMessageContaining("spec.provisioner.expireAfter \"-1s\" must be greater than or equal to 0");
    assertThatThrownBy(() -> scenario(ScenarioProvisioner.builder().expireAfter(Duration.ofMillis(500)).build()))
        .hasMessageContaining("spec.provisioner.expireAfter \"0.5s\" must be whole seconds, or Never");
  }

  @Test
  void batchDurations_negative_eachNamed() {
    Duration neg = Duration.ofSeconds(-1);
    assertThatThrownBy(() -> scenario(ScenarioProvisioner.builder().batchIdleDuration(neg).batchMaxDuration(neg)
        .build()))
        .hasMessageContaining("spec.provisioner.batchIdleDuration \"-1s\" must be greater than or equal to 0")
        .hasMessageContaining("spec.provisioner.batchMaxDuration \"-1s\" must be greater than or equal to 0");
    // zero closes a batch in the loop it opens; an idle window above the maximum is Karpenter's to accept too
    assertThat(scenario(ScenarioProvisioner.builder().batchIdleDuration(Duration.ofMinutes(1))
        .batchMaxDuration(Duration.ZERO).build())).isNotNull();
  }
}
