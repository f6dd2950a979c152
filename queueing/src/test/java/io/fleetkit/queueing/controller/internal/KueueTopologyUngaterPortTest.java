package io.fleetkit.queueing.controller.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.TopologyAssignment;
import io.fleetkit.queueing.TopologyAssignment.Domain;
import io.fleetkit.queueing.controller.QueueLabels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kueue's topology ungater, ported from {@code pkg/controller/tas/topology_ungater_test.go} (kubernetes-sigs/kueue
 * commit ff69552e79ad21652c36caa97038382e55625cf7): {@code TestReconcile} (36 of its 37 cases; "ungate single pod;
 * while there are pending expectations" is not ported, FleetKit's ungater keeps no expectations: it reads the pods
 * from the store, not from an informer cache) and {@code TestIsTAS} (7 of 7). Each case runs the ungater against an
 * embedded store holding the case's pods, then compares the stored pods with the wanted ones (their node selectors
 * only in the cases upstream compares them exactly; otherwise the counts of ungated pods per node selector, as
 * upstream's {@code wantCounts}).
 */
final class KueueTopologyUngaterPortTest {
  private static final String BLOCK = "cloud.com/topology-block";
  private static final String RACK = "cloud.com/topology-rack";
  private static final String HOST = "kubernetes.io/hostname";
  private static final List<String> LEVELS = List.of(BLOCK, RACK);
  private static final String MAIN = "main";
  private static final String WL = "unit-test";
  private static final String NS = "ns";
  private static final String JOB_INDEX = "batch.kubernetes.io/job-completion-index";
  private static final String JOBSET_JOB_INDEX = "jobset.sigs.k8s.io/job-index";
  private static final String JOBSET_REPLICAS = "jobset.sigs.k8s.io/replicatedjob-replicas";
  private static final String LWS_WORKER_INDEX = "leaderworkerset.sigs.k8s.io/worker-index";
  private static final String KF_REPLICA_INDEX = "training.kubeflow.org/replica-index";
  private static final String KF_ROLE = "training.kubeflow.org/job-role";
  private static final String POD_GROUP_INDEX = "kueue.x-k8s.io/pod-group-pod-index";

  // ---------------------------------------------------------------------------------------------- the fixtures

  /** A pod of a case (upstream's {@code testingpod.MakePod}). */
  private static final class P {
    final String name;
    final Map<String, String> labels = new TreeMap<>();
    final Map<String, String> annotations = new TreeMap<>();
    final List<String> gates = new ArrayList<>();
    final Map<String, String> nodeSelector = new TreeMap<>();
    PodPhase phase = PodPhase.Pending;

    P(String name) {
      this.name = name;
    }

    /** Annotated with the workload, labelled with pod set {@code ps}. */
    P of(String ps) {
      return wl().ps(ps);
    }

    P wl() {
      annotations.put(QueueLabels.WORKLOAD, WL);
      return this;
    }

    P ps(String ps) {
      labels.put(QueueLabels.POD_SET, ps);
      return this;
    }

    P label(String k, String v) {
      labels.put(k, v);
      return this;
    }

    P ann(String k, String v) {
      annotations.put(k, v);
      return this;
    }

    P topologyGate() {
      gates.add(QueueLabels.TOPOLOGY_SCHEDULING_GATE);
      return this;
    }

    P gate(String g) {
      gates.add(g);
      return this;
    }

    P ns(String... levelValues) {
      if (levelValues.length == 1) {
        nodeSelector.put(HOST, levelValues[0]);
      } else {
        nodeSelector.put(BLOCK, levelValues[0]);
        nodeSelector.put(RACK, levelValues[1]);
      }
      return this;
    }

    P phase(PodPhase p) {
      phase = p;
      return this;
    }

    Pod build() {
      Pod.Builder b = Pod.builder().namespace(NS).name(name).labels(labels)
          .container("c", "busybox:1", ResourceList.builder().put("cpu", "1").build()).nodeSelector(nodeSelector);
      annotations.forEach(b::annotation);
      gates.forEach(b::schedulingGate);
      return b.build();
    }

    View view(boolean withNodeSelector) {
      return new View(name, labels, annotations, gates, phase, withNodeSelector ? nodeSelector : Map.of());
    }
  }

  private static P pod(String name) {
    return new P(name);
  }

  /** What the comparison reads of a pod (upstream ignores type meta, resource version and timestamps). */
  private record View(String name, Map<String, String> labels, Map<String, String> annotations, List<String> gates,
      PodPhase phase, Map<String, String> nodeSelector) {
    View {
      labels = new TreeMap<>(labels);
      annotations = new TreeMap<>(annotations);
      nodeSelector = new TreeMap<>(nodeSelector);
    }

    static View of(Pod p, boolean withNodeSelector) {
      return new View(p.metadata().name(), p.metadata().labels(), p.metadata().annotations(),
          p.spec().schedulingGates(), p.status().phase(), withNodeSelector ? p.spec().nodeSelector() : Map.of());
    }
  }

