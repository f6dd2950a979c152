package io.fleetkit.api.simulation;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.SchedulingValidation;
import io.fleetkit.api.time.GoDurations;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * FleetKit's own kind ({@code simulation.fleetkit.io/v1}, cluster-scoped): a what-if run over the other manifests
 * loaded with it. It has no status.
 *
 * <pre>
 * apiVersion: simulation.fleetkit.io/v1
 * kind: Scenario
 * metadata: {name: busy-day}
 * spec:
 *   duration: 24h
 *   seed: 7
 *   sampleInterval: 5m
 *   features: {horizontalPodAutoscaler: true, clusterAutoscaler: true, storage: true}
 *   loads:
 *   - target: {kind: Deployment, namespace: shop, name: web}
 *     cpuPerRequest: 5m              # millicores per request/s
 *     diurnal: {trough: 100, peak: 1000, peakAt: 14h}
 *   faults:
 *   - {at: 6h, zoneFailure: zone-b, recoverAfter: 1h}
 *   - {at: 8h, gpuDeviceFault: gpu-1, devices: 1, recoverAfter: 30m}
 *   - {at: 9h, apiSlowness: 2s, recoverAfter: 10m}   # every API round trip takes 2 s
 *   - {at: 10h, kubeletRestart: node-3}               # containers keep running, probes start afresh
 *   - {at: 11h, capacityStockout: gpu-a100, zone: zone-a, recoverAfter: 2h}   # no new machine of the pool there
 *   - {at: 12h, spotInterruption: spot-pool, nodes: 2, notice: 2m}   # the cloud takes 2 machines back, warned 2m ahead
 *   nodeStartup:                     # replaces the pool's startupDelay by four phases
 *   - {pool: gpu-a100, provision: 2m, boot: 1m, driver: 3m, imagePull: 2m}
 *   scheduler: {profile: mostAllocated, gpuPolicy: GapFill}   # see ScenarioScheduler
 *   waitForPodsReady: {timeout: 10m}  # Kueue's, for the queues; see ScenarioPodsReady
 *   fairSharing: {preemptionStrategies: [LessThanInitialShare]}   # Kueue's; see ScenarioFairSharing
 *   admissionFairSharing: {usageHalfLifeTime: 168h}                # Kueue's; see ScenarioAdmissionFairSharing
 *   admissionCheckControllers:       # approve Kueue AdmissionChecks of this controller; see ScenarioCheckController
 *   - {controllerName: kueue.x-k8s.io/provisioning-request, approveAfter: 4m}
 *   clusterAutoscaler: {expander: least-nodes, coresTotal: {max: 64}}   # see ScenarioAutoscaler
 *   # with features {provisioner: true, clusterAutoscaler: false}, the provisioner's options instead:
 *   # provisioner: {consolidationPolicy: WhenEmpty, budgets: [{nodes: "20%"}]}   # see ScenarioProvisioner
 * </pre>
 */
public record Scenario(ObjectMeta metadata, ScenarioSpec spec) implements ApiObject<Scenario> {
  public static final String API_VERSION = "simulation.fleetkit.io/v1";
  public static final String KIND = "Scenario";
  /** The longest simulated run a scenario may ask for. */
  public static final Duration MAX_DURATION = Duration.ofDays(31);
  /** The most samples a run may take (its start, then one per {@code sampleInterval}, and one at its end). */
  public static final long MAX_SAMPLES = 100_000;

  /**
   * How many samples a run of {@code duration} (positive, at most {@link #MAX_DURATION}) sampled every {@code interval}
   * (positive) takes, its start and end included.
   */
  public static long samples(Duration duration, Duration interval) {
    if (interval.compareTo(duration) >= 0) {
      return 2;
    }
    long d = duration.toNanos();
    long i = interval.toNanos();
    return (d + i - 1) / i + 1;
  }

