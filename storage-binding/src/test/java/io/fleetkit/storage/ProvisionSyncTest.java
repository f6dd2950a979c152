package io.fleetkit.storage;

import static io.fleetkit.storage.SyncTable.ALREADY_EXISTS;
import static io.fleetkit.storage.SyncTable.AVAILABLE;
import static io.fleetkit.storage.SyncTable.BIND_COMPLETED;
import static io.fleetkit.storage.SyncTable.BOUND;
import static io.fleetkit.storage.SyncTable.BOUND_BY_CONTROLLER;
import static io.fleetkit.storage.SyncTable.CLAIM_BOUND;
import static io.fleetkit.storage.SyncTable.CLAIM_PENDING;
import static io.fleetkit.storage.SyncTable.CLASS_EMPTY;
import static io.fleetkit.storage.SyncTable.CLASS_GOLD;
import static io.fleetkit.storage.SyncTable.CLASS_SILVER;
import static io.fleetkit.storage.SyncTable.DELETE;
import static io.fleetkit.storage.SyncTable.MOCK_PLUGIN;
import static io.fleetkit.storage.SyncTable.NO_EVENTS;
import static io.fleetkit.storage.SyncTable.RETAIN;
import static io.fleetkit.storage.SyncTable.SELECTED_NODE;
import static io.fleetkit.storage.SyncTable.UNAVAILABLE;
import static io.fleetkit.storage.SyncTable.claim;
import static io.fleetkit.storage.SyncTable.claims;
import static io.fleetkit.storage.SyncTable.row;
import static io.fleetkit.storage.SyncTable.volume;
import static io.fleetkit.storage.SyncTable.volumes;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.storage.SyncTable.Call;
import io.fleetkit.storage.SyncTable.Case;
import io.fleetkit.storage.SyncTable.Claim;
import io.fleetkit.storage.SyncTable.ProvisionCall;
import io.fleetkit.storage.SyncTable.Vol;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes/kubernetes {@code pkg/controller/volume/persistentvolume/provision_test.go} (the stored
 * version with the HonorPVReclaimPolicy gate on in TestProvisionSync and cases up to 11-26 and 12-4),
 * TestProvisionSync and TestProvisionMultiSync: a claim with no matching volume is provisioned through its class's
 * provisioner (upstream's mock plugin, registered here under its name {@value SyncTable#MOCK_PLUGIN}), waits for
 * an external one, or fails. As upstream, one sync saves the new volume bound to the claim and annotates the
 * claim; the claim's next sync binds it. Each row is one upstream case, by its name; see {@link SyncTable}.
 *
 * <p>Not ported: 11-7 "claim is bound before provisioning", 12-2 and 12-4 (they inject a volume while upstream's
 * asynchronous provisioning operation waits to start; FleetKit provisions inside the sync, with nothing queued to
 * interleave with); 11-20 "unsupported storageClass.mountOptions" (FleetKit's provisioner SPI has no
 * mount-option support flag: a class's mount options go to the volume); 11-21 "external provisioner for CSI
 * migration" (no in-tree plugins, no CSI migration); 11-25 and 11-26 (claims have no {@code dataSource});
 * TestDisablingDynamicProvisioner (the controller has no switch turning dynamic provisioning off).
 */
final class ProvisionSyncTest {
  private static final Map<String, String> CLASS1_PARAMETERS = Map.of("param1", "value1");
  private static final Map<String, String> CLASS2_PARAMETERS = Map.of("param2", "value2");
  private static final String CLASS_COPPER = "copper";
  private static final String CLASS_EXTERNAL = "external";
  private static final String CLASS_EXTERNAL_WAIT = "external-wait";
  private static final String CLASS_UNKNOWN_INTERNAL = "unknown-internal";
  private static final String CLASS_NON_EXISTING = "non-existing";
  private static final String PROVISIONED_BY = StorageAnnotations.PROVISIONED_BY;
  private static final String STORAGE_PROVISIONER = StorageAnnotations.STORAGE_PROVISIONER;
  private static final String BETA_STORAGE_PROVISIONER = StorageAnnotations.BETA_STORAGE_PROVISIONER;
  private static final String FINALIZER = PersistentVolumeController.DELETION_PROTECTION_FINALIZER;

  private static final ProvisionCall PROVISION1_ERROR = new ProvisionCall(CLASS1_PARAMETERS, "Mock provisioner error");
  private static final ProvisionCall PROVISION1_SUCCESS = new ProvisionCall(CLASS1_PARAMETERS, null);
  private static final ProvisionCall PROVISION2_SUCCESS = new ProvisionCall(CLASS2_PARAMETERS, null);

  /**
   * Upstream's {@code storageClasses}, but "unsupported-mountoptions" (its case is not ported) and "csi" (its
   * dataSource case is not ported).
   */
  private static final List<StorageClass> CLASSES = List.of(
      storageClass(CLASS_GOLD, MOCK_PLUGIN, CLASS1_PARAMETERS, VolumeBindingMode.Immediate),
      storageClass(CLASS_SILVER, MOCK_PLUGIN, CLASS2_PARAMETERS, VolumeBindingMode.Immediate),
      storageClass(CLASS_COPPER, MOCK_PLUGIN, CLASS1_PARAMETERS, VolumeBindingMode.WaitForFirstConsumer),
      storageClass(CLASS_EXTERNAL, "vendor.com/my-volume", CLASS1_PARAMETERS, VolumeBindingMode.Immediate),
      storageClass(CLASS_EXTERNAL_WAIT, "vendor.com/my-volume-wait", CLASS1_PARAMETERS,
          VolumeBindingMode.WaitForFirstConsumer),
      storageClass(CLASS_UNKNOWN_INTERNAL, "kubernetes.io/unknown", CLASS1_PARAMETERS, VolumeBindingMode.Immediate));

  private static StorageClass storageClass(String name, String provisioner, Map<String, String> parameters,
      VolumeBindingMode mode) {
    return StorageClass.of(ObjectMeta.of(name), StorageClassSpec.builder().provisioner(provisioner)
        .parameters(parameters).reclaimPolicy(DELETE).volumeBindingMode(mode).build());
  }

  /** Upstream's provisioned volume: Bound to the claim, of policy Delete, provisioned by the mock, protected. */
  private static Vol provisioned(String name, String uid, String claimName, String cls) {
    return volume(name, "1Gi", uid, claimName, BOUND, DELETE, cls, BOUND_BY_CONTROLLER)
        .withAnnotation(PROVISIONED_BY, MOCK_PLUGIN).withFinalizers(FINALIZER);
  }

  /** A claim annotated with its provisioner (upstream's {@code AnnStorageProvisioner} and its beta spelling). */
  private static Claim annotated(Claim c, String provisioner) {
    return c.withAnnotation(STORAGE_PROVISIONER, provisioner).withAnnotation(BETA_STORAGE_PROVISIONER, provisioner);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("testProvisionSync")
  void testProvisionSync(Case c) {
    SyncTable.run(c, CLASSES);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("testProvisionMultiSync")
  void testProvisionMultiSync(Case c) {
    SyncTable.run(c, CLASSES);
  }

  static Stream<Case> testProvisionSync() {
    return Stream.of(
        // Binding will be completed in the next syncClaim.
        row("11-1 - successful provision with storage class 1",
            volumes(),
            volumes(provisioned("pvc-uid11-1", "uid11-1", "claim11-1", CLASS_GOLD)),
            claims(claim("claim11-1", "uid11-1", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(annotated(claim("claim11-1", "uid11-1", "1Gi", "", CLAIM_PENDING, CLASS_GOLD), MOCK_PLUGIN)),
            List.of("Normal ProvisioningSucceeded"), Call.SYNC_CLAIM).withProvisionCalls(PROVISION1_SUCCESS),
        // No plugin registered: the class's kubernetes.io/ provisioner cannot be run by anyone.
        row("11-2 - plugin not found",
            volumes(),
            volumes(),
            claims(claim("claim11-2", "uid11-2", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(claim("claim11-2", "uid11-2", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            List.of("Warning ProvisioningFailed"), Call.SYNC_CLAIM),
        // Upstream's mock cannot create a provisioner without configured calls; FleetKit's provisioner is called and
        // fails the same way, with the same outcome.
        row("11-3 - newProvisioner failure",
            volumes(),
            volumes(),
            claims(claim("claim11-3", "uid11-3", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(annotated(claim("claim11-3", "uid11-3", "1Gi", "", CLAIM_PENDING, CLASS_GOLD), MOCK_PLUGIN)),
            List.of("Warning ProvisioningFailed"), Call.SYNC_CLAIM).withProvisionCalls(),
        row("11-4 - provision failure",
            volumes(),
            volumes(),
            claims(claim("claim11-4", "uid11-4", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(annotated(claim("claim11-4", "uid11-4", "1Gi", "", CLAIM_PENDING, CLASS_GOLD), MOCK_PLUGIN)),
            List.of("Warning ProvisioningFailed"), Call.SYNC_CLAIM).withProvisionCalls(PROVISION1_ERROR),
        row("11-6 - provisioning when there is a volume available",
            volumes(volume("volume11-6", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_GOLD)),
            volumes(volume("volume11-6", "1Gi", "uid11-6", "claim11-6", BOUND, RETAIN, CLASS_GOLD,
                BOUND_BY_CONTROLLER)),
            claims(claim("claim11-6", "uid11-6", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(claim("claim11-6", "uid11-6", "1Gi", "volume11-6", CLAIM_BOUND, CLASS_GOLD, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM).withProvisionCalls(PROVISION1_SUCCESS),
        // The first create of the volume fails; the second saves it.
        row("11-8 - cannot save provisioned volume",
            volumes(),
            volumes(provisioned("pvc-uid11-8", "uid11-8", "claim11-8", CLASS_GOLD)),
            claims(claim("claim11-8", "uid11-8", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(annotated(claim("claim11-8", "uid11-8", "1Gi", "", CLAIM_PENDING, CLASS_GOLD), MOCK_PLUGIN)),
            List.of("Normal ProvisioningSucceeded"), Call.SYNC_CLAIM).withProvisionCalls(PROVISION1_SUCCESS)
            .withCreateErrors(UNAVAILABLE),
        row("11-9 - cannot save provisioned volume, delete succeeds",
            volumes(),
            volumes(),
            claims(claim("claim11-9", "uid11-9", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(annotated(claim("claim11-9", "uid11-9", "1Gi", "", CLAIM_PENDING, CLASS_GOLD), MOCK_PLUGIN)),
            List.of("Warning ProvisioningFailed"), Call.SYNC_CLAIM).withProvisionCalls(PROVISION1_SUCCESS)
            .withDeleteCalls((String) null)
            .withCreateErrors(UNAVAILABLE, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE),
        // No delete calls configured: every deletion of the unsaved volume's storage fails.
        row("11-10 - cannot save provisioned volume, no delete plugin found",
            volumes(),
            volumes(),
            claims(claim("claim11-10", "uid11-10", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(annotated(claim("claim11-10", "uid11-10", "1Gi", "", CLAIM_PENDING, CLASS_GOLD), MOCK_PLUGIN)),
            List.of("Warning ProvisioningFailed", "Warning ProvisioningCleanupFailed"), Call.SYNC_CLAIM)
            .withProvisionCalls(PROVISION1_SUCCESS)
            .withCreateErrors(UNAVAILABLE, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE),
        row("11-11 - cannot save provisioned volume, deleter fails",
            volumes(),
            volumes(),
            claims(claim("claim11-11", "uid11-11", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(annotated(claim("claim11-11", "uid11-11", "1Gi", "", CLAIM_PENDING, CLASS_GOLD), MOCK_PLUGIN)),
            List.of("Warning ProvisioningFailed", "Warning ProvisioningCleanupFailed"), Call.SYNC_CLAIM)
            .withProvisionCalls(PROVISION1_SUCCESS)
            .withDeleteCalls("Mock deletion error1", "Mock deletion error2", "Mock deletion error3",
                "Mock deletion error4", "Mock deletion error5")
            .withCreateErrors(UNAVAILABLE, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE),
        row("11-12 - cannot save provisioned volume, delete succeeds 2nd time",
            volumes(),
            volumes(),
            claims(claim("claim11-12", "uid11-12", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(annotated(claim("claim11-12", "uid11-12", "1Gi", "", CLAIM_PENDING, CLASS_GOLD), MOCK_PLUGIN)),
            List.of("Warning ProvisioningFailed"), Call.SYNC_CLAIM).withProvisionCalls(PROVISION1_SUCCESS)
            .withDeleteCalls("Mock deletion error1", null)
            .withCreateErrors(UNAVAILABLE, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE),
        row("11-13 - successful provision with storage class 2",
            volumes(),
            volumes(provisioned("pvc-uid11-13", "uid11-13", "claim11-13", CLASS_SILVER)),
            claims(claim("claim11-13", "uid11-13", "1Gi", "", CLAIM_PENDING, CLASS_SILVER)),
            claims(annotated(claim("claim11-13", "uid11-13", "1Gi", "", CLAIM_PENDING, CLASS_SILVER), MOCK_PLUGIN)),
            List.of("Normal ProvisioningSucceeded"), Call.SYNC_CLAIM).withProvisionCalls(PROVISION2_SUCCESS),
        // Upstream's table lists no event; its controller emits ProvisioningFailed (the class is not found).
        row("11-14 - fail due to non-existing class",
            volumes(),
            volumes(),
            claims(claim("claim11-14", "uid11-14", "1Gi", "", CLAIM_PENDING, CLASS_NON_EXISTING)),
            claims(claim("claim11-14", "uid11-14", "1Gi", "", CLAIM_PENDING, CLASS_NON_EXISTING)),
            List.of("Warning ProvisioningFailed"), Call.SYNC_CLAIM).withProvisionCalls(),
        // Upstream's table lists no event; its controller emits FailedBinding (no volume, no class).
        row("11-15 - no provisioning with class=''",
            volumes(),
            volumes(),
            claims(claim("claim11-15", "uid11-15", "1Gi", "", CLAIM_PENDING, CLASS_EMPTY)),
            claims(claim("claim11-15", "uid11-15", "1Gi", "", CLAIM_PENDING, CLASS_EMPTY)),
            List.of("Normal FailedBinding"), Call.SYNC_CLAIM).withProvisionCalls(),
        // As 11-15 (no default class among the test's classes).
        row("11-16 - no provisioning with class=nil",
            volumes(),
            volumes(),
            claims(claim("claim11-15", "uid11-15", "1Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim11-15", "uid11-15", "1Gi", "", CLAIM_PENDING, null)),
            List.of("Normal FailedBinding"), Call.SYNC_CLAIM).withProvisionCalls(),
        row("11-17 - external provisioner",
            volumes(),
            volumes(),
            claims(claim("claim11-17", "uid11-17", "1Gi", "", CLAIM_PENDING, CLASS_EXTERNAL)),
            claims(annotated(claim("claim11-17", "uid11-17", "1Gi", "", CLAIM_PENDING, CLASS_EXTERNAL),
                "vendor.com/my-volume")),
            List.of("Normal ExternalProvisioning"), Call.SYNC_CLAIM).withProvisionCalls(),
        row("11-18 - unknown internal provisioner",
            volumes(),
            volumes(),
            claims(claim("claim11-18", "uid11-18", "1Gi", "", CLAIM_PENDING, CLASS_UNKNOWN_INTERNAL)),
            claims(claim("claim11-18", "uid11-18", "1Gi", "", CLAIM_PENDING, CLASS_UNKNOWN_INTERNAL)),
            List.of("Warning ProvisioningFailed"), Call.SYNC_CLAIM).withProvisionCalls(),
        // The first create fails, the second answers "already exists" (as if the first had been saved) without
        // saving: no volume, and its storage is not deleted (no delete call is configured: a deletion would fail and
        // show as ProvisioningCleanupFailed). Upstream's table lists no event; its controller emits
        // ProvisioningSucceeded.
        row("11-19 - provisioned volume saved but API server crashed",
            volumes(),
            volumes(),
            claims(claim("claim11-19", "uid11-19", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(annotated(claim("claim11-19", "uid11-19", "1Gi", "", CLAIM_PENDING, CLASS_GOLD), MOCK_PLUGIN)),
            List.of("Normal ProvisioningSucceeded"), Call.SYNC_CLAIM).withProvisionCalls(PROVISION1_SUCCESS)
            .withCreateErrors(UNAVAILABLE, ALREADY_EXISTS),
        row("11-22 - external provisioner with volume available",
            volumes(volume("volume11-22", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EXTERNAL)),
            volumes(volume("volume11-22", "1Gi", "uid11-22", "claim11-22", BOUND, RETAIN, CLASS_EXTERNAL,
                BOUND_BY_CONTROLLER)),
            claims(claim("claim11-22", "uid11-22", "1Gi", "", CLAIM_PENDING, CLASS_EXTERNAL)),
            claims(claim("claim11-22", "uid11-22", "1Gi", "volume11-22", CLAIM_BOUND, CLASS_EXTERNAL,
                BOUND_BY_CONTROLLER, BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM).withProvisionCalls(),
        // Upstream injects only a node lister holding node1: the store holds node1.
        row("11-23 - skip finding PV and provision for PVC annotated with AnnSelectedNode",
            volumes(volume("volume11-23", "1Gi", "", "", AVAILABLE, DELETE, CLASS_COPPER)),
            volumes(volume("volume11-23", "1Gi", "", "", AVAILABLE, DELETE, CLASS_COPPER),
                provisioned("pvc-uid11-23", "uid11-23", "claim11-23", CLASS_COPPER)),
            claims(claim("claim11-23", "uid11-23", "1Gi", "", CLAIM_PENDING, CLASS_COPPER)
                .withAnnotation(SELECTED_NODE, "node1")),
            claims(annotated(claim("claim11-23", "uid11-23", "1Gi", "", CLAIM_PENDING, CLASS_COPPER), MOCK_PLUGIN)
                .withAnnotation(SELECTED_NODE, "node1")),
            List.of("Normal ProvisioningSucceeded"), Call.SYNC_CLAIM).withProvisionCalls(PROVISION1_SUCCESS)
            .withNodes("node1"),
        row("11-24 - skip finding PV and wait external provisioner for PVC annotated with AnnSelectedNode",
            volumes(volume("volume11-24", "1Gi", "", "", AVAILABLE, DELETE, CLASS_EXTERNAL_WAIT)),
            volumes(volume("volume11-24", "1Gi", "", "", AVAILABLE, DELETE, CLASS_EXTERNAL_WAIT)),
            claims(claim("claim11-24", "uid11-24", "1Gi", "", CLAIM_PENDING, CLASS_EXTERNAL_WAIT)
                .withAnnotation(SELECTED_NODE, "node1")),
            claims(annotated(claim("claim11-24", "uid11-24", "1Gi", "", CLAIM_PENDING, CLASS_EXTERNAL_WAIT)
                .withAnnotation(SELECTED_NODE, "node1"), "vendor.com/my-volume-wait")),
            List.of("Normal ExternalProvisioning"), Call.SYNC_CLAIM));
  }

  static Stream<Case> testProvisionMultiSync() {
    return Stream.of(
        // Upstream runs this test with the HonorPVReclaimPolicy gate at its default and expects no finalizer on the
        // volume; FleetKit always behaves as with the gate on (as TestProvisionSync), so the provisioned volume
        // keeps the kubernetes.io/pv-controller finalizer while it exists.
        row("12-1 - successful provision",
            volumes(),
            volumes(provisioned("pvc-uid12-1", "uid12-1", "claim12-1", CLASS_GOLD)),
            claims(claim("claim12-1", "uid12-1", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(annotated(claim("claim12-1", "uid12-1", "1Gi", "pvc-uid12-1", CLAIM_BOUND, CLASS_GOLD,
                BOUND_BY_CONTROLLER, BIND_COMPLETED), MOCK_PLUGIN)),
            List.of("Normal ProvisioningSucceeded"), Call.MULTI_SYNC_CLAIM).withProvisionCalls(PROVISION1_SUCCESS),
        // Every sync of the waiting claim says so again (upstream's checkEvents reads only the first).
        row("12-3 - external provisioner with volume to be provisioned",
            volumes(),
            volumes(),
            claims(claim("claim12-3", "uid12-3", "1Gi", "", CLAIM_PENDING, CLASS_EXTERNAL)),
            claims(annotated(claim("claim12-3", "uid12-3", "1Gi", "", CLAIM_PENDING, CLASS_EXTERNAL),
                "vendor.com/my-volume")),
            List.of("Normal ExternalProvisioning", "Normal ExternalProvisioning"), Call.MULTI_SYNC_CLAIM)
            .withProvisionCalls(PROVISION1_SUCCESS));
  }
}
