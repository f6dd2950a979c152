package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespaceCondition;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.NamespaceSpec;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes {@code pkg/controller/namespace/deletion/namespaced_resources_deleter_test.go} at commit
 * 9e8be126037a933e78fd9e5fe10d4fcd20410d7f: TestFinalized, TestFinalizeNamespaceFunc, the "pending-finalize" and
 * "complete-finalize" scenarios of testSyncNamespaceThatIsTerminating, TestRetryOnConflictError and
 * TestSyncNamespaceThatIsActive. Upstream records the kube client's and the metadata client's actions; here a
 * forwarding store records the store calls (FleetKit's controller is given its kinds, lists and deletes each object
 * instead of a collection, and the store removes the namespace once the finalize write empties both finalizer lists).
 * Upstream's finalizer names {@code a}, {@code b} and {@code other} are not valid namespace finalizer names in
 * FleetKit (they need a domain), so they are {@code example.com/a}, {@code example.com/b} and
 * {@code example.com/other}. Skipped: the discovery-error scenarios and TestDeleteEncounters404 (no discovery or
 * metadata client; see docs/conformance.md). The last tests are FleetKit's own: the conditions while content
 * remains, a namespace held by its metadata finalizers, and a deletion refused by admission.
 */
final class NamespaceControllerUpstreamTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private final ObjectStore backing = ObjectStore.builder().directDelivery()
      .admission(AdmissionChain.of(new NamespaceLifecyclePlugin(), new LockedConfigMaps())).build();
  private final Recording store = new Recording(backing);
  private final NamespaceController controller = NamespaceController.of(store, NamespacedKinds.all(),
      java.time.Clock.fixed(NOW, ZoneOffset.UTC));

  @AfterEach
  void close() {
    backing.close();
  }

  /** Refuses to delete the ConfigMap named {@code locked}. */
  static final class LockedConfigMaps implements ValidatingAdmissionPlugin {
    @Override
    public String name() {
      return "LockedConfigMaps";
    }

    @Override
    public AdmissionVerdict validate(AdmissionRequest request, ObjectStore s) {
      if (request.operation() == AdmissionOperation.DELETE && request.object() instanceof ConfigMap cm
          && cm.metadata().name().equals("locked")) {
        return AdmissionVerdict.deny("metadata.name", "locked");
      }
      return AdmissionVerdict.allow();
    }
  }

  /** Records "verb Kind" for each call; can fail the first finalize with a conflict. */
  static final class Recording extends ForwardingObjectStore {
    final List<String> calls = new ArrayList<>();
    final List<Namespace> statusWrites = new ArrayList<>();
    final List<Namespace> finalizeRequests = new ArrayList<>();
    int conflictsToThrow;

    Recording(ObjectStore delegate) {
      super(delegate);
    }

    private synchronized void record(String verb, Class<?> kind) {
      calls.add(verb + " " + kind.getSimpleName());
    }

    synchronized List<String> writes() {
      return calls.stream().filter(c -> !c.startsWith("get ") && !c.startsWith("list ")).toList();
    }

    synchronized Set<String> listed() {
      TreeSet<String> out = new TreeSet<>();
      for (String c : calls) {
        if (c.startsWith("list ")) {
          out.add(c.substring(5));
        }
      }
      return out;
    }

    synchronized void reset() {
      calls.clear();
      statusWrites.clear();
      finalizeRequests.clear();
    }

    @Override
    public <T extends ApiObject<T>> Optional<T> get(Class<T> kind, String namespace, String name) {
      record("get", kind);
      return super.get(kind, namespace, name);
    }

    @Override
    public <T extends ApiObject<T>> T require(Class<T> kind, String namespace, String name) {
      record("get", kind);
      return super.require(kind, namespace, name);
    }

    @Override
    public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace) {
      record("list", kind);
      return super.list(kind, namespace);
    }

    @Override
    public <T extends ApiObject<T>> T update(T object) {
      record("update", object.getClass());
      return super.update(object);
    }

    @Override
    public <T extends ApiObject<T>> T updateStatus(T object) {
      record("status", object.getClass());
      if (object instanceof Namespace ns) {
        statusWrites.add(ns);
      }
      return super.updateStatus(object);
    }

    @Override
    public Namespace finalizeNamespace(Namespace namespace) {
      record("finalize", Namespace.class);
      finalizeRequests.add(namespace);
      if (conflictsToThrow > 0) {
        conflictsToThrow--;
        throw new ConflictException("Operation cannot be fulfilled on Namespace " + namespace.metadata().name());
      }
      return super.finalizeNamespace(namespace);
    }

    @Override
    public <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name,
        io.fleetkit.api.store.DeleteOptions options) {
      record("delete", kind);
      return super.delete(kind, namespace, name, options);
    }
  }

  private static Pod pod(String ns, String name, String... finalizers) {
    return Pod.of(ObjectMeta.builder().namespace(ns).name(name).finalizers(List.of(finalizers)).build(),
        PodSpec.builder().container("ctr", "image", ResourceList.EMPTY).build());
  }

  private static Namespace namespace(String name, String... specFinalizers) {
    return new Namespace(ObjectMeta.of(name), new NamespaceSpec(List.of(specFinalizers)), NamespaceStatus.ACTIVE);
  }

  // ------------------------------------------------------------------------------------------- upstream cases

  @Test
  void finalized() {
    Namespace ns = namespace("test", "example.com/a", "example.com/b");
    assertThat(ns.finalized()).as("Unexpected result, namespace is not finalized").isFalse();
    assertThat(ns.withSpec(NamespaceSpec.EMPTY).finalized()).as("Expected object to be finalized").isTrue();
  }

  @Test
  void finalizeNamespaceFunc_removesOnlyTheKubernetesToken() {
    store.create(namespace("test", Namespace.KUBERNETES_FINALIZER, "example.com/other"));
    store.delete(Namespace.class, "", "test");
    store.reset();

    controller.sync("test");

    assertThat(store.finalizeRequests).as("Expected 1 finalize-namespace action").hasSize(1);
    assertThat(store.finalizeRequests.get(0).spec().finalizers()).as("There should be a single finalizer remaining")
        .containsExactly("example.com/other");
    Namespace ns = store.require(Namespace.class, "", "test");
    assertThat(ns.spec().finalizers()).containsExactly("example.com/other");
    assertThat(ns.status().phase()).isEqualTo(NamespacePhase.Terminating);
  }

  @Test
  void syncNamespaceThatIsTerminating_pendingFinalize_deletesContentThenFinalizes() {
    store.create(Namespace.of("test"));
    store.delete(Namespace.class, "", "test");
    store.reset();

    assertThat(controller.sync("test")).isTrue();

    assertThat(store.writes()).containsExactly("status Namespace", "finalize Namespace");
    Set<String> kinds = new TreeSet<>();
    NamespacedKinds.all().forEach(k -> kinds.add(k.getSimpleName()));
    assertThat(store.listed()).isEqualTo(kinds); // every kind is listed (upstream: GET and DELETE of each resource)
    NamespaceStatus written = store.statusWrites.get(0).status();
    assertThat(written.phase()).isEqualTo(NamespacePhase.Terminating);
    assertThat(written.conditions()).extracting(NamespaceCondition::type)
        .containsExactlyElementsOf(NamespaceCondition.DELETION_TYPES);
    assertThat(written.conditions()).allSatisfy(c -> assertThat(c.status()).isEqualTo(ConditionStatus.False));
    assertThat(store.get(Namespace.class, "", "test")).isEmpty(); // FleetKit's store: both lists empty, removed
  }

  @Test
  void syncNamespaceThatIsTerminating_completeFinalize_onlyReadsTheNamespace() {
    Namespace created = store.create(Namespace.of("test"));
    store.finalizeNamespace(created.withSpec(NamespaceSpec.EMPTY));
    store.delete(Namespace.class, "", "test"); // marks it (the first deletion only marks)
    store.reset();

    assertThat(controller.sync("test")).isTrue();

    assertThat(store.calls).containsExactly("get Namespace");
  }

  @Test
  void retryOnConflictError_retriesOnTheLatestNamespace() {
    store.create(Namespace.of("test"));
    store.delete(Namespace.class, "", "test");
    store.reset();
    store.conflictsToThrow = 1;

    assertThat(controller.sync("test")).isTrue();

    assertThat(store.finalizeRequests).as("numTries").hasSize(2);
    assertThat(store.get(Namespace.class, "", "test")).isEmpty();
  }

  @Test
  void syncNamespaceThatIsActive_onlyReadsTheNamespace() {
    store.create(Namespace.of("test"));
    String version = store.resourceVersion();
    store.reset();

    assertThat(controller.sync("test")).isTrue();

    assertThat(store.calls).as("Expected only one action from controller").containsExactly("get Namespace");
    assertThat(store.resourceVersion()).isEqualTo(version);
  }

  // ------------------------------------------------------------------------------------------ FleetKit's own

  @Test
  void contentWithFinalizers_keepsTheNamespace_andIsReportedInTheConditions() {
    store.create(Namespace.of("test"));
    store.create(pod("test", "held", "example.com/hold"));
    store.create(pod("test", "free"));
    store.delete(Namespace.class, "", "test");

    assertThat(controller.sync("test")).isFalse();

    Namespace ns = store.require(Namespace.class, "", "test");
    assertThat(ns.spec().finalizers()).containsExactly(Namespace.KUBERNETES_FINALIZER);
    assertThat(ns.status().condition(NamespaceCondition.CONTENT_REMAINING)).isEqualTo(new NamespaceCondition(
        NamespaceCondition.CONTENT_REMAINING, ConditionStatus.True, NOW, "SomeResourcesRemain",
        "Some resources are remaining: pods. has 1 resource instances"));
    assertThat(ns.status().condition(NamespaceCondition.FINALIZERS_REMAINING)).isEqualTo(new NamespaceCondition(
        NamespaceCondition.FINALIZERS_REMAINING, ConditionStatus.True, NOW, "SomeFinalizersRemain",
        "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances"));
    assertThat(ns.status().condition(NamespaceCondition.DELETION_CONTENT_FAILURE).status())
        .isEqualTo(ConditionStatus.False);
    assertThat(store.get(Pod.class, "test", "free")).isEmpty();

    Pod held = store.require(Pod.class, "test", "held");
    store.update(held.withMetadata(held.metadata().toBuilder().finalizers(List.of()).build()));
    assertThat(controller.sync("test")).isTrue();
    assertThat(store.get(Namespace.class, "", "test")).isEmpty();
  }

  @Test
  void metadataFinalizers_areLeftAlone_andHoldTheFinalizedNamespace() {
    store.create(Namespace.of("test").withMetadata(ObjectMeta.of("test").toBuilder()
        .finalizers(List.of("example.com/hold")).build()));
    store.create(ConfigMap.of("test", "settings", Map.of("k", "v")));
    store.delete(Namespace.class, "", "test");

    assertThat(controller.sync("test")).isTrue();

    Namespace ns = store.require(Namespace.class, "", "test");
    assertThat(ns.spec().finalizers()).isEmpty();
    assertThat(ns.metadata().finalizers()).containsExactly("example.com/hold");
    assertThat(ns.status().phase()).isEqualTo(NamespacePhase.Terminating);
    assertThat(store.list(ConfigMap.class, "test").items()).isEmpty();
    store.update(ns.withMetadata(ns.metadata().toBuilder().finalizers(List.of()).build()));
    assertThat(store.get(Namespace.class, "", "test")).isEmpty();
  }

  @Test
  void refusedDeletion_isAContentFailure_andTheNamespaceStays() {
    store.create(Namespace.of("test"));
    store.create(ConfigMap.of("test", "locked", Map.of("k", "v")));
    store.delete(Namespace.class, "", "test");

    assertThat(controller.sync("test")).isFalse();

    Namespace ns = store.require(Namespace.class, "", "test");
    NamespaceCondition failure = ns.status().condition(NamespaceCondition.DELETION_CONTENT_FAILURE);
    assertThat(failure.status()).isEqualTo(ConditionStatus.True);
    assertThat(failure.reason()).isEqualTo("ContentDeletionFailed");
    assertThat(failure.message()).startsWith("Failed to delete all resource types, 1 remaining: ConfigMap: ")
        .contains("locked");
    // as upstream, a kind whose deletion failed is not counted in the remaining content
    assertThat(ns.status().condition(NamespaceCondition.CONTENT_REMAINING).status()).isEqualTo(ConditionStatus.False);
    assertThat(store.get(ConfigMap.class, "test", "locked")).isPresent();
    assertThat(ns.spec().finalizers()).containsExactly(Namespace.KUBERNETES_FINALIZER);
  }
}
