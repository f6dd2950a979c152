package io.fleetkit.autoscale.vpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.autoscaling.ContainerResourcePolicy;
import io.fleetkit.api.autoscaling.ContainerScalingMode;
import io.fleetkit.api.autoscaling.PodResourcePolicy;
import io.fleetkit.api.autoscaling.RecommendedContainerResources;
import io.fleetkit.api.autoscaling.RecommendedPodResources;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The estimator cases of kubernetes/autoscaler {@code vertical-pod-autoscaler/pkg/recommender/logic/estimator_test.go}
 * and recommendations on synthetic usage traces against percentiles computed by hand from the bucket formula
 * {@code start(i) = first * (1.05^i - 1) / 0.05}.
 */
final class VpaRecommenderTest {
  private static final Instant ANY_TIME = Instant.EPOCH;
  private static final Duration DAY = Duration.ofHours(24);
  private static final ResourceEstimate CONST = new ResourceEstimate(3140, 3_140_000_000L);

  /** End of the exponential bucket holding {@code v}: the value a percentile landing there returns. */
  private static double bucketEnd(double v, double first) {
    int i = (int) Math.floor(Math.log(v * 0.05 / first + 1) / Math.log(1.05));
    return first * (Math.pow(1.05, i + 1) - 1) / 0.05;
  }

  @Test // estimator_test.go TestPercentileEstimator
  void percentileEstimator_cpuP20AndMemoryP50() {
    ContainerUsageState s = ContainerUsageState.create();
    s.cpuUsage().addSample(1.0, 1.0, ANY_TIME);
    s.cpuUsage().addSample(2.0, 1.0, ANY_TIME);
    s.cpuUsage().addSample(3.0, 1.0, ANY_TIME);
    s.memoryPeaks().addSample(1e9, 1.0, ANY_TIME);
    s.memoryPeaks().addSample(2e9, 1.0, ANY_TIME);
    s.memoryPeaks().addSample(3e9, 1.0, ANY_TIME);
    ResourceEstimate e = VpaRecommender.percentile(s, 0.2, 0.5);
    assertThat(e.cpuMillicores() / 1000.0).isCloseTo(1.0, within(0.05));
    assertThat((double) e.memoryBytes()).isCloseTo(2e9, within(2e9 * 0.05));
  }

  @Test // estimator_test.go TestConfidenceMultiplier
  void confidenceMultiplier_historyOfNineSamples_scalesByFormula() {
    ContainerUsageState s = ContainerUsageState.create();
    double c0 = s.confidence(DAY);
    assertThat(VpaRecommender.withConfidence(CONST, 1.0, 1.0, c0).cpuMillicores()).isEqualTo(100_000_000_000_000L);
    assertThat(VpaRecommender.withConfidence(CONST, 1.0, -1.0, c0).cpuMillicores()).isZero();
    Instant t = ANY_TIME;
    for (int i = 1; i <= 9; i++) {
      s.addCpuSample(t, 1000, 0);
      t = t.plus(Duration.ofMinutes(2));
    }
    assertThat(s.confidence(DAY)).isEqualTo(0.00625);
    ResourceEstimate e = VpaRecommender.withConfidence(CONST, 0.1, 2.0, s.confidence(DAY));
    assertThat(e.cpuMillicores() / 1000.0).isEqualTo(907.46);
    assertThat((double) e.memoryBytes()).isEqualTo(9.0746e+11);
  }

  @Test // estimator_test.go TestConfidenceMultiplierWithCustomInterval
  void confidenceMultiplier_customInterval_usesIt() {
    ContainerUsageState s = ContainerUsageState.create();
    Instant t = ANY_TIME;
    for (int i = 1; i <= 9; i++) {
      s.addCpuSample(t, 1000, 0);
      t = t.plus(Duration.ofMinutes(2));
    }
    assertThat(s.confidence(Duration.ofMinutes(18))).isEqualTo(0.5);
    ResourceEstimate e = VpaRecommender.withConfidence(CONST, 0.1, 2.0, 0.5);
    assertThat(e.cpuMillicores() / 1000.0).isEqualTo(4.521);
    assertThat((double) e.memoryBytes()).isEqualTo(4.5216e+9);
  }

  @Test // estimator_test.go TestConfidenceMultiplierNoHistory
  void confidenceMultiplier_noHistory_maximum() {
    ContainerUsageState s = ContainerUsageState.create();
    assertThat(VpaRecommender.withConfidence(CONST, 0.1, 2.0, s.confidence(DAY)).cpuMillicores())
        .isEqualTo(100_000_000_000_000L);
  }

  @Test // estimator_test.go TestMarginEstimator
  void marginEstimator_tenPercent_added() {
    ResourceEstimate e = VpaRecommender.withMargin(CONST, 0.1);
    assertThat(e.cpuMillicores() / 1000.0).isEqualTo(3.454);
    assertThat((double) e.memoryBytes()).isEqualTo(3.454e9);
  }

