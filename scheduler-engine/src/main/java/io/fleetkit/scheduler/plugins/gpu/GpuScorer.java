package io.fleetkit.scheduler.plugins.gpu;

/**
 * The scoring kernel of one GPU placement policy, written once and run by two hosts: the engine, where
 * {@link GpuPlugins} registers it as a score plugin named {@link GpuPolicy#pluginName()} (and Reserve asks it for a
 * share's device), and the trace replay of {@code fleetkit-lab}, which places the openb trace's pods with it one by
 * one. Both hosts call {@link #preFilter} once per pod (and {@link #admits} per feasible node when it asks so), then
 * {@link #score} for every feasible node that admits the pod, then {@link #normalize} once, take the node with the
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

  /**
   * Called once per scheduling attempt of {@code pod}, before any node is filtered, with every node of the cluster
   * (feasible or not): a policy that holds capacity for other pods decides here whether that applies to the pod, from
   * the pods it has seen and the cluster. Returns whether the host must ask {@link #admits} for the pod's feasible
   * nodes; false (the default, without looking at the nodes) admits every feasible node.
   */
  default boolean preFilter(GpuPod pod, Candidates cluster) {
    return false;
  }

  /**
   * Whether the policy lets {@code pod} onto {@code node}, where it fits, after {@link #preFilter} returned true for
   * the same pod: false keeps it off the node as a filter does (capacity held for other pods), and a pod no node
   * admits is unschedulable, as any pod no node fits. May be called from several threads at once. True by default.
   */
  default boolean admits(GpuPod pod, NodeGpu node) {
    return true;
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
