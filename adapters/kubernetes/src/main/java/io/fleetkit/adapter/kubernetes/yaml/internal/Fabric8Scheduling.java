package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.NodeAffinityBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.PodAffinityBuilder;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodAntiAffinityBuilder;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTermBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTermBuilder;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.PreferredSchedulingTerm;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import io.fleetkit.api.scheduling.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** Taints, tolerations, node selectors, affinity and topology spread constraints both ways. */
public final class Fabric8Scheduling {
  private Fabric8Scheduling() {}

  /** Converts each element of {@code in}; elements that fail (reported) are left out. */
  public static <F, C> List<C> list(@Nullable List<F> in, String path, DocumentContext ctx,
      TriFunction<F, String, DocumentContext, @Nullable C> convert) {
    if (in == null) {
      return List.of();
    }
    List<C> out = new ArrayList<>(in.size());
    for (int i = 0; i < in.size(); i++) {
      F f = in.get(i);
      String p = path + "[" + i + "]";
      if (f == null) {
        ctx.error(p, "must not be null", null);
        continue;
      }
      C c = convert.apply(f, p, ctx);
      if (c != null) {
        out.add(c);
      }
    }
    return out;
  }

  /** Maps each element of a core list to fabric8; {@code null} for an empty list. */
  public static <C, F> @Nullable List<F> out(List<C> in, Function<C, F> convert) {
    if (in.isEmpty()) {
      return null;
    }
    List<F> out = new ArrayList<>(in.size());
    for (C c : in) {
      out.add(convert.apply(c));
    }
    return out;
  }

  /** A conversion of one element at a path. */
  @FunctionalInterface
  public interface TriFunction<A, B, C, R> {
    R apply(A a, B b, C c);
  }

  // ---- taints and tolerations

  public static @Nullable Taint taint(io.fabric8.kubernetes.api.model.Taint t, String p, DocumentContext ctx) {
    String key = Values.required(t.getKey(), p + ".key", ctx);
    TaintEffect effect = Values.requiredEnum(TaintEffect.class, t.getEffect(), p + ".effect", ctx);
    var added = Values.instant(t.getTimeAdded(), p + ".timeAdded", ctx);
    if (effect == null || key.isEmpty()) {
      return null;
    }
    return ctx.build(p, () -> new Taint(key, Values.orEmpty(t.getValue()), effect, added));
  }

  public static io.fabric8.kubernetes.api.model.Taint taint(Taint t) {
    return new TaintBuilder().withKey(t.key()).withValue(Values.emptyToNull(t.value()))
        .withEffect(t.effect().name()).withTimeAdded(Values.instant(t.timeAdded())).build();
  }

  public static @Nullable Toleration toleration(io.fabric8.kubernetes.api.model.Toleration t, String p,
      DocumentContext ctx) {
    TolerationOperator op = Values.enumValue(TolerationOperator.class, t.getOperator(), TolerationOperator.Equal,
        p + ".operator", ctx);
    TaintEffect effect = Values.enumValue(TaintEffect.class, t.getEffect(), null, p + ".effect", ctx);
    if (op == null) {
      return null;
    }
    return ctx.build(p, () -> new Toleration(Values.orEmpty(t.getKey()), op, Values.orEmpty(t.getValue()), effect,
        t.getTolerationSeconds()));
  }

  public static io.fabric8.kubernetes.api.model.Toleration toleration(Toleration t) {
    return new TolerationBuilder().withKey(Values.emptyToNull(t.key())).withOperator(t.operator().name())
        .withValue(Values.emptyToNull(t.value())).withEffect(Values.name(t.effect()))
        .withTolerationSeconds(t.tolerationSeconds()).build();
  }

  // ---- node selectors and node affinity

  public static @Nullable NodeSelectorRequirement nodeSelectorRequirement(
      io.fabric8.kubernetes.api.model.NodeSelectorRequirement r, String p, DocumentContext ctx) {
    String key = Values.required(r.getKey(), p + ".key", ctx);
    NodeSelectorOperator op = Values.requiredEnum(NodeSelectorOperator.class, r.getOperator(), p + ".operator", ctx);
    List<String> values = Values.stringList(r.getValues(), p + ".values", ctx);
    return op == null ? null : ctx.build(p, () -> new NodeSelectorRequirement(key, op, values));
  }

