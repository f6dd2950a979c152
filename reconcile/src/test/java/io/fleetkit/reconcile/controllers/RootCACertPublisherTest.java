package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The root CA certificate publisher in stepping mode against the in-memory store, with the table cases of kubernetes
 * {@code pkg/controller/certificates/rootcacertpublisher/publisher_test.go}: TestConfigMapCreation (7 cases) and
 * TestConfigMapUpdateNoHotLoop (3 cases), as data. Upstream records its fake client's actions; here the store's
 * ConfigMap watch records the controller's writes ({@code create}, {@code update}, {@code delete} and the object's
 * {@code namespace/name}) from the moment the case's own event has happened. Upstream's TestConfigMapCreation compares
 * the actions with a condition that can never fail (it errors when they are deep-equal, and they are of different
 * types); here they are compared, and every create or update is also checked to leave the bundle and the description.
 */
final class RootCACertPublisherTest {
  private static final String ROOT_CA = "fake-root-ca";
  private static final String NAME = RootCACertPublisher.CONFIG_MAP_NAME;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-02T09:30:00Z"));

  /** {@code defaultCrtConfigMapPtr}: the ConfigMap in {@code default} with {@code ca.crt} only, no annotation. */
  private static ConfigMap crtConfigMap(String rootCA, Map<String, String> extra) {
    Map<String, String> data = new java.util.TreeMap<>(extra);
    data.put("ca.crt", rootCA);
    return new ConfigMap(ObjectMeta.of("default", NAME), data, Map.of(), false);
  }

  private static ConfigMap other(Map<String, String> data) {
    return ConfigMap.of("default", "other", data);
  }

  private RootCACertPublisher publisher(ObjectStore store, String rootCA) {
    RootCACertPublisher p = RootCACertPublisher.builder(store, rootCA).clock(clock).stepping().build();
    p.start().join();
    return p;
  }

  /** Records the store's ConfigMap writes from now on. */
  private static Watch record(ObjectStore store, List<String> actions) {
    return store.watch(ConfigMap.class, store.list(ConfigMap.class).resourceVersion(), e -> actions.add(
        switch (e.type()) {
          case ADDED -> "create";
          case MODIFIED -> "update";
          case DELETED -> "delete";
        } + " " + e.object().metadata().namespace() + "/" + e.object().metadata().name()));
  }

  /**
   * One TestConfigMapCreation case: the ConfigMaps that exist besides the CA one, then the case's event (made in the
   * store, which the publisher watches), and the actions expected after it.
   */
  static Stream<Arguments> configMapCreation() {
    return Stream.of(
        Arguments.of("create new namespace", List.of(),
            (Consumer<ObjectStore>) s -> s.create(Namespace.of("new")), List.of("create new/" + NAME)),
        Arguments.of("delete other configmap", List.of(other(Map.of())),
            (Consumer<ObjectStore>) s -> s.delete(ConfigMap.class, "default", "other"), List.of()),
        Arguments.of("delete ca configmap", List.of(other(Map.of())),
            (Consumer<ObjectStore>) s -> s.delete(ConfigMap.class, "default", NAME), List.of("create default/" + NAME)),
        Arguments.of("update ca configmap with adding field", List.of(),
            (Consumer<ObjectStore>) s -> replace(s, crtConfigMap(ROOT_CA, Map.of("test", "test"))),
            List.of("update default/" + NAME)),
        Arguments.of("update ca configmap with modifying field", List.of(),
            (Consumer<ObjectStore>) s -> replace(s, crtConfigMap("abc", Map.of())), List.of("update default/" + NAME)),
        Arguments.of("update with other configmap", List.of(other(Map.of())),
            (Consumer<ObjectStore>) s -> replace(s, other(Map.of("aa", "bb"))), List.of()),
        Arguments.of("update namespace with terminating state", List.of(),
            (Consumer<ObjectStore>) s -> s.delete(Namespace.class, "", "default"), List.of()));
  }

