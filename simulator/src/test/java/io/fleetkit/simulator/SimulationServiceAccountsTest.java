package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.admission.Admission;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A simulation whose chain has ServiceAccount admission runs the ServiceAccounts controller: every namespace, the
 * manifests' and the ones every cluster has, has its {@code default} account before the next object is created, so
 * pods of manifests and of controllers are admitted with {@code spec.serviceAccountName: default}; a pod naming an
 * account that does not exist is a {@code Rejected} event, as the API server refuses it; a namespace applied later
 * gets its account too.
 */
final class SimulationServiceAccountsTest {

  private static Pod pod(String ns, String name, String account) {
    return new Pod(ObjectMeta.of(ns, name), PodSpec.builder().container("app", "nginx:1", ResourceList.EMPTY)
        .serviceAccountName(account).build(), PodStatus.PENDING);
  }

  @Test
  void run_namespacesGetTheirDefaultAccount_podsAreAdmittedWithIt_aMissingAccountIsRejected() {
    Deployment api = Deployment.builder().namespace("team-b").name("api").replicas(2)
        .matchLabels(Map.of("app", "api"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", ResourceList.ofCpuMemory(100, 0)).build()).build();
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).admission(Admission::withServiceAccounts)
        .seed(3).object(Namespace.of("team-b")).object(api).object(pod("team-b", "bare", ""))
        .object(pod("team-b", "builder-pod", "builder"))
        .apply(Duration.ofSeconds(20), List.of(Namespace.of("later")), "later.yaml").build()) {
      sim.runFor(Duration.ofMinutes(1));

      for (String ns : List.of("default", "kube-system", "kube-public", "team-b", "later")) {
        assertThat(sim.store().get(ServiceAccount.class, ns, "default")).as(ns).isPresent();
      }
      List<Pod> pods = sim.store().list(Pod.class, "team-b").items();
      assertThat(pods).hasSize(3).allSatisfy(p -> assertThat(p.spec().serviceAccountName()).isEqualTo("default"));
      assertThat(sim.summary().deployments()).containsExactly(new WorkloadSummary("team-b/api", 2, 2));
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("Rejected")).singleElement().satisfies(e -> {
        assertThat(e.object()).isEqualTo("Pod/team-b/builder-pod");
        assertThat(e.message()).contains("error looking up service account team-b/builder: serviceaccount"
            + " \"builder\" not found");
      });
    }
  }

  // manifests that hold a namespace's default account (say with its secrets) and an account named after the pods
  // that use it: the manifest's default replaces the one the controller made, and the account is created before the
  // pods whatever the file order
  @Test
  void run_manifestsWithTheDefaultAccountAndOneAfterItsPods_areCreatedInOrder() {
    ServiceAccount ownDefault = new ServiceAccount(ObjectMeta.builder().namespace("team-b").name("default")
        .label("owner", "platform").build(), List.of(), List.of(), null);
    ServiceAccount builder = new ServiceAccount(ObjectMeta.of("team-b", "builder"), List.of(), List.of(), null);
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1)).admission(Admission::withServiceAccounts)
        .object(Namespace.of("team-b")).object(pod("team-b", "builder-pod", "builder")).object(ownDefault)
        .object(builder).build()) {
      sim.runFor(Duration.ofSeconds(10));
      assertThat(sim.store().require(ServiceAccount.class, "team-b", "default").metadata().labels())
          .containsEntry("owner", "platform");
      assertThat(sim.store().get(Pod.class, "team-b", "builder-pod")).isPresent();
      assertThat(sim.timeline()).noneMatch(e -> e.kind().equals("Rejected"));
    }
  }

  @Test
  void run_standardChain_noAccountsAndPodsUnchanged() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1)).admission(Admission::standard)
        .object(pod("default", "bare", "")).build()) {
      sim.runFor(Duration.ofSeconds(10));
      assertThat(sim.store().list(ServiceAccount.class).items()).isEmpty();
      assertThat(sim.store().require(Pod.class, "default", "bare").spec().serviceAccountName()).isEmpty();
    }
  }
}
