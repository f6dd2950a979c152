package io.fleetkit.queueing.internal;

import static io.fleetkit.queueing.internal.KueueHarness.wl;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kueue's {@code TestDominantResourceShare} ({@code pkg/cache/scheduler/fair_sharing_test.go}, commit ff69552e): the
 * dominant resource share of every ClusterQueue and Cohort, as Kueue's {@code roundedWeightedShare} (rounded up,
 * {@code MaxInt} for a borrowing node of weight 0), its dominant resource and whether the node borrows.
 *
 * <p>The usage is admitted in queue {@code cq}, one workload per flavor-resource as upstream does; {@code flvResQ},
 * the usage of a workload being considered, is added to every ClusterQueue's share as upstream adds it to every node
 * (no case gives it with a non-root cohort, whose share is computed without it).
 */
final class KueueDominantResourceSharePortTest {
  private static final String GPU = "example.com/gpu";

  /** One node's expected result, as upstream's {@code fairSharingResult}. */
  private static String result(String name, long value, String resource, boolean borrowing) {
    return name + " " + value + " " + resource + " " + borrowing;
  }

  private static String zero(String name) {
    return result(name, 0, "", false);
  }

  private static ClusterQueue cq(String name, @Nullable String cohort, String weight, FlavorQuotas... flavors) {
    ClusterQueue.Builder b = ClusterQueue.builder(name).fairSharingWeight(Quantity.parse(weight))
        .resourceGroup(flavors);
    if (cohort != null) {
      b.cohort(cohort);
    }
    return b.build();
  }

  private static FlavorQuotas fq(String flavor, FlavorResourceQuota... resources) {
    return FlavorQuotas.of(flavor, resources);
  }

  private static FlavorResourceQuota q(String resource, String nominal) {
    return FlavorResourceQuota.of(resource, nominal);
  }

  /** {@code flavor, resource, amount} triples. */
  private static List<String[]> usage(String... triples) {
    List<String[]> out = new ArrayList<>();
    for (int i = 0; i < triples.length; i += 3) {
      out.add(new String[] {triples[i], triples[i + 1], triples[i + 2]});
    }
    return out;
  }

