package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cached lists of {@link ClusterObjects}: kept across changes to other kinds, renewed on their own kind's. */
final class ClusterObjectsTest {
  private static Service service(String name, String app) {
    return Service.of(ObjectMeta.of("ns", name),
        ServiceSpec.builder().selector(Map.of("app", app)).port(ServicePort.of(80)).build());
  }

  private static ReplicaSet replicaSet(String name, String rev) {
    return ReplicaSet.builder().namespace("ns").name(name).matchLabels(Map.of("app", "web", "rev", rev))
        .podSpec(Pod.builder().name("t").container("c", "img:1", ResourceList.EMPTY).build().spec()).build();
  }

  @Test
  void list_ofOneKind_outlivesChangesToAnotherAndFollowsItsOwn() {
    ClusterObjects objects = new ClusterObjects();
    objects.put(service("web", "web"));
    objects.put(replicaSet("web-1", "1"));
    List<Service> services = objects.list(Service.class);
    List<ReplicaSet> sets = objects.list(ReplicaSet.class);

    objects.put(replicaSet("web-1", "2"));
    assertThat(objects.list(Service.class)).as("a ReplicaSet changed: the Service list stays").isSameAs(services);
    assertThat(objects.list(ReplicaSet.class)).isNotSameAs(sets).singleElement()
        .satisfies(rs -> assertThat(rs.spec().selector().matchLabels()).containsEntry("rev", "2"));

    List<ApiObject> all = objects.list(ApiObject.class);
    assertThat(all).hasSize(2);
    objects.put(service("db", "db"));
    assertThat(objects.list(ApiObject.class)).as("a list over a supertype follows every kind under it").hasSize(3);
    assertThat(objects.list(Service.class)).hasSize(2);

    List<ReplicaSet> before = objects.list(ReplicaSet.class);
    assertThat(objects.remove(service("db", "db"))).isTrue();
    assertThat(objects.list(Service.class)).hasSize(1);
    assertThat(objects.list(ReplicaSet.class)).isSameAs(before);
    assertThat(objects.remove(service("db", "db"))).as("nothing to remove").isFalse();
  }
}
