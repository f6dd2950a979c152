package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test objects after kube's {@code pkg/scheduler/testing} wrappers ({@code st.MakePod()}, {@code st.MakeNode()}) and
 * the constants of {@code default_preemption_test.go}.
 */
final class Fixtures {
  private Fixtures() {}

  static final int NEG = -100;
  static final int LOW = 0;
  static final int MID = 100;
  static final int HIGH = 1000;
  static final int VERY_HIGH = 10000;

  static final ResourceList SMALL = res("100m", "100");
  static final ResourceList MEDIUM = res("200m", "200");
  static final ResourceList LARGE = res("300m", "300");
  static final ResourceList VERY_LARGE = res("500m", "500");
  /** {@code onePodRes}: room for one pod, no cpu or memory. */
  static final ResourceList ONE_POD = ResourceList.builder().put("pods", "1").build();
  /** {@code nodeRes} of TestPostFilter. */
  static final ResourceList NODE_RES = res("200m", "400");

  static ResourceList res(String cpu, String memory) {
    return ResourceList.builder().put("cpu", cpu).put("memory", memory).build();
  }

  /** {@code metav1.NewTime(time.Unix(0, n))}. */
  static Instant epoch(int nanos) {
    return Instant.ofEpochSecond(0, nanos);
  }

  /**
   * A node with {@code capacity} as capacity and allocatable; {@code pods: 32} unless given (as
   * {@code NodeWrapper.Capacity}). A name {@code host/zone/region} becomes labels hostname, zone, region.
   */
  static Node node(String nameAndTopology, ResourceList capacity) {
    ResourceList c = capacity.has("pods") ? capacity
        : ResourceList.builder().put("pods", "32").build().add(capacity);
    String[] parts = nameAndTopology.split("/");
    String[] keys = {"hostname", "zone", "region"};
    Node.Builder b = Node.builder().name(parts[0]).capacity(c).allocatable(c);
    for (int i = 0; i < parts.length; i++) {
      b.label(keys[i], parts[i]);
    }
    return b.build();
  }

  /** {@code node} with one more label. */
  static Node withLabel(Node node, String key, String value) {
    return node.toBuilder().label(key, value).build();
  }

  /**
   * A budget in namespace {@code default} selecting {@code key=value}, as {@code st.MakePDB()}; minAvailable does not
   * matter to preemption, only {@code disruptionsAllowed} and {@code disruptedPods}.
   */
  static PodDisruptionBudget pdb(String name, String key, String value, int disruptionsAllowed,
      Map<String, Instant> disruptedPods) {
    return new PodDisruptionBudget(ObjectMeta.of("default", name),
        PodDisruptionBudgetSpec.minAvailable(LabelSelector.of(Map.of(key, value)), IntOrPercent.parse("100%")),
        new PodDisruptionBudgetStatus(0, disruptedPods, disruptionsAllowed, 0, 0, 0, List.of()));
  }

  static PodMaker pod(String name) {
    return new PodMaker(name);
  }

  /** Fluent pod maker after {@code st.MakePod()}; namespace {@code default}. */
  static final class PodMaker {
    private final String name;
    private int priority;
    private boolean prioritySet;
    private ResourceList req = ResourceList.EMPTY;
    private String node = "";
    private final Map<String, String> labels = new LinkedHashMap<>();
    private Instant startTime;
    private String nominated = "";
    private PreemptionPolicy policy = PreemptionPolicy.PreemptLowerPriority;
    private boolean terminating;
    private boolean disruptedByScheduler;

    private PodMaker(String name) {
      this.name = name;
    }

    PodMaker priority(int p) {
      priority = p;
      prioritySet = true;
      return this;
    }

    PodMaker req(ResourceList r) {
      req = r;
      return this;
    }

    PodMaker node(String n) {
      node = n;
      return this;
    }

    PodMaker label(String k, String v) {
      labels.put(k, v);
      return this;
    }

    PodMaker startTime(Instant t) {
      startTime = t;
      return this;
    }

    PodMaker nominatedNodeName(String n) {
      nominated = n;
      return this;
    }

    PodMaker preemptionPolicy(PreemptionPolicy p) {
      policy = p;
      return this;
    }

    /** {@code Terminating()}: a deletion timestamp. */
    PodMaker terminating() {
      terminating = true;
      return this;
    }

    /** {@code Condition(DisruptionTarget, True, PreemptionByScheduler)}. */
    PodMaker disruptedByScheduler() {
      disruptedByScheduler = true;
      return this;
    }

    Pod obj() {
      Pod.Builder b = Pod.builder().name(name).namespace("default").labels(labels)
          .container("c", "img", req).preemptionPolicy(policy);
      if (prioritySet) {
        b.priority(priority);
      }
      if (!node.isEmpty()) {
        b.nodeName(node);
      }
      PodStatus status = PodStatus.PENDING.withNominatedNodeName(nominated).withStartTime(startTime);
      if (disruptedByScheduler) {
        status = status.withCondition(PodCondition.of(PodCondition.DISRUPTION_TARGET, ConditionStatus.True,
            DefaultPreemptionPlugin.PREEMPTION_BY_SCHEDULER, "", null));
      }
      Pod p = b.status(status).build();
      if (terminating) {
        p = p.withMetadata(p.metadata().toBuilder().deletionTimestamp(Instant.ofEpochSecond(1000)).build());
      }
      return p;
    }
  }
}
