package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.EnvVarSource;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.api.store.ObjectStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The simulated kubelet with references to ConfigMaps and Secrets: a container whose environment cannot be made waits
 * in {@code CreateContainerConfigError} (kubernetes {@code kuberuntime_container.go}'s {@code startContainer}: the
 * message of {@code makeEnvironmentVariables}, a {@code Failed} Warning {@code Error: ...} on the container) and is
 * tried again at the pod worker's 10 s backoff until the object exists; a pod whose config map or secret volume cannot
 * be set up starts nothing (its containers wait in {@code ContainerCreating}) and gets a {@code FailedMount} Warning
 * per try, tried again with the operation executor's backoff (0.5 s doubling).
 */
final class NodeAgentConfigReferencesTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final Instant t0 = clock.now();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private final List<String> events = new ArrayList<>();
  private NodeAgent agent;

  @AfterEach
  void close() {
    if (agent != null) {
      agent.close();
    }
    store.close();
  }

  private void start(Pod pod) {
    store.create(Node.builder().name("n1").build());
    EventRecorder recorder = (regarding, related, type, reason, action, note) -> events.add(
        millis() + "ms " + type + " " + reason + " " + regarding.kind() + "/" + regarding.name()
            + (regarding.fieldPath().isEmpty() ? "" : " " + regarding.fieldPath()) + ": " + note);
    agent = NodeAgent.builder(store, clock, "n1").events(recorder).build();
    agent.start();
    store.create(pod);
    agent.sync();
  }

  private long millis() {
    return clock.now().toEpochMilli() - t0.toEpochMilli();
  }

  private void runTo(long millis) {
    Instant target = t0.plusMillis(millis);
    agent.sync();
    while (clock.now().isBefore(target)) {
      Instant next = clock.nextDeadline().filter(d -> d.isBefore(target)).orElse(target);
      clock.advanceTo(next);
      agent.sync();
    }
  }

  private Pod current() {
    return store.get(Pod.class, "shop", "web-0").orElseThrow();
  }

  private ContainerStatus status(int i) {
    return current().status().containerStatuses().get(i);
  }

  private static Pod.Builder pod(Container... containers) {
    Pod.Builder b = Pod.builder().namespace("shop").name("web-0").nodeName("n1").restartPolicy(RestartPolicy.Always);
    for (Container c : containers) {
      b.container(c);
    }
    return b;
  }

  private static Container app(String name, List<EnvVar> env, List<EnvFromSource> envFrom) {
    return Container.of(name, "shop:1", ResourceList.EMPTY).withEnv(env).withEnvFrom(envFrom);
  }

  @Test
  void missingConfigMap_waitsInCreateContainerConfigError_thenStartsAtTheNextTryAfterItIsCreated() {
    start(pod(app("app", List.of(EnvVar.from("LEVEL", EnvVarSource.configMapKey("app-config", "level", false))),
        List.of()), app("side", List.of(), List.of())).build());

    assertThat(status(0).state()).isEqualTo(ContainerState.waiting("CreateContainerConfigError",
        "configmap \"app-config\" not found"));
    assertThat(status(1).state().type()).isEqualTo(ContainerStateType.Running); // SyncPod starts the others
    assertThat(current().status().phase()).isEqualTo(PodPhase.Running);
    assertThat(current().isReady()).isFalse();
    assertThat(events).containsExactly("0ms Warning Failed Pod/web-0 spec.containers{app}: Error: configmap "
        + "\"app-config\" not found");

    runTo(15_000); // tried again at 10 s, still missing
    assertThat(events).hasSize(2).last().asString().startsWith("10000ms Warning Failed");
    store.create(ConfigMap.of("shop", "app-config", Map.of("other", "x")));
    runTo(25_000); // at 20 s: the map is there, the key is not
    assertThat(status(0).state()).isEqualTo(ContainerState.waiting("CreateContainerConfigError",
        "couldn't find key level in ConfigMap shop/app-config"));
    store.update(ConfigMap.of("shop", "app-config", Map.of("level", "debug")));
    runTo(29_000);
    assertThat(status(0).state().type()).isEqualTo(ContainerStateType.Waiting);
    runTo(30_000);
    assertThat(status(0).state()).isEqualTo(ContainerState.running(t0.plusSeconds(30)));
    assertThat(status(0).restartCount()).isZero();
    assertThat(current().isReady()).isTrue();
    assertThat(events).hasSize(3);
  }

  @Test
  void optionalReferences_startAtOnce() {
    start(pod(app("app", List.of(EnvVar.from("P", EnvVarSource.secretKey("db", "password", true))),
        List.of(EnvFromSource.configMap("app-config", true)))).build());
    assertThat(status(0).state().type()).isEqualTo(ContainerStateType.Running);
    assertThat(events).isEmpty();
  }

  @Test
  void missingEnvFromSecret_ofAnInitContainer_holdsTheInitSequence() {
    Container init = app("migrate", List.of(), List.of(EnvFromSource.secret("db", false)));
    start(pod(app("app", List.of(), List.of())).initContainer(init).build());
    ContainerStatus initStatus = current().status().initContainerStatuses().get(0);
    assertThat(initStatus.state()).isEqualTo(ContainerState.waiting("CreateContainerConfigError",
        "secret \"db\" not found"));
    assertThat(status(0).state().reason()).isEqualTo("PodInitializing");
    assertThat(current().status().phase()).isEqualTo(PodPhase.Pending);
    assertThat(events).containsExactly("0ms Warning Failed Pod/web-0 spec.initContainers{migrate}: Error: secret "
        + "\"db\" not found");
    store.create(Secret.of("shop", "db", Map.of("password", Bytes.of("x".getBytes(StandardCharsets.UTF_8)))));
    runTo(10_000);
    assertThat(current().status().initContainerStatuses().get(0).state().type())
        .isNotEqualTo(ContainerStateType.Waiting);
  }

  @Test
  void missingVolumeObject_startsNothing_failedMountWithBackoff_thenMounts() {
    start(pod(app("app", List.of(), List.of())).volume(new Volume("creds", new VolumeSource.Secret("db"))).build());
    assertThat(status(0).state()).isEqualTo(ContainerState.waiting("ContainerCreating", ""));
    assertThat(current().status().phase()).isEqualTo(PodPhase.Pending);
    runTo(4_000);
    String failed = "Warning FailedMount Pod/web-0: MountVolume.SetUp failed for volume \"creds\" : secret \"db\" "
        + "not found";
    assertThat(events).containsExactly("0ms " + failed, "500ms " + failed, "1500ms " + failed, "3500ms " + failed);
    store.create(Secret.of("shop", "db", Map.of("password", Bytes.of("x".getBytes(StandardCharsets.UTF_8)))));
    runTo(7_499);
    assertThat(status(0).state().type()).isEqualTo(ContainerStateType.Waiting);
    runTo(7_500); // the next try, 4 s after the last
    assertThat(status(0).state()).isEqualTo(ContainerState.running(t0.plusMillis(7_500)));
    assertThat(events).hasSize(4);
  }

  @Test
  void deletedWhileWaiting_isDeleted() {
    start(pod(app("app", List.of(EnvVar.from("L", EnvVarSource.configMapKey("gone", "k", false))), List.of()))
        .volume(new Volume("cfg", new VolumeSource.ConfigMap("gone"))).build());
    runTo(2_000);
    store.delete(Pod.class, "shop", "web-0");
    runTo(4_000);
    assertThat(store.get(Pod.class, "shop", "web-0")).isEmpty();
  }
}