  /** Writes {@code cm} over the stored object of its name (its resource version taken from the store). */
  private static void replace(ObjectStore s, ConfigMap cm) {
    ConfigMap cur = s.require(ConfigMap.class, cm.metadata().namespace(), cm.metadata().name());
    s.update(cm.withMetadata(cur.metadata().toBuilder().annotations(cm.metadata().annotations()).build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configMapCreation")
  void configMapCreation_upstreamCase(String name, List<ConfigMap> existing, Consumer<ObjectStore> event,
      List<String> expected) {
    List<String> actions = new ArrayList<>();
    try (ObjectStore store = Sim.store(clock)) {
      store.create(Namespace.of("default"));
      store.create(crtConfigMap(ROOT_CA, Map.of()));
      existing.forEach(store::create);
      try (RootCACertPublisher p = publisher(store, ROOT_CA)) {
        p.runUntilIdle(); // the starting namespaces' syncs, which upstream's case does not make
        event.accept(store);
        try (Watch w = record(store, actions)) {
          p.runUntilIdle();
        }
        assertThat(actions).as(name).isEqualTo(expected);
        for (String a : actions) {
          String[] key = a.substring(a.indexOf(' ') + 1).split("/");
          ConfigMap cm = store.require(ConfigMap.class, key[0], key[1]);
          assertThat(cm.data()).isEqualTo(Map.of("ca.crt", ROOT_CA));
          assertThat(cm.metadata().annotations())
              .containsEntry(RootCACertPublisher.DESCRIPTION_ANNOTATION, RootCACertPublisher.DESCRIPTION);
        }
      }
    }
  }

  /** TestConfigMapUpdateNoHotLoop: the CA ConfigMap of {@code default} as it exists, the bundle {@code fake}. */
  static Stream<Arguments> configMapUpdateNoHotLoop() {
    return Stream.of(
        Arguments.of("update-configmap-annotation", null, List.of("update default/" + NAME)),
        Arguments.of("no-update-configmap-if-annotation-present-and-equal", RootCACertPublisher.DESCRIPTION,
            List.of()),
        Arguments.of("no-update-configmap-if-annotation-present-and-different", "different", List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configMapUpdateNoHotLoop")
  void configMapUpdateNoHotLoop_upstreamCase(String name, @Nullable String annotation, List<String> expected) {
    List<String> actions = new ArrayList<>();
    try (ObjectStore store = Sim.store(clock)) {
      store.create(Namespace.of("default"));
      ObjectMeta.Builder meta = ObjectMeta.of("default", NAME).toBuilder();
      if (annotation != null) {
        meta.annotation(RootCACertPublisher.DESCRIPTION_ANNOTATION, annotation);
      }
      store.create(new ConfigMap(meta.build(), Map.of("ca.crt", "fake"), Map.of(), false));
      try (Watch w = record(store, actions); RootCACertPublisher p = publisher(store, "fake")) {
        p.runUntilIdle();
      }
      assertThat(actions).as(name).isEqualTo(expected);
      ConfigMap cm = store.require(ConfigMap.class, "default", NAME);
      assertThat(cm.data().get("ca.crt")).isEqualTo("fake");
      assertThat(cm.metadata().annotations().get(RootCACertPublisher.DESCRIPTION_ANNOTATION))
          .isEqualTo(annotation != null ? annotation : RootCACertPublisher.DESCRIPTION);
    }
  }

  @Test
  void start_everyActiveNamespace_getsTheConfigMap_terminatingOnesDoNot() {
    try (ObjectStore store = Sim.store(clock)) {
      store.create(Namespace.of("default"));
      store.create(Namespace.of("shop"));
      store.create(Namespace.of("old"));
      store.delete(Namespace.class, "", "old"); // Terminating: its finalizer keeps it
      assertThat(store.require(Namespace.class, "", "old").terminating()).isTrue();
      try (RootCACertPublisher p = publisher(store, ROOT_CA)) {
        p.runUntilIdle();
      }
      assertThat(store.list(ConfigMap.class).items()).extracting(c -> c.metadata().namespace() + "/"
          + c.metadata().name()).containsExactly("default/" + NAME, "shop/" + NAME);
    }
  }

  @Test
  void sync_extraBinaryDataAndOtherMetadata_areKept() {
    try (ObjectStore store = Sim.store(clock)) {
      store.create(Namespace.of("default"));
      try (RootCACertPublisher p = publisher(store, ROOT_CA)) {
        p.runUntilIdle();
        ConfigMap cur = store.require(ConfigMap.class, "default", NAME);
        store.update(new ConfigMap(cur.metadata().toBuilder().label("team", "infra").build(),
            Map.of("ca.crt", "tampered"), Map.of("blob", io.fleetkit.api.core.Bytes.of(new byte[] {1})), false));
        p.runUntilIdle();
        ConfigMap after = store.require(ConfigMap.class, "default", NAME);
        assertThat(after.data()).isEqualTo(Map.of("ca.crt", ROOT_CA));
        assertThat(after.binaryData()).containsOnlyKeys("blob");
        assertThat(after.metadata().labels()).containsEntry("team", "infra");
      }
    }
  }

  @Test
  void builder_blankRootCA_isRefusedNamingTheRule() {
    try (ObjectStore store = Sim.store(clock)) {
      assertThatThrownBy(() -> RootCACertPublisher.builder(store, " "))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("root CA cert publisher: rootCA \" \" must be a CA bundle (PEM text), not blank");
    }
  }
}
