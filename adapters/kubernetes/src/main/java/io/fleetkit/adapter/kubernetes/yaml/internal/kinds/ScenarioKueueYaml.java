package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.api.simulation.ScenarioAdmissionFairSharing;
import io.fleetkit.api.simulation.ScenarioCheckController;
import io.fleetkit.api.simulation.ScenarioFairSharing;
import io.fleetkit.queueing.AdmissionFairSharing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A Scenario's parts of Kueue's Configuration besides {@code waitForPodsReady}, read from and written to untyped
 * maps: {@code spec.fairSharing} ({@link ScenarioFairSharing}), {@code spec.admissionFairSharing} ({@link
 * ScenarioAdmissionFairSharing}, checked by the queueing module's {@link AdmissionFairSharing}, Kueue's rules) and
 * {@code spec.admissionCheckControllers} ({@link ScenarioCheckController}). Durations are Go durations. The rules on
 * the strategies are {@code Scenario}'s.
 */
final class ScenarioKueueYaml {
  static final String FAIR_SHARING = "spec.fairSharing";
  static final String ADMISSION_FAIR_SHARING = "spec.admissionFairSharing";
  static final String CONTROLLERS = "spec.admissionCheckControllers";

  private ScenarioKueueYaml() {}

  /**
   * {@code spec.fairSharing}: {@code enable} (default true: the section's presence turns it on, as in Kueue v1beta2;
   * {@code false} as in v1beta1 turns it off) and {@code preemptionStrategies} (default Kueue's both).
   */
  static @Nullable ScenarioFairSharing fairSharing(Map<String, Object> m, DocumentContext ctx) {
    Untyped.known(m, Set.of("enable", "preemptionStrategies"), FAIR_SHARING, ctx);
    Boolean enable = Untyped.bool(m, "enable", FAIR_SHARING + ".enable", ctx);
    List<String> strategies = m.containsKey("preemptionStrategies")
        ? Untyped.stringList(m, "preemptionStrategies", FAIR_SHARING + ".preemptionStrategies", ctx)
        : ScenarioFairSharing.DEFAULT_STRATEGIES;
    return new ScenarioFairSharing(enable == null || enable, strategies);
  }

  /**
   * {@code spec.admissionFairSharing}: {@code usageHalfLifeTime} (required), {@code usageSamplingInterval} (default
   * 5m) and {@code resourceWeights} (numbers by resource name), checked as Kueue does.
   */
  static @Nullable ScenarioAdmissionFairSharing admissionFairSharing(Map<String, Object> m, DocumentContext ctx) {
    String p = ADMISSION_FAIR_SHARING;
    Untyped.known(m, Set.of("usageHalfLifeTime", "usageSamplingInterval", "resourceWeights"), p, ctx);
    String halfLifeText = Untyped.string(m, "usageHalfLifeTime", "", p + ".usageHalfLifeTime", ctx);
    if (halfLifeText.isEmpty()) {
      ctx.error(p + ".usageHalfLifeTime", "is required", null);
    }
    Duration halfLife = halfLifeText.isEmpty() ? Duration.ZERO
        : NodePoolConverter.duration(halfLifeText, p + ".usageHalfLifeTime", ctx);
    String intervalText = Untyped.string(m, "usageSamplingInterval", "", p + ".usageSamplingInterval", ctx);
    Duration interval = intervalText.isEmpty() ? ScenarioAdmissionFairSharing.DEFAULT_USAGE_SAMPLING_INTERVAL
        : NodePoolConverter.duration(intervalText, p + ".usageSamplingInterval", ctx);
    Map<String, Object> raw = Untyped.map(m, "resourceWeights", p + ".resourceWeights", ctx);
    Map<String, Double> weights = new TreeMap<>();
    for (String r : raw.keySet()) {
      Double w = Untyped.number(raw, r, p + ".resourceWeights[" + r + "]", ctx);
      if (w != null) {
        weights.put(r, w);
      }
    }
    if (ctx.hasErrors()) {
      return null;
    }
    // Kueue's rules, in the queueing module: the problems are reported at spec.admissionFairSharing.*
    AdmissionFairSharing checked = ctx.build("spec", () -> new AdmissionFairSharing(halfLife, interval, weights));
    return checked == null ? null : new ScenarioAdmissionFairSharing(halfLife, interval, weights);
  }

  /** {@code spec.admissionCheckControllers}: each a {@code controllerName} and an {@code approveAfter} (default 0s). */
  static List<ScenarioCheckController> controllers(Map<String, Object> spec, DocumentContext ctx) {
    return Untyped.entries(spec, "admissionCheckControllers", CONTROLLERS, ctx, (m, p, c) -> {
      Untyped.known(m, Set.of("controllerName", "approveAfter"), p, c);
      String name = Untyped.string(m, "controllerName", "", p + ".controllerName", c);
      String after = Untyped.string(m, "approveAfter", "", p + ".approveAfter", c);
      return new ScenarioCheckController(name, after.isEmpty() ? Duration.ZERO
          : NodePoolConverter.duration(after, p + ".approveAfter", c));
    });
  }

  /** Writes the three parts that are set into {@code spec}. */
  static void write(Map<String, Object> spec, @Nullable ScenarioFairSharing fs,
      @Nullable ScenarioAdmissionFairSharing afs, List<ScenarioCheckController> controllers) {
    if (fs != null) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("enable", fs.enable());
      m.put("preemptionStrategies", fs.preemptionStrategies());
      spec.put("fairSharing", m);
    }
    if (afs != null) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("usageHalfLifeTime", NodePoolConverter.duration(afs.usageHalfLifeTime()));
      m.put("usageSamplingInterval", NodePoolConverter.duration(afs.usageSamplingInterval()));
      if (!afs.resourceWeights().isEmpty()) {
        m.put("resourceWeights", new LinkedHashMap<>(afs.resourceWeights()));
      }
      spec.put("admissionFairSharing", m);
    }
    List<Object> list = new ArrayList<>();
    for (ScenarioCheckController c : controllers) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("controllerName", c.controllerName());
      m.put("approveAfter", NodePoolConverter.duration(c.approveAfter()));
      list.add(m);
    }
    Untyped.put(spec, "admissionCheckControllers", list);
  }
}