  @Test // estimator_test.go TestMinResourcesEstimator
  void minResourcesEstimator_aboveMinimum_unchanged() {
    assertThat(VpaRecommender.atLeast(CONST, new ResourceEstimate(200, 0)).cpuMillicores()).isEqualTo(3140);
    assertThat(VpaRecommender.atLeast(new ResourceEstimate(0, 400_000_000L), new ResourceEstimate(0, 20_000_000L))
        .memoryBytes()).isEqualTo(400_000_000L);
  }

  /** Eight days of one sample a minute: 85% of minutes at {@code low} cores, 15% at {@code high}, and one memory
   * sample a minute whose daily peak is {@code peaks[day]} bytes. */
  private static ContainerUsageState trace(double low, double high, long[] peaks) {
    ContainerUsageState s = new ContainerUsageState(ANY_TIME);
    Instant t = ANY_TIME;
    for (int day = 0; day < 8; day++) {
      for (int minute = 0; minute < 1440; minute++) {
        double cores = minute % 20 < 17 ? low : high;
        s.addCpuSample(t, Math.round(cores * 1000), 0);
        s.addMemorySample(t, minute == 720 ? peaks[day] : peaks[day] / 2);
        t = t.plus(Duration.ofMinutes(1));
      }
    }
    return s;
  }

  @Test
  void recommend_eightDayTrace_matchesHandComputedPercentiles() {
    long mib = 1024 * 1024;
    long[] peaks = {400 * mib, 400 * mib, 400 * mib, 400 * mib, 400 * mib, 400 * mib, 600 * mib, 400 * mib};
    ContainerUsageState s = trace(0.5, 2.0, peaks);

    VpaRecommender.Estimates e = VpaRecommender.DEFAULT.estimate(s, 1);

    // CPU P90 lands in the 2.0-core bucket (85% of the weight is at 0.5): 2.0 is in bucket
    // floor(log_1.05(2.0 * 5 + 1)) = 49, which ends at 0.2 * (1.05^50 - 1) = 2.09348 cores.
    long cpuP90 = (long) (bucketEnd(2.0, 0.01) * 1000);
    assertThat(cpuP90).isEqualTo(2093);
    assertThat(e.target().cpuMillicores()).isEqualTo(cpuP90 + (long) (cpuP90 * 0.15)); // 2406
    // CPU P50 in the 0.5-core bucket: end of bucket 25 = 0.2 * (1.05^26 - 1) = 0.51113 cores.
    long cpuP50 = (long) (bucketEnd(0.5, 0.01) * 1000);
    assertThat(cpuP50).isEqualTo(511);
    double confidence = Math.min(7.0 + 1439.0 / 1440, 8.0); // lifespan 7.9993 days, 11520 samples / 1440
    assertThat(s.confidence(DAY)).isCloseTo(confidence, within(1e-12));
    long lowerMargin = cpuP50 + (long) (cpuP50 * 0.15);
    assertThat(e.lowerBound().cpuMillicores())
        .isEqualTo((long) (lowerMargin * Math.pow(1 + 0.001 / confidence, -2)));
    long upperMargin = cpuP90 + (long) (cpuP90 * 0.15); // P95 is also in the 2.0-core bucket
    assertThat(e.upperBound().cpuMillicores()).isEqualTo((long) (upperMargin * (1 + 1 / confidence)));

    // Memory: one peak per day, timestamped at the end of its day, so day d weighs 2^(d+1). The 600 MiB peak of the
    // 7th day weighs 2^7 / (2^1 + ... + 2^8) = 128 / 510 = 25%; the 400 MiB peaks the other 75%. P50 therefore
    // ends the 400 MiB bucket, P90 and P95 the 600 MiB one.
    long memP90 = (long) bucketEnd(600.0 * mib, 1e7);
    assertThat(e.target().memoryBytes()).isEqualTo(memP90 + (long) (memP90 * 0.15));
    long memP50 = (long) bucketEnd(400.0 * mib, 1e7);
    long memLower = memP50 + (long) (memP50 * 0.15);
    assertThat(e.lowerBound().memoryBytes()).isEqualTo((long) (memLower * Math.pow(1 + 0.001 / confidence, -2)));
  }

  @Test
  void recommend_idleContainer_perPodMinimumSplitBetweenContainers() {
    ContainerUsageState a = trace(0.001, 0.001, new long[] {mb(1), mb(1), mb(1), mb(1), mb(1), mb(1), mb(1), mb(1)});
    ContainerUsageState b = trace(0.001, 0.001, new long[] {mb(1), mb(1), mb(1), mb(1), mb(1), mb(1), mb(1), mb(1)});
    Map<String, ContainerUsageState> containers = new LinkedHashMap<>();
    containers.put("app", a);
    containers.put("sidecar", b);

    RecommendedPodResources r = VpaRecommender.DEFAULT.recommend(containers, null);

    RecommendedContainerResources app = r.forContainer("app").orElseThrow();
    assertThat(app.target().milliValue(ResourceNames.CPU)).isEqualTo(12); // 25m / 2, truncated
    assertThat(app.target().value(ResourceNames.MEMORY)).isEqualTo(125L * 1024 * 1024); // 250 MiB / 2
    assertThat(app.lowerBound().milliValue(ResourceNames.CPU)).isEqualTo(12);
  }

