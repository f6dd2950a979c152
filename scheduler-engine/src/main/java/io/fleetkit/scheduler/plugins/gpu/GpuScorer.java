package io.fleetkit.scheduler.plugins.gpu;

/**
 * The scoring kernel of one GPU placement policy, written once and run by two hosts: the engine, where
 * {@link GpuPlugins} registers it as a score plugin named {@link GpuPolicy#pluginName()} (and Reserve asks it for a
 * share's device), and the trace replay of {@code fleetkit-lab}, which places the openb trace's pods with it one by
 * one. Both hosts call {@link #score} for every feasible node, then {@link #normalize} once, take the node with the
 * highest score, and ask {@link #shareDevice} which device a share gets there.
 *
 * <p>Ties on the highest normalised score are the host's: the engine picks one at random (seeded), the replay the
 * first in its node order. A policy whose choice must not depend on that (FGD's integer score ties on hundreds of
 * nodes) breaks them itself in {@link #normalize} by {@link Candidates#order}, the host's fixed node order.
 *
 * <p>Implementations are created per scheduler or per replay by their {@link GpuPolicy} constant, may keep caches,
 * and must be safe for the engine's parallel scoring (several threads calling {@link #score} at once).
 */
public interface GpuScorer {
  /** The nodes scored for one pod, as {@link #normalize} sees them. */
  interface Candidates {
    /** The number of nodes. */
    int size();

    /** Node {@code k} (computed on demand by the engine: ask only for the nodes you need). */
    NodeGpu node(int k);

    /** Node {@code k}'s rank in the host's fixed seeded node order, lower first; distinct per node. */
    long order(int k);
  }

  /** The raw score of {@code pod} on {@code node}, which is feasible for it; higher is better. */
  long score(GpuPod pod, NodeGpu node);

  /**
   * Rewrites {@code scores[0..nodes.size())} (the raw scores, in {@code nodes} order) into [0, 100] so that the
   * highest is the policy's choice. Nothing by default.
   */
  default void normalize(GpuPod pod, Candidates nodes, long[] scores) {}

  /**
   * The device a share pod gets on its chosen node {@code node}, or -1 for the default (the tightest fitting device
   * of an accepted model, lowest index on ties). -1 by default.
   */
  default int shareDevice(GpuPod pod, NodeGpu node) {
    return -1;
  }
}
