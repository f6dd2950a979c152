package io.fleetkit.reconcile.rollouts;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceStatus;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.BlueGreenStrategy;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.api.rollouts.TrafficRouting;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.internal.TemplateHash;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;

/**
 * What the Rollout controller tests ported from argo-rollouts' {@code rollout/*_test.go} share: a stepping controller
 * over a store on a manual clock (no ReplicaSet controller), a traffic router that records the weights it is asked
 * for, and upstream's fixtures ({@code newBlueGreenRollout}, {@code newCanaryRollout},
 * {@code newReplicaSetWithStatus}, the Services) for Rollout {@code default/foo} selecting {@code foo=bar}.
 */
abstract class RolloutControllerFixture {
  /** The weights the router was asked for, in order. */
  protected final List<Integer> weights = new ArrayList<>();
  protected final ManualClock clock = ManualClock.atEpoch2026();
  protected final ObjectStore store = RolloutControllerClaimTest.store(clock);
  protected final RolloutController rc = RolloutController.builder(store).clock(clock).stepping()
      .trafficRouter((r, routing, weight) -> {
        weights.add(weight);
        return weight;
      }).build();

  RolloutControllerFixture() {
    rc.start().join();
  }

  @AfterEach
  void close() {
    rc.close();
    store.close();
  }

  /** Upstream's {@code newBlueGreenRollout}: one replica, active Service {@code bar}, then {@code f}. */
  static Rollout blueGreen(String image, UnaryOperator<BlueGreenStrategy> f) {
    return Rollout.builder().namespace("default").name("foo").replicas(1).matchLabels(Map.of("foo", "bar"))
        .podSpec(PodSpec.builder().container("app", image, ResourceList.EMPTY).build())
        .blueGreen(f.apply(BlueGreenStrategy.of("bar", null))).build();
  }

  /** A canary of one SetWeight 10 step through the traffic routing {@code route}, Services stable and canary. */
  static Rollout canary(String image, int replicas, UnaryOperator<CanaryStrategy> f) {
    CanaryStrategy c = new CanaryStrategy(List.of(new CanaryStep.SetWeight(10)), IntOrPercent.of(1),
        IntOrPercent.of(1), null, "stable", "canary", new TrafficRouting("route"), false, null, null);
    return Rollout.builder().namespace("default").name("foo").replicas(replicas).matchLabels(Map.of("foo", "bar"))
        .podSpec(PodSpec.builder().container("app", image, ResourceList.EMPTY).build()).canary(f.apply(c)).build();
  }

  static String hash(Rollout r) {
    return TemplateHash.compute(r.spec().template(), null);
  }

  /** Upstream's {@code newReplicaSetWithStatus(r, replicas, available)}, created one second after the last. */
  ReplicaSet replicaSet(Rollout r, int replicas, int available, @Nullable String deadline) {
    String h = hash(r);
    ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name("foo-" + h).label("foo", "bar")
        .label(Rollout.POD_TEMPLATE_HASH_LABEL, h);
    if (deadline != null) {
      m.annotation("argo-rollouts.argoproj.io/scale-down-deadline", deadline);
    }
    ReplicaSet rs = store.create(ReplicaSet.builder().metadata(m.build()).replicas(replicas)
        .matchLabels(Map.of("foo", "bar", Rollout.POD_TEMPLATE_HASH_LABEL, h))
        .template(new PodTemplateSpec(ObjectMeta.builder().label("foo", "bar")
            .label(Rollout.POD_TEMPLATE_HASH_LABEL, h).build(), r.spec().template().spec())).build());
    clock.advance(Duration.ofSeconds(1));
    return store.updateStatus(rs.withStatus(new ReplicaSetStatus(replicas, replicas, available, available, 0)));
  }

  /** A Service {@code default/name} selecting the pods of template hash {@code hash}. */
  void service(String name, String hash) {
    store.create(new Service(ObjectMeta.of("default", name), ServiceSpec.builder()
        .selector(Map.of("foo", "bar", Rollout.POD_TEMPLATE_HASH_LABEL, hash)).ports(List.of(ServicePort.of(80)))
        .build(), ServiceStatus.EMPTY));
  }

  /** Creates {@code r} with {@code status}, progressing now. */
  void rollout(Rollout r, RolloutStatus.Builder status) {
    Rollout created = store.create(r);
    store.updateStatus(created.withStatus(status.lastProgressTime(clock.instant()).build()));
  }

  /** The ReplicaSet of {@code r}'s template. */
  ReplicaSet rs(Rollout r) {
    return store.require(ReplicaSet.class, "default", "foo-" + hash(r));
  }

  /** The scale-down deadline annotation of {@code r}'s ReplicaSet, or null. */
  @Nullable String deadline(Rollout r) {
    return rs(r).metadata().annotations().get("argo-rollouts.argoproj.io/scale-down-deadline");
  }

  /** The clock's time {@code s} seconds on, to the second, as the annotation writes it. */
  String inSeconds(int s) {
    return clock.instant().plusSeconds(s).truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