  private static final ClusterQueue LENDING_8_5 = cq("lending-cq", "test-cohort", "1",
      fq("default", q("cpu", "8"), q(GPU, "5")));
  private static final ClusterQueue CQ_2_5 = cq("cq", "test-cohort", "1", fq("default", q("cpu", "2"), q(GPU, "5")));

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("no cohort",
            List.of(cq("cq", null, "1", fq("default", q("cpu", "2000"), q(GPU, "5")))), List.of(),
            usage("default", "cpu", "1", "default", GPU, "2"), usage(),
            Set.of(zero("cq"))),
        Arguments.of("usage below nominal", List.of(CQ_2_5, LENDING_8_5), List.of(),
            usage("default", "cpu", "1", "default", GPU, "2"), usage(),
            Set.of(zero("cq"), zero("lending-cq"), zero("test-cohort"))),
        Arguments.of("usage above nominal", List.of(CQ_2_5, LENDING_8_5), List.of(),
            usage("default", "cpu", "3", "default", GPU, "7"), usage(),
            Set.of(result("cq", 200, GPU, true), zero("lending-cq"), zero("test-cohort"))), // (7-5)*1000/10
        Arguments.of("usage slightly above nominal in a cohort with large quotas",
            List.of(cq("cq", "test-cohort", "1", fq("default", q(GPU, "500"))),
                cq("lending-cq", "test-cohort", "300", fq("default", q(GPU, "1000")))), List.of(),
            usage("default", GPU, "501"), usage(),
            Set.of(result("cq", 1, GPU, true), zero("lending-cq"), zero("test-cohort"))),
        Arguments.of("usage way above nominal in a cohort with large quotas and weights",
            List.of(cq("cq", "test-cohort", "300", fq("default", q(GPU, "500"))),
                cq("lending-cq", "test-cohort", "300", fq("default", q(GPU, "1000")))), List.of(),
            usage("default", GPU, "800"), usage(),
            Set.of(result("cq", 1, GPU, true), zero("lending-cq"), zero("test-cohort"))),
        Arguments.of("one resource above nominal", List.of(CQ_2_5, LENDING_8_5), List.of(),
            usage("default", "cpu", "3", "default", GPU, "3"), usage(),
            Set.of(result("cq", 100, "cpu", true), zero("lending-cq"), zero("test-cohort"))), // (3-2)*1000/10
        Arguments.of("usage with workload above nominal", List.of(CQ_2_5, LENDING_8_5), List.of(),
            usage("default", "cpu", "1", "default", GPU, "2"), usage("default", "cpu", "4", "default", GPU, "4"),
            Set.of(result("cq", 300, "cpu", true), zero("lending-cq"), zero("test-cohort"))), // (1+4-2)*1000/10
        Arguments.of("A resource with zero lendable",
            List.of(cq("cq", "test-cohort", "1", fq("default", q("cpu", "2"), q(GPU, "2").withLendingLimit("0"))),
                cq("lending-cq", "test-cohort", "1",
                    fq("default", q("cpu", "8"), q(GPU, "64").withLendingLimit("0")))), List.of(),
            usage("default", "cpu", "1", "default", GPU, "1"), usage("default", "cpu", "4", "default", GPU, "4"),
            Set.of(result("cq", 300, "cpu", true), zero("lending-cq"), zero("test-cohort"))),
        Arguments.of("multiple flavors",
            List.of(cq("cq", "test-cohort", "1", fq("on-demand", q("cpu", "20")), fq("spot", q("cpu", "80"))),
                cq("lending-cq", "test-cohort", "1", fq("default", q("cpu", "100")))), List.of(),
            usage("on-demand", "cpu", "15", "spot", "cpu", "5"), usage("on-demand", "cpu", "10"),
            // ((15+10-20)+0)*1000/200 (spot under nominal)
            Set.of(result("cq", 25, "cpu", true), zero("lending-cq"), zero("test-cohort"))),
        Arguments.of("above nominal with integer weight",
            List.of(cq("cq", "test-cohort", "2", fq("default", q(GPU, "5"))),
                cq("lending-cq", "test-cohort", "1", fq("default", q(GPU, "5")))), List.of(),
            usage("default", GPU, "7"), usage(),
            Set.of(result("cq", 100, GPU, true), zero("lending-cq"), zero("test-cohort"))), // ((7-5)*1000/10)/2
        Arguments.of("above nominal with decimal weight",
            List.of(cq("cq", "test-cohort", "0.5", fq("default", q(GPU, "5"))),
                cq("lending-cq", "test-cohort", "1", fq("default", q(GPU, "5")))), List.of(),
            usage("default", GPU, "7"), usage(),
            Set.of(result("cq", 400, GPU, true), zero("lending-cq"), zero("test-cohort"))), // ((7-5)*1000/10)/(1/2)
        Arguments.of("above nominal with zero weight",
            List.of(cq("cq", "test-cohort", "0", fq("default", q(GPU, "5"))),
                cq("lending-cq", "test-cohort", "1", fq("default", q(GPU, "10")))), List.of(),
            usage("default", GPU, "7"), usage(),
            Set.of(result("cq", Long.MAX_VALUE, GPU, true), zero("lending-cq"), zero("test-cohort"))),
        Arguments.of("cohort has resource share",
            List.of(cq("cq", "child-cohort", "1", fq("default", q(GPU, "5")))),
            List.of(Cohort.builder("child-cohort").fairSharingWeight(Quantity.parse("2")).parent("root").build(),
                Cohort.builder("root").resourceGroup(fq("default", q(GPU, "45"))).build()),
            usage("default", GPU, "10"), usage(),
            Set.of(result("cq", 100, GPU, true), // (5 / 50) * 1000
                result("child-cohort", 50, GPU, true), // (5 / 50) * 1000 / 2
                zero("root"))),
        Arguments.of("resource share defined for resources only available at the root cohort",
            List.of(cq("cq", "child-cohort", "1", fq("default", q(GPU, "0")))),
            List.of(Cohort.builder("child-cohort").fairSharingWeight(Quantity.parse("2")).parent("root").build(),
                Cohort.builder("root").resourceGroup(fq("default", q(GPU, "50"))).build()),
            usage("default", GPU, "10"), usage(),
            Set.of(result("cq", 200, GPU, true), // (10 / 50) * 1000
                result("child-cohort", 100, GPU, true), // (10 / 50) * 1000 / 2
                zero("root"))),
        Arguments.of("resource share affected by borrowing limit",
            // cohort resources from the view of cq are 10, from the view of child-cohort 50
            List.of(cq("cq", "child-cohort", "1", fq("default", q(GPU, "0")))),
            List.of(Cohort.builder("child-cohort").parent("root")
                    .resourceGroup(fq("default", FlavorResourceQuota.of(GPU, "0", "10"))).build(),
                Cohort.builder("root").resourceGroup(fq("default", q(GPU, "50"))).build()),
            usage("default", GPU, "10"), usage(),
            Set.of(result("cq", 1000, GPU, true), // (10 / 10) * 1000
                result("child-cohort", 200, GPU, true), // (10 / 50) * 1000
                zero("root"))),
        Arguments.of("borrowing against unlimited lendable capacity (exabyte-scale quota)",
            // 1E CPU saturates the milli-value; 1000 * 1000 / MaxInt64 rounds up to 1
            List.of(cq("cq", "test-cohort", "1", fq("default", q("cpu", "0"))),
                cq("lending-cq", "test-cohort", "1", fq("default", q("cpu", "1E")))), List.of(),
            usage("default", "cpu", "1"), usage(),
            Set.of(result("cq", 1, "cpu", true), zero("lending-cq"), zero("test-cohort"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void dominantResourceShare(String name, List<ClusterQueue> queues, List<Cohort> cohorts, List<String[]> usage,
      List<String[]> flvResQ, Set<String> want) {
    KueueHarness h = new KueueHarness(List.of("default", "on-demand", "spot"), queues, cohorts, true);
    int i = 0;
    for (String[] u : usage) {
      h.admit(wl("workload-" + i++, 0, u[1], u[2]), "cq", u[1], u[0]);
    }
    FlavorResources index = h.scheduler.index();
    TreeMap<Integer, Long> delta = new TreeMap<>();
    for (String[] u : flvResQ) {
      delta.merge(index.of(u[0], u[1]), Quantity.parse(u[2]).milliValue(), Long::sum);
    }
    int[] frs = delta.keySet().stream().mapToInt(Integer::intValue).toArray();
    long[] values = delta.values().stream().mapToLong(Long::longValue).toArray();
    Set<String> got = new HashSet<>();
    Set<String> cohortNames = new HashSet<>();
    for (ClusterQueue spec : queues) {
      CqState q = h.scheduler.queue(spec.name());
      got.add(describe(spec.name(), DominantResourceShare.of(q, index, frs, values, 1)));
      for (CohortState c = q.cohort; c != null; c = c.parent) {
        cohortNames.add(c.name);
      }
    }
    for (String c : cohortNames) {
      got.add(describe(c, DominantResourceShare.of(h.scheduler.cohortState(c), index)));
    }
    assertThat(got).isEqualTo(want);
  }

  private static String describe(String name, Drs d) {
    return result(name, d.roundedUp(), d.dominantResource() == null ? "" : d.dominantResource(), d.borrowing());
  }

  static Stream<Arguments> borrowingOnCases() {
    return Stream.of(
        Arguments.of("borrows on requested flavor", usage("default", "cpu", "3"), usage("default", "cpu", "1"),
            true, true),
        Arguments.of("borrows on unrequested flavor only", usage("default", "cpu", "1", "default", GPU, "7"),
            usage("default", "cpu", "1"), false, true),
        Arguments.of("borrows on both, requests one", usage("default", "cpu", "3", "default", GPU, "7"),
            usage("default", GPU, "1"), true, true),
        Arguments.of("no borrowing", usage("default", "cpu", "1", "default", GPU, "2"), usage("default", "cpu", "1"),
            false, false),
        Arguments.of("nil requestedFRs", usage("default", "cpu", "3"), usage(), false, true));
  }

  /**
   * Kueue's {@code TestIsBorrowingOn} (same file): whether queue {@code cq} (cpu 2, gpu 5, beside a lending queue of
   * cpu 8, gpu 5) borrows, and whether it borrows on a flavor-resource a workload requests.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("borrowingOnCases")
  void isBorrowingOn(String name, List<String[]> usage, List<String[]> requested, boolean wantOnRequested,
      boolean wantBorrowing) {
    KueueHarness h = new KueueHarness(List.of("default"), List.of(CQ_2_5, LENDING_8_5), true);
    int i = 0;
    for (String[] u : usage) {
      h.admit(wl("wl-" + i++, 0, u[1], u[2]), "cq", u[1], u[0]);
    }
    FlavorResources index = h.scheduler.index();
    TreeMap<Integer, Long> req = new TreeMap<>();
    for (String[] u : requested) {
      req.put(index.of(u[0], u[1]), Quantity.parse(u[2]).milliValue());
    }
    Drs d = DominantResourceShare.of(h.scheduler.queue("cq"), index);
    assertThat(d.borrowing()).isEqualTo(wantBorrowing);
    assertThat(d.borrowingOn(req.keySet().stream().mapToInt(Integer::intValue).toArray(),
        req.values().stream().mapToLong(Long::longValue).toArray())).isEqualTo(wantOnRequested);
  }

  static Stream<Arguments> preciseCases() {
    return Stream.of(
        Arguments.of("zero weight returning Inf", 0L, 100.0, Double.POSITIVE_INFINITY),
        Arguments.of("zero unweighted ratio returns 0", 1000L, 0.0, 0.0),
        Arguments.of("regular integer division", 2000L, 400.0, 200.0),
        Arguments.of("decimal division", 4000L, 10.0, 2.5));
  }

  /**
   * Kueue's {@code TestPreciseWeightedShareSerialized} (same file): the precise weighted share (upstream's JSON
   * string of it, {@code +Inf} for infinity, is not modelled: the engine reports the share as a number).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("preciseCases")
  void preciseWeightedShare(String name, long weightMilli, double ratio, double want) {
    assertThat(new Drs(ratio, weightMilli, null, new int[0]).weightedShare()).isEqualTo(want);
  }
}
