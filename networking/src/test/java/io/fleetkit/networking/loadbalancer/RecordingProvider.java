package io.fleetkit.networking.loadbalancer;

import io.fleetkit.api.core.LoadBalancerIngress;
import io.fleetkit.api.core.LoadBalancerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Service;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The test cloud of the upstream file ({@code k8s.io/cloud-provider/fake}): it records its calls ({@code create},
 * {@code update}, {@code delete}), the Services and hosts of its ensure and update calls, answers {@code exists}
 * for every Service when told to, and fails every call with {@link #err} when set.
 */
final class RecordingProvider implements LoadBalancerProvider {
  /** One ensure or update call: the Service's key and its hosts' names. */
  record Call(String service, List<String> hosts) {}

  final List<String> calls = new ArrayList<>();
  final List<Call> ensureCalls = new ArrayList<>();
  final List<Call> updateCalls = new ArrayList<>();
  final Set<String> balancers = new HashSet<>();
  boolean exists;
  @Nullable LoadBalancerException err;

  @Override
  public Optional<LoadBalancerStatus> get(Service service) {
    return exists || balancers.contains(LoadBalancerProvider.defaultName(service))
        ? Optional.of(new LoadBalancerStatus(List.of(LoadBalancerIngress.ofIp("8.8.8.8")))) : Optional.empty();
  }

  @Override
  public LoadBalancerStatus ensure(Service service, List<Node> nodes) {
    calls.add("create");
    ensureCalls.add(call(service, nodes));
    fail();
    balancers.add(LoadBalancerProvider.defaultName(service));
    return new LoadBalancerStatus(List.of(LoadBalancerIngress.ofIp("1.2.3.4")));
  }

  @Override
  public void update(Service service, List<Node> nodes) {
    calls.add("update");
    updateCalls.add(call(service, nodes));
    fail();
  }

  @Override
  public void ensureDeleted(Service service) {
    calls.add("delete");
    fail();
    balancers.remove(LoadBalancerProvider.defaultName(service));
  }

  private void fail() {
    if (err != null) {
      throw err;
    }
  }

  void clear() {
    calls.clear();
    ensureCalls.clear();
    updateCalls.clear();
  }

  static Call call(Service s, List<Node> nodes) {
    return new Call(s.metadata().namespace() + "/" + s.metadata().name(), nodes.stream().map(Node::name).toList());
  }
}
