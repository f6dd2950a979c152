package io.fleetkit.api.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class ResourceListTest {

  private static final String GPU = ResourceNames.NVIDIA_GPU;
  private static final String GPU_MILLI = "fleetkit.io/gpu-milli";
  private static final String HUGEPAGES = "hugepages-2Mi";

  private static ResourceList list(String... pairs) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < pairs.length; i += 2) {
      b.put(pairs[i], pairs[i + 1]);
    }
    return b.build();
  }

  // kubernetes pkg/api/v1/resource/helpers_test.go TestResourceHelpers: the cpu and memory of a list, zero when absent.
  @Test
  void cpuAndMemory_upstreamResourceHelpersCase() {
    ResourceList both = ResourceList.builder().put("cpu", "10").put("memory", "10G").build();
    assertThat(both.milliCpu()).isEqualTo(10_000);
    assertThat(both.memoryBytes()).isEqualTo(10_000_000_000L);
    ResourceList memoryOnly = ResourceList.builder().put("memory", "10G").build();
    assertThat(memoryOnly.milliCpu()).isZero();
    assertThat(memoryOnly.memoryBytes()).isEqualTo(10_000_000_000L);
  }

  @Test
  void empty_hasNothing() {
    assertThat(ResourceList.EMPTY.isEmpty()).isTrue();
    assertThat(ResourceList.EMPTY.size()).isZero();
    assertThat(ResourceList.EMPTY.get("cpu")).isEqualTo(Quantity.ZERO);
    assertThat(ResourceList.EMPTY.has("cpu")).isFalse();
    assertThat(ResourceList.EMPTY.asMap()).isEmpty();
    assertThat(ResourceList.EMPTY.toString()).isEqualTo("{}");
    assertThat(ResourceList.builder().build()).isSameAs(ResourceList.EMPTY);
  }

  @Test
  void builder_standardResources_heldAsPrimitives() {
    ResourceList r = list("cpu", "1500m", "memory", "1Gi", "ephemeral-storage", "10G", "pods", "110");

    assertThat(r.milliCpu()).isEqualTo(1500);
    assertThat(r.memoryBytes()).isEqualTo(1L << 30);
    assertThat(r.ephemeralStorageBytes()).isEqualTo(10_000_000_000L);
    assertThat(r.pods()).isEqualTo(110);
    assertThat(r.size()).isEqualTo(4);
    assertThat(r.isEmpty()).isFalse();
  }

  @Test
  void get_standardResource_keepsFormatAndValue() {
    ResourceList r = list("cpu", "1.5", "memory", "1Gi", "ephemeral-storage", "10G");

    assertThat(r.get("cpu").toString()).isEqualTo("1500m");
    assertThat(r.get("memory").toString()).isEqualTo("1Gi");
    assertThat(r.get("memory").format()).isEqualTo(Quantity.Format.BINARY_SI);
    assertThat(r.get("ephemeral-storage").toString()).isEqualTo("10G");
    assertThat(r.get("pods")).isEqualTo(Quantity.ZERO);
  }

  @Test
  void builder_finerThanHeldPrecision_roundsAwayFromZero() {
    ResourceList r = list("cpu", "100u", "memory", "0.5");

    assertThat(r.milliCpu()).isEqualTo(1);
    assertThat(r.get("cpu")).isEqualTo(Quantity.parse("1m"));
    assertThat(r.memoryBytes()).isEqualTo(1);
  }

  @Test
  void extendedResources_keptExactlyAndSorted() {
    ResourceList r = list(GPU, "2", GPU_MILLI, "500", HUGEPAGES, "4Mi", "example.com/fraction", "250m");

    assertThat(r.get(GPU)).isEqualTo(Quantity.of(2));
    assertThat(r.get("example.com/fraction").toString()).isEqualTo("250m");
    assertThat(r.milliValue("example.com/fraction")).isEqualTo(250);
    assertThat(r.value("example.com/fraction")).isEqualTo(1);
    assertThat(r.value(HUGEPAGES)).isEqualTo(4L << 20);
    assertThat(r.names()).containsExactly("example.com/fraction", GPU_MILLI, HUGEPAGES, GPU);
    assertThat(r.has(GPU)).isTrue();
    assertThat(r.has("amd.com/gpu")).isFalse();
    assertThat(r.get("amd.com/gpu")).isEqualTo(Quantity.ZERO);
  }

  @Test
  void milliValueAndValue_standardResources_convertUnits() {
    ResourceList r = list("cpu", "1500m", "memory", "2Ki", "pods", "3");

    assertThat(r.milliValue("cpu")).isEqualTo(1500);
    assertThat(r.value("cpu")).isEqualTo(2);
    assertThat(r.milliValue("memory")).isEqualTo(2048_000);
    assertThat(r.value("memory")).isEqualTo(2048);
    assertThat(r.value("pods")).isEqualTo(3);
    assertThat(r.milliValue("ephemeral-storage")).isZero();
    assertThat(r.value("nope")).isZero();
    assertThat(list("cpu", "-1500m").value("cpu")).isEqualTo(-2);
    assertThat(list("memory", "8Ei").milliValue("memory")).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void asMap_sortedByNameAndUnmodifiable() {
    ResourceList r = list("pods", "1", GPU, "1", "cpu", "1", "memory", "1Mi");

    assertThat(r.asMap().keySet()).containsExactly("cpu", "memory", GPU, "pods");
    assertThat(r.toString()).isEqualTo("{cpu=1, memory=1Mi, nvidia.com/gpu=1, pods=1}");
    assertThatThrownBy(() -> r.asMap().put("x", Quantity.ZERO)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void of_map_equalsBuilt() {
    Map<String, Quantity> m = new LinkedHashMap<>();
    m.put("memory", Quantity.parse("1Gi"));
    m.put("cpu", Quantity.parse("250m"));
    m.put(GPU, Quantity.of(1));

    ResourceList r = ResourceList.of(m);

    assertThat(r).isEqualTo(list("cpu", "250m", "memory", "1Gi", GPU, "1"));
    assertThat(r.asMap()).isEqualTo(m);
  }

  @Test
  void ofCpuMemory_setsBoth() {
    ResourceList r = ResourceList.ofCpuMemory(250, 1L << 30);

    assertThat(r).isEqualTo(list("cpu", "250m", "memory", "1Gi"));
    assertThat(r.get("memory").toString()).isEqualTo("1Gi");
  }

  @Test
  void equals_sameNumericValuesDifferentFormats_equal() {
    ResourceList a = list("cpu", "1", "memory", "1Ki", GPU, "1");
    ResourceList b = list("cpu", "1000m", "memory", "1024", GPU, "1000m");

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(list("cpu", "1", "memory", "1Ki"));
    assertThat(list("cpu", "0")).isNotEqualTo(ResourceList.EMPTY);
  }

  @Test
  void builder_sameNameTwice_failsNamingOldValue() {
    assertThatThrownBy(() -> ResourceList.builder().put("cpu", "1").put("cpu", "2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cpu")
        .hasMessageContaining("1");
    assertThatThrownBy(() -> ResourceList.builder().put(GPU, "1").put(GPU, "2"))
        .hasMessage("resource nvidia.com/gpu was already set to 1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "cpu ", "nvidia.com/ gpu", "a\tb"})
  void builder_invalidName_fails(String name) {
    assertThatThrownBy(() -> ResourceList.builder().put(name, "1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resource name \"" + name + "\"");
  }

  @Test
  void builder_badQuantity_failsNamingResourceAndInput() {
    assertThatThrownBy(() -> ResourceList.builder().put("cpu", "1x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resource cpu")
        .hasMessageContaining("\"1x\"");
  }

  @Test
  void add_unionOfResources_sums() {
    ResourceList a = list("cpu", "500m", "memory", "1Gi", GPU, "1");
    ResourceList b = list("cpu", "1500m", "pods", "1", GPU, "2", HUGEPAGES, "2Mi");

    ResourceList sum = a.add(b);

    assertThat(sum).isEqualTo(list("cpu", "2", "memory", "1Gi", "pods", "1", GPU, "3", HUGEPAGES, "2Mi"));
    assertThat(sum.get("memory").toString()).isEqualTo("1Gi");
    assertThat(a.add(ResourceList.EMPTY)).isSameAs(a);
    assertThat(ResourceList.EMPTY.add(a)).isSameAs(a);
  }

  @Test
  void subtract_resourceOnlyInOther_appearsNegated() {
    ResourceList capacity = list("cpu", "4", "memory", "8Gi", GPU, "2");
    ResourceList used = list("cpu", "1500m", "memory", "1Gi", GPU, "2", HUGEPAGES, "2Mi");

    ResourceList free = capacity.subtract(used);

    assertThat(free.milliCpu()).isEqualTo(2500);
    assertThat(free.memoryBytes()).isEqualTo(7L << 30);
    assertThat(free.get(GPU).isZero()).isTrue();
    assertThat(free.has(GPU)).isTrue();
    assertThat(free.get(HUGEPAGES)).isEqualTo(Quantity.parse("-2Mi"));
    assertThat(ResourceList.EMPTY.subtract(list("cpu", "1")).milliCpu()).isEqualTo(-1000);
  }

  @Test
  void max_perResource_keepsLarger() {
    ResourceList a = list("cpu", "2", "memory", "1Gi", GPU, "1");
    ResourceList b = list("cpu", "500m", "memory", "2Gi", "pods", "3", GPU, "4");

    assertThat(a.max(b)).isEqualTo(list("cpu", "2", "memory", "2Gi", "pods", "3", GPU, "4"));
    assertThat(b.max(a)).isEqualTo(a.max(b));
  }

  @Test
  void add_nearLongLimits_saturates() {
    ResourceList huge = ResourceList.ofCpuMemory(Long.MAX_VALUE - 1, Long.MAX_VALUE);

    ResourceList sum = huge.add(huge);

    assertThat(sum.milliCpu()).isEqualTo(Long.MAX_VALUE);
    assertThat(sum.memoryBytes()).isEqualTo(Long.MAX_VALUE);
    assertThat(ResourceList.ofCpuMemory(Long.MIN_VALUE, 0).subtract(huge).milliCpu()).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void fitsIn_everyRequestedResourceAvailable_true() {
    ResourceList request = list("cpu", "500m", "memory", "1Gi", GPU, "1");
    ResourceList capacity = list("cpu", "500m", "memory", "2Gi", "pods", "110", GPU, "1");

    assertThat(request.fitsIn(capacity)).isTrue();
    assertThat(request.insufficient(capacity)).isEmpty();
  }

  @Test
  void fitsIn_resourceShortOrMissing_falseAndNamed() {
    ResourceList request = list("cpu", "501m", "memory", "1Gi", "ephemeral-storage", "1", GPU, "1", HUGEPAGES, "2Mi");
    ResourceList free = list("cpu", "500m", "memory", "2Gi", "ephemeral-storage", "1", GPU, "0");

    assertThat(request.fitsIn(free)).isFalse();
    assertThat(request.insufficient(free)).containsExactly("cpu", HUGEPAGES, GPU);
  }

  @Test
  void fitsIn_zeroOrNegativeRequest_alwaysFits() {
    ResourceList request = list("cpu", "0", "memory", "-1", GPU, "0");

    assertThat(request.fitsIn(ResourceList.EMPTY)).isTrue();
    assertThat(request.insufficient(ResourceList.EMPTY)).isEmpty();
    assertThat(ResourceList.EMPTY.fitsIn(ResourceList.EMPTY)).isTrue();
  }

  @Test
  void fitsIn_fractionalExtendedResource_comparedExactly() {
    ResourceList request = list("example.com/share", "1500m");

    assertThat(request.fitsIn(list("example.com/share", "1.5"))).isTrue();
    assertThat(request.fitsIn(list("example.com/share", "1499m"))).isFalse();
  }

  @Test
  void fitsIn_pods_checked() {
    assertThat(list("pods", "1").fitsIn(list("pods", "0"))).isFalse();
    assertThat(list("pods", "1").insufficient(ResourceList.EMPTY)).isEqualTo(List.of("pods"));
  }

  // Properties

  @Provide
  Arbitrary<ResourceList> lists() {
    Arbitrary<String> names = Arbitraries.of("cpu", "memory", "ephemeral-storage", "pods", GPU, GPU_MILLI, HUGEPAGES);
    Arbitrary<Quantity> quantities = Arbitraries.longs().between(-1_000_000_000L, 1_000_000_000L)
        .map(Quantity::ofMilli);
    return Arbitraries.maps(names, quantities).ofMaxSize(7).map(ResourceList::of);
  }

  @Property
  void subtract_thenAdd_restoresValues(@ForAll("lists") ResourceList a, @ForAll("lists") ResourceList b) {
    ResourceList back = a.subtract(b).add(b);

    for (String name : a.names()) {
      assertThat(back.milliValue(name)).isEqualTo(a.milliValue(name));
    }
    for (String name : b.names()) {
      if (!a.has(name)) {
        assertThat(back.get(name).isZero()).isTrue();
      }
    }
  }

  @Property
  void fitsIn_agreesWithInsufficient(@ForAll("lists") ResourceList request, @ForAll("lists") ResourceList free) {
    assertThat(request.fitsIn(free)).isEqualTo(request.insufficient(free).isEmpty());
    for (String name : request.insufficient(free)) {
      assertThat(request.get(name).compareTo(free.get(name))).isPositive();
    }
  }

  @Property
  void max_isCommutativeAndDominates(@ForAll("lists") ResourceList a, @ForAll("lists") ResourceList b) {
    ResourceList m = a.max(b);

    assertThat(m).isEqualTo(b.max(a));
    for (String name : a.names()) {
      assertThat(m.get(name).compareTo(a.get(name))).isGreaterThanOrEqualTo(0);
    }
  }

  @Property
  void of_asMap_roundTrips(@ForAll("lists") ResourceList r) {
    assertThat(ResourceList.of(r.asMap())).isEqualTo(r).hasSameHashCodeAs(r);
  }

  @Test
  void forEach_visitsEveryResourceInNameOrder_asAsMap() {
    ResourceList l = list("pods", "3", "memory", "1Gi", "cpu", "500m", "a.example/x", "1", "example.com/dev", "2",
        "nvidia.com/gpu", "4", "requests.cpu", "1", "ephemeral-storage", "1Ki");
    Map<String, Quantity> seen = new LinkedHashMap<>();
    l.forEach(seen::put);
    assertThat(List.copyOf(seen.keySet())).containsExactlyElementsOf(l.asMap().keySet());
    assertThat(seen).isEqualTo(l.asMap());
    assertThat(seen.get("memory")).hasToString("1Gi");
    ResourceList.EMPTY.forEach((k, v) -> {
      throw new AssertionError(k);
    });
  }
}