  @Test
  void recommend_policyBoundsAndModeOff_cappedAndSkipped() {
    long mib = 1024 * 1024;
    ContainerUsageState s = trace(0.5, 2.0, new long[] {400 * mib, 400 * mib, 400 * mib, 400 * mib, 400 * mib,
        400 * mib, 400 * mib, 600 * mib});
    Map<String, ContainerUsageState> containers = new LinkedHashMap<>();
    containers.put("app", s);
    containers.put("logger", s);
    PodResourcePolicy policy = new PodResourcePolicy(List.of(
        ContainerResourcePolicy.of("app").withBounds(ResourceList.EMPTY,
            ResourceList.builder().put(ResourceNames.CPU, io.fleetkit.api.resource.Quantity.ofMilli(1000)).build()),
        ContainerResourcePolicy.of("logger").withMode(ContainerScalingMode.Off)));

    RecommendedPodResources r = VpaRecommender.DEFAULT.recommend(containers, policy);

    assertThat(r.containerRecommendations()).hasSize(1);
    RecommendedContainerResources app = r.forContainer("app").orElseThrow();
    assertThat(app.target().milliValue(ResourceNames.CPU)).isEqualTo(1000);
    assertThat(app.uncappedTarget().milliValue(ResourceNames.CPU)).isEqualTo(2406);
    assertThat(app.upperBound().milliValue(ResourceNames.CPU)).isEqualTo(1000);
  }

  @Test
  void withRecommendation_writesStatusForUpdater() {
    io.fleetkit.api.autoscaling.VerticalPodAutoscaler vpa = io.fleetkit.api.autoscaling.VerticalPodAutoscaler.of(
        io.fleetkit.api.meta.ObjectMeta.builder().namespace("ns").name("web").build(),
        io.fleetkit.api.autoscaling.VerticalPodAutoscalerSpec.builder()
            .targetRef(io.fleetkit.api.autoscaling.CrossVersionObjectReference.deployment("web")).build());
    long mib = 1024 * 1024;
    Map<String, ContainerUsageState> containers = new LinkedHashMap<>();
    containers.put("app", trace(0.5, 2.0, new long[] {400 * mib, 400 * mib, 400 * mib, 400 * mib, 400 * mib,
        400 * mib, 600 * mib, 400 * mib}));

    io.fleetkit.api.autoscaling.VerticalPodAutoscaler out = VpaRecommender.DEFAULT.withRecommendation(vpa, containers);

    assertThat(out.status().recommendation().forContainer("app").orElseThrow().target()
        .milliValue(ResourceNames.CPU)).isEqualTo(2406);
  }

  @Test
  void memoryPeaks_higherSampleInWindow_replacesPeak() {
    ContainerUsageState s = new ContainerUsageState(ANY_TIME);
    s.addMemorySample(ANY_TIME, mb(100));
    s.addMemorySample(ANY_TIME.plus(Duration.ofHours(1)), mb(300));
    s.addMemorySample(ANY_TIME.plus(Duration.ofHours(2)), mb(200));
    assertThat(s.maxMemoryPeak()).isEqualTo(mb(300));
    assertThat(s.memoryPeaks().percentile(0.0)).isCloseTo(bucketEnd(mb(300), 1e7), within(1.0));
    assertThat(s.memoryPeaks().percentile(1.0)).isCloseTo(bucketEnd(mb(300), 1e7), within(1.0));
  }

  @Test
  void recordOom_bumpsToMaxOf120PercentAndPlus100MiB() {
    ContainerUsageState s = new ContainerUsageState(ANY_TIME);
    s.addMemorySample(ANY_TIME, mb(200));
    assertThat(s.recordOom(ANY_TIME.plus(Duration.ofHours(1)), mb(300))).isTrue();
    // used = max(request 300 MiB, peak 200 MiB); needed = max(300 + 100 MiB, 1.2 * 300 MiB) = 400 MiB
    assertThat(s.maxMemoryPeak()).isEqualTo(mb(400));
    ContainerUsageState big = new ContainerUsageState(ANY_TIME);
    big.recordOom(ANY_TIME, mb(2000));
    assertThat(big.maxMemoryPeak()).isEqualTo(mb(2400)); // 1.2x wins above 500 MiB
  }

  private static long mb(long n) {
    return n * 1024 * 1024;
  }
}
