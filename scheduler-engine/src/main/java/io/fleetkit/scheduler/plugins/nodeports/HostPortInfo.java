package io.fleetkit.scheduler.plugins.nodeports;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.PodSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The host ports in use on a node, by host IP, as kube-scheduler's {@code HostPortInfo}: a port of 0 or less is never
 * recorded nor in conflict; an empty IP means {@code 0.0.0.0} and an empty protocol {@code TCP}. A port bound on
 * {@code 0.0.0.0} conflicts with the same protocol and port on every address, and the other way round.
 *
 * <p>Not thread-safe; the plugin builds one per Filter call.
 */
public final class HostPortInfo {
  /** The address a host port without an IP binds to. */
  public static final String BIND_ALL_HOST_IP = "0.0.0.0";

  private final Map<String, Set<String>> byIp = new HashMap<>();

  /** Records {@code protocol}/{@code port} on {@code ip}; a port of 0 or less is ignored. */
  public void add(String ip, String protocol, int port) {
    if (port <= 0) {
      return;
    }
    byIp.computeIfAbsent(ip(ip), k -> new HashSet<>()).add(key(protocol, port));
  }

  /** Removes {@code protocol}/{@code port} from {@code ip}; a port of 0 or less is ignored. */
  public void remove(String ip, String protocol, int port) {
    if (port <= 0) {
      return;
    }
    String address = ip(ip);
    Set<String> ports = byIp.get(address);
    if (ports != null) {
      ports.remove(key(protocol, port));
      if (ports.isEmpty()) {
        byIp.remove(address);
      }
    }
  }

  /** How many (IP, protocol, port) entries are recorded. */
  public int size() {
    int n = 0;
    for (Set<String> ports : byIp.values()) {
      n += ports.size();
    }
    return n;
  }

  /** Whether binding {@code protocol}/{@code port} on {@code ip} would clash with a recorded one. */
  public boolean conflicts(String ip, String protocol, int port) {
    if (port <= 0) {
      return false;
    }
    String address = ip(ip);
    String key = key(protocol, port);
    if (address.equals(BIND_ALL_HOST_IP)) {
      for (Set<String> ports : byIp.values()) {
        if (ports.contains(key)) {
          return true;
        }
      }
      return false;
    }
    Set<String> all = byIp.get(BIND_ALL_HOST_IP);
    if (all != null && all.contains(key)) {
      return true;
    }
    Set<String> same = byIp.get(address);
    return same != null && same.contains(key);
  }

  /** Whether none of {@code wanted} conflicts (upstream's {@code fitsPorts}). */
  public boolean fits(List<ContainerPort> wanted) {
    for (ContainerPort p : wanted) {
      if (conflicts(p.hostIP(), p.protocol(), p.hostPort())) {
        return false;
      }
    }
    return true;
  }

  /** Records every host port of {@code ports}. */
  public void addAll(List<ContainerPort> ports) {
    for (ContainerPort p : ports) {
      add(p.hostIP(), p.protocol(), p.hostPort());
    }
  }

  /**
   * The ports of a pod that bind a host port (upstream's {@code GetHostPorts}): those of its sidecars (init
   * containers with restart policy Always, which run as long as the pod) and of its containers, in that order; the
   * other init containers' ports are left out, as they have finished before the pod runs.
   */
  public static List<ContainerPort> hostPorts(PodSpec spec) {
    @Nullable List<ContainerPort> out = null;
    for (Container c : spec.initContainers()) {
      if (c.isRestartable()) {
        out = collect(c, out);
      }
    }
    for (Container c : spec.containers()) {
      out = collect(c, out);
    }
    return out == null ? List.of() : out;
  }

  private static @Nullable List<ContainerPort> collect(Container c, @Nullable List<ContainerPort> out) {
    for (ContainerPort p : c.ports()) {
      if (p.hostPort() > 0) {
        if (out == null) {
          out = new ArrayList<>(2);
        }
        out.add(p);
      }
    }
    return out;
  }

  private static String ip(String ip) {
    return ip.isEmpty() ? BIND_ALL_HOST_IP : ip;
  }

  private static String key(String protocol, int port) {
    return (protocol.isEmpty() ? "TCP" : protocol) + "/" + port;
  }

  @Override
  public String toString() {
    return byIp.toString();
  }
}
