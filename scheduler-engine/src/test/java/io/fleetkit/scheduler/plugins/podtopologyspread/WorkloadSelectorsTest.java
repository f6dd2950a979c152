package io.fleetkit.scheduler.plugins.podtopologyspread;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.FrameworkHandle;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Upstream {@code helper.DefaultSelector} (pkg/scheduler/framework/plugins/helper/spread.go) semantics. */
final class WorkloadSelectorsTest {
  private static FrameworkHandle handleListing(Object... objects) {
    return (FrameworkHandle) Proxy.newProxyInstance(FrameworkHandle.class.getClassLoader(),
        new Class<?>[] {FrameworkHandle.class}, (proxy, method, args) -> {
          if (method.getName().equals("list")) {
            Class<?> kind = (Class<?>) args[0];
            return java.util.Arrays.stream(objects).filter(kind::isInstance).toList();
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }

  private static Service service(String ns, String name, Map<String, String> selector) {
    return Service.of(ObjectMeta.of(ns, name), ServiceSpec.builder().selector(selector).port(io.fleetkit.api.core.ServicePort.of(80)).build());
  }

  private static Pod pod(String ns, Map<String, String> labels, OwnerReference owner) {
    Pod.Builder b = Pod.builder().namespace(ns).name("p").labels(labels)
        .container("c", "img:1", ResourceList.EMPTY);
    if (owner != null) {
      b.ownerReference(owner);
    }
    return b.build();
  }

  @Test
  void of_podMatchedByServicesAndOwnedByReplicaSet_mergesTheirSelectors() {
    ReplicaSet rs = ReplicaSet.builder().namespace("ns").name("web-1").matchLabels(Map.of("app", "web", "rev", "1"))
        .podSpec(Pod.builder().name("t").container("c", "img:1", ResourceList.EMPTY).build().spec()).build();
    OwnerReference ref = new OwnerReference("apps/v1", "ReplicaSet", "web-1", "uid-1", true, true);
    Pod pod = pod("ns", Map.of("app", "web", "rev", "1", "tier", "front"), ref);

    LabelSelector sel = WorkloadSelectors.of(pod, handleListing(
        service("ns", "web", Map.of("app", "web")),
        service("ns", "front", Map.of("tier", "front")),
        service("ns", "other", Map.of("app", "db")),
        service("elsewhere", "web", Map.of("app", "web")),
        rs));

    assertThat(sel).isNotNull();
    assertThat(sel.matchLabels()).containsExactlyInAnyOrderEntriesOf(
        Map.of("app", "web", "tier", "front", "rev", "1"));
  }

  // spread.go's rcKind case: a v1 ReplicationController's equality selector, merged with the Services'
  @Test
  void of_podOwnedByReplicationController_mergesItsSelector() {
    io.fleetkit.api.core.ReplicationController rc = io.fleetkit.api.core.ReplicationController.builder()
        .namespace("ns").name("frontend").selector(Map.of("app", "frontend"))
        .template(Map.of("app", "frontend", "v", "4"),
            Pod.builder().name("t").container("c", "img:1", ResourceList.EMPTY).build().spec()).build();
    OwnerReference ref = new OwnerReference("v1", "ReplicationController", "frontend", "uid-1", true, true);
    Pod pod = pod("ns", Map.of("app", "frontend", "v", "4", "tier", "front"), ref);

    LabelSelector sel = WorkloadSelectors.of(pod, handleListing(service("ns", "front", Map.of("tier", "front")), rc));

    assertThat(sel).isNotNull();
    assertThat(sel.matchLabels()).containsExactlyInAnyOrderEntriesOf(Map.of("app", "frontend", "tier", "front"));
    OwnerReference appsGroup = new OwnerReference("apps/v1", "ReplicationController", "frontend", "uid-1", true,
        true);
    assertThat(WorkloadSelectors.of(pod("ns", Map.of("app", "frontend"), appsGroup), handleListing(rc)))
        .as("only core/v1 is the ReplicationController kind").isNull();
  }

  @Test
  void of_podOfNoWorkload_isNull() {
    Pod pod = pod("ns", Map.of("app", "lonely"), null);
    assertThat(WorkloadSelectors.of(pod, handleListing(service("ns", "web", Map.of("app", "web"))))).isNull();
    assertThat(WorkloadSelectors.of(pod, handleListing())).isNull();
  }

  /** The lookup kept by the plugin indexes the listed workloads, and re-indexes when the handle lists new objects. */
  @Test
  void fromHandle_followsTheListedObjects() {
    java.util.List<Object> listed = new java.util.ArrayList<>();
    java.util.List<Object>[] current = new java.util.List[] {java.util.List.of()};
    FrameworkHandle handle = (FrameworkHandle) Proxy.newProxyInstance(FrameworkHandle.class.getClassLoader(),
        new Class<?>[] {FrameworkHandle.class}, (proxy, method, args) -> {
          Class<?> kind = (Class<?>) args[0];
          return current[0].stream().filter(kind::isInstance).toList();
        });
    java.util.function.Function<Pod, LabelSelector> lookup = WorkloadSelectors.fromHandle(handle);
    OwnerReference ref = new OwnerReference("apps/v1", "ReplicaSet", "web-1", "uid-1", true, true);
    Pod pod = pod("ns", Map.of("app", "web", "rev", "1"), ref);
    assertThat(lookup.apply(pod)).as("no ReplicaSet listed yet").isNull();
    listed.add(ReplicaSet.builder().namespace("other").name("web-1").matchLabels(Map.of("app", "elsewhere"))
        .podSpec(Pod.builder().name("t").container("c", "img:1", ResourceList.EMPTY).build().spec()).build());
    listed.add(ReplicaSet.builder().namespace("ns").name("web-1").matchLabels(Map.of("app", "web", "rev", "1"))
        .podSpec(Pod.builder().name("t").container("c", "img:1", ResourceList.EMPTY).build().spec()).build());
    current[0] = java.util.List.copyOf(listed);
    assertThat(lookup.apply(pod).matchLabels()).isEqualTo(Map.of("app", "web", "rev", "1"));
    listed.set(1, ReplicaSet.builder().namespace("ns").name("web-1").matchLabels(Map.of("app", "web", "rev", "2"))
        .podSpec(Pod.builder().name("t").container("c", "img:1", ResourceList.EMPTY).build().spec()).build());
    current[0] = java.util.List.copyOf(listed);
    assertThat(lookup.apply(pod).matchLabels()).as("the ReplicaSet replaced where it was")
        .isEqualTo(Map.of("app", "web", "rev", "2"));
    listed.remove(0);
    current[0] = java.util.List.copyOf(listed);
    assertThat(lookup.apply(pod).matchLabels()).as("the ReplicaSet moved up a place")
        .isEqualTo(Map.of("app", "web", "rev", "2"));
    current[0] = java.util.List.of(ReplicaSet.builder().namespace("other").name("web-1")
        .matchLabels(Map.of("app", "elsewhere"))
        .podSpec(Pod.builder().name("t").container("c", "img:1", ResourceList.EMPTY).build().spec()).build());
    assertThat(lookup.apply(pod)).as("only another namespace's ReplicaSet of that name where it was").isNull();
    current[0] = java.util.List.of();
    assertThat(lookup.apply(pod)).as("the ReplicaSet deleted").isNull();
  }

  @Test
  void of_serviceWithEmptySelector_selectsNothing() {
    Pod pod = pod("ns", Map.of("app", "web"), null);
    assertThat(WorkloadSelectors.of(pod, handleListing(service("ns", "headless", Map.of())))).isNull();
  }
}
