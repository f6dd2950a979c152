package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes/kubernetes pkg/controller/replicaset/replica_set_test.go: TestSyncReplicaSetDoesNothing,
 * TestSyncReplicaSetCreateFailures, TestDoNotPatchPodWithOtherControlRef, TestDoNotAdoptOrCreateIfBeingDeleted.
 * Upstream drives a fake pod control; here the real store is wrapped to count (and limit) pod writes.
 */
final class ReplicaSetUpstreamCasesTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  /** A store whose pod creates fail after {@code limit} successes, counting calls. */
  static final class CountingStore {
    final AtomicInteger createCalls = new AtomicInteger();
    final AtomicInteger creates = new AtomicInteger();
    final AtomicInteger deletes = new AtomicInteger();
    final AtomicInteger updates = new AtomicInteger();
    volatile int createLimit = Integer.MAX_VALUE;
    final ObjectStore store;

    CountingStore(ObjectStore delegate) {
      store = (ObjectStore) Proxy.newProxyInstance(ObjectStore.class.getClassLoader(),
          new Class<?>[] {ObjectStore.class}, (proxy, method, args) -> invoke(delegate, method, args));
    }

    private Object invoke(ObjectStore delegate, Method method, Object[] args) throws Throwable {
      boolean pod = args != null && args.length > 0 && (args[0] instanceof Pod || args[0] == Pod.class);
      if (pod && method.getName().equals("create")) {
        createCalls.incrementAndGet();
        if (creates.get() >= createLimit) {
          throw new IllegalStateException("fake quota exceeded");
        }
        creates.incrementAndGet();
      } else if (pod && method.getName().equals("delete")) {
        deletes.incrementAndGet();
      } else if (pod && method.getName().equals("update")) {
        updates.incrementAndGet();
      }
      try {
        return method.invoke(delegate, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }

  static ReplicaSet rs(int replicas) {
    return ReplicaSet.builder().namespace("default").name("foobar").replicas(replicas)
        .matchLabels(Map.of("foo", "bar")).podSpec(ReplicaSetControllerTest.SPEC).build();
  }

  private ReplicaSetController controller(ObjectStore store) {
    ReplicaSetController c = ReplicaSetController.builder(store).clock(clock).stepping().build();
    c.start().join();
    return c;
  }

  @Test
  void syncReplicaSetDoesNothing_twoRunningPodsTwoReplicas_noWrites() {
    try (ObjectStore real = Sim.store(clock)) {
      CountingStore counting = new CountingStore(real);
      ReplicaSet created = real.create(rs(2));
      for (int i = 0; i < 2; i++) {
        real.create(Pod.builder().namespace("default").name("pod" + i).labels(Map.of("foo", "bar"))
            .ownerReference(OwnerReference.controllerOf(created)).spec(ReplicaSetControllerTest.SPEC).build());
      }
      try (ReplicaSetController c = controller(counting.store)) {
        c.runUntilIdle();
        assertThat(counting.createCalls.get()).isZero();
        assertThat(counting.deletes.get()).isZero();
        assertThat(counting.updates.get()).isZero();
      }
    }
  }

  @Test
  void syncReplicaSetCreateFailures_quotaOfTen_createsTenAndStopsSlowStart() {
    try (ObjectStore real = Sim.store(clock)) {
      CountingStore counting = new CountingStore(real);
      counting.createLimit = 10;
      real.create(rs(100));
      try (ReplicaSetController c = controller(counting.store)) {
        c.controller().runOnce();
        assertThat(counting.creates.get()).isEqualTo(10);
        int expectedLimit = 0;
        for (int pass = 0; expectedLimit <= 10; pass++) {
          expectedLimit += 1 << pass;
        }
        assertThat(counting.createCalls.get()).isLessThanOrEqualTo(expectedLimit);
      }
    }
  }

  @Test
  void doNotPatchPodWithOtherControlRef_matchingPodOwnedElsewhere_createsTwo() {
    try (ObjectStore real = Sim.store(clock)) {
      CountingStore counting = new CountingStore(real);
      real.create(Pod.builder().namespace("default").name("pod").labels(Map.of("foo", "bar"))
          .ownerReference(new OwnerReference("apps/v1", "ReplicaSet", "another-rs", "other-uid", true, true))
          .spec(ReplicaSetControllerTest.SPEC).build());
      real.create(rs(2));
      try (ReplicaSetController c = controller(counting.store)) {
        c.runUntilIdle(); // the other owner's key is queued too (and not found)
        assertThat(counting.creates.get()).isEqualTo(2);
        assertThat(counting.updates.get()).isZero();
      }
    }
  }

  @Test
  void doNotAdoptOrCreateIfBeingDeleted_deletingReplicaSet_noAdoptionNoCreate() {
    try (ObjectStore real = Sim.store(clock)) {
      CountingStore counting = new CountingStore(real);
      ReplicaSet withFinalizer = rs(2);
      withFinalizer = withFinalizer.withMetadata(withFinalizer.metadata().toBuilder().finalizer("test/hold").build());
      real.create(withFinalizer);
      real.delete(ReplicaSet.class, "default", "foobar"); // marked, kept by the finalizer
      real.create(Pod.builder().namespace("default").name("pod1").labels(Map.of("foo", "bar"))
          .spec(ReplicaSetControllerTest.SPEC).build());
      try (ReplicaSetController c = controller(counting.store)) {
        c.runUntilIdle();
        assertThat(counting.createCalls.get()).isZero();
        assertThat(counting.updates.get()).isZero();
        ObjectMeta pod = real.require(Pod.class, "default", "pod1").metadata();
        assertThat(pod.controllerRef()).isNull();
        assertThat(List.of(real.list(Pod.class).items().size())).containsExactly(1);
      }
    }
  }
}