  public static io.fabric8.kubernetes.api.model.NodeSelectorRequirement nodeSelectorRequirement(
      NodeSelectorRequirement r) {
    return new NodeSelectorRequirementBuilder().withKey(r.key()).withOperator(r.operator().name())
        .withValues(Values.emptyToNull(r.values())).build();
  }

  public static @Nullable NodeSelectorTerm nodeSelectorTerm(io.fabric8.kubernetes.api.model.NodeSelectorTerm t,
      String p, DocumentContext ctx) {
    List<NodeSelectorRequirement> exprs = list(t.getMatchExpressions(), p + ".matchExpressions", ctx,
        Fabric8Scheduling::nodeSelectorRequirement);
    List<NodeSelectorRequirement> fields = list(t.getMatchFields(), p + ".matchFields", ctx,
        Fabric8Scheduling::nodeSelectorRequirement);
    return ctx.build(p, () -> new NodeSelectorTerm(exprs, fields));
  }

  public static io.fabric8.kubernetes.api.model.NodeSelectorTerm nodeSelectorTerm(NodeSelectorTerm t) {
    return new NodeSelectorTermBuilder()
        .withMatchExpressions(out(t.matchExpressions(), Fabric8Scheduling::nodeSelectorRequirement))
        .withMatchFields(out(t.matchFields(), Fabric8Scheduling::nodeSelectorRequirement)).build();
  }

  public static @Nullable NodeSelector nodeSelector(io.fabric8.kubernetes.api.model.@Nullable NodeSelector s,
      String p, DocumentContext ctx) {
    if (s == null) {
      return null;
    }
    List<NodeSelectorTerm> terms = list(s.getNodeSelectorTerms(), p + ".nodeSelectorTerms", ctx,
        Fabric8Scheduling::nodeSelectorTerm);
    return ctx.build(p, () -> new NodeSelector(terms));
  }

  public static io.fabric8.kubernetes.api.model.@Nullable NodeSelector nodeSelector(@Nullable NodeSelector s) {
    return s == null ? null : new NodeSelectorBuilder()
        .withNodeSelectorTerms(out(s.nodeSelectorTerms(), Fabric8Scheduling::nodeSelectorTerm)).build();
  }

  private static @Nullable PreferredSchedulingTerm preferredTerm(
      io.fabric8.kubernetes.api.model.PreferredSchedulingTerm t, String p, DocumentContext ctx) {
    if (t.getPreference() == null) {
      ctx.error(p + ".preference", "is required", null);
      return null;
    }
    int weight = weight(t.getWeight(), p, ctx);
    NodeSelectorTerm pref = nodeSelectorTerm(t.getPreference(), p + ".preference", ctx);
    return pref == null ? null : ctx.build(p, () -> new PreferredSchedulingTerm(weight, pref));
  }

  private static int weight(@Nullable Integer w, String p, DocumentContext ctx) {
    if (w == null || w < 1 || w > 100) {
      ctx.error(p + ".weight", "must be in the range 1-100", w);
      return 1;
    }
    return w;
  }

  // ---- pod affinity

  private static @Nullable PodAffinityTerm podAffinityTerm(io.fabric8.kubernetes.api.model.PodAffinityTerm t,
      String p, DocumentContext ctx) {
    var selector = Fabric8Selectors.toCore(t.getLabelSelector(), p + ".labelSelector", ctx);
    var nsSelector = Fabric8Selectors.toCore(t.getNamespaceSelector(), p + ".namespaceSelector", ctx);
    String topologyKey = Values.required(t.getTopologyKey(), p + ".topologyKey", ctx);
    return ctx.build(p, () -> new PodAffinityTerm(selector, Values.stringList(t.getNamespaces(), p + ".namespaces",
        ctx), topologyKey, nsSelector, Values.stringList(t.getMatchLabelKeys(), p + ".matchLabelKeys", ctx),
        Values.stringList(t.getMismatchLabelKeys(), p + ".mismatchLabelKeys", ctx)));
  }

