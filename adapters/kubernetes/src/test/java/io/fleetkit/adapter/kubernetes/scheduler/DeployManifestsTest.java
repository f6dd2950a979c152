package io.fleetkit.adapter.kubernetes.scheduler;

import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.await;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.fast;
import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.api.core.Pod;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** deploy/kubernetes parses, is wired together, and grants exactly the API calls the scheduler makes. */
final class DeployManifestsTest {
  private static final Path DEPLOY = Path.of("../../deploy/kubernetes");

  /** One permission: API group, resource (with subresource), verb. */
  record Permission(String group, String resource, String verb) implements Comparable<Permission> {
    @Override
    public int compareTo(Permission o) {
      return toString().compareTo(o.toString());
    }

    @Override
    public String toString() {
      return (group.isEmpty() ? "core" : group) + " " + resource + " " + verb;
    }
  }

  @SuppressWarnings("unchecked")
  private static List<HasMetadata> load(String file) throws IOException {
    try (InputStream in = Files.newInputStream(DEPLOY.resolve(file))) {
      Object parsed = new KubernetesSerialization().unmarshal(in);
      return parsed instanceof List<?> l ? (List<HasMetadata>) l : List.of((HasMetadata) parsed);
    }
  }

  private static <T> T only(List<HasMetadata> objects, Class<T> type) {
    List<T> found = objects.stream().filter(type::isInstance).map(type::cast).toList();
    assertThat(found).as(type.getSimpleName()).hasSize(1);
    return found.get(0);
  }

