package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.NamespaceSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ported from Kubernetes {@code k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission_test.go}
 * (TestAdmissionNamespaceDoesNotExist, TestAdmissionNamespaceActive, TestAdmissionNamespaceTerminating,
 * TestAdmissionNamespaceFullyDeleted), plus the namespace controller emptying a namespace being deleted. The
 * namespace is fully deleted by the {@code namespaces/finalize} write that empties its {@code spec.finalizers}.
 */
final class NamespaceLifecyclePluginTest {
  final ObjectStore store = ObjectStore.builder().directDelivery()
      .admission(AdmissionChain.of(new NamespaceLifecyclePlugin())).build();

  @AfterEach
  void close() {
    store.close();
  }

  static Pod pod(String ns, String name) {
    return Pod.of(ObjectMeta.of(ns, name), PodSpec.builder().container("ctr", "image", ResourceList.EMPTY).build());
  }

  AdmissionDeniedException denied(Runnable r) {
    AdmissionDeniedException[] out = new AdmissionDeniedException[1];
    assertThatThrownBy(r::run).isInstanceOfSatisfying(AdmissionDeniedException.class, e -> out[0] = e);
    return out[0];
  }

  @Test
  void namespaceDoesNotExist_createIsRejected() {
    AdmissionDeniedException e = denied(() -> store.create(pod("test", "123")));

    assertThat(e.plugin()).isEqualTo("NamespaceLifecycle");
    assertThat(e.field()).isEqualTo("metadata.namespace");
    assertThat(e.rule()).isEqualTo("namespaces \"test\" not found");
    assertThat(e).hasMessage("Pod test/123 is forbidden: namespaces \"test\" not found (plugin NamespaceLifecycle,"
        + " field metadata.namespace)");
  }

  @Test
  void namespaceActive_createIsAdmitted_andClusterScopedObjectsNeedNoNamespace() {
    store.create(Namespace.of("test"));

    store.create(pod("test", "123"));
    store.create(PriorityClass.of("high", 1000));

    assertThat(store.get(Pod.class, "test", "123")).isPresent();
  }

  @Test
  void namespaceTerminating_createRejected_updateAndDeleteAllowed_immortalNamespacesStay() {
    store.create(Namespace.of("default"));
    store.create(Namespace.of("test"));
    Pod existing = store.create(pod("test", "existing"));
    Namespace ns = store.delete(Namespace.class, "", "test"); // kept by spec.finalizers: Terminating

    assertThat(ns.terminating()).isTrue();
    assertThat(denied(() -> store.create(pod("test", "123"))).rule())
        .isEqualTo("unable to create new content in namespace test because it is being terminated");
    store.update(existing.withMetadata(existing.metadata().withLabels(Map.of("a", "b"))));
    store.delete(Pod.class, "test", "existing");
    assertThat(denied(() -> store.delete(Namespace.class, "", "default")).rule())
        .isEqualTo("this namespace may not be deleted");
    store.create(Namespace.of("other"));
    store.delete(Namespace.class, "", "other");
  }

  @Test
  void namespaceFullyDeleted_createRejected_updateAllowed() {
    store.create(Namespace.of("test"));
    Pod existing = store.create(pod("test", "existing"));
    Namespace ns = store.delete(Namespace.class, "", "test");
    store.finalizeNamespace(ns.withSpec(NamespaceSpec.EMPTY)); // fully deleted: spec.finalizers emptied

    assertThat(store.get(Namespace.class, "", "test")).isEmpty();
    assertThat(denied(() -> store.create(pod("test", "123"))).rule()).isEqualTo("namespaces \"test\" not found");
    store.update(existing.withMetadata(existing.metadata().withLabels(Map.of("a", "b"))));
  }

  @Test
  void namespaceController_emptiesTheNamespaceThenRemovesIt() {
    store.create(Namespace.of("test"));
    store.create(pod("test", "a"));
    store.create(ConfigMap.of("test", "settings", Map.of("k", "v")));
    store.create(Namespace.of("keep"));
    store.create(pod("keep", "b"));
    try (NamespaceController controller = NamespaceController.of(store, NamespacedKinds.all()).start()) {
      store.delete(Namespace.class, "", "test");

      assertThat(store.get(Namespace.class, "", "test")).isEmpty();
      assertThat(store.list(Pod.class, "test").items()).isEmpty();
      assertThat(store.list(ConfigMap.class, "test").items()).isEmpty();
      assertThat(store.list(Pod.class, "keep").items()).hasSize(1);
    }
  }

  @Test
  void namespaceController_waitsForContentWithFinalizers() {
    store.create(Namespace.of("test"));
    Pod held = store.create(pod("test", "held").withMetadata(ObjectMeta.builder().namespace("test").name("held")
        .finalizers(List.of("example.com/hold")).build()));
    try (NamespaceController controller = NamespaceController.of(store, NamespacedKinds.all()).start()) {
      store.delete(Namespace.class, "", "test");
      Namespace ns = store.require(Namespace.class, "", "test");
      assertThat(ns.status().phase()).isEqualTo(NamespacePhase.Terminating);

      Pod marked = store.require(Pod.class, "test", "held");
      store.update(marked.withMetadata(marked.metadata().toBuilder().finalizers(List.of()).build()));

      assertThat(store.get(Namespace.class, "", "test")).isEmpty();
      assertThat(held.metadata().finalizers()).containsExactly("example.com/hold");
    }
  }
}
