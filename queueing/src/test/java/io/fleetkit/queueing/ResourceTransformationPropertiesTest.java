package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of {@link ResourceTransformation#apply} over random requests and transformations (outputs possibly
 * negative, as allowances): nothing comes out negative; a resource no transformation reads or writes is kept as
 * requested; a retained input is at least what was requested; a replaced input that no output names is gone.
 */
final class ResourceTransformationPropertiesTest {
  private static final List<String> NAMES = List.of("example.com/a", "example.com/b", "example.com/c",
      "example.com/d", "example.com/e");

  record Input(ResourceList requests, List<ResourceTransformation> transformations) {}

  @Provide
  Arbitrary<Input> inputs() {
    Arbitrary<ResourceList> requests = Arbitraries.longs().between(0, 100_000).list().ofSize(NAMES.size())
        .map(vs -> {
          ResourceList.Builder b = ResourceList.builder();
          for (int i = 0; i < vs.size(); i++) {
            if (vs.get(i) % 3 != 0) {
              b.put(NAMES.get(i), Quantity.ofMilli(vs.get(i)));
            }
          }
          return b.build();
        });
    Arbitrary<ResourceTransformation> t = Combinators.combine(Arbitraries.of(NAMES),
        Arbitraries.of(ResourceTransformation.Strategy.values()), Arbitraries.of(NAMES),
        Arbitraries.longs().between(-5_000, 5_000), Arbitraries.of(NAMES), Arbitraries.integers().between(0, 2))
        .as((in, strategy, out, factor, mul, useMul) -> new ResourceTransformation(in, strategy,
            useMul == 0 && !mul.equals(in) ? mul : null,
            ResourceList.builder().put(out, Quantity.ofMilli(factor)).build()));
    Arbitrary<List<ResourceTransformation>> ts = t.list().ofMaxSize(3).map(list -> {
      List<ResourceTransformation> out = new ArrayList<>();
      Set<String> inputs = new HashSet<>();
      for (ResourceTransformation x : list) {
        if (inputs.add(x.input())) {
          out.add(x);
        }
      }
      return out;
    });
    return Combinators.combine(requests, ts).as(Input::new);
  }

  @Property(tries = 500)
  void apply_keepsWhatItMustAndNothingIsNegative(@ForAll("inputs") Input in) {
    ResourceList got = ResourceTransformation.apply(in.requests(), in.transformations());
    Set<String> touched = new HashSet<>();
    Set<String> outputs = new HashSet<>();
    for (ResourceTransformation t : in.transformations()) {
      touched.add(t.input());
      outputs.addAll(t.outputs().names());
    }
    touched.addAll(outputs);
    for (String r : got.names()) {
      assertThat(got.milliValue(r)).as("%s", r).isNotNegative();
    }
    for (String r : in.requests().names()) {
      if (!touched.contains(r)) {
        assertThat(got.milliValue(r)).as("untouched %s", r).isEqualTo(in.requests().milliValue(r));
      }
    }
    for (ResourceTransformation t : in.transformations()) {
      if (!in.requests().has(t.input())) {
        continue;
      }
      if (t.strategy() == ResourceTransformation.Strategy.RETAIN) {
        assertThat(got.milliValue(t.input())).as("retained %s", t.input())
            .isGreaterThanOrEqualTo(in.requests().milliValue(t.input()));
      } else if (!outputs.contains(t.input())) {
        assertThat(got.has(t.input())).as("replaced %s", t.input()).isFalse();
      }
    }
  }
}