  @Test
  void schedulerYaml_parses_andIsWiredToOneServiceAccountWithTwoReplicas() throws IOException {
    List<HasMetadata> objects = load("scheduler.yaml");
    ServiceAccount sa = only(objects, ServiceAccount.class);
    ClusterRole role = only(objects, ClusterRole.class);
    ClusterRoleBinding crb = only(objects, ClusterRoleBinding.class);
    Role leaseRole = only(objects, Role.class);
    RoleBinding rb = only(objects, RoleBinding.class);
    Deployment d = only(objects, Deployment.class);

    assertThat(crb.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
    assertThat(rb.getRoleRef().getName()).isEqualTo(leaseRole.getMetadata().getName());
    for (var subject : List.of(crb.getSubjects().get(0), rb.getSubjects().get(0))) {
      assertThat(subject.getName()).isEqualTo(sa.getMetadata().getName());
      assertThat(subject.getNamespace()).isEqualTo(sa.getMetadata().getNamespace());
    }
    assertThat(leaseRole.getMetadata().getNamespace()).isEqualTo(d.getMetadata().getNamespace());
    assertThat(d.getSpec().getReplicas()).isEqualTo(2);
    var podSpec = d.getSpec().getTemplate().getSpec();
    assertThat(podSpec.getServiceAccountName()).isEqualTo(sa.getMetadata().getName());
    Map<String, String> env = new java.util.HashMap<>();
    podSpec.getContainers().get(0).getEnv().forEach(e -> env.put(e.getName(),
        e.getValue() != null ? e.getValue() : e.getValueFrom().getFieldRef().getFieldPath()));
    assertThat(env).containsEntry("FLEETKIT_SCHEDULER_NAME", "fleetkit")
        .containsEntry("POD_NAME", "metadata.name")
        .containsEntry("POD_NAMESPACE", "metadata.namespace")
        .containsEntry("FLEETKIT_METRICS_PORT", "10251")
        .doesNotContainKey("FLEETKIT_LEADER_ELECT");
    var container = podSpec.getContainers().get(0);
    assertThat(container.getPorts()).singleElement().satisfies(p -> {
      assertThat(p.getName()).isEqualTo("metrics");
      assertThat(p.getContainerPort()).isEqualTo(MetricsServer.DEFAULT_PORT);
    });
    assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(container.getReadinessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("metrics");
  }

  @Test
  void schedulerYaml_hardened_leaseByNameSeccompReadOnlyRoot() throws IOException {
    List<HasMetadata> objects = load("scheduler.yaml");
    Deployment d = only(objects, Deployment.class);
    var pod = d.getSpec().getTemplate().getSpec();
    var c = pod.getContainers().get(0);
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(c.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(c.getVolumeMounts()).anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/tmp"));
    String leaseName = c.getEnv().stream().filter(e -> e.getName().equals("FLEETKIT_LEASE_NAME")).findFirst()
        .orElseThrow().getValue();
    for (var rule : only(objects, Role.class).getRules()) {
      if (rule.getVerbs().contains("get") || rule.getVerbs().contains("patch")) {
        assertThat(rule.getResourceNames()).as("lease rule %s", rule.getVerbs()).containsExactly(leaseName);
      } else {
        assertThat(rule.getVerbs()).containsExactly("create");
      }
    }
  }

  @Test
  void main_environmentOfTheDeployment_configuresLeaderElection() {
    try (MockCluster cluster = new MockCluster();
         KubernetesScheduler s = KubernetesSchedulerMain.builder(cluster.client,
             Map.of("FLEETKIT_SCHEDULER_NAME", "fk", "POD_NAME", "fleetkit-scheduler-abc",
                 "POD_NAMESPACE", "fleetkit-system")).build()) {
      assertThat(s.schedulerName()).isEqualTo("fk");
      assertThat(s.identity()).isEqualTo("fleetkit-scheduler-abc");
      assertThat(s.isLeader()).as("not started").isFalse();
    }
  }

  @Test
  void samplePod_loadsWithOurLoader_andSelectsTheFleetKitScheduler() {
    LoadedObjects loaded = KubernetesYaml.load(List.of(DEPLOY.resolve("sample-pod.yaml")));
    Pod p = loaded.ofType(Pod.class).get(0);
    assertThat(p.spec().schedulerName()).isEqualTo(KubernetesScheduler.DEFAULT_SCHEDULER_NAME);
    assertThat(p.isBound()).isFalse();
  }

  @Test
  void rbac_grantsExactlyTheCallsTheSchedulerMakes() throws IOException {
    List<HasMetadata> objects = load("scheduler.yaml");
    Set<Permission> granted = new TreeSet<>();
    granted.addAll(expand(only(objects, ClusterRole.class).getRules()));
    granted.addAll(expand(only(objects, Role.class).getRules()));
    String leaseNamespace = only(objects, Role.class).getMetadata().getNamespace();

    Set<Permission> used = new TreeSet<>();
    try (MockCluster cluster = new MockCluster()) {
      cluster.node("n1", "1", "8Gi");
      // A low-priority pod another scheduler bound, which a high-priority fleetkit pod preempts.
      cluster.create(pod("victim", "500m", "default-scheduler").editSpec().withNodeName("n1").withPriority(0)
          .endSpec());
      KubernetesScheduler s = cluster.start(fast(cluster.taggedClient()).leaderElection(new LeaderElection(
          leaseNamespace, "fleetkit-scheduler", "rbac-check", Duration.ofSeconds(3), Duration.ofSeconds(2),
          Duration.ofMillis(200))));
      await("leader", s::isLeader);
      cluster.create(pod("fits", "100m", "fleetkit"));
      cluster.create(pod("too-big", "4", "fleetkit"));
      await("bound and failed", () -> cluster.nodeOf("fits") != null
          && !cluster.events("FailedScheduling").isEmpty() && !cluster.events("Scheduled").isEmpty());
      cluster.create(pod("preemptor", "800m", "fleetkit").editSpec().withPriority(1000).endSpec());
      await("victim preempted, preemptor bound", () -> cluster.nodeOf("preemptor") != null);
      await("the failure recorded on the pod", () -> cluster.dispatcher.taggedCalls().stream()
          .anyMatch(c -> c.method().equals("PATCH") && c.path().endsWith("/pods/too-big/status")));
      await("a repeated FailedScheduling counted in its Event's series", () -> cluster.dispatcher.taggedCalls()
          .stream().anyMatch(c -> c.method().equals("PATCH") && c.path().contains("/events/")));
      await("lease renewed", () -> cluster.dispatcher.taggedCalls().stream()
          .anyMatch(c -> c.method().equals("PATCH") && c.path().contains("/leases/")));
      for (BindingDispatcher.Call c : cluster.dispatcher.taggedCalls()) {
        used.add(permission(c));
      }
      assertThat(cluster.dispatcher.taggedCalls()).filteredOn(c -> c.path().contains("/leases"))
          .allMatch(c -> c.path().contains("/namespaces/" + leaseNamespace + "/"));
    }
    assertThat(used).as("calls made by the scheduler").isEqualTo(granted);
  }

  private static Set<Permission> expand(List<PolicyRule> rules) {
    Set<Permission> out = new TreeSet<>();
    for (PolicyRule r : rules) {
      for (String g : r.getApiGroups()) {
        for (String res : r.getResources()) {
          for (String v : r.getVerbs()) {
            out.add(new Permission(g, res, v));
          }
        }
      }
    }
    return out;
  }

  /** The RBAC permission a request needs (kube's request-info rules, for the paths the scheduler uses). */
  static Permission permission(BindingDispatcher.Call c) {
    int q = c.path().indexOf('?');
    String path = q < 0 ? c.path() : c.path().substring(0, q);
    boolean watch = q >= 0 && c.path().substring(q).contains("watch=true");
    List<String> seg = List.of(path.substring(1).split("/"));
    String group;
    List<String> rest;
    if (seg.get(0).equals("api")) {
      group = "";
      rest = seg.subList(2, seg.size());
    } else {
      group = seg.get(1);
      rest = seg.subList(3, seg.size());
    }
    if (rest.size() >= 3 && rest.get(0).equals("namespaces")) {
      rest = rest.subList(2, rest.size());
    }
    String resource = rest.get(0) + (rest.size() > 2 ? "/" + rest.get(2) : "");
    boolean named = rest.size() > 1;
    String verb = switch (c.method()) {
      case "GET" -> named ? "get" : watch ? "watch" : "list";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> named ? "delete" : "deletecollection";
      default -> throw new AssertionError("unexpected method " + c);
    };
    return new Permission(group, resource, verb);
  }

  @Test
  void permission_ofRequestPaths_followsKubeRequestInfo() {
    assertThat(permission(new BindingDispatcher.Call("GET", "/api/v1/pods?resourceVersion=0")))
        .isEqualTo(new Permission("", "pods", "list"));
    assertThat(permission(new BindingDispatcher.Call("GET", "/api/v1/pods?watch=true&resourceVersion=5")))
        .isEqualTo(new Permission("", "pods", "watch"));
    assertThat(permission(new BindingDispatcher.Call("POST", "/api/v1/namespaces/a/pods/p/binding")))
        .isEqualTo(new Permission("", "pods/binding", "create"));
    assertThat(permission(new BindingDispatcher.Call("PATCH", "/api/v1/namespaces/a/pods/p/status")))
        .isEqualTo(new Permission("", "pods/status", "patch"));
    assertThat(permission(new BindingDispatcher.Call("DELETE", "/api/v1/namespaces/a/pods/p")))
        .isEqualTo(new Permission("", "pods", "delete"));
    assertThat(permission(new BindingDispatcher.Call("PUT",
        "/apis/coordination.k8s.io/v1/namespaces/x/leases/l")))
        .isEqualTo(new Permission("coordination.k8s.io", "leases", "update"));
  }

  @Test
  void main_givesTheCommonPoolTwoThreadsOnSmallMachines_unlessConfigured() {
    String key = KubernetesSchedulerMain.COMMON_POOL_PARALLELISM;
    String before = System.getProperty(key);
    try {
      System.setProperty(key, "7");
      KubernetesSchedulerMain.ensureAsyncPool();
      assertThat(System.getProperty(key)).isEqualTo("7");
      System.clearProperty(key);
      KubernetesSchedulerMain.ensureAsyncPool();
      assertThat(System.getProperty(key))
          .isEqualTo(Runtime.getRuntime().availableProcessors() < 3 ? "2" : null);
    } finally {
      if (before == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, before);
      }
    }
  }
}
