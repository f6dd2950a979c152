package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The unit of admission (Kueue {@code Workload}): pod sets that are admitted all together or not at all (a pod set
 * with a {@link PodSet#minCount() minCount} possibly with fewer pods).
 *
 * <p>Validation (Kueue's webhook, reported together as one {@link io.fleetkit.api.ValidationException}): the name is a
 * DNS subdomain, the namespace a DNS label, the queue name a DNS subdomain; there are 1 to 8 pod sets with unique DNS
 * label names; no count (Kueue's CRD allows 0) and no request is negative; a {@code minCount} is at least 1 and at
 * most the pod set's count, and at most one pod set sets one (Kueue's "at most one podSet can use minCount"); no pod set
 * requests {@code pods}, which the
 * engine counts itself (one per pod, when the ClusterQueue covers {@code pods}; Kueue's "the key is reserved for
 * internal kueue use"); a {@code priorityClassName} is a DNS subdomain, given exactly when {@code
 * priorityClassSource} is not {@link PriorityClassSource#NONE} (Kueue v1beta2's {@code priorityClassRef}: kind and
 * name together).
 *
 * @param namespace the namespace
 * @param name the name
 * @param queueName the {@link LocalQueue} in {@code namespace} it is submitted to
 * @param priority the priority (Kueue's {@code spec.priority}); higher is more important
 * @param priorityClassSource the kind of class the priority came from (Kueue's {@code spec.priorityClassSource})
 * @param priorityClassName the class's name (Kueue's {@code spec.priorityClassName}); empty without a class
 * @param creationTime when it was created; FIFO order among equal priorities
 * @param podSets the pod sets
 */
public record Workload(String namespace, String name, String queueName, int priority,
    PriorityClassSource priorityClassSource, String priorityClassName, Instant creationTime, List<PodSet> podSets) {
  public static final String KIND = "Workload";
  /** Kueue's limit on pod sets per workload. */
  public static final int MAX_POD_SETS = 8;

  public Workload {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(queueName, "queueName");
    Objects.requireNonNull(priorityClassSource, "priorityClassSource");
    Objects.requireNonNull(priorityClassName, "priorityClassName");
    Objects.requireNonNull(creationTime, "creationTime");
    podSets = List.copyOf(Objects.requireNonNull(podSets, "podSets"));
    Violations v = new Violations(KIND, namespace, name);
    v.dnsLabel("metadata.namespace", namespace);
    v.dnsSubdomain("metadata.name", name);
    v.dnsSubdomain("spec.queueName", queueName);
    if (!priorityClassName.isEmpty()) {
      v.dnsSubdomain("spec.priorityClassName", priorityClassName);
      if (priorityClassSource == PriorityClassSource.NONE) {
        v.add("spec.priorityClassSource", "must be set when priorityClassName is set", "");
      }
    } else if (priorityClassSource != PriorityClassSource.NONE) {
      v.required("spec.priorityClassName", "a priorityClassSource names a class");
    }
    if (podSets.isEmpty()) {
      v.required("spec.podSets");
    } else if (podSets.size() > MAX_POD_SETS) {
      v.add("spec.podSets", "must have at most " + MAX_POD_SETS + " items", podSets.size());
    }
    Set<String> names = new HashSet<>();
    int variable = 0;
    for (int i = 0; i < podSets.size(); i++) {
      PodSet ps = podSets.get(i);
      String p = "spec.podSets[" + i + "]";
      v.dnsLabel(p + ".name", ps.name());
      if (!names.add(ps.name())) {
        v.add(p + ".name", Violations.DUPLICATE, ps.name());
      }
      v.nonNegative(p + ".count", ps.count());
      if (ps.minCount() != null) {
        variable++;
        if (ps.minCount() < 1) {
          v.add(p + ".minCount", "must be greater than or equal to 1", ps.minCount());
        } else if (ps.minCount() > ps.count()) {
          v.add(p + ".minCount", "must be less than or equal to count (" + ps.count() + ")", ps.minCount());
        }
      }
      for (String r : ps.requests().names()) {
        v.nonNegative(p + ".template.requests." + r, ps.requests().get(r));
      }
      if (ps.requests().has(ResourceNames.PODS)) {
        v.add(p + ".template.requests." + ResourceNames.PODS, "the key is reserved for internal kueue use",
            ps.requests().get(ResourceNames.PODS));
      }
    }
    if (variable > 1) {
      v.add("spec.podSets", "at most one podSet can use minCount", variable);
    }
    v.throwIfAny();
  }

  /** A workload whose priority comes from no class. */
  public Workload(String namespace, String name, String queueName, int priority, Instant creationTime,
      List<PodSet> podSets) {
    this(namespace, name, queueName, priority, PriorityClassSource.NONE, "", creationTime, podSets);
  }

  /** Its priority with the class it came from. */
  public WorkloadPriority priorityInfo() {
    return new WorkloadPriority(priority, priorityClassSource, priorityClassName);
  }

  /** This workload with {@code p} as its priority and priority class. */
  public Workload withPriority(WorkloadPriority p) {
    return new Workload(namespace, name, queueName, p.value(), p.source(), p.className(), creationTime, podSets);
  }

  /** This workload with {@code podSets} in place of its own. */
  public Workload withPodSets(List<PodSet> podSets) {
    return new Workload(namespace, name, queueName, priority, priorityClassSource, priorityClassName, creationTime,
        podSets);
  }

  /** Whether some pod set may be admitted with fewer pods than its count (Kueue's {@code CanBePartiallyAdmitted}). */
  public boolean canBePartiallyAdmitted() {
    for (PodSet ps : podSets) {
      if (ps.count() > ps.minCountOrCount()) {
        return true;
      }
    }
    return false;
  }

  /** This workload with the pod sets' counts replaced by {@code counts} (one per pod set, in order). */
  public Workload withCounts(int[] counts) {
    if (counts.length != podSets.size()) {
      throw new IllegalArgumentException("Workload " + key() + ": " + counts.length + " counts for "
          + podSets.size() + " pod sets");
    }
    List<PodSet> out = new ArrayList<>(podSets.size());
    for (int i = 0; i < counts.length; i++) {
      out.add(podSets.get(i).withCount(counts[i]));
    }
    return withPodSets(out);
  }

  /** {@code namespace/name}. */
  public String key() {
    return namespace + "/" + name;
  }

  public static Builder builder(String namespace, String name) {
    return new Builder(namespace, name);
  }

  /** Mutable builder; not thread-safe. Defaults: queue {@code default}, priority 0, created at the epoch. */
  public static final class Builder {
    private final String namespace;
    private final String name;
    private String queueName = "default";
    private WorkloadPriority priority = WorkloadPriority.DEFAULT;
    private Instant creationTime = Instant.EPOCH;
    private final List<PodSet> podSets = new ArrayList<>();
    private ResourceList.Builder mainRequests = ResourceList.builder();
    private boolean mainUsed;

    private Builder(String namespace, String name) {
      this.namespace = Objects.requireNonNull(namespace, "namespace");
      this.name = Objects.requireNonNull(name, "name");
    }

    public Builder queueName(String queueName) {
      this.queueName = Objects.requireNonNull(queueName, "queueName");
      return this;
    }

    /** The priority, from no class. */
    public Builder priority(int priority) {
      this.priority = WorkloadPriority.of(priority);
      return this;
    }

    /** The priority with the class it came from. */
    public Builder priority(WorkloadPriority priority) {
      this.priority = Objects.requireNonNull(priority, "priority");
      return this;
    }

    public Builder creationTime(Instant creationTime) {
      this.creationTime = Objects.requireNonNull(creationTime, "creationTime");
      return this;
    }

    public Builder podSet(PodSet podSet) {
      podSets.add(Objects.requireNonNull(podSet, "podSet"));
      return this;
    }

    public Builder podSet(String name, int count, ResourceList requests) {
      return podSet(new PodSet(name, count, requests));
    }

    /**
     * Adds {@code quantity} of {@code resource} to the requests of the single pod set {@code main} (count 1), like
     * Kueue's test wrapper {@code MakeWorkload(..).Request(..)}.
     */
    public Builder request(String resource, String quantity) {
      mainRequests.put(resource, Quantity.parse(quantity));
      mainUsed = true;
      return this;
    }

    public Workload build() {
      List<PodSet> all = new ArrayList<>(podSets);
      if (mainUsed) {
        all.add(0, new PodSet("main", 1, mainRequests.build()));
      }
      return new Workload(namespace, name, queueName, priority.value(), priority.source(), priority.className(),
          creationTime, all);
    }
  }
}