  private static io.fabric8.kubernetes.api.model.PodAffinityTerm podAffinityTerm(PodAffinityTerm t) {
    return new PodAffinityTermBuilder().withLabelSelector(Fabric8Selectors.toFabric8(t.labelSelector()))
        .withNamespaces(Values.emptyToNull(t.namespaces())).withTopologyKey(t.topologyKey())
        .withNamespaceSelector(Fabric8Selectors.toFabric8(t.namespaceSelector()))
        .withMatchLabelKeys(Values.emptyToNull(t.matchLabelKeys()))
        .withMismatchLabelKeys(Values.emptyToNull(t.mismatchLabelKeys())).build();
  }

  private static @Nullable WeightedPodAffinityTerm weightedTerm(
      io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm t, String p, DocumentContext ctx) {
    if (t.getPodAffinityTerm() == null) {
      ctx.error(p + ".podAffinityTerm", "is required", null);
      return null;
    }
    int weight = weight(t.getWeight(), p, ctx);
    PodAffinityTerm term = podAffinityTerm(t.getPodAffinityTerm(), p + ".podAffinityTerm", ctx);
    return term == null ? null : ctx.build(p, () -> new WeightedPodAffinityTerm(weight, term));
  }

  private static io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm weightedTerm(WeightedPodAffinityTerm t) {
    return new WeightedPodAffinityTermBuilder().withWeight(t.weight())
        .withPodAffinityTerm(podAffinityTerm(t.podAffinityTerm())).build();
  }

  private static @Nullable PodAffinity podAffinity(
      @Nullable List<io.fabric8.kubernetes.api.model.PodAffinityTerm> required,
      @Nullable List<io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm> preferred, String p,
      DocumentContext ctx) {
    List<PodAffinityTerm> req = list(required, p + ".requiredDuringSchedulingIgnoredDuringExecution", ctx,
        Fabric8Scheduling::podAffinityTerm);
    List<WeightedPodAffinityTerm> pref = list(preferred, p + ".preferredDuringSchedulingIgnoredDuringExecution",
        ctx, Fabric8Scheduling::weightedTerm);
    return ctx.build(p, () -> new PodAffinity(req, pref));
  }

  // ---- affinity

  public static @Nullable Affinity affinity(io.fabric8.kubernetes.api.model.@Nullable Affinity a, String p,
      DocumentContext ctx) {
    if (a == null) {
      return null;
    }
    NodeAffinity nodeAffinity = null;
    if (a.getNodeAffinity() != null) {
      var na = a.getNodeAffinity();
      String np = p + ".nodeAffinity";
      NodeSelector required = nodeSelector(na.getRequiredDuringSchedulingIgnoredDuringExecution(),
          np + ".requiredDuringSchedulingIgnoredDuringExecution", ctx);
      List<PreferredSchedulingTerm> preferred = list(na.getPreferredDuringSchedulingIgnoredDuringExecution(),
          np + ".preferredDuringSchedulingIgnoredDuringExecution", ctx, Fabric8Scheduling::preferredTerm);
      nodeAffinity = ctx.build(np, () -> new NodeAffinity(required, preferred));
    }
    PodAffinity podAffinity = a.getPodAffinity() == null ? null : podAffinity(
        a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
        a.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(), p + ".podAffinity", ctx);
    PodAffinity podAntiAffinity = a.getPodAntiAffinity() == null ? null : podAffinity(
        a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
        a.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(), p + ".podAntiAffinity", ctx);
    NodeAffinity na = nodeAffinity;
    return ctx.build(p, () -> new Affinity(na, podAffinity, podAntiAffinity));
  }

