/**
 * The InterPodAffinity plugin ({@link io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityPlugin}, created
 * by its {@code FACTORY}), after kube-scheduler's {@code pkg/scheduler/framework/plugins/interpodaffinity}: required
 * pod affinity and anti-affinity (with the existing pods' anti-affinity checked symmetrically) in PreFilter/Filter,
 * preferred terms and the symmetric contributions of existing pods in PreScore/Score. Configured by
 * {@link io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityArgs}, which also carries the namespace-labels
 * lookup that {@code namespaceSelector} needs ({@link io.fleetkit.scheduler.plugins.interpodaffinity.NamespaceLookups}
 * reads the Namespaces of a store).
 *
 * <p>Performance: PreFilter counts matches per topology pair once per pod, Filter is a few lookups per node; terms
 * keyed by {@code kubernetes.io/hostname} are checked against the node's own pods instead (upstream's hostname fast
 * path); a per-plugin memo of which nodes hold pods with relevant terms, validated by node view and generation,
 * spares PreFilter and PreScore the walk over every such pod each cycle; the memo's change log feeds running
 * per-topology-pair counts of the pods matching an incoming pod's required terms ({@code MatchIndex}) and running
 * score sums of existing pods' terms ({@code ScoreIndex}), keyed by what decides matching, so a cycle recounts only
 * the nodes that changed since the previous one; compiled terms are cached per pod object.
 *
 * <p>Threading: Filter and Score only read the per-cycle state written by PreFilter and PreScore and may run on many
 * threads at once; the memo is guarded by its monitor and the term cache is concurrent.
 */
@NullMarked
package io.fleetkit.scheduler.plugins.interpodaffinity;

import org.jspecify.annotations.NullMarked;
