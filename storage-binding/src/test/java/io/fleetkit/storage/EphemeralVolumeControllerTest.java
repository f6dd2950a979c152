package io.fleetkit.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimTemplate;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes/kubernetes {@code pkg/controller/volume/ephemeral/controller_test.go} (commit 0684ca99)
 * TestSyncHandler, all 7 cases: the pod key synced, the claims and pods in the store before, the claims after
 * (compared by namespace, name, owner references, labels, annotations and spec; the store adds uid and versions),
 * whether the sync fails, and the create counters ({@code ephemeral_volume_controller_create_total} and
 * {@code ..._create_failures_total}). Upstream's claims and template have an empty spec, which FleetKit refuses
 * (a claim needs an access mode and a storage request): here they all carry the same valid spec. Upstream's
 * "create-conflict" makes the fake client's create fail with a conflict; here an admission plugin refuses the create.
 * Upstream records the failure as a Warning {@code FailedBinding} event on the pod, checked here too.
 */
final class EphemeralVolumeControllerTest {
  private static final String POD = "test-pod";
  private static final String NS = "my-namespace";
  private static final String OTHER_NS = "not-my-namespace";
  private static final String VOLUME = "ephemeral-volume";
  private static final String CLAIM = POD + "-" + VOLUME;
  private static final PersistentVolumeClaimSpec SPEC = PersistentVolumeClaimSpec.builder().storage("1Gi")
      .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).build();

  private ObjectStore store;

  @AfterEach
  void tearDown() {
    if (store != null) {
      store.close();
    }
  }

  enum PodKind { NONE, WITH_EPHEMERAL, WITH_EPHEMERAL_DELETED, WITHOUT_VOLUMES }

  /** A claim before or after: {@code owned} means controlled by the test pod. */
  record C(String namespace, boolean owned) {}

  static Stream<Arguments> syncHandler() {
    C podClaim = new C(NS, true);
    C conflicting = new C(NS, false);
    C otherNamespace = new C(OTHER_NS, false);
    return Stream.of(
        // name, pods, claims before, claims after, error expected, created, failures, create refused
        Arguments.of("create", PodKind.WITH_EPHEMERAL, List.of(), List.of(podClaim), false, 1, 0, false),
        Arguments.of("no-such-pod", PodKind.NONE, List.of(), List.of(), false, 0, 0, false),
        Arguments.of("pod-deleted", PodKind.WITH_EPHEMERAL_DELETED, List.of(), List.of(), false, 0, 0, false),
        Arguments.of("no-volumes", PodKind.WITHOUT_VOLUMES, List.of(), List.of(), false, 0, 0, false),
        Arguments.of("create-with-other-PVC", PodKind.WITH_EPHEMERAL, List.of(otherNamespace),
            List.of(otherNamespace, podClaim), false, 1, 0, false),
        Arguments.of("wrong-PVC-owner", PodKind.WITH_EPHEMERAL, List.of(conflicting), List.of(conflicting), true, 0,
            0, false),
        Arguments.of("create-conflict", PodKind.WITH_EPHEMERAL, List.of(), List.of(), true, 1, 1, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("syncHandler")
  void syncHandler_matchesUpstream(String name, PodKind pods, List<C> before, List<C> after, boolean fails,
      int created, int failures, boolean refuseCreate) {
    store = refuseCreate
        ? ObjectStore.builder().admission(AdmissionChain.of(new RefuseClaims())).build()
        : ObjectStore.inMemory();
    Pod pod = createPod(pods);
    // a claim owned by the pod before the sync would need the pod's uid; no case has one
    for (C c : before) {
      store.create(claim(c, null));
    }
    CountingRegistry metrics = new CountingRegistry();
    List<String> events = new CopyOnWriteArrayList<>();
    EphemeralVolumeController controller = EphemeralVolumeController.builder(store).metrics(metrics)
        .events((regarding, related, type, reason, action, note) -> events.add(type + " " + reason + " "
            + regarding.name() + ": " + note))
        .build();

    Optional<String> err = controller.syncPod(NS, POD);

    assertThat(err.isPresent()).as("sync error: %s", err).isEqualTo(fails);
    List<String> got = claims(store.list(PersistentVolumeClaim.class).items());
    List<String> want = new ArrayList<>();
    for (C c : after) {
      want.add(describe(claim(c, c.owned() ? pod : null)));
    }
    assertThat(got).containsExactlyElementsOf(want.stream().sorted().toList());
    assertThat(metrics.value(EphemeralVolumeController.CREATE_TOTAL)).isEqualTo(created);
    assertThat(metrics.value(EphemeralVolumeController.CREATE_FAILURES_TOTAL)).isEqualTo(failures);
    if (fails) {
      assertThat(events).singleElement().asString().startsWith("Warning FailedBinding " + POD
          + ": ephemeral volume " + VOLUME + ": ");
    } else {
      assertThat(events).isEmpty();
    }
  }

  @Test
  void syncPod_wrongOwner_reportsUpstreamsError() {
    store = ObjectStore.inMemory();
    createPod(PodKind.WITH_EPHEMERAL);
    store.create(claim(new C(NS, false), null));
    Optional<String> err = EphemeralVolumeController.builder(store).build().syncPod(NS, POD);
    assertThat(err).contains("pod my-namespace/test-pod, ephemeral volume ephemeral-volume: PVC "
        + "my-namespace/test-pod-ephemeral-volume was not created for pod my-namespace/test-pod (pod is not owner)");
  }

  @Test
  void syncAll_copiesTemplateMetadata_andIsIdempotent() {
    store = ObjectStore.inMemory();
    PersistentVolumeClaimTemplate t = new PersistentVolumeClaimTemplate(Map.of("app", "web"),
        Map.of("example.com/note", "tmp"), SPEC.withStorageClassName("fast"));
    Pod pod = store.create(Pod.builder().namespace(NS).name(POD).container("c", "img", ResourceList.EMPTY)
        .volume(Volume.ephemeral("a", t)).volume(Volume.emptyDir("scratch"))
        .volume(Volume.ephemeral("b", PersistentVolumeClaimTemplate.of(SPEC))).build());
    EphemeralVolumeController controller = EphemeralVolumeController.builder(store).build();
    assertThat(controller.syncAll()).isEmpty();
    PersistentVolumeClaim a = store.require(PersistentVolumeClaim.class, NS, POD + "-a");
    assertThat(a.metadata().labels()).isEqualTo(Map.of("app", "web"));
    assertThat(a.metadata().annotations()).isEqualTo(Map.of("example.com/note", "tmp"));
    assertThat(a.spec()).isEqualTo(t.spec());
    assertThat(a.metadata().ownerReferences()).containsExactly(OwnerReference.controllerOf(pod));
    assertThat(EphemeralVolumes.checkVolumeIsForPod(pod, a)).isEmpty();
    assertThat(store.get(PersistentVolumeClaim.class, NS, POD + "-b")).isPresent();
    String version = a.metadata().resourceVersion();
    assertThat(controller.syncAll()).isEmpty();
    assertThat(store.require(PersistentVolumeClaim.class, NS, POD + "-a").metadata().resourceVersion())
        .isEqualTo(version);
  }

  @Test
  void syncAll_claimDeletedWhileThePodLives_isCreatedAgain() {
    store = ObjectStore.inMemory();
    createPod(PodKind.WITH_EPHEMERAL);
    EphemeralVolumeController controller = EphemeralVolumeController.builder(store).build();
    controller.syncAll();
    String uid = store.require(PersistentVolumeClaim.class, NS, CLAIM).metadata().uid();
    store.delete(PersistentVolumeClaim.class, NS, CLAIM);
    assertThat(controller.syncAll()).isEmpty();
    assertThat(store.require(PersistentVolumeClaim.class, NS, CLAIM).metadata().uid()).isNotEqualTo(uid);
  }

  @Test
  void followThenSyncChanged_syncsOnlyWhatChanged() throws Exception {
    store = ObjectStore.builder().directDelivery().build();
    CountingRegistry metrics = new CountingRegistry();
    EphemeralVolumeController controller = EphemeralVolumeController.builder(store).metrics(metrics).build();
    createPod(PodKind.WITH_EPHEMERAL); // before follow(): found by its first list
    store.create(Pod.builder().namespace(NS).name("plain").container("c", "img", ResourceList.EMPTY).build());
    try (AutoCloseable following = controller.follow()) {
      assertThat(controller.syncChanged()).isEmpty();
      assertThat(store.get(PersistentVolumeClaim.class, NS, CLAIM)).isPresent();
      assertThat(metrics.value(EphemeralVolumeController.CREATE_TOTAL)).isEqualTo(1);

      assertThat(controller.syncChanged()).as("nothing changed").isEmpty();
      assertThat(metrics.value(EphemeralVolumeController.CREATE_TOTAL)).isEqualTo(1);

      store.create(Pod.builder().namespace(NS).name("later").container("c", "img", ResourceList.EMPTY)
          .volume(Volume.ephemeral("v", PersistentVolumeClaimTemplate.of(SPEC))).build());
      store.delete(PersistentVolumeClaim.class, NS, CLAIM);
      assertThat(controller.syncChanged()).isEmpty();
      assertThat(store.get(PersistentVolumeClaim.class, NS, "later-v")).as("a new pod's claim").isPresent();
      assertThat(store.get(PersistentVolumeClaim.class, NS, CLAIM)).as("a deleted claim, made again").isPresent();
      assertThat(metrics.value(EphemeralVolumeController.CREATE_TOTAL)).isEqualTo(3);

      // a claim the pod does not own: the sync fails and is tried again until it is gone
      store.create(claim(new C(NS, false), null).withMetadata(ObjectMeta.builder().namespace(NS).name("other-v")
          .build()));
      store.create(Pod.builder().namespace(NS).name("other").container("c", "img", ResourceList.EMPTY)
          .volume(Volume.ephemeral("v", PersistentVolumeClaimTemplate.of(SPEC))).build());
      assertThat(controller.syncChanged()).singleElement().asString().contains("(pod is not owner)");
      assertThat(controller.syncChanged()).as("still marked").hasSize(1);
      store.delete(PersistentVolumeClaim.class, NS, "other-v");
      assertThat(controller.syncChanged()).isEmpty();
      assertThat(EphemeralVolumes.checkVolumeIsForPod(store.require(Pod.class, NS, "other"),
          store.require(PersistentVolumeClaim.class, NS, "other-v"))).isEmpty();
    }
    store.create(Pod.builder().namespace(NS).name("after").container("c", "img", ResourceList.EMPTY)
        .volume(Volume.ephemeral("v", PersistentVolumeClaimTemplate.of(SPEC))).build());
    assertThat(controller.syncChanged()).isEmpty();
    assertThat(store.get(PersistentVolumeClaim.class, NS, "after-v")).as("no longer following").isEmpty();
  }

  @Test
  void checkVolumeIsForPod_otherNamespaceOrOtherUid_refused() {
    store = ObjectStore.inMemory();
    Pod pod = createPod(PodKind.WITH_EPHEMERAL);
    Pod other = pod.withMetadata(pod.metadata().toBuilder().uid("someone-else").build());
    PersistentVolumeClaim mine = EphemeralVolumes.claimFor(pod, pod.spec().volumes().get(0));
    assertThat(EphemeralVolumes.checkVolumeIsForPod(pod, mine)).isEmpty();
    assertThat(EphemeralVolumes.checkVolumeIsForPod(other, mine)).isPresent();
    PersistentVolumeClaim moved = mine.withMetadata(mine.metadata().toBuilder().namespace(OTHER_NS).build());
    assertThat(EphemeralVolumes.checkVolumeIsForPod(pod, moved)).contains(
        "PVC not-my-namespace/test-pod-ephemeral-volume was not created for pod my-namespace/test-pod (pod is not "
            + "owner)");
  }

  private Pod createPod(PodKind kind) {
    if (kind == PodKind.NONE) {
      return Pod.builder().namespace(NS).name(POD).container("c", "img", ResourceList.EMPTY).build();
    }
    Pod.Builder b = Pod.builder().namespace(NS).name(POD).container("c", "img", ResourceList.EMPTY);
    if (kind != PodKind.WITHOUT_VOLUMES) {
      b.volume(Volume.ephemeral(VOLUME, PersistentVolumeClaimTemplate.of(SPEC)));
    }
    Pod p = b.build();
    if (kind == PodKind.WITH_EPHEMERAL_DELETED) { // a finalizer keeps the deleted pod, marked, as upstream's case
      p = p.withMetadata(p.metadata().toBuilder().finalizer("example.com/hold").build());
    }
    p = store.create(p);
    if (kind == PodKind.WITH_EPHEMERAL_DELETED) {
      store.delete(Pod.class, NS, POD);
      p = store.require(Pod.class, NS, POD);
      assertThat(p.metadata().deletionTimestamp()).isNotNull();
    }
    return p;
  }

  /** The claim {@code <pod>-<volume>} in {@code c}'s namespace, owned by {@code owner} when not null. */
  private static PersistentVolumeClaim claim(C c, Pod owner) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(c.namespace()).name(CLAIM);
    if (owner != null) {
      m.ownerReference(new OwnerReference("v1", "Pod", owner.metadata().name(), owner.metadata().uid(), true, true));
    }
    return PersistentVolumeClaim.of(m.build(), SPEC);
  }

  private static String describe(PersistentVolumeClaim c) {
    ObjectMeta m = c.metadata();
    return m.namespace() + "/" + m.name() + " owners=" + m.ownerReferences() + " labels=" + m.labels()
        + " annotations=" + m.annotations() + " spec=" + c.spec();
  }

  private static List<String> claims(List<PersistentVolumeClaim> items) {
    return items.stream().sorted(Comparator.comparing((PersistentVolumeClaim c) -> c.metadata().namespace())
        .thenComparing(c -> c.metadata().name())).map(EphemeralVolumeControllerTest::describe).sorted().toList();
  }

  /** Refuses every claim create, as upstream's fake client reactor does in "create-conflict". */
  private static final class RefuseClaims implements ValidatingAdmissionPlugin {
    @Override
    public String name() {
      return "RefuseClaims";
    }

    @Override
    public AdmissionVerdict validate(AdmissionRequest request, ObjectStore s) {
      return request.operation() == AdmissionOperation.CREATE && request.object() instanceof PersistentVolumeClaim
          ? AdmissionVerdict.deny("metadata.name", "fake conflict") : AdmissionVerdict.allow();
    }
  }

  /** Sums counters by metric name. */
  private static final class CountingRegistry implements MetricsRegistry {
    private final Map<String, DoubleAdder> counters = new ConcurrentHashMap<>();

    int value(String name) {
      DoubleAdder a = counters.get(name);
      return a == null ? 0 : (int) a.sum();
    }

    @Override
    public Counter counter(MetricDescriptor metric, String... labelValues) {
      DoubleAdder a = counters.computeIfAbsent(metric.name(), k -> new DoubleAdder());
      return a::add;
    }

    @Override
    public Gauge gauge(MetricDescriptor metric, String... labelValues) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Histogram histogram(MetricDescriptor metric, String... labelValues) {
      throw new UnsupportedOperationException();
    }
  }
}
