package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Topology;
import io.fleetkit.reconcile.controllers.JobController;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreScheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Topology-aware scheduling through the controller: a Job admitted with a topology assignment starts with its pod
 * template gated ({@value QueueLabels#TOPOLOGY_SCHEDULING_GATE}), and its gated pods are ungated onto the assigned
 * domains (Kueue's topology ungater); end to end with the Job controller and FleetKit's default scheduler.
 */
final class QueueTopologyUngaterControllerTest {
  private static final String BLOCK = "cloud.com/topology-block";
  private static final String RACK = "cloud.com/topology-rack";

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private AdmissionEngine engine;
  private QueueAdmissionController ctl;

  @AfterEach
  void close() {
    if (ctl != null) {
      ctl.close();
    }
    store.close();
  }

  /** Two blocks of two racks of two hosts, 2 CPUs each. */
  private void nodes() {
    int host = 0;
    for (String block : List.of("b1", "b2")) {
      for (String rack : List.of("r1", "r2")) {
        for (int i = 0; i < 2; i++) {
          String name = "h" + (++host);
          store.create(Node.builder().name(name).labels(QueueFixtures.POOL).label(BLOCK, block)
              .label(RACK, block + "-" + rack).label(Topology.HOSTNAME_LABEL, name)
              .allocatable(ResourceList.builder().put("cpu", "2").put("memory", "8Gi").put("pods", "10").build())
              .ready().build());
        }
      }
    }
  }

  /** A TAS ClusterQueue {@code cq} of {@code cpus} CPUs over the block/rack/host topology, nodes from the store. */
  private void start(String cpus) {
    nodes();
    engine = AdmissionEngine.builder().clock(clock.asClock())
        .topology(Topology.of("dc", BLOCK, RACK, Topology.HOSTNAME_LABEL))
        .resourceFlavor(new ResourceFlavor("batch", QueueFixtures.POOL).withTopologyName("dc"))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", cpus)))
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
            .build())
        .localQueue(LocalQueue.of(NS, "lq", "cq"))
        .build();
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().followNodes().build();
    ctl.start().join();
  }

  /** {@link QueueFixtures#job} with {@code annotations} on its pod template. */
  private static Job job(String name, int parallelism, String cpu, int priority, Map<String, String> annotations) {
    Job j = QueueFixtures.job(name, "lq", parallelism, cpu, priority, true, 10);
    PodTemplateSpec t = j.spec().template();
    io.fleetkit.api.meta.ObjectMeta.Builder m = t.metadata().toBuilder();
    annotations.forEach(m::annotation);
    return j.withSpec(j.spec().withTemplate(new PodTemplateSpec(m.build(), t.spec())));
  }

  private Job get(String name) {
    return store.require(Job.class, NS, name);
  }

  @Test
  void start_jobWithRequiredTopology_templateGatedAnnotatedWithItsWorkloadAndLabelledWithItsPodSet() {
    start("8");
    store.create(job("a", 2, "1", 0, Map.of(PodSetTopologyRequest.REQUIRED_ANNOTATION, RACK)));
    ctl.runUntilIdle();

    Job a = get("a");
    assertThat(running(a)).isTrue();
    assertThat(a.spec().template().spec().schedulingGates()).containsExactly(QueueLabels.TOPOLOGY_SCHEDULING_GATE);
    assertThat(a.spec().template().metadata().annotations()).containsEntry(QueueLabels.WORKLOAD, "a")
        .containsEntry(PodSetTopologyRequest.REQUIRED_ANNOTATION, RACK)
        .doesNotContainKey(PodSetTopologyRequest.UNCONSTRAINED_ANNOTATION);
    assertThat(a.spec().template().metadata().labels()).containsEntry(QueueLabels.POD_SET, "main");
    assertThat(a.metadata().annotations()).containsEntry(QueueLabels.INJECTED_SCHEDULING_GATES,
        QueueLabels.TOPOLOGY_SCHEDULING_GATE);
  }

  @Test
  void start_jobWithoutTopologyAnnotations_isImpliedUnconstrained() {
    start("8");
    store.create(job("a", 1, "1", 0, Map.of()));
    ctl.runUntilIdle();

    Job a = get("a");
    assertThat(running(a)).isTrue();
    assertThat(a.spec().template().metadata().annotations())
        .containsEntry(PodSetTopologyRequest.UNCONSTRAINED_ANNOTATION, "true");
    assertThat(a.spec().template().spec().schedulingGates()).containsExactly(QueueLabels.TOPOLOGY_SCHEDULING_GATE);
  }

  @Test
  void preemption_tasJobStopped_losesItsGateWorkloadAnnotationAndPodSetLabel() {
    start("4");
    Job created = store.create(job("low", 2, "2", 0, Map.of(PodSetTopologyRequest.REQUIRED_ANNOTATION, BLOCK)));
    ctl.runUntilIdle();
    assertThat(running(get("low"))).isTrue();

    clock.advance(Duration.ofSeconds(5));
    store.create(job("high", 2, "2", 100, Map.of(PodSetTopologyRequest.REQUIRED_ANNOTATION, BLOCK)));
    ctl.runUntilIdle();

    Job low = get("low");
    assertThat(low.spec().suspend()).isTrue();
    assertThat(low.spec().template()).isEqualTo(created.spec().template());
    assertThat(low.metadata().annotations()).doesNotContainKey(QueueLabels.INJECTED_SCHEDULING_GATES);
    assertThat(running(get("high"))).isTrue();
  }

  /**
   * The assignment is recorded on the Job: a controller restarted with a fresh engine restores it, and its ungater
   * places the pods created gated before the restart; a node replacement updates the record.
   */
  @Test
  void restart_recordedAssignmentRestored_gatedPodsUngatedOntoIt_andANodeReplacementRecorded() {
    start("8");
    store.create(job("a", 2, "1", 0, Map.of(PodSetTopologyRequest.REQUIRED_ANNOTATION, RACK)));
    ctl.runUntilIdle();
    io.fleetkit.queueing.TopologyAssignment ta = engine.admission(NS + "/a").orElseThrow().podSets().get(0)
        .topologyAssignment();
    String recorded = get("a").metadata().annotations().get(QueueLabels.TOPOLOGY_ASSIGNMENT);
    assertThat(recorded).startsWith(Topology.HOSTNAME_LABEL + "|");
    ctl.close();

    // the pods the Job controller creates from the gated template, while no controller runs
    Job a = get("a");
    for (int i = 0; i < 2; i++) {
      store.create(Pod.builder().metadata(a.spec().template().metadata().toBuilder().namespace(NS).name("a-" + i)
          .build()).spec(a.spec().template().spec()).build());
    }
    engine = AdmissionEngine.builder().clock(clock.asClock())
        .topology(Topology.of("dc", BLOCK, RACK, Topology.HOSTNAME_LABEL))
        .resourceFlavor(new ResourceFlavor("batch", QueueFixtures.POOL).withTopologyName("dc"))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", "8"))).build())
        .localQueue(LocalQueue.of(NS, "lq", "cq"))
        .build();
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().followNodes().build();
    ctl.start().join();
    ctl.runUntilIdle();

    assertThat(engine.admission(NS + "/a").orElseThrow().podSets().get(0).topologyAssignment()).isEqualTo(ta);
    assertThat(running(get("a"))).isTrue();
    List<String> hosts = store.list(Pod.class, NS).items().stream()
        .map(p -> p.spec().schedulingGates().isEmpty() ? p.spec().nodeSelector().get(Topology.HOSTNAME_LABEL) : "gated")
        .sorted().toList();
    List<String> assigned = new java.util.ArrayList<>();
    ta.domains().forEach(d -> {
      for (int i = 0; i < d.count(); i++) {
        assigned.add(d.values().get(0));
      }
    });
    assertThat(hosts).isEqualTo(assigned.stream().sorted().toList());

    // a node of the assignment deleted: its pods are replaced within the rack, and the record follows
    store.delete(Node.class, "", ta.domains().get(0).values().get(0));
    ctl.runUntilIdle();
    io.fleetkit.queueing.TopologyAssignment moved = engine.admission(NS + "/a").orElseThrow().podSets().get(0)
        .topologyAssignment();
    assertThat(moved).isNotEqualTo(ta);
    assertThat(get("a").metadata().annotations()).containsEntry(QueueLabels.TOPOLOGY_ASSIGNMENT,
        TopologyRecordFormat.of(moved));
  }

  /** The annotation's format, as the controller writes it (kept here to state it independently). */
  private static final class TopologyRecordFormat {
    static String of(io.fleetkit.queueing.TopologyAssignment ta) {
      return String.join(",", ta.levels()) + "|" + ta.domains().stream()
          .map(d -> String.join(",", d.values()) + "=" + d.count()).collect(Collectors.joining(";"));
    }
  }

  /**
   * The whole loop: a Job admitted with a required rack; the Job controller creates its pods gated, which the
   * scheduler leaves alone; the controller ungates them onto the assigned hosts; the scheduler binds them there, all
   * in one rack.
   */
  @Test
  void endToEnd_requiredRack_podsCreatedGatedUngatedOntoAssignedHostsAndScheduledInOneRack() {
    start("8");
    try (JobController jobs = JobController.builder(store).clock(clock).stepping().build();
        Scheduler scheduler = Scheduler.builder().clock(clock).parallelism(1).store(store).build();
        StoreScheduler attached = StoreScheduler.attach(scheduler, store)) {
      jobs.start().join();
      store.create(job("train", 3, "1", 0, Map.of(PodSetTopologyRequest.REQUIRED_ANNOTATION, RACK)));

      ctl.runUntilIdle(); // admitted with a topology assignment, started with its template gated
      assertThat(running(get("train"))).isTrue();
      Map<String, Integer> assigned = engine.admission(NS + "/train").orElseThrow().podSets().get(0)
          .topologyAssignment().domains().stream()
          .collect(Collectors.toMap(d -> d.values().get(d.values().size() - 1), d -> d.count()));
      assertThat(assigned.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(3);

      jobs.runUntilIdle(); // the Job controller creates the pods from the gated template
      List<Pod> pods = store.list(Pod.class, NS).items();
      assertThat(pods).hasSize(3).allSatisfy(p -> {
        assertThat(p.spec().schedulingGates()).containsExactly(QueueLabels.TOPOLOGY_SCHEDULING_GATE);
        assertThat(p.metadata().annotations()).containsEntry(QueueLabels.WORKLOAD, "train");
        assertThat(p.spec().nodeSelector()).doesNotContainKey(Topology.HOSTNAME_LABEL);
      });
      scheduler.runUntilIdle();
      assertThat(store.list(Pod.class, NS).items()).noneMatch(Pod::isBound); // gated: PreEnqueue holds them

      ctl.runUntilIdle(); // the pod events reconciled the Job: its ungater gives each pod a host of the assignment
      pods = store.list(Pod.class, NS).items();
      assertThat(pods).allSatisfy(p -> assertThat(p.spec().schedulingGates()).isEmpty());
      Map<String, Long> selected = pods.stream().collect(Collectors.groupingBy(
          p -> p.spec().nodeSelector().get(Topology.HOSTNAME_LABEL), Collectors.counting()));
      assertThat(selected).isEqualTo(assigned.entrySet().stream()
          .collect(Collectors.toMap(Map.Entry::getKey, e -> (long) e.getValue())));

      scheduler.runUntilIdle();
      pods = store.list(Pod.class, NS).items();
      assertThat(pods).allSatisfy(p -> {
        assertThat(p.isBound()).isTrue();
        assertThat(p.spec().nodeName()).isEqualTo(p.spec().nodeSelector().get(Topology.HOSTNAME_LABEL));
      });
      Set<String> racks = pods.stream()
          .map(p -> store.require(Node.class, "", p.spec().nodeName()).metadata().labels().get(RACK))
          .collect(Collectors.toSet());
      assertThat(racks).hasSize(1);
      assertThat(attached.scheduler()).isSameAs(scheduler);
    }
  }

  /**
   * An Indexed Job's pods are ranked by their completion index (the Job's pod set names {@code
   * batch.kubernetes.io/job-completion-index} as its index label): the pod of index {@code i} gets the host of the
   * assignment's {@code i}-th pod. Twelve pods, so that their names ({@code idx-10-...} before {@code idx-2-...})
   * do not sort by index: the greedy way would put them elsewhere.
   */
  @Test
  void endToEnd_indexedJob_eachPodGetsTheHostOfItsRank() {
    start("8");
    try (JobController jobs = JobController.builder(store).clock(clock).stepping().build();
        Scheduler scheduler = Scheduler.builder().clock(clock).parallelism(1).store(store).build();
        StoreScheduler attached = StoreScheduler.attach(scheduler, store)) {
      jobs.start().join();
      Job plain = job("idx", 12, "500m", 0, Map.of(PodSetTopologyRequest.PREFERRED_ANNOTATION, BLOCK));
      store.create(Job.builder().metadata(plain.metadata()).parallelism(12).completions(12).suspend(true)
          .completionMode(io.fleetkit.api.batch.CompletionMode.Indexed).template(plain.spec().template()).build());

      ctl.runUntilIdle();
      jobs.runUntilIdle();
      ctl.runUntilIdle();
      scheduler.runUntilIdle();

      List<String> byRank = new java.util.ArrayList<>();
      for (io.fleetkit.queueing.TopologyAssignment.Domain d : engine.admission(NS + "/idx").orElseThrow().podSets()
          .get(0).topologyAssignment().domains()) {
        for (int i = 0; i < d.count(); i++) {
          byRank.add(d.values().get(d.values().size() - 1));
        }
      }
      List<Pod> pods = store.list(Pod.class, NS).items();
      assertThat(byRank.get(10)).isNotEqualTo(byRank.get(2));
      assertThat(pods).hasSize(12).allSatisfy(p -> {
        int index = Integer.parseInt(p.metadata().labels().get("batch.kubernetes.io/job-completion-index"));
        assertThat(p.spec().nodeSelector()).containsEntry(Topology.HOSTNAME_LABEL, byRank.get(index));
        assertThat(p.spec().nodeName()).isEqualTo(byRank.get(index));
      });
      assertThat(pods.stream().map(p -> store.require(Node.class, "", p.spec().nodeName()).metadata().labels()
          .get(BLOCK)).collect(Collectors.toSet())).hasSize(1);
      assertThat(attached.scheduler()).isSameAs(scheduler);
    }
  }

  /**
   * The ungater reads a workload's pods from the controller's index on the workload annotation (Kueue's field index),
   * kept from its pod watch: ungating lists no namespace's pods from the store, and a pod created later is in the
   * index for the next reconcile.
   */
  @Test
  void ungater_readsTheWorkloadsPodsFromTheIndex_notFromANamespaceList() {
    int[] namespacePodLists = {0};
    ObjectStore counting = new io.fleetkit.api.store.ForwardingObjectStore(store) {
      @Override
      public <T extends io.fleetkit.api.meta.ApiObject<T>> io.fleetkit.api.store.ListResult<T> list(Class<T> kind,
          String namespace, java.util.function.Predicate<? super T> filter) {
        if (kind == Pod.class && !namespace.isEmpty()) {
          namespacePodLists[0]++;
        }
        return super.list(kind, namespace, filter);
      }
    };
    nodes();
    engine = AdmissionEngine.builder().clock(clock.asClock())
        .topology(Topology.of("dc", BLOCK, RACK, Topology.HOSTNAME_LABEL))
        .resourceFlavor(new ResourceFlavor("batch", QueueFixtures.POOL).withTopologyName("dc"))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", "8"))).build())
        .localQueue(LocalQueue.of(NS, "lq", "cq"))
        .build();
    ctl = QueueAdmissionController.builder(counting, engine).clock(clock).stepping().followNodes().build();
    ctl.start().join();
    store.create(job("a", 2, "1", 0, Map.of(PodSetTopologyRequest.REQUIRED_ANNOTATION, RACK)));
    ctl.runUntilIdle();
    Job a = get("a");
    for (int i = 0; i < 2; i++) { // the pods the Job controller makes from the gated template
      store.create(Pod.builder().metadata(a.spec().template().metadata().toBuilder().namespace(NS).name("a-" + i)
          .build()).spec(a.spec().template().spec()).build());
    }
    ctl.runUntilIdle();

    assertThat(store.list(Pod.class, NS).items()).as("both ungated onto hosts of the assignment")
        .allSatisfy(p -> {
          assertThat(p.spec().schedulingGates()).isEmpty();
          assertThat(p.spec().nodeSelector()).containsKey(Topology.HOSTNAME_LABEL);
        });
    assertThat(namespacePodLists[0]).isZero();
  }
}
