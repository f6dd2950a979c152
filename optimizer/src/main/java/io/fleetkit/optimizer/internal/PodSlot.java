package io.fleetkit.optimizer.internal;

import java.util.BitSet;
import org.jspecify.annotations.Nullable;
import org.optaplanner.core.api.domain.entity.PlanningEntity;
import org.optaplanner.core.api.domain.lookup.PlanningId;
import org.optaplanner.core.api.domain.variable.PlanningVariable;

/**
 * The planning entity: one pod whose node the solver chooses ({@code null} = left unplaced). Its demand, the nodes
 * it may use (taints, required node affinity, GPU models: {@link #allowed}), its gang and, when defragmenting, the
 * node it runs on now.
 */
@PlanningEntity
public class PodSlot {
  @PlanningId
  private Integer id;
  String key;
  long cpu;
  long mem;
  int wholeGpus;
  int milli;
  BitSet allowed;
  @Nullable GangFact gang;
  @Nullable NodeFact origin;
  boolean mustPlace;
  int moveBudget;

  @PlanningVariable(valueRangeProviderRefs = "nodes", nullable = true)
  private @Nullable NodeFact node;

  /** For OptaPlanner's cloning. */
  public PodSlot() {
    this.id = 0;
    this.key = "";
    this.allowed = new BitSet();
  }

  PodSlot(int id, String key, long cpu, long mem, int wholeGpus, int milli, BitSet allowed, @Nullable GangFact gang) {
    this.id = id;
    this.key = key;
    this.cpu = cpu;
    this.mem = mem;
    this.wholeGpus = wholeGpus;
    this.milli = milli;
    this.allowed = allowed;
    this.gang = gang;
  }

  public Integer getId() {
    return id;
  }

  public @Nullable NodeFact getNode() {
    return node;
  }

  public void setNode(@Nullable NodeFact node) {
    this.node = node;
  }

  long gpuMilli() {
    return 1000L * wholeGpus + milli;
  }

  boolean allowedOn(NodeFact n) {
    return allowed.get(n.index);
  }

  boolean moved() {
    return origin != null && node != origin;
  }

  @Override
  public String toString() {
    return key + "->" + node;
  }
}
