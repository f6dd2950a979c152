package io.fleetkit.store.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.StoreUnavailableException;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A write whose request reaches etcd and commits but whose answer never reaches the store (the connection drops in
 * between, as when the member the client talks to dies): made deterministic by {@link AnswerDroppingProxy} between
 * the store and the test etcd. jetcd does not resend a transaction after such a failure (it retries a Txn only on an
 * expired auth token, which etcd refuses before executing), so the store reports the write as
 * {@link StoreUnavailableException}, whose contract is "outcome unknown: read again before retrying". These tests
 * pin that: the exception, never a {@link ConflictException} or a success that did not happen; the write applied
 * exactly once; and a caller that reads again finds it and does not apply it twice.
 *
 * <p>The last test pins the other side: a failed compare whose key happens to hold the same bytes as this write (a
 * concurrent writer made the same change) is a conflict, not this write's success; taking it for a resent
 * transaction of this write lost updates of the store contract's 8-thread counter.
 */
@ExtendWith(LiveEtcd.class)
final class EtcdLostAnswerTest {
  private static final String TXN = "/etcdserverpb.KV/Txn";

  private AnswerDroppingProxy proxy;
  private String prefix;

  @BeforeEach
  void startProxy() throws Exception {
    proxy = new AnswerDroppingProxy(LiveEtcd.endpoint());
    prefix = "/fleetkit-test/" + UUID.randomUUID();
  }

  @AfterEach
  void stopProxy() throws Exception {
    proxy.close();
  }

  private ObjectStore throughProxy() {
    return EtcdStore.builder(proxy.endpoint()).prefix(prefix).requestTimeout(Duration.ofSeconds(5)).build();
  }

  private ObjectStore direct() {
    return EtcdStore.builder(LiveEtcd.endpoint()).prefix(prefix).build();
  }

  private static ConfigMap counter(ObjectMeta meta, long count) {
    return new ConfigMap(meta, Map.of("count", Long.toString(count)), Map.of(), false);
  }

  private static long count(ConfigMap c) {
    return Long.parseLong(c.data().get("count"));
  }

  /**
   * The changes of ConfigMaps after {@code from} up to {@code last}'s version, as "TYPE count", from a watch (etcd's
   * history: a write applied twice would show twice).
   */
  private static List<String> changesSince(ObjectStore store, String from, ConfigMap last) {
    List<String> seen = new CopyOnWriteArrayList<>();
    CountDownLatch reached = new CountDownLatch(1);
    try (Watch w = store.watch(ConfigMap.class, from, e -> {
      seen.add(e.type() + " " + count(e.object()));
      if (e.resourceVersion().equals(last.metadata().resourceVersion())) {
        reached.countDown();
      }
    })) {
      assertThat(reached.await(10, TimeUnit.SECONDS)).as("watch reached version " + last.metadata().resourceVersion())
          .isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    return List.copyOf(seen);
  }

  @Test
  void update_answerLost_isUnavailableNotConflict_appliedOnce_andAReadFindsIt() {
    try (ObjectStore s = throughProxy(); ObjectStore check = direct()) {
      ConfigMap cur = s.create(counter(ObjectMeta.of("ns", "counter"), 41));
      proxy.dropAnswerTo(TXN);
      assertThatThrownBy(() -> s.update(counter(cur.metadata(), 42)))
          .isExactlyInstanceOf(StoreUnavailableException.class)
          .hasMessageContaining("etcd at " + proxy.endpoint())
          .hasMessageContaining("update ConfigMap ns/counter");
      assertThat(proxy.dropped()).as("the answer to the update's transaction was lost").isEqualTo(1);

      // Outcome unknown to the caller, but etcd executed it: once.
      ConfigMap stored = check.require(ConfigMap.class, "ns", "counter");
      assertThat(count(stored)).isEqualTo(42);
      assertThat(changesSince(check, cur.metadata().resourceVersion(), stored))
          .as("exactly one write after the create").containsExactly("MODIFIED 42");

      // The documented recovery: read again (the same store reconnects), see the write landed, do not repeat it.
      ConfigMap again = s.require(ConfigMap.class, "ns", "counter");
      assertThat(again).isEqualTo(stored);
      // Retrying blindly at the old version is refused, so a careless retry cannot apply it twice either.
      assertThatThrownBy(() -> s.update(counter(cur.metadata(), 42))).isInstanceOf(ConflictException.class);
      assertThat(check.require(ConfigMap.class, "ns", "counter").metadata().resourceVersion())
          .isEqualTo(stored.metadata().resourceVersion());
    }
  }

  @Test
  void create_answerLost_isUnavailable_objectExists_retryIsAlreadyExists() {
    try (ObjectStore s = throughProxy(); ObjectStore check = direct()) {
      String before = s.resourceVersion();
      proxy.dropAnswerTo(TXN);
      assertThatThrownBy(() -> s.create(counter(ObjectMeta.of("ns", "made"), 1)))
          .isExactlyInstanceOf(StoreUnavailableException.class)
          .hasMessageContaining("create ConfigMap ns/made");
      assertThat(proxy.dropped()).isEqualTo(1);
      ConfigMap stored = check.require(ConfigMap.class, "ns", "made");
      assertThat(count(stored)).isEqualTo(1);
      assertThat(changesSince(check, before, stored)).as("created once").containsExactly("ADDED 1");
      assertThatThrownBy(() -> s.create(counter(ObjectMeta.of("ns", "made"), 1)))
          .isInstanceOf(ConflictException.class)
          .hasMessageContaining("already exists");
    }
  }

  @Test
  void delete_answerLost_isUnavailable_objectGone() {
    try (ObjectStore s = throughProxy(); ObjectStore check = direct()) {
      s.create(counter(ObjectMeta.of("ns", "doomed"), 1));
      proxy.dropAnswerTo(TXN);
      assertThatThrownBy(() -> s.delete(ConfigMap.class, "ns", "doomed"))
          .isExactlyInstanceOf(StoreUnavailableException.class)
          .hasMessageContaining("delete ConfigMap ns/doomed");
      assertThat(proxy.dropped()).isEqualTo(1);
      assertThat(check.get(ConfigMap.class, "ns", "doomed")).isEmpty();
      assertThat(s.get(ConfigMap.class, "ns", "doomed")).as("a read after the lost answer").isEmpty();
    }
  }

  @Test
  void staleCompare_keyHoldsTheSameBytes_isConflictNotSuccess() {
    try (ObjectStore a = direct(); ObjectStore b = direct()) {
      ConfigMap created = a.create(counter(ObjectMeta.of("ns", "counter"), 5));
      // Both read version v and make the same change; b commits first. a's transaction (its compare names v, which
      // a has just read) then fails on a key that holds exactly the bytes a would have written.
      ConfigMap readByA = a.require(ConfigMap.class, "ns", "counter");
      ConfigMap byB = b.update(counter(b.require(ConfigMap.class, "ns", "counter").metadata(), 6));
      assertThatThrownBy(() -> a.update(counter(readByA.metadata(), 6)))
          .as("a's increment did not happen: b's did")
          .isInstanceOf(ConflictException.class);
      ConfigMap now = b.require(ConfigMap.class, "ns", "counter");
      assertThat(now.metadata().resourceVersion()).isEqualTo(byB.metadata().resourceVersion());
      assertThat(readByA.metadata().resourceVersion()).isEqualTo(created.metadata().resourceVersion());
    }
  }
}
