package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * How a resource a workload requests counts against quota (Kueue's Configuration {@code
 * resources.transformations}): each unit of {@code input} a pod requests also requests {@code outputs} (per unit, or
 * per unit times the pod's request of {@code multiplyBy}), and the input itself is kept ({@link Strategy#RETAIN}) or
 * not ({@link Strategy#REPLACE}). Only quota sees the result: a pod set's topology placement reads the pods' own
 * requests, as Kueue's does.
 *
 * <p>Validation: names are qualified names, not {@code pods} (the engine counts it), {@code multiplyBy} is not the
 * input. Outputs may be negative (an allowance): what the transformations of one pod produce under a name is summed
 * and then taken as at least zero. Products are in milli-units, rounded up, and saturate past the range of
 * milli-values.
 *
 * @param input the requested resource transformed
 * @param strategy whether the input is kept
 * @param multiplyBy a requested resource whose amount multiplies the input when computing the outputs, or {@code null}
 * @param outputs output per unit of input
 */
public record ResourceTransformation(String input, Strategy strategy, @Nullable String multiplyBy,
    ResourceList outputs) {
  /** Kueue's {@code ResourceTransformationStrategy}. */
  public enum Strategy {
    /** The input is counted too (Kueue's default). */
    RETAIN,
    /** Only the outputs are counted. */
    REPLACE
  }

  public ResourceTransformation {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(outputs, "outputs");
    Violations v = new Violations("Configuration", "", "resources.transformations");
    v.qualifiedName("input", input);
    if (input.equals(ResourceNames.PODS)) {
      v.add("input", "the resource is counted by the engine", input);
    }
    if (multiplyBy != null) {
      v.qualifiedName("multiplyBy", multiplyBy);
      if (multiplyBy.equals(input)) {
        v.add("multiplyBy", "must differ from input", multiplyBy);
      }
    }
    for (String o : outputs.names()) {
      v.qualifiedName("outputs", o);
      if (o.equals(ResourceNames.PODS)) {
        v.add("outputs", "the resource is counted by the engine", o);
      }
    }
    v.throwIfAny();
  }

  /** A {@link Strategy#RETAIN} transformation without {@code multiplyBy}. */
  public static ResourceTransformation retain(String input, ResourceList outputs) {
    return new ResourceTransformation(input, Strategy.RETAIN, null, outputs);
  }

  /** A {@link Strategy#REPLACE} transformation without {@code multiplyBy}. */
  public static ResourceTransformation replace(String input, ResourceList outputs) {
    return new ResourceTransformation(input, Strategy.REPLACE, null, outputs);
  }

  /**
   * Kueue's {@code applyResourceTransformations}: one pod's {@code requests} as quota counts them under {@code
   * transformations} (at most one per input); {@code requests} itself when none applies.
   */
  public static ResourceList apply(ResourceList requests, Collection<ResourceTransformation> transformations) {
    Map<String, ResourceTransformation> byInput = new HashMap<>();
    for (ResourceTransformation t : transformations) {
      byInput.put(t.input(), t);
    }
    boolean match = false;
    for (String r : requests.names()) {
      match |= byInput.containsKey(r);
    }
    if (!match) {
      return requests;
    }
    Map<String, Long> retained = new LinkedHashMap<>();
    Map<String, Long> generated = new TreeMap<>();
    for (String r : requests.names()) {
      long in = requests.milliValue(r);
      ResourceTransformation t = byInput.get(r);
      if (t == null) {
        retained.merge(r, in, Long::sum);
        continue;
      }
      long base = in;
      if (t.multiplyBy() != null && requests.has(t.multiplyBy())) {
        base = milliProduct(in, requests.milliValue(t.multiplyBy()));
      }
      for (String o : t.outputs().names()) {
        generated.merge(o, milliProduct(base, t.outputs().milliValue(o)), Long::sum);
      }
      if (t.strategy() == Strategy.RETAIN) {
        retained.merge(r, in, Long::sum);
      }
    }
    generated.replaceAll((k, x) -> Math.max(0, x));
    generated.forEach((k, x) -> retained.merge(k, x, Long::sum));
    ResourceList.Builder b = ResourceList.builder();
    retained.forEach((k, x) -> b.put(k, Quantity.ofMilli(x)));
    return b.build();
  }

  /**
   * {@code a x b} of two milli-values, in milli-units rounded up; a product past the range of milli-values saturates
   * (a quota it exceeds, rather than a wrapped value).
   */
  private static long milliProduct(long a, long b) {
    long p;
    try {
      p = Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      return (a < 0) == (b < 0) ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
    return -Math.floorDiv(-p, 1000L);
  }
}