  public Scenario {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, false);
    boolean durationValid = !spec.duration().isNegative() && !spec.duration().isZero()
        && spec.duration().compareTo(MAX_DURATION) <= 0;
    if (!durationValid) {
      v.add("spec.duration", "must be more than 0 and at most " + MAX_DURATION.toDays() + " days", spec.duration());
    }
    if (spec.sampleInterval().compareTo(Duration.ofSeconds(1)) < 0) {
      v.add("spec.sampleInterval", "must be at least 1s", spec.sampleInterval());
    } else if (durationValid && samples(spec.duration(), spec.sampleInterval()) > MAX_SAMPLES) {
      // every series holds a value per sample, the JSON writes each and the report draws them
      long nanos = spec.duration().toNanos();
      long least = (nanos + MAX_SAMPLES - 2) / (MAX_SAMPLES - 1);
      v.add("spec.sampleInterval", "must leave at most " + MAX_SAMPLES + " samples over spec.duration "
          + GoDurations.format(spec.duration()) + " (it gives " + samples(spec.duration(), spec.sampleInterval())
          + "; an interval of at least " + GoDurations.format(Duration.ofSeconds((least + 999_999_999L)
          / 1_000_000_000L)) + " does)", spec.sampleInterval());
    }
    Set<String> targets = new HashSet<>();
    for (int i = 0; i < spec.loads().size(); i++) {
      WorkloadLoad l = spec.loads().get(i);
      String p = "spec.loads[" + i + "]";
      if (!l.kind().equals("Deployment") && !l.kind().equals("StatefulSet") && !l.kind().equals("Rollout")) {
        v.add(p + ".target.kind", "must be Deployment, StatefulSet or Rollout", l.kind());
      }
      v.dnsSubdomain(p + ".target.name", l.name());
      if (!targets.add(l.target())) {
        v.add(p + ".target", "must not repeat an earlier load's target", l.target());
      }
      finiteNonNegative(v, p + ".cpuPerRequest", l.cpuMilliPerRequest());
      finiteNonNegative(v, p + ".memoryPerRequest", l.memoryPerRequest());
      pattern(v, p, l.pattern());
    }
    for (int i = 0; i < spec.faults().size(); i++) {
      ScenarioFault f = spec.faults().get(i);
      String p = "spec.faults[" + i + "]";
      if (f.at().isNegative()) {
        v.add(p + ".at", Violations.NON_NEGATIVE, f.at());
      }
      if (f.target().isEmpty() && f.type() != FaultType.ApiSlowness) {
        v.required(p + "." + faultField(f.type()));
      }
      Duration rec = f.recoverAfter();
      if (rec != null && (rec.isNegative() || rec.isZero())) {
        v.add(p + ".recoverAfter", "must be more than 0", rec);
      }
      if (f.type() == FaultType.KubeletRestart && rec != null) {
        v.add(p + ".recoverAfter", "is not for kubeletRestart (a restart is instant)", rec);
      }
      if (f.type() == FaultType.SpotInterruption && rec != null) {
        v.add(p + ".recoverAfter", "is not for spotInterruption (the machines do not come back; the autoscaler"
            + " replaces them)", rec);
      }
      if ((f.type() == FaultType.CapacityStockout || f.type() == FaultType.SpotInterruption)
          && !f.target().isEmpty()) {
        v.dnsSubdomain(p + "." + faultField(f.type()), f.target());
      }
      Duration notice = f.notice();
      if (f.type() == FaultType.SpotInterruption) {
        if (f.nodes() < 1) {
          v.add(p + ".nodes", "must be at least 1", f.nodes());
        }
        if (notice == null) {
          v.required(p + ".notice");
        } else if (notice.isNegative()) {
          v.add(p + ".notice", Violations.NON_NEGATIVE, notice);
        }
      } else {
        if (f.nodes() != 0) {
          v.add(p + ".nodes", "is only for spotInterruption", f.nodes());
        }
        if (notice != null) {
          v.add(p + ".notice", "is only for spotInterruption", notice);
        }
      }
      String zone = f.zone();
      if (zone != null && f.type() != FaultType.CapacityStockout) {
        v.add(p + ".zone", "is only for capacityStockout", zone);
      } else if (zone != null && zone.isEmpty()) {
        v.add(p + ".zone", "must not be empty (leave it out for every zone)", zone);
      }
      if (f.type() == FaultType.GpuDeviceFault && f.devices() < 1) {
        v.add(p + ".devices", "must be at least 1", f.devices());
      }
      Duration latency = f.latency();
      if (f.type() == FaultType.ApiSlowness && (latency == null || latency.compareTo(Duration.ofMillis(1)) < 0
          || latency.compareTo(Duration.ofMinutes(10)) > 0)) {
        v.add(p + ".apiSlowness", "must be a latency from 1ms to 10m", latency);
      }
    }
    Set<String> startupPools = new HashSet<>();
    for (int i = 0; i < spec.nodeStartup().size(); i++) {
      NodeStartup ns = spec.nodeStartup().get(i);
      String p = "spec.nodeStartup[" + i + "]";
      v.dnsSubdomain(p + ".pool", ns.pool());
      if (!startupPools.add(ns.pool())) {
        v.add(p + ".pool", "must not repeat an earlier entry's pool", ns.pool());
      }
      nonNegative(v, p + ".provision", ns.provision());
      nonNegative(v, p + ".boot", ns.boot());
      nonNegative(v, p + ".driver", ns.driver());
      nonNegative(v, p + ".imagePull", ns.imagePull());
    }
    if (!ScenarioScheduler.PROFILES.contains(spec.scheduler().profile())) {
      v.add("spec.scheduler.profile", "must be one of " + String.join(", ", ScenarioScheduler.PROFILES),
          spec.scheduler().profile());
    }
    if (spec.features().provisioner() && spec.features().clusterAutoscaler()) {
      v.add("spec.features.provisioner", "must not be on together with clusterAutoscaler (both would launch nodes "
          + "for the same pending pods); set clusterAutoscaler: false", true);
    }
    ScenarioAutoscaler ca = spec.clusterAutoscaler();
    if (ca != null) {
      if (!spec.features().clusterAutoscaler()) {
        v.add("spec.clusterAutoscaler", "needs spec.features.clusterAutoscaler: true (these are the cluster "
            + "autoscaler's options, and it is off" + (spec.features().provisioner() ? "; the provisioner runs instead"
                : "") + ")", "set");
      }
      ca.validate(v, "spec.clusterAutoscaler");
    }
    ScenarioProvisioner provisioner = spec.provisioner();
    if (provisioner != null) {
      if (!spec.features().provisioner()) {
        v.add("spec.provisioner", "needs spec.features.provisioner: true (these are the provisioner's options, and "
            + "it is off" + (spec.features().clusterAutoscaler() ? "; the cluster autoscaler runs instead" : "")
            + ")", "set");
      }
      provisioner.validate(v, "spec.provisioner");
    }
    if (spec.fairSharing() != null) {
      spec.fairSharing().validate(v, "spec.fairSharing");
    }
    Set<String> controllers = new HashSet<>();
    for (int i = 0; i < spec.admissionCheckControllers().size(); i++) {
      ScenarioCheckController c = spec.admissionCheckControllers().get(i);
      String p = "spec.admissionCheckControllers[" + i + "]";
      if (c.controllerName().isEmpty()) {
        v.required(p + ".controllerName");
      } else if (c.controllerName().length() > 253) {
        v.add(p + ".controllerName", "must be no more than 253 characters", c.controllerName().length());
      }
      if (!controllers.add(c.controllerName())) {
        v.add(p + ".controllerName", "must not repeat an earlier entry's controllerName", c.controllerName());
      }
      nonNegative(v, p + ".approveAfter", c.approveAfter());
    }
    Set<String> queueNames = new HashSet<>();
    for (int i = 0; i < spec.queues().size(); i++) {
      ScenarioQueue q = spec.queues().get(i);
      String p = "spec.queues[" + i + "]";
      v.dnsSubdomain(p + ".name", q.name());
      if (!queueNames.add(q.name())) {
        v.add(p + ".name", "must not repeat an earlier queue's name", q.name());
      }
      if (q.namespaces().isEmpty()) {
        v.required(p + ".namespaces", "the namespaces whose Jobs may use the queue");
      }
      for (int j = 0; j < q.namespaces().size(); j++) {
        v.dnsLabel(p + ".namespaces[" + j + "]", q.namespaces().get(j));
      }
      v.dnsSubdomain(p + ".flavor", q.flavor());
      v.labels(p + ".flavor.nodeLabels", q.nodeLabels());
      v.addAll(SchedulingValidation.validateTaints(q.nodeTaints(), p + ".flavor.nodeTaints"));
      v.addAll(SchedulingValidation.validateTolerations(q.tolerations(), p + ".flavor.tolerations"));
      if (q.quota().isEmpty()) {
        v.required(p + ".quota", "at least one resource, e.g. cpu");
      }
      for (var e : q.quota().asMap().entrySet()) {
        v.nonNegative(p + ".quota." + e.getKey(), e.getValue());
      }
      if (q.cohort() != null) {
        v.dnsSubdomain(p + ".cohort", q.cohort());
      }
    }
    validateCohorts(v, spec);
    validatePodsReady(v, spec);
    Set<String> streamNames = new HashSet<>();
    for (int i = 0; i < spec.jobStreams().size(); i++) {
      JobStream js = spec.jobStreams().get(i);
      String p = "spec.jobStreams[" + i + "]";
      v.dnsLabel(p + ".name", js.name());
      if (!streamNames.add(js.namespace() + "/" + js.name())) {
        v.add(p + ".name", "must not repeat an earlier stream's name in its namespace", js.name());
      }
      v.dnsLabel(p + ".namespace", js.namespace());
      int sources = (js.jobs().isEmpty() ? 0 : 1) + (js.trace().isEmpty() ? 0 : 1) + (js.template() == null ? 0 : 1);
      if (sources != 1) {
        v.add(p, "must have exactly one of csv (or jobs), trace or poisson", sources);
      }
      if (js.template() != null && (!(js.perHour() > 0) || Double.isInfinite(js.perHour()))) {
        v.add(p + ".poisson.perHour", "must be a finite number above 0", js.perHour());
      }
      if (!js.trace().isEmpty() && (!(js.timeScale() > 0) || Double.isInfinite(js.timeScale()))) {
        v.add(p + ".timeScale", "must be a finite number above 0", js.timeScale());
      }
      if (js.first() < 0) {
        v.add(p + ".first", Violations.NON_NEGATIVE, js.first());
      }
      List<JobArrival> arrivals = new java.util.ArrayList<>(js.jobs());
      if (js.template() != null) {
        arrivals.add(js.template());
      }
      for (int j = 0; j < arrivals.size(); j++) {
        JobArrival a = arrivals.get(j);
        String ap = js.template() != null && j == arrivals.size() - 1 ? p + ".poisson" : p + ".jobs[" + j + "]";
        nonNegative(v, ap + ".at", a.at());
        if (a.pods() < 1) {
          v.add(ap + ".pods", "must be at least 1", a.pods());
        }
        nonNegative(v, ap + ".runFor", a.runFor());
      }
    }
    Set<String> scaled = new HashSet<>();
    for (int i = 0; i < spec.queueScalers().size(); i++) {
      QueueScaler q = spec.queueScalers().get(i);
      String p = "spec.queueScalers[" + i + "]";
      v.dnsSubdomain(p + ".target.name", q.name());
      if (!scaled.add(q.target())) {
        v.add(p + ".target", "must not repeat an earlier queue scaler's target", q.target());
      }
      if (!targets.contains(q.target())) {
        v.add(p + ".target", "needs a load on the same Deployment in spec.loads (it feeds the queue)", q.target());
      }
      if (!(q.perReplica() > 0) || Double.isInfinite(q.perReplica())) {
        v.add(p + ".perReplica", "must be a finite number above 0", q.perReplica());
      }
      finiteNonNegative(v, p + ".activation", q.activation());
      if (q.minReplicas() < 0) {
        v.add(p + ".minReplicas", Violations.NON_NEGATIVE, q.minReplicas());
      }
      if (q.maxReplicas() < Math.max(1, q.minReplicas())) {
        v.add(p + ".maxReplicas", "must be at least 1 and at least minReplicas " + q.minReplicas(), q.maxReplicas());
      }
      if (q.pollingInterval().compareTo(Duration.ofSeconds(1)) < 0) {
        v.add(p + ".pollingInterval", "must be at least 1s", q.pollingInterval());
      }
      nonNegative(v, p + ".cooldown", q.cooldown());
    }
    v.throwIfAny();
  }

  private static void pattern(Violations v, String p, LoadPattern lp) {
    switch (lp.shape()) {
      case Constant -> { } // the rates are finite and not negative: LoadPattern and RatePoint refuse others
      case Step -> nonNegative(v, p + ".step.at", lp.at());
      case Spike -> {
        nonNegative(v, p + ".spike.at", lp.at());
        if (lp.length().isNegative() || lp.length().isZero()) {
          v.add(p + ".spike.length", "must be more than 0", lp.length());
        }
      }
      case Diurnal -> {
        if (lp.peak() < lp.base()) {
          v.add(p + ".diurnal.peak", "must be at least the trough " + lp.base(), lp.peak());
        }
        nonNegative(v, p + ".diurnal.peakAt", lp.at());
        if (lp.period().compareTo(Duration.ofMinutes(1)) < 0) {
          v.add(p + ".diurnal.period", "must be at least 1m", lp.period());
        } else if (lp.at().compareTo(lp.period()) >= 0) {
          // the curve repeats every period, so a later peak would be read as the same time of the period
          v.add(p + ".diurnal.peakAt", "must be less than the period " + Violations.durationText(lp.period()), lp.at());
        }
      }
      case Csv -> {
        if (lp.points().isEmpty()) {
          v.add(p + ".csv", "must have at least one row seconds,requestsPerSecond", "");
        }
        Duration last = null;
        for (int j = 0; j < lp.points().size(); j++) {
          RatePoint r = lp.points().get(j);
          String rp = p + ".csv row " + (j + 1);
          nonNegative(v, rp + " seconds", r.at());
          if (last != null && r.at().compareTo(last) <= 0) {
            v.add(rp + " seconds", "must be after the previous row's " + last.toSeconds(), r.at().toSeconds());
          }
          last = r.at();
        }
      }
    }
  }

  /** The YAML field naming a fault of this type. */
  static String faultField(FaultType t) {
    return switch (t) {
      case NodeFailure -> "nodeFailure";
      case ZoneFailure -> "zoneFailure";
      case GpuDeviceFault -> "gpuDeviceFault";
      case ApiSlowness -> "apiSlowness";
      case KubeletRestart -> "kubeletRestart";
      case CapacityStockout -> "capacityStockout";
      case SpotInterruption -> "spotInterruption";
    };
  }

  private static void nonNegative(Violations v, String field, Duration d) {
    if (d.isNegative()) {
      v.add(field, Violations.NON_NEGATIVE, d);
    }
  }

  private static void finiteNonNegative(Violations v, String field, double x) {
    if (!(x >= 0) || Double.isInfinite(x)) {
      v.add(field, "must be a finite number greater than or equal to 0", x);
    }
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return false;
  }

  @Override
  public Scenario withMetadata(ObjectMeta newMetadata) {
    return new Scenario(newMetadata, spec);
  }

  @Override
  public @org.jspecify.annotations.Nullable Object status() {
    return null;
  }

  @Override
  public Scenario withStatusOf(Scenario other) {
    return this;
  }

  /** Kueue's {@code validateWaitForPodsReady} (a simulation also checks that there are queues for it to act on). */
  private static void validatePodsReady(Violations v, ScenarioSpec spec) {
    ScenarioPodsReady w = spec.waitForPodsReady();
    if (w == null) {
      return;
    }
    String p = "spec.waitForPodsReady";
    if (w.timeout().isZero()) {
      v.add(p + ".timeout", "must be specified", w.timeout());
    } else if (w.timeout().isNegative()) {
      v.add(p + ".timeout", Violations.NON_NEGATIVE, w.timeout());
    }
    if (w.recoveryTimeout() != null && w.recoveryTimeout().isNegative()) {
      v.add(p + ".recoveryTimeout", Violations.NON_NEGATIVE, w.recoveryTimeout());
    }
    v.nonNegative(p + ".requeuingStrategy.backoffLimitCount", w.backoffLimitCount());
    v.nonNegative(p + ".requeuingStrategy.backoffBaseSeconds", w.backoffBaseSeconds());
    v.nonNegative(p + ".requeuingStrategy.backoffMaxSeconds", w.backoffMaxSeconds());
  }

  /**
   * Kueue's rules for the cohort tree: DNS names, each declared once, parents without a cycle, limits only with a
   * parent and only for resources of the quota, quotas and limits not negative, a quota's flavor one of the queues'.
   */
  private static void validateCohorts(Violations v, ScenarioSpec spec) {
    Set<String> flavors = new java.util.TreeSet<>();
    for (ScenarioQueue q : spec.queues()) {
      flavors.add(q.flavor());
    }
    java.util.Map<String, String> parents = new java.util.HashMap<>();
    for (int i = 0; i < spec.cohorts().size(); i++) {
      ScenarioCohort c = spec.cohorts().get(i);
      String p = "spec.cohorts[" + i + "]";
      v.dnsSubdomain(p + ".name", c.name());
      if (parents.containsKey(c.name())) {
        v.add(p + ".name", "must not repeat an earlier cohort's name", c.name());
      } else {
        parents.put(c.name(), c.parent());
      }
      if (c.parent() != null) {
        v.dnsSubdomain(p + ".parent", c.parent());
        if (c.parent().equals(c.name())) {
          v.add(p + ".parent", "must not be the cohort itself", c.parent());
        }
      }
      v.dnsSubdomain(p + ".flavor.name", c.flavor());
      if (!c.quota().isEmpty()) {
        if (!flavors.contains(c.flavor())) {
          v.add(p + ".flavor.name", "must name a flavor of spec.queues " + flavors, c.flavor());
        }
      }
      for (var e : c.quota().asMap().entrySet()) {
        v.nonNegative(p + ".quota." + e.getKey(), e.getValue());
      }
      limits(v, c, p + ".borrowingLimit", c.borrowingLimit());
      limits(v, c, p + ".lendingLimit", c.lendingLimit());
    }
    for (int i = 0; i < spec.cohorts().size(); i++) {
      ScenarioCohort c = spec.cohorts().get(i);
      if (c.parent() == null || c.parent().equals(c.name())) {
        continue;
      }
      // walk up from the parent: coming back to this cohort closes a cycle
      List<String> path = new java.util.ArrayList<>(List.of(c.name()));
      Set<String> seen = new HashSet<>(path);
      for (String at = c.parent(); at != null; at = parents.get(at)) {
        path.add(at);
        if (at.equals(c.name())) {
          v.add("spec.cohorts[" + i + "].parent", "must not form a cycle (" + String.join(" -> ", path) + ")",
              c.parent());
          break;
        }
        if (!seen.add(at)) {
          break; // a cycle above this cohort, reported at a cohort on it
        }
      }
    }
  }

  private static void limits(Violations v, ScenarioCohort c, String field, io.fleetkit.api.resource.ResourceList l) {
    if (l.isEmpty()) {
      return;
    }
    if (c.parent() == null) {
      v.add(field, "must be nil when parent is empty (a root cohort has nothing to borrow from or lend to)",
          l.asMap());
    }
    for (var e : l.asMap().entrySet()) {
      v.nonNegative(field + "." + e.getKey(), e.getValue());
      if (!c.quota().has(e.getKey())) {
        v.add(field + "." + e.getKey(), "must be a resource of quota " + c.quota().names(), e.getValue());
      }
    }
  }
}