  /** A workload of a case (upstream's {@code MakeWorkload}). */
  private static final class W {
    final List<PodSetAssignment> assignments = new ArrayList<>();
    final Map<String, PodSetTopologyRequest> requests = new HashMap<>();
    final Set<String> unhealthy = new HashSet<>();
    boolean reserved = true;
    boolean admitted = true;

    W psa(String name, int count, @Nullable TopologyAssignment ta) {
      assignments.add(new PodSetAssignment(name, count, Map.of("cpu", "unit-test-flavor"),
          ResourceList.builder().put("cpu", Integer.toString(count)).build(), ta));
      return this;
    }

    W request(String podSet, PodSetTopologyRequest r) {
      requests.put(podSet, r);
      return this;
    }

    /** The pod set's request with only the pods' index label (upstream's {@code PodIndexLabel}). */
    W indexLabel(String podSet, String label) {
      return request(podSet, PodSetTopologyRequest.ofPodIndexLabel(label));
    }

    W unhealthy(String node) {
      unhealthy.add(node);
      return this;
    }

    W noAdmission() {
      reserved = false;
      return this;
    }

    W notAdmitted() {
      admitted = false;
      return this;
    }

    TopologyUngater.WorkloadView view() {
      QuotaReservation r = reserved
          ? new QuotaReservation(NS + "/" + WL, "cq", assignments, Instant.EPOCH, false) : null;
      return new TopologyUngater.WorkloadView(NS, WL, r, admitted && reserved, requests, unhealthy);
    }
  }

  private static W wl() {
    return new W();
  }

  private static TopologyAssignment ta(Domain... domains) {
    return new TopologyAssignment(LEVELS, List.of(domains));
  }

  private static TopologyAssignment hosts(Domain... domains) {
    return new TopologyAssignment(List.of(HOST), List.of(domains));
  }

  private static Domain d(int count, String... values) {
    return Domain.of(count, values);
  }

  /** Upstream's {@code counts}: {@code count} ungated live pods with the node selector of {@code levelValues}. */
  private static Map.Entry<Map<String, String>, Integer> count(int count, String... levelValues) {
    return Map.entry(pod("x").ns(levelValues).nodeSelector, count);
  }

  /**
   * One case of {@code TestReconcile}.
   *
   * @param exact whether node selectors are compared pod by pod (upstream's {@code nodeSelectorAssertExact})
   */
  private record Case(W workload, List<P> pods, boolean exact, List<P> want,
      List<Map.Entry<Map<String, String>, Integer>> wantCounts, boolean wantError) {}

  private static Case counts(W w, List<P> pods, List<P> want, List<Map.Entry<Map<String, String>, Integer>> counts) {
    return new Case(w, pods, false, want, counts, false);
  }

  private static Case exact(W w, List<P> pods, List<P> want, List<Map.Entry<Map<String, String>, Integer>> counts) {
    return new Case(w, pods, true, want, counts, false);
  }

  private static Arguments c(String name, Case c) {
    return Arguments.of(Named.of(name, c));
  }

  // ---------------------------------------------------------------------------------------------- the runner

