package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.cluster.InstanceCreation;
import io.fleetkit.autoscale.cluster.InstanceErrorClass;
import io.fleetkit.autoscale.cluster.InstanceErrorInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The provisioner when the cloud refuses machines: as Karpenter, a launch failing with an insufficient-capacity error
 * leaves no node (the NodeClaim is deleted), the offering (type and zone) is skipped for 3 minutes (the AWS provider's
 * unavailable-offerings cache), and the pods are provisioned again on another offering, or wait.
 */
final class ProvisionerInstanceErrorsTest {
  private static final long GI = 1024L * 1024 * 1024;
  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "web", "rs-1", true, true);
  private static final InstanceErrorInfo ICE = new InstanceErrorInfo(InstanceErrorClass.OUT_OF_RESOURCES,
      "InsufficientInstanceCapacity", "no cheap machines in zone-a");

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
  /** The offerings ({@code type/zone}) the cloud is out of. */
  private final Set<String> stockedOut = new HashSet<>();
  /** The types of the machines asked of the cloud, in order. */
  private final List<String> asked = new ArrayList<>();
  private final InstanceCreation cloud = (node, now) -> {
    String type = node.metadata().labels().get(Provisioner.INSTANCE_TYPE_LABEL);
    asked.add(type);
    return stockedOut.contains(type + "/" + node.metadata().labels().get(Provisioner.ZONE_LABEL)) ? ICE : null;
  };

  @AfterEach
  void close() {
    store.close();
  }

  private static InstanceType type(String name, String zone, double price) {
    ResourceList r = ResourceList.builder().put("cpu", Quantity.ofMilli(4000)).put("memory", Quantity.ofBytes(16 * GI))
        .put("pods", Quantity.of(110)).build();
    return new InstanceType(name, r, Map.of(Provisioner.ZONE_LABEL, zone), List.of(), price);
  }

  private Provisioner provisioner(InstanceCreation c) {
    return Provisioner.builder(store).clock(clock).instanceTypes(List.of(type("cheap", "zone-a", 0.1),
        type("dear", "zone-b", 0.2))).instanceCreation(c).build();
  }

  private void pods(String prefix, int n) {
    for (int i = 0; i < n; i++) {
      store.create(Pod.builder().name(prefix + i).ownerReference(RS)
          .container("app", "img", ResourceList.ofCpuMemory(1000, GI)).build());
    }
  }

  /** Opens a batch, lets it close a second later, and returns that loop. */
  private ProvisionerResult batch(Provisioner p) {
    p.runOnce();
    clock.advance(Duration.ofSeconds(1));
    return p.runOnce();
  }

  private List<String> nodes() {
    return store.list(Node.class).items().stream().map(Node::name).sorted().toList();
  }

  /**
   * kubernetes-sigs/karpenter {@code pkg/controllers/nodeclaim/lifecycle/launch_test.go} (commit 007859a5): "should
   * delete the nodeclaim if InsufficientCapacity is returned from the cloudprovider"; then the AWS provider's
   * unavailable offering and the pods' next batch.
   */
  @Test
  void insufficientCapacity_noNode_offeringSkipped_podsGoToAnotherOffering() {
    pods("p", 3);
    stockedOut.add("cheap/zone-a");
    Provisioner p = provisioner(cloud);
    ProvisionerResult refused = batch(p);
    assertThat(refused.launched()).isEmpty();
    assertThat(refused.launchFailures()).containsExactly(
        new ProvisionerResult.LaunchFailure("default-1", "cheap", "zone-a", ICE));
    assertThat(nodes()).isEmpty();
    assertThat(p.isUnavailable("cheap", "zone-a")).isTrue();
    assertThat(p.isUnavailable("dear", "zone-b")).isFalse();

    clock.advance(Duration.ofSeconds(10));
    ProvisionerResult again = batch(p);
    assertThat(again.launched()).containsExactly(Map.entry("default-2", "dear"));
    assertThat(again.launchFailures()).isEmpty();
    assertThat(asked).containsExactly("cheap", "dear"); // the unavailable offering is not asked again
  }

  @Test
  void unavailableOffering_triedAgainOnlyAfterThreeMinutes() {
    pods("p", 1);
    stockedOut.add("cheap/zone-a");
    Provisioner p = provisioner(cloud);
    batch(p);
    stockedOut.clear();
    clock.advance(Provisioner.UNAVAILABLE_OFFERINGS_TTL.minusSeconds(1));
    store.delete(Pod.class, "default", "p0");
    pods("q", 1);
    ProvisionerResult during = batch(p); // closes at exactly the TTL after the refusal: still unavailable
    assertThat(during.launched()).containsExactly(Map.entry("default-2", "dear"));
    assertThat(p.isUnavailable("cheap", "zone-a")).isTrue();
    clock.advance(Duration.ofNanos(1));
    assertThat(p.isUnavailable("cheap", "zone-a")).isFalse();
    pods("r", 4); // more than the dear node holds: a second node
    clock.advance(Duration.ofSeconds(10));
    ProvisionerResult after = batch(p);
    assertThat(after.launched().values()).containsExactly("cheap");
  }

  @Test
  void everyOfferingOutOfCapacity_podsWaitUnschedulable() {
    pods("p", 2);
    stockedOut.add("cheap/zone-a");
    stockedOut.add("dear/zone-b");
    Provisioner p = provisioner(cloud);
    assertThat(batch(p).launchFailures()).extracting(ProvisionerResult.LaunchFailure::instanceType)
        .containsExactly("cheap");
    clock.advance(Duration.ofSeconds(10));
    assertThat(batch(p).launchFailures()).extracting(ProvisionerResult.LaunchFailure::instanceType)
        .containsExactly("dear");
    clock.advance(Duration.ofSeconds(10));
    ProvisionerResult waiting = batch(p);
    assertThat(waiting.launched()).isEmpty();
    assertThat(waiting.launchFailures()).isEmpty();
    assertThat(waiting.unschedulablePods()).containsExactlyInAnyOrder("default/p0", "default/p1");
    assertThat(nodes()).isEmpty();
  }

  @Test
  void otherError_noNode_offeringStaysAvailable() {
    pods("p", 1);
    InstanceErrorInfo quota = new InstanceErrorInfo(InstanceErrorClass.OTHER, "Unauthorized", "denied");
    Provisioner p = provisioner((node, now) -> asked.add("x") && asked.size() == 1 ? quota : null);
    assertThat(batch(p).launchFailures()).extracting(ProvisionerResult.LaunchFailure::error).containsExactly(quota);
    assertThat(p.isUnavailable("cheap", "zone-a")).isFalse();
    clock.advance(Duration.ofSeconds(10));
    assertThat(batch(p).launched()).containsExactly(Map.entry("default-2", "cheap"));
  }
}
