package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Fixtures mirroring {@code k8s.io/endpointslice} {@code utils_test.go} helpers ({@code newPod}, {@code newServiceAndEndpointMeta}). */
final class SliceFixtures {
  static final String NS = "test";

  private SliceFixtures() {}

  /** {@code newServiceAndEndpointMeta(name, ns)}: port {@code name} targeting 80, selector foo=bar, IPv4, no cluster IP. */
  static Service service(String name) {
    ServiceSpec spec = ServiceSpec.builder().port(ServicePort.of(name, 80, 80)).selector("foo", "bar")
        .ipFamilies(List.of(IPFamily.IPv4)).build();
    return Service.of(ObjectMeta.builder().namespace(NS).name(name).uid(NS + "-" + name).build(), spec);
  }

  static List<EndpointPort> endpointMetaPorts(String name) {
    return List.of(EndpointPort.of(name, 80));
  }

  /** {@code newPod(n, ns, ready, nPorts, terminating)}: pod{n} on node-1 with IP 1.2.3.(4+n). */
  static Pod pod(int n, boolean ready, boolean terminating) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(NS).name("pod" + n).uid("uid-pod" + n)
        .label("foo", "bar").resourceVersion(Integer.toString(n));
    if (terminating) {
      m.deletionTimestamp(Instant.parse("2026-01-01T00:00:00Z"));
    }
    PodSpec spec = PodSpec.builder().container(Container.of("container-1", "img", ResourceList.EMPTY))
        .nodeName("node-1").build();
    PodStatus st = PodStatus.of(PodPhase.Running)
        .withCondition(PodCondition.of(PodCondition.READY, ready ? ConditionStatus.True : ConditionStatus.False,
            "", "", null))
        .withPodIPs(List.of(ipOf(n)));
    return new Pod(m.build(), spec, st);
  }

  static String ipOf(int n) {
    int v = 4 + n;
    return "1.2." + (3 + v / 256) + "." + (v % 256);
  }

  static Pod withReady(Pod p, boolean ready) {
    return new Pod(p.metadata(), p.spec(), p.status().withCondition(PodCondition.of(PodCondition.READY,
        ready ? ConditionStatus.True : ConditionStatus.False, "", "", null)));
  }

  static Pod withNamedPort(Pod p, String name, int port) {
    Container c = p.spec().containers().get(0);
    Container nc = new Container(c.name(), c.image(), c.resources(), List.of(new ContainerPort(name, port, "TCP", 0)),
        c.env(), c.restartPolicy());
    return new Pod(p.metadata(), p.spec().toBuilder().containers(List.of(nc)).build(), p.status());
  }

  static List<Pod> pods(int count) {
    List<Pod> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(pod(i, i % 3 != 0, false));
    }
    return out;
  }

  static Node node(String name, Map<String, String> labels) {
    return new Node(ObjectMeta.builder().name(name).labels(labels).build(), NodeSpec.EMPTY, NodeStatus.EMPTY);
  }

  /** {@code newEmptyEndpointSlice(n, ns, meta, svc)}: {@code <svc>-<n>} owned by the Service, no labels. */
  static EndpointSlice emptySlice(int n, Service svc, AddressType type, List<EndpointPort> ports) {
    ObjectMeta m = ObjectMeta.builder().namespace(NS).name(svc.metadata().name() + "-" + n)
        .ownerReference(SliceRules.ownerRef(svc)).build();
    return new EndpointSlice(m, type, List.of(), ports);
  }

  static EndpointSliceReconciler reconciler(int max) {
    AtomicInteger n = new AtomicInteger();
    return new EndpointSliceReconciler(max, SliceRules.CONTROLLER_NAME, true,
        () -> String.format("x%04d", n.incrementAndGet()));
  }

  /** A fake client: applies plans to a map of slices and records the actions, like upstream's fake clientset. */
  static final class FakeSlices {
    final Map<String, EndpointSlice> slices = new LinkedHashMap<>();
    final List<String> actions = new ArrayList<>();

    FakeSlices(List<EndpointSlice> existing) {
      existing.forEach(s -> slices.put(s.metadata().name(), s));
    }

    void apply(SlicePlan plan) {
      for (EndpointSlice s : plan.creates()) {
        if (slices.put(s.metadata().name(), s) != null) {
          throw new AssertionError("create of existing slice " + s.metadata().name());
        }
        actions.add("create");
      }
      for (EndpointSlice s : plan.updates()) {
        if (slices.put(s.metadata().name(), s) == null) {
          throw new AssertionError("update of missing slice " + s.metadata().name());
        }
        actions.add("update");
      }
      for (EndpointSlice s : plan.deletes()) {
        if (slices.remove(s.metadata().name()) == null) {
          throw new AssertionError("delete of missing slice " + s.metadata().name());
        }
        actions.add("delete");
      }
    }

    List<EndpointSlice> list() {
      return List.copyOf(slices.values());
    }

    List<Integer> lengths() {
      List<Integer> out = new ArrayList<>();
      slices.values().forEach(s -> out.add(s.endpoints().size()));
      return out;
    }
  }
}