  public static io.fabric8.kubernetes.api.model.@Nullable Affinity affinity(@Nullable Affinity a) {
    if (a == null) {
      return null;
    }
    AffinityBuilder b = new AffinityBuilder();
    if (a.nodeAffinity() != null) {
      NodeAffinity na = a.nodeAffinity();
      b.withNodeAffinity(new NodeAffinityBuilder()
          .withRequiredDuringSchedulingIgnoredDuringExecution(nodeSelector(
              na.requiredDuringSchedulingIgnoredDuringExecution()))
          .withPreferredDuringSchedulingIgnoredDuringExecution(out(
              na.preferredDuringSchedulingIgnoredDuringExecution(), t -> new PreferredSchedulingTermBuilder()
                  .withWeight(t.weight()).withPreference(nodeSelectorTerm(t.preference())).build()))
          .build());
    }
    if (a.podAffinity() != null) {
      PodAffinity pa = a.podAffinity();
      b.withPodAffinity(new PodAffinityBuilder()
          .withRequiredDuringSchedulingIgnoredDuringExecution(out(pa.requiredDuringSchedulingIgnoredDuringExecution(),
              Fabric8Scheduling::podAffinityTerm))
          .withPreferredDuringSchedulingIgnoredDuringExecution(out(
              pa.preferredDuringSchedulingIgnoredDuringExecution(), Fabric8Scheduling::weightedTerm))
          .build());
    }
    if (a.podAntiAffinity() != null) {
      PodAffinity pa = a.podAntiAffinity();
      b.withPodAntiAffinity(new PodAntiAffinityBuilder()
          .withRequiredDuringSchedulingIgnoredDuringExecution(out(pa.requiredDuringSchedulingIgnoredDuringExecution(),
              Fabric8Scheduling::podAffinityTerm))
          .withPreferredDuringSchedulingIgnoredDuringExecution(out(
              pa.preferredDuringSchedulingIgnoredDuringExecution(), Fabric8Scheduling::weightedTerm))
          .build());
    }
    return b.build();
  }

  // ---- topology spread

  public static @Nullable TopologySpreadConstraint topologySpread(
      io.fabric8.kubernetes.api.model.TopologySpreadConstraint c, String p, DocumentContext ctx) {
    if (c.getMaxSkew() == null || c.getMaxSkew() < 1) {
      ctx.error(p + ".maxSkew", "must be greater than 0", c.getMaxSkew());
    }
    if (c.getMinDomains() != null && c.getMinDomains() < 1) {
      ctx.error(p + ".minDomains", "must be greater than 0", c.getMinDomains());
    }
    String key = Values.required(c.getTopologyKey(), p + ".topologyKey", ctx);
    var action = Values.requiredEnum(UnsatisfiableConstraintAction.class, c.getWhenUnsatisfiable(),
        p + ".whenUnsatisfiable", ctx);
    var affinityPolicy = Values.enumValue(NodeInclusionPolicy.class, c.getNodeAffinityPolicy(),
        NodeInclusionPolicy.Honor, p + ".nodeAffinityPolicy", ctx);
    var taintsPolicy = Values.enumValue(NodeInclusionPolicy.class, c.getNodeTaintsPolicy(),
        NodeInclusionPolicy.Ignore, p + ".nodeTaintsPolicy", ctx);
    var selector = Fabric8Selectors.toCore(c.getLabelSelector(), p + ".labelSelector", ctx);
    List<String> keys = Values.stringList(c.getMatchLabelKeys(), p + ".matchLabelKeys", ctx);
    if (action == null || c.getMaxSkew() == null) {
      return null;
    }
    return ctx.build(p, () -> new TopologySpreadConstraint(c.getMaxSkew(), key, action, selector, c.getMinDomains(),
        affinityPolicy, taintsPolicy, keys));
  }

  public static io.fabric8.kubernetes.api.model.TopologySpreadConstraint topologySpread(TopologySpreadConstraint c) {
    return new TopologySpreadConstraintBuilder().withMaxSkew(c.maxSkew()).withTopologyKey(c.topologyKey())
        .withWhenUnsatisfiable(c.whenUnsatisfiable().name())
        .withLabelSelector(Fabric8Selectors.toFabric8(c.labelSelector())).withMinDomains(c.minDomains())
        .withNodeAffinityPolicy(c.nodeAffinityPolicy() == NodeInclusionPolicy.Honor ? null
            : c.nodeAffinityPolicy().name())
        .withNodeTaintsPolicy(c.nodeTaintsPolicy() == NodeInclusionPolicy.Ignore ? null
            : c.nodeTaintsPolicy().name())
        .withMatchLabelKeys(Values.emptyToNull(c.matchLabelKeys())).build();
  }

}
