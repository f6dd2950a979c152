package io.fleetkit.observability.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import org.junit.jupiter.api.Test;

final class MeteredObjectStoreTest {
  /** Sums per metric name and label values, e.g. {@code fleetkit_store_watchers{ConfigMap}}. */
  private final Map<String, DoubleAdder> values = new ConcurrentHashMap<>();
  private final MetricsRegistry registry = new MetricsRegistry() {
    private DoubleAdder cell(MetricDescriptor d, String... labels) {
      d.checkLabelValues(labels);
      return values.computeIfAbsent(d.name() + "{" + String.join(",", labels) + "}", k -> new DoubleAdder());
    }

    @Override
    public Counter counter(MetricDescriptor metric, String... labelValues) {
      DoubleAdder c = cell(metric, labelValues);
      return c::add;
    }

    @Override
    public Gauge gauge(MetricDescriptor metric, String... labelValues) {
      DoubleAdder c = cell(metric, labelValues);
      return new Gauge() {
        @Override
        public void set(double value) {
          c.reset();
          c.add(value);
        }

        @Override
        public void add(double delta) {
          c.add(delta);
        }
      };
    }

    @Override
    public Histogram histogram(MetricDescriptor metric, String... labelValues) {
      throw new AssertionError("the store records no histogram");
    }
  };

  private double value(String series) {
    DoubleAdder a = values.get(series);
    return a == null ? 0 : a.sum();
  }

  private static ConfigMap cm(String name) {
    return ConfigMap.of("ns", name, Map.of("k", "v"));
  }

  private static ConfigMap withValue(ConfigMap c, String v) {
    return ConfigMap.of("ns", c.metadata().name(), Map.of("k", v)).withMetadata(c.metadata());
  }

  @Test
  void requests_countedByOperationKindAndResult_casConflictsIncluded() {
    try (ObjectStore store = MeteredObjectStore.wrap(ObjectStore.builder().directDelivery().build(), registry)) {
      ConfigMap a = store.create(cm("a"));
      assertThatThrownBy(() -> store.create(cm("a"))).isInstanceOf(ConflictException.class);
      ConfigMap a2 = store.update(withValue(a, "w"));
      // a compare-and-swap from the stale copy loses
      assertThatThrownBy(() -> store.update(withValue(a, "x")))
          .isInstanceOf(ConflictException.class);
      assertThat(store.get(ConfigMap.class, "ns", "a")).contains(a2);
      assertThatThrownBy(() -> store.require(ConfigMap.class, "ns", "zz")).isInstanceOf(NotFoundException.class);
      assertThat(store.list(ConfigMap.class).items()).hasSize(1);
      store.delete(ConfigMap.class, "ns", "a");
      assertThatThrownBy(() -> store.delete(ConfigMap.class, "ns", "a")).isInstanceOf(NotFoundException.class);
    }
    String r = "fleetkit_store_requests_total";
    assertThat(value(r + "{create,ConfigMap,success}")).isEqualTo(1);
    assertThat(value(r + "{create,ConfigMap,conflict}")).isEqualTo(1);
    assertThat(value(r + "{update,ConfigMap,success}")).isEqualTo(1);
    assertThat(value(r + "{update,ConfigMap,conflict}")).isEqualTo(1);
    assertThat(value(r + "{get,ConfigMap,success}")).isEqualTo(1);
    assertThat(value(r + "{get,ConfigMap,not_found}")).isEqualTo(1);
    assertThat(value(r + "{list,ConfigMap,success}")).isEqualTo(1);
    assertThat(value(r + "{delete,ConfigMap,success}")).isEqualTo(1);
    assertThat(value(r + "{delete,ConfigMap,not_found}")).isEqualTo(1);
  }

  @Test
  void watch_countsDeliveredEventsByTypeAndOpenWatches() {
    List<WatchEvent<ConfigMap>> seen = new ArrayList<>();
    try (ObjectStore store = MeteredObjectStore.wrap(ObjectStore.builder().directDelivery().build(), registry)) {
      Watch w = store.watch(ConfigMap.class, "0", seen::add);
      Watch w2 = store.watch(ConfigMap.class, "0", e -> { });
      assertThat(value("fleetkit_store_watchers{ConfigMap}")).isEqualTo(2);
      ConfigMap a = store.create(cm("a"));
      store.update(withValue(a, "w"));
      store.delete(ConfigMap.class, "ns", "a");
      w2.close();
      w2.close(); // closing twice counts once
      assertThat(value("fleetkit_store_watchers{ConfigMap}")).isEqualTo(1);
      w.close();
      assertThat(w.isClosed()).isTrue();
    }
    assertThat(seen).extracting(e -> e.type().name()).containsExactly("ADDED", "MODIFIED", "DELETED");
    assertThat(value("fleetkit_store_watch_events_total{ConfigMap,ADDED}")).isEqualTo(2);
    assertThat(value("fleetkit_store_watch_events_total{ConfigMap,MODIFIED}")).isEqualTo(2);
    assertThat(value("fleetkit_store_watch_events_total{ConfigMap,DELETED}")).isEqualTo(2);
    assertThat(value("fleetkit_store_watchers{ConfigMap}")).isZero();
    assertThat(value("fleetkit_store_requests_total{watch,ConfigMap,success}")).isEqualTo(2);
  }

  @Test
  void wrap_noopRegistry_returnsTheStoreItself() {
    try (ObjectStore store = ObjectStore.inMemory()) {
      assertThat(MeteredObjectStore.wrap(store, MetricsRegistry.NOOP)).isSameAs(store);
    }
    assertThat(StoreMetrics.ALL).extracting(d -> d.name() + " " + d.labelNames()).containsExactly(
        "fleetkit_store_requests_total [operation, kind, result]",
        "fleetkit_store_watch_events_total [kind, type]",
        "fleetkit_store_watchers [kind]");
  }
}