  @ParameterizedTest
  @MethodSource("cases")
  void reconcile(Case c) {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      for (P p : c.pods()) {
        Pod created = store.create(p.build());
        if (p.phase != PodPhase.Pending) {
          store.updateStatus(created.withStatus(created.status().withPhase(p.phase)));
        }
      }

      TopologyUngater.Plan plan = TopologyUngater.reconcile(store, c.workload().view());

      assertThat(plan.error() != null).as("error: %s", plan.error()).isEqualTo(c.wantError());
      List<Pod> got = new ArrayList<>(store.list(Pod.class, NS).items());
      got.sort(Comparator.comparing((Pod p) -> p.metadata().name()));
      assertThat(got.stream().map(p -> View.of(p, c.exact())).toList())
          .containsExactlyElementsOf(c.want().stream().sorted(Comparator.comparing((P p) -> p.name))
              .map(p -> p.view(c.exact())).toList());
      Map<Map<String, String>, Integer> gotCounts = new LinkedHashMap<>();
      for (Pod p : got) {
        if (!TopologyUngater.gated(p) && !p.isTerminal()) {
          gotCounts.merge(new TreeMap<>(p.spec().nodeSelector()), 1, Integer::sum);
        }
      }
      Map<Map<String, String>, Integer> wantCounts = new LinkedHashMap<>();
      for (Map.Entry<Map<String, String>, Integer> e : c.wantCounts()) {
        wantCounts.put(new TreeMap<>(e.getKey()), e.getValue());
      }
      assertThat(gotCounts).isEqualTo(wantCounts);
    }
  }

  // ---------------------------------------------------------------------------------------------- the cases

  static Stream<Arguments> cases() {
    return Stream.of(
        c("ungate single pod", counts(
            wl().psa(MAIN, 1, ta(d(1, "b1", "r1"))),
            List.of(pod("pod").of(MAIN).topologyGate()),
            List.of(pod("pod").of(MAIN)),
            List.of(count(1, "b1", "r1")))),
        c("does not ungate a replacement pod onto the unhealthy domain of a two-pod group", counts(
            wl().psa(MAIN, 2, hosts(d(1, "x1"), d(1, "x2"))).unhealthy("x1"),
            List.of(pod("pod-survivor").of(MAIN).ns("x2"), pod("pod-replacement").of(MAIN).topologyGate()),
            List.of(pod("pod-replacement").of(MAIN).topologyGate(), pod("pod-survivor").of(MAIN).ns("x2")),
            List.of(count(1, "x2")))),
        c("does not ungate a pod onto a node marked unhealthy", counts(
            wl().psa(MAIN, 1, hosts(d(1, "x1"))).unhealthy("x1"),
            List.of(pod("pod").of(MAIN).topologyGate()),
            List.of(pod("pod").of(MAIN).topologyGate()),
            List.of())),
        c("ungate single pod with sub group index label but no sub group count", counts(
            wl().psa(MAIN, 1, ta(d(1, "b1", "r1")))
                .request(MAIN, PodSetTopologyRequest.ofPodIndexLabel(JOB_INDEX).withSubGroup(JOBSET_JOB_INDEX, null)),
            List.of(pod("pod").of(MAIN).label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "0").topologyGate()),
            List.of(pod("pod").of(MAIN).label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "0")),
            List.of(count(1, "b1", "r1")))),
        c("ungate single pod with sub group index label but zero sub group count", counts(
            wl().psa(MAIN, 1, ta(d(1, "b1", "r1")))
                .request(MAIN, PodSetTopologyRequest.ofPodIndexLabel(JOB_INDEX).withSubGroup(JOBSET_JOB_INDEX, 0)),
            List.of(pod("pod").of(MAIN).label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "0").topologyGate()),
            List.of(pod("pod").of(MAIN).label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "0")),
            List.of(count(1, "b1", "r1")))),
        c("ungate multiple pods in a single domain", counts(
            wl().psa(MAIN, 3, ta(d(3, "b1", "r1"))),
            List.of(pod("pod1").of(MAIN).topologyGate(), pod("pod2").of(MAIN).topologyGate()),
            List.of(pod("pod1").of(MAIN), pod("pod2").of(MAIN)),
            List.of(count(2, "b1", "r1")))),
        c("ungate multiple pods across multiple domains", counts(
            wl().psa(MAIN, 2, ta(d(1, "b1", "r1"), d(1, "b1", "r2"))),
            List.of(pod("pod1").of(MAIN).topologyGate(), pod("pod2").of(MAIN).topologyGate()),
            List.of(pod("pod1").of(MAIN), pod("pod2").of(MAIN)),
            List.of(count(1, "b1", "r1"), count(1, "b1", "r2")))),
        c("workload without admission - pod remains gated", counts(
            wl().noAdmission(),
            List.of(pod("pod1").of(MAIN).topologyGate()),
            List.of(pod("pod1").of(MAIN).topologyGate()),
            List.of())),
        c("workload admitted but without topology assignment - pod remains gated", counts(
            wl().psa(MAIN, 2, null),
            List.of(pod("pod1").of(MAIN).topologyGate()),
            List.of(pod("pod1").of(MAIN).topologyGate()),
            List.of())),
        c("workload with admission (reserved quota), but not admitted - pod remains gated", counts(
            wl().psa(MAIN, 2, ta(d(1, "b1", "r1"))).notAdmitted(),
            List.of(pod("pod1").of(MAIN).topologyGate()),
            List.of(pod("pod1").of(MAIN).topologyGate()),
            List.of())),
        c("workload admitted by TAS with single pod without the Workload annotation - Pod remains gated", counts(
            wl().psa(MAIN, 1, ta(d(1, "b1", "r1"))),
            List.of(pod("pod").ps(MAIN).topologyGate()),
            List.of(pod("pod").ps(MAIN).topologyGate()),
            List.of())),
        c("workload admitted by TAS with single pod without the PodSet label - Pod remains gated", counts(
            wl().psa(MAIN, 1, ta(d(1, "b1", "r1"))),
            List.of(pod("pod").wl().topologyGate()),
            List.of(pod("pod").wl().topologyGate()),
            List.of())),
        c("workload admitted by TAS with single pod without topology gate, remains gated by another gate", counts(
            wl().psa(MAIN, 1, ta(d(1, "b1", "r1"))),
            List.of(pod("pod").of(MAIN).ns("b1", "r1").gate("example.com/gate")),
            List.of(pod("pod").of(MAIN).ns("b1", "r1").gate("example.com/gate")),
            List.of(count(1, "b1", "r1")))),
        c("workload admitted by TAS with single pod with topology gate and another gate, ungated, but remains gated "
            + "by another gate", counts(
            wl().psa(MAIN, 1, ta(d(1, "b1", "r1"))),
            List.of(pod("pod").of(MAIN).topologyGate().gate("example.com/gate")),
            List.of(pod("pod").of(MAIN).ns("b1", "r1").gate("example.com/gate")),
            List.of(count(1, "b1", "r1")))),
        c("expect single pod; one already running - don't ungate second pod", counts(
            wl().psa(MAIN, 1, ta(d(1, "b1", "r1"))),
            List.of(pod("pod-already-running").of(MAIN).phase(PodPhase.Running).ns("b1", "r1"),
                pod("pod-gated").of(MAIN).topologyGate()),
            List.of(pod("pod-already-running").of(MAIN).phase(PodPhase.Running).ns("b1", "r1"),
                pod("pod-gated").of(MAIN).topologyGate()),
            List.of(count(1, "b1", "r1")))),
        c("expect single pod; one ungated pod failed - ungate second pod", counts(
            wl().psa(MAIN, 1, ta(d(1, "b1", "r1"))),
            List.of(pod("pod-already-running").of(MAIN).phase(PodPhase.Failed).ns("b1", "r1"),
                pod("pod-gated").of(MAIN).topologyGate()),
            List.of(pod("pod-already-running").of(MAIN).phase(PodPhase.Failed).ns("b1", "r1"),
                pod("pod-gated").of(MAIN).ns("b1", "r1")),
            List.of(count(1, "b1", "r1")))),
        c("two pods, one already ungated, second to ungate", counts(
            wl().psa(MAIN, 2, ta(d(2, "b1", "r1"))),
            List.of(pod("pod1").of(MAIN).ns("b1", "r1"), pod("pod2").of(MAIN).topologyGate()),
            List.of(pod("pod1").of(MAIN).ns("b1", "r1"), pod("pod2").of(MAIN).ns("b1", "r1")),
            List.of(count(2, "b1", "r1")))),
        c("expect single pod; one ungated pod succeeded - ungate second pod", counts(
            wl().psa(MAIN, 1, ta(d(1, "b1", "r1"))),
            List.of(pod("pod-already-succeeded").of(MAIN).phase(PodPhase.Succeeded).ns("b1", "r1"),
                pod("pod-gated").of(MAIN).topologyGate()),
            List.of(pod("pod-already-succeeded").of(MAIN).phase(PodPhase.Succeeded).ns("b1", "r1"),
                pod("pod-gated").of(MAIN)),
            List.of(count(1, "b1", "r1")))),
        // upstream: fixes https://github.com/kubernetes-sigs/kueue/issues/9210 (rank 0's domain is taken by the pod
        // of rank 1, so the ranks are not used and the replacement takes the remaining domain)
        c("ungate replacement pod for unhealthy node", counts(
            wl().psa(MAIN, 2, ta(d(1, "b1", "r1"), d(1, "b1", "r2")))
                .request(MAIN, PodSetTopologyRequest.ofPodIndexLabel(JOB_INDEX).withSubGroup(JOBSET_JOB_INDEX, 1)),
            List.of(pod("p1-running").of(MAIN).label(JOB_INDEX, "1").label(JOBSET_JOB_INDEX, "0")
                    .label(JOBSET_REPLICAS, "1").ns("b1", "r1"),
                pod("p0-replacement").of(MAIN).label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "0")
                    .label(JOBSET_REPLICAS, "1").topologyGate()),
            List.of(pod("p0-replacement").of(MAIN).label(JOB_INDEX, "0").label(JOBSET_JOB_INDEX, "0")
                    .label(JOBSET_REPLICAS, "1").ns("b1", "r2"),
                pod("p1-running").of(MAIN).label(JOB_INDEX, "1").label(JOBSET_JOB_INDEX, "0")
                    .label(JOBSET_REPLICAS, "1").ns("b1", "r1")),
            List.of(count(1, "b1", "r1"), count(1, "b1", "r2")))),
        c("ranks: ungate pods according to their ranks for batch/Job - some Pods already scheduled", exact(
            wl().psa(MAIN, 5, ta(d(2, "b1", "r1"), d(1, "b1", "r2"), d(2, "b2", "r1"))).indexLabel(MAIN, JOB_INDEX),
            List.of(jobPod("p0", 0).ns("b1", "r1"), jobPod("p1", 1).topologyGate(), jobPod("p2", 2).topologyGate(),
                jobPod("p3", 3).ns("b2", "r1"), jobPod("p4", 4).topologyGate()),
            List.of(jobPod("p0", 0).ns("b1", "r1"), jobPod("p1", 1).ns("b1", "r1"), jobPod("p2", 2).ns("b1", "r2"),
                jobPod("p3", 3).ns("b2", "r1"), jobPod("p4", 4).ns("b2", "r1")),
            List.of(count(2, "b1", "r1"), count(1, "b1", "r2"), count(2, "b2", "r1")))),
        c("ranks: ungate pods according to their ranks for LeaderWorkerSet - for all Pods", exact(
            lws(),
            List.of(lwsPod("p0", "leader", 0).topologyGate(), lwsPod("p1", "workers", 2).topologyGate(),
                lwsPod("p2", "workers", 1).topologyGate(), lwsPod("p3", "workers", 3).topologyGate(),
                lwsPod("p4", "workers", 4).topologyGate()),
            List.of(lwsPod("p0", "leader", 0).ns("b1", "r1"), lwsPod("p1", "workers", 2).ns("b1", "r2"),
                lwsPod("p2", "workers", 1).ns("b1", "r1"), lwsPod("p3", "workers", 3).ns("b2", "r1"),
                lwsPod("p4", "workers", 4).ns("b2", "r1")),
            List.of(count(2, "b1", "r1"), count(1, "b1", "r2"), count(2, "b2", "r1")))),
        c("ranks: ungate pods according to their ranks for batch/Job - for all Pods", exact(
            wl().psa(MAIN, 5, ta(d(2, "b1", "r1"), d(1, "b1", "r2"), d(2, "b2", "r1"))).indexLabel(MAIN, JOB_INDEX),
            List.of(jobPod("p0", 0).topologyGate(), jobPod("p1", 1).topologyGate(), jobPod("p2", 2).topologyGate(),
                jobPod("p3", 3).topologyGate(), jobPod("p4", 4).topologyGate()),
            List.of(jobPod("p0", 0).ns("b1", "r1"), jobPod("p1", 1).ns("b1", "r1"), jobPod("p2", 2).ns("b1", "r2"),
                jobPod("p3", 3).ns("b2", "r1"), jobPod("p4", 4).ns("b2", "r1")),
            List.of(count(2, "b1", "r1"), count(1, "b1", "r2"), count(2, "b2", "r1")))),
        // upstream: two pod sets of one group whose second one's indexes start from 0 again
        c("ranks: gracefully handle situation with ranks going below 0", exact(
            lws(),
            List.of(lwsPod("p0", "leader", 0).topologyGate(), lwsPod("p1", "workers", 0).topologyGate(),
                lwsPod("p2", "workers", 1).topologyGate(), lwsPod("p3", "workers", 2).topologyGate(),
                lwsPod("p4", "workers", 3).topologyGate()),
            List.of(lwsPod("p0", "leader", 0).ns("b1", "r1"), lwsPod("p1", "workers", 0).ns("b1", "r1"),
                lwsPod("p2", "workers", 1).ns("b1", "r2"), lwsPod("p3", "workers", 2).ns("b2", "r1"),
                lwsPod("p4", "workers", 3).ns("b2", "r1")),
            List.of(count(2, "b1", "r1"), count(1, "b1", "r2"), count(2, "b2", "r1")))),
        c("ranks: gracefully handle situation with repeated ranks", counts(
            wl().psa(MAIN, 4, ta(d(2, "b1", "r1"), d(1, "b1", "r2"), d(1, "b2", "r1"))),
            List.of(jobPod("p0", 0).topologyGate(), jobPod("p1", 1).topologyGate(), jobPod("p2", 0).topologyGate(),
                jobPod("p3", 1).topologyGate()),
            List.of(jobPod("p0", 0), jobPod("p1", 1), jobPod("p2", 0), jobPod("p3", 1)),
            List.of(count(2, "b1", "r1"), count(1, "b1", "r2"), count(1, "b2", "r1")))),
        // upstream: parallelism=1, completions=2, backoffLimitPerIndex=0; index 0 failed, index 1 is created
        c("ranks: gracefully handle situation when parallelism < completions", exact(
            wl().psa(MAIN, 1, ta(d(1, "b1", "r1"))),
            List.of(jobPod("p0", 0).phase(PodPhase.Failed).ns("b1", "r1"), jobPod("p1", 1).topologyGate()),
            List.of(jobPod("p0", 0).phase(PodPhase.Failed).ns("b1", "r1"), jobPod("p1", 1).ns("b1", "r1")),
            List.of(count(1, "b1", "r1")))),
        c("ranks: support rank-based ordering for JobSet - for all Pods", exact(
            jobSet(),
            List.of(jobSetPod("p0", 0, 0).topologyGate(), jobSetPod("p1", 1, 0).topologyGate(),
                jobSetPod("p2", 0, 1).topologyGate(), jobSetPod("p3", 1, 1).topologyGate()),
            List.of(jobSetPod("p0", 0, 0).ns("b1", "r1"), jobSetPod("p1", 1, 0).ns("b1", "r1"),
                jobSetPod("p2", 0, 1).ns("b1", "r2"), jobSetPod("p3", 1, 1).ns("b2", "r1")),
            List.of(count(2, "b1", "r1"), count(1, "b1", "r2"), count(1, "b2", "r1")))),
        c("ranks: support rank-based ordering for JobSet - some Pods already scheduled", exact(
            jobSet(),
            List.of(jobSetPod("p0", 0, 0).topologyGate(), jobSetPod("p1", 1, 0).ns("b1", "r1"),
                jobSetPod("p2", 0, 1).ns("b1", "r2"), jobSetPod("p3", 1, 1).topologyGate()),
            List.of(jobSetPod("p0", 0, 0).ns("b1", "r1"), jobSetPod("p1", 1, 0).ns("b1", "r1"),
                jobSetPod("p2", 0, 1).ns("b1", "r2"), jobSetPod("p3", 1, 1).ns("b2", "r1")),
            List.of(count(2, "b1", "r1"), count(1, "b1", "r2"), count(1, "b2", "r1")))),
        c("ranks: support rank-based ordering for JobSet - only subset of pods is observed so far", exact(
            jobSet(),
            List.of(jobSetPod("p1", 1, 0).topologyGate(), jobSetPod("p3", 1, 1).topologyGate()),
            List.of(jobSetPod("p1", 1, 0).ns("b1", "r1"), jobSetPod("p3", 1, 1).ns("b2", "r1")),
            List.of(count(1, "b1", "r1"), count(1, "b2", "r1")))),
        c("ranks: support rank-based ordering for kubeflow with valid offset annotation - for all Pods", exact(
            mpiJob(),
            List.of(launcher().topologyGate(), kfWorker("w1", 1).ann(QueueLabels.POD_INDEX_OFFSET, "1").topologyGate(),
                kfWorker("w2", 2).ann(QueueLabels.POD_INDEX_OFFSET, "1").topologyGate(),
                kfWorker("w3", 3).ann(QueueLabels.POD_INDEX_OFFSET, "1").topologyGate()),
            List.of(launcher().ns("b1", "r1"), kfWorker("w1", 1).ann(QueueLabels.POD_INDEX_OFFSET, "1").ns("b1", "r1"),
                kfWorker("w2", 2).ann(QueueLabels.POD_INDEX_OFFSET, "1").ns("b1", "r2"),
                kfWorker("w3", 3).ann(QueueLabels.POD_INDEX_OFFSET, "1").ns("b2", "r1")),
            List.of(count(2, "b1", "r1"), count(1, "b1", "r2"), count(1, "b2", "r1")))),
        // upstream: a stray pod whose index is out of range (3 with offset 1) cannot be ranked; the placed pods keep
        // their domains and the stray one stays gated
        c("ranks: out-of-range pod index falls back to greedy assignment", exact(
            wl().psa("worker", 2, ta(d(1, "b1", "r1"), d(1, "b1", "r2"))).indexLabel("worker", JOB_INDEX),
            List.of(offsetPod("w1", 1).ns("b1", "r1"), offsetPod("w2", 2).ns("b1", "r2"),
                offsetPod("stray", 3).topologyGate()),
            List.of(offsetPod("stray", 3).topologyGate(), offsetPod("w1", 1).ns("b1", "r1"),
                offsetPod("w2", 2).ns("b1", "r2")),
            List.of(count(1, "b1", "r1"), count(1, "b1", "r2")))),
        // upstream: an assignment of fewer pods than the pod set's count (a slice size not dividing it)
        c("ranks: TopologyAssignment shorter than the PodSet count falls back to greedy assignment", counts(
            wl().psa("worker", 2, ta(d(1, "b1", "r1"))).indexLabel("worker", JOB_INDEX),
            List.of(pod("w1").of("worker").label(JOB_INDEX, "1").topologyGate()),
            List.of(pod("w1").of("worker").label(JOB_INDEX, "1")),
            List.of(count(1, "b1", "r1")))),
        c("ranks: support rank-based ordering for kubeflow with invalid offset annotation - for all Pods", new Case(
            mpiJob(),
            List.of(launcher().topologyGate(),
                kfWorker("w0", 0).ann(QueueLabels.POD_INDEX_OFFSET, "invalid").topologyGate(),
                kfWorker("w1", 1).ann(QueueLabels.POD_INDEX_OFFSET, "invalid").topologyGate(),
                kfWorker("w2", 2).ann(QueueLabels.POD_INDEX_OFFSET, "invalid").topologyGate()),
            true,
            List.of(launcher().topologyGate(),
                kfWorker("w0", 0).ann(QueueLabels.POD_INDEX_OFFSET, "invalid").topologyGate(),
                kfWorker("w1", 1).ann(QueueLabels.POD_INDEX_OFFSET, "invalid").topologyGate(),
                kfWorker("w2", 2).ann(QueueLabels.POD_INDEX_OFFSET, "invalid").topologyGate()),
            List.of(), true)),
        // FleetKit's case (not upstream's): Atoi reads ASCII digits only, so an offset written in Arabic-Indic
        // digits is as invalid as "invalid" (Integer.parseInt read "\u0661" as 1 and ungated every pod)
        c("fleetkit: an offset in digits of another script is invalid, as for Atoi", new Case(
            mpiJob(),
            List.of(launcher().topologyGate(),
                kfWorker("w1", 1).ann(QueueLabels.POD_INDEX_OFFSET, "\u0661").topologyGate(),
                kfWorker("w2", 2).ann(QueueLabels.POD_INDEX_OFFSET, "\u0661").topologyGate(),
                kfWorker("w3", 3).ann(QueueLabels.POD_INDEX_OFFSET, "\u0661").topologyGate()),
            true,
            List.of(launcher().topologyGate(),
                kfWorker("w1", 1).ann(QueueLabels.POD_INDEX_OFFSET, "\u0661").topologyGate(),
                kfWorker("w2", 2).ann(QueueLabels.POD_INDEX_OFFSET, "\u0661").topologyGate(),
                kfWorker("w3", 3).ann(QueueLabels.POD_INDEX_OFFSET, "\u0661").topologyGate()),
            List.of(), true)),
        c("ranks: support rank-based ordering for kubeflow - for all Pods", exact(
            kubeflow(),
            List.of(kfLauncher().topologyGate(), kfMain("w0", 0).topologyGate(), kfMain("w1", 1).topologyGate(),
                kfMain("w2", 2).topologyGate()),
            List.of(kfLauncher().ns("b1", "r1"), kfMain("w0", 0).ns("b1", "r1"), kfMain("w1", 1).ns("b1", "r2"),
                kfMain("w2", 2).ns("b2", "r1")),
            List.of(count(2, "b1", "r1"), count(1, "b1", "r2"), count(1, "b2", "r1")))),
        c("ranks: support rank-based ordering for kubeflow - some Pods already scheduled", exact(
            kubeflow(),
            List.of(kfLauncher().topologyGate(), kfMain("w0", 0).topologyGate(), kfMain("w1", 1).ns("b1", "r1"),
                kfMain("w2", 2).ns("b1", "r2")),
            List.of(kfLauncher().ns("b1", "r1"), kfMain("w0", 0).ns("b2", "r1"), kfMain("w1", 1).ns("b1", "r1"),
                kfMain("w2", 2).ns("b1", "r2")),
            List.of(count(2, "b1", "r1"), count(1, "b1", "r2"), count(1, "b2", "r1")))),
        c("ranks: support rank-based ordering for pod groups - for all Pods", exact(
            podGroup(),
            List.of(groupPod("w0", 0).topologyGate(), groupPod("w1", 1).topologyGate(),
                groupPod("w2", 2).topologyGate(), groupPod("w3", 3).topologyGate()),
            List.of(groupPod("w0", 0).ns("b1", "r1"), groupPod("w1", 1).ns("b1", "r1"),
                groupPod("w2", 2).ns("b1", "r2"), groupPod("w3", 3).ns("b2", "r1")),
            List.of(count(2, "b1", "r1"), count(1, "b1", "r2"), count(1, "b2", "r1")))),
        c("ranks: support rank-based ordering for pod groups - some Pods already scheduled", exact(
            podGroup(),
            List.of(groupPod("w0", 0).topologyGate(), groupPod("w1", 1).ns("b1", "r1"),
                groupPod("w2", 2).topologyGate(), groupPod("w3", 3).ns("b2", "r1")),
            List.of(groupPod("w0", 0).ns("b1", "r1"), groupPod("w1", 1).ns("b1", "r1"),
                groupPod("w2", 2).ns("b1", "r2"), groupPod("w3", 3).ns("b2", "r1")),
            List.of(count(2, "b1", "r1"), count(1, "b1", "r2"), count(1, "b2", "r1")))));
  }

  private static P jobPod(String name, int index) {
    return pod(name).of(MAIN).label(JOB_INDEX, Integer.toString(index));
  }

  private static P offsetPod(String name, int index) {
    return pod(name).of("worker").ann(QueueLabels.POD_INDEX_OFFSET, "1").label(JOB_INDEX, Integer.toString(index));
  }

  /** A LeaderWorkerSet's workload: 4 workers and a leader in group {@code lws-group}. */
  private static W lws() {
    PodSetTopologyRequest r = new PodSetTopologyRequest(null, null, false, "lws-group", List.of(), LWS_WORKER_INDEX,
        null, null);
    return wl().psa("workers", 4, ta(d(1, "b1", "r1"), d(1, "b1", "r2"), d(2, "b2", "r1")))
        .psa("leader", 1, ta(d(1, "b1", "r1")))
        .request("workers", r).request("leader", r);
  }

  private static P lwsPod(String name, String podSet, int index) {
    return pod(name).of(podSet).label(LWS_WORKER_INDEX, Integer.toString(index));
  }

  /** A JobSet's workload: 4 pods, 2 replicated Jobs of 2. */
  private static W jobSet() {
    return wl().psa(MAIN, 4, ta(d(2, "b1", "r1"), d(1, "b1", "r2"), d(1, "b2", "r1")))
        .request(MAIN, PodSetTopologyRequest.ofPodIndexLabel(JOB_INDEX).withSubGroup(JOBSET_JOB_INDEX, 2));
  }

  private static P jobSetPod(String name, int index, int jobIndex) {
    return pod(name).of(MAIN).label(JOB_INDEX, Integer.toString(index))
        .label(JOBSET_JOB_INDEX, Integer.toString(jobIndex)).label(JOBSET_REPLICAS, "2");
  }

  /** An MPIJob's workload: a launcher and 3 workers in group {@code mpijob-group}. */
  private static W mpiJob() {
    PodSetTopologyRequest r = new PodSetTopologyRequest(null, null, false, "mpijob-group", List.of(),
        KF_REPLICA_INDEX, null, null);
    return wl().psa("launcher", 1, ta(d(1, "b1", "r1")))
        .psa("worker", 3, ta(d(1, "b1", "r1"), d(1, "b1", "r2"), d(1, "b2", "r1")))
        .request("launcher", r).request("worker", r);
  }

  private static P launcher() {
    return pod("l0").of("launcher").label(KF_ROLE, "launcher").label(KF_REPLICA_INDEX, "0");
  }

  private static P kfWorker(String name, int index) {
    return pod(name).of("worker").label(KF_ROLE, "worker").label(KF_REPLICA_INDEX, Integer.toString(index));
  }

  /** A kubeflow job's workload of one pod set of 4 (a launcher without an index and 3 workers). */
  private static W kubeflow() {
    return wl().psa(MAIN, 4, ta(d(2, "b1", "r1"), d(1, "b1", "r2"), d(1, "b2", "r1")))
        .indexLabel(MAIN, KF_REPLICA_INDEX);
  }

  private static P kfLauncher() {
    return pod("l0").of(MAIN).label(KF_ROLE, "launcher");
  }

  private static P kfMain(String name, int index) {
    return pod(name).of(MAIN).label(KF_ROLE, "worker").label(KF_REPLICA_INDEX, Integer.toString(index));
  }

  private static W podGroup() {
    return wl().psa(MAIN, 4, ta(d(2, "b1", "r1"), d(1, "b1", "r2"), d(1, "b2", "r1")))
        .indexLabel(MAIN, POD_GROUP_INDEX);
  }

  private static P groupPod(String name, int index) {
    return pod(name).of(MAIN).label(POD_GROUP_INDEX, Integer.toString(index));
  }

  // ---------------------------------------------------------------------------------------------- TestIsTAS

  @Test
  void isTas_topologyAnnotations_areTasPods() {
    // upstream TestIsTAS, its 7 cases
    assertThat(TopologyUngater.isTas(Map.of())).as("no annotations").isFalse();
    assertThat(TopologyUngater.isTas(Map.of(PodSetTopologyRequest.PREFERRED_ANNOTATION, BLOCK)))
        .as("PodSetPreferredTopologyAnnotation").isTrue();
    assertThat(TopologyUngater.isTas(Map.of(PodSetTopologyRequest.REQUIRED_ANNOTATION, RACK)))
        .as("PodSetRequiredTopologyAnnotation").isTrue();
    assertThat(TopologyUngater.isTas(Map.of(PodSetTopologyRequest.SLICE_REQUIRED_ANNOTATION, BLOCK)))
        .as("PodSetSliceRequiredTopologyAnnotation").isTrue();
    assertThat(TopologyUngater.isTas(Map.of(PodSetTopologyRequest.SLICE_CONSTRAINTS_ANNOTATION,
        "[{\"topology\":\"cloud.com/rack\",\"size\":2}]"))).as("PodSetSliceRequiredTopologyConstraintsAnnotation")
        .isTrue();
    assertThat(TopologyUngater.isTas(Map.of(PodSetTopologyRequest.UNCONSTRAINED_ANNOTATION, "true")))
        .as("PodSetUnconstrainedTopologyAnnotation").isTrue();
    assertThat(TopologyUngater.isTas(Map.of("foo", "bar"))).as("unrelated annotation").isFalse();
  }

  // ---------------------------------------------------------------------------------------------- FleetKit's own

  @Test
  void plan_ungatesOnlyGatedPods_andNamesEachOnceWithItsDomainLabels() {
    W w = wl().psa(MAIN, 3, ta(d(2, "b1", "r1"), d(1, "b2", "r1"))).indexLabel(MAIN, JOB_INDEX);
    List<Pod> pods = Arrays.asList(jobPod("p0", 0).ns("b1", "r1").build(), jobPod("p1", 1).topologyGate().build(),
        jobPod("p2", 2).topologyGate().build());

    TopologyUngater.Plan plan = TopologyUngater.plan(w.view(), pods);

    assertThat(plan.error()).isNull();
    assertThat(plan.ungates()).extracting(u -> u.pod().metadata().name()).containsExactly("p1", "p2");
    assertThat(plan.ungates().get(1).nodeLabels()).isEqualTo(Map.of(BLOCK, "b2", RACK, "r1"));
  }

  @Test
  void reconcile_podOfAnotherWorkload_isLeftGated() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      store.create(pod("other").ps(MAIN).ann(QueueLabels.WORKLOAD, "someone-else").topologyGate().build());

      TopologyUngater.reconcile(store, wl().psa(MAIN, 1, ta(d(1, "b1", "r1"))).view());

      assertThat(TopologyUngater.gated(store.require(Pod.class, NS, "other"))).isTrue();
    }
  }
}
