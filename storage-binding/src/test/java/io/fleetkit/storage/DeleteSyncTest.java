package io.fleetkit.storage;

import static io.fleetkit.storage.SyncTable.BOUND;
import static io.fleetkit.storage.SyncTable.BOUND_BY_CONTROLLER;
import static io.fleetkit.storage.SyncTable.CLAIM_BOUND;
import static io.fleetkit.storage.SyncTable.CLAIM_PENDING;
import static io.fleetkit.storage.SyncTable.CLASS_EMPTY;
import static io.fleetkit.storage.SyncTable.DELETE;
import static io.fleetkit.storage.SyncTable.FAILED;
import static io.fleetkit.storage.SyncTable.MOCK_PLUGIN;
import static io.fleetkit.storage.SyncTable.NO_EVENTS;
import static io.fleetkit.storage.SyncTable.RELEASED;
import static io.fleetkit.storage.SyncTable.claim;
import static io.fleetkit.storage.SyncTable.claims;
import static io.fleetkit.storage.SyncTable.row;
import static io.fleetkit.storage.SyncTable.volume;
import static io.fleetkit.storage.SyncTable.volumes;

import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.storage.SyncTable.Call;
import io.fleetkit.storage.SyncTable.Case;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes/kubernetes {@code pkg/controller/volume/persistentvolume/delete_test.go} (the stored version
 * with the HonorPVReclaimPolicy gate on and cases 8-10-1 to 8-13), TestDeleteSync and TestDeleteMultiSync: a
 * released volume of policy Delete is deleted by its deleter, fails when it has none or the deletion fails, and is
 * left to an external deleter. Each row is one upstream case, by its name; see {@link SyncTable}.
 *
 * <p>Upstream's mock plugin deletes a volume it matches by the volume's source; FleetKit finds a volume's deleter
 * only by {@value StorageAnnotations#PROVISIONED_BY}, so the volumes upstream's mock deletes name it
 * ({@value SyncTable#MOCK_PLUGIN}) in that annotation, initial and expected alike.
 *
 * <p>Not ported: 8-4 "newDeleter returns error" (FleetKit's {@code VolumeProvisioner.delete} is one call; there is
 * no deleter to construct, and a failing delete is 8-5); 8-6 "volume is deleted before deleting" and 8-7 "volume is
 * bound before deleting" (they inject a change while upstream's asynchronous delete operation waits to start;
 * FleetKit deletes inside the sync, with nothing queued to interleave with); 8-10-3 "external deleter when volume is
 * migrated" (CSI migration of in-tree volumes, {@code pv.kubernetes.io/migrated-to}: no in-tree volume plugins).
 */
final class DeleteSyncTest {
  private static final String PROVISIONED_BY = StorageAnnotations.PROVISIONED_BY;
  private static final String GCE_DRIVER = "pd.csi.storage.gke.io";
  private static final String FINALIZER = PersistentVolumeController.DELETION_PROTECTION_FINALIZER;

  @ParameterizedTest(name = "{0}")
  @MethodSource("testDeleteSync")
  void testDeleteSync(Case c) {
    SyncTable.run(c, List.of());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("testDeleteMultiSync")
  void testDeleteMultiSync(Case c) {
    SyncTable.run(c, List.of());
  }

  static Stream<Case> testDeleteSync() {
    return Stream.of(
        row("8-1 - successful delete",
            volumes(volume("volume8-1", "1Gi", "uid8-1", "claim8-1", BOUND, DELETE, CLASS_EMPTY, BOUND_BY_CONTROLLER)
                .withAnnotation(PROVISIONED_BY, MOCK_PLUGIN)),
            volumes(),
            claims(),
            claims(),
            NO_EVENTS, Call.SYNC_VOLUME).withDeleteCalls((String) null),
        row("8-2 - successful delete with prebound volume",
            volumes(volume("volume8-2", "1Gi", "uid8-2", "claim8-2", BOUND, DELETE, CLASS_EMPTY)
                .withAnnotation(PROVISIONED_BY, MOCK_PLUGIN)),
            volumes(),
            claims(),
            claims(),
            NO_EVENTS, Call.SYNC_VOLUME).withDeleteCalls((String) null),
        row("8-3 - plugin not found",
            volumes(volume("volume8-3", "1Gi", "uid8-3", "claim8-3", BOUND, DELETE, CLASS_EMPTY)),
            volumes(volume("volume8-3", "1Gi", "uid8-3", "claim8-3", FAILED, DELETE, CLASS_EMPTY)
                .withMessage("error getting deleter volume plugin for volume \"volume8-3\": no volume plugin matched")),
            claims(),
            claims(),
            List.of("Warning VolumeFailedDelete"), Call.SYNC_VOLUME),
        row("8-5 - delete returns error",
            volumes(volume("volume8-5", "1Gi", "uid8-5", "claim8-5", BOUND, DELETE, CLASS_EMPTY)
                .withAnnotation(PROVISIONED_BY, MOCK_PLUGIN)),
            volumes(volume("volume8-5", "1Gi", "uid8-5", "claim8-5", FAILED, DELETE, CLASS_EMPTY)
                .withAnnotation(PROVISIONED_BY, MOCK_PLUGIN).withMessage("Mock delete error")),
            claims(),
            claims(),
            List.of("Warning VolumeFailedDelete"), Call.SYNC_VOLUME).withDeleteCalls("Mock delete error"),
        row("8-9 - prebound volume is deleted while the claim exists",
            volumes(volume("volume8-9", "1Gi", "uid8-9", "claim8-9", BOUND, DELETE, CLASS_EMPTY)
                .withAnnotation(PROVISIONED_BY, MOCK_PLUGIN)),
            volumes(),
            claims(claim("claim8-9", "uid8-9-x", "10Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim8-9", "uid8-9-x", "10Gi", "", CLAIM_PENDING, null)),
            NO_EVENTS, Call.SYNC_VOLUME).withDeleteCalls((String) null),
        row("8-10-1 - external deleter when volume is dynamic provisioning",
            volumes(volume("volume8-10-1", "1Gi", "uid10-1-1", "claim10-1-1", BOUND, DELETE, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withCsi(GCE_DRIVER).withAnnotation(PROVISIONED_BY, "external.io/test")),
            volumes(volume("volume8-10-1", "1Gi", "uid10-1-1", "claim10-1-1", RELEASED, DELETE, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withCsi(GCE_DRIVER).withAnnotation(PROVISIONED_BY, "external.io/test")),
            claims(),
            claims(),
            NO_EVENTS, Call.SYNC_VOLUME),
        row("8-10-2 - external deleter when volume is static provisioning",
            volumes(volume("volume8-10-2", "1Gi", "uid10-1-2", "claim10-1-2", BOUND, DELETE, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withCsi(GCE_DRIVER)),
            volumes(volume("volume8-10-2", "1Gi", "uid10-1-2", "claim10-1-2", RELEASED, DELETE, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withCsi(GCE_DRIVER)),
            claims(),
            claims(),
            NO_EVENTS, Call.SYNC_VOLUME),
        // The claim is bound to volume8-11-2: volume8-11-1 lost the race and is deleted.
        row("8-11 - two PVs provisioned for a single claim",
            volumes(volume("volume8-11-1", "1Gi", "uid8-11", "claim8-11", BOUND, DELETE, CLASS_EMPTY)
                    .withAnnotation(PROVISIONED_BY, MOCK_PLUGIN),
                volume("volume8-11-2", "1Gi", "uid8-11", "claim8-11", BOUND, DELETE, CLASS_EMPTY)
                    .withAnnotation(PROVISIONED_BY, MOCK_PLUGIN)),
            volumes(volume("volume8-11-2", "1Gi", "uid8-11", "claim8-11", BOUND, DELETE, CLASS_EMPTY)
                .withAnnotation(PROVISIONED_BY, MOCK_PLUGIN)),
            claims(claim("claim8-11", "uid8-11", "10Gi", "volume8-11-2", CLAIM_BOUND, null)),
            claims(claim("claim8-11", "uid8-11", "10Gi", "volume8-11-2", CLAIM_BOUND, null)),
            NO_EVENTS, Call.SYNC_VOLUME).withDeleteCalls((String) null),
        // The claim is bound to volume8-12-2: volume8-12-1 lost the race and is Released for its external deleter.
        row("8-12 - two PVs externally provisioned for a single claim",
            volumes(volume("volume8-12-1", "1Gi", "uid8-12", "claim8-12", BOUND, DELETE, CLASS_EMPTY)
                    .withCsi(GCE_DRIVER).withAnnotation(PROVISIONED_BY, "external.io/test"),
                volume("volume8-12-2", "1Gi", "uid8-12", "claim8-12", BOUND, DELETE, CLASS_EMPTY)
                    .withCsi(GCE_DRIVER).withAnnotation(PROVISIONED_BY, GCE_DRIVER)),
            volumes(volume("volume8-12-1", "1Gi", "uid8-12", "claim8-12", RELEASED, DELETE, CLASS_EMPTY)
                    .withCsi(GCE_DRIVER).withAnnotation(PROVISIONED_BY, "external.io/test"),
                volume("volume8-12-2", "1Gi", "uid8-12", "claim8-12", BOUND, DELETE, CLASS_EMPTY)
                    .withCsi(GCE_DRIVER).withAnnotation(PROVISIONED_BY, GCE_DRIVER)),
            claims(claim("claim8-12", "uid8-12", "10Gi", "volume8-12-2", CLAIM_BOUND, null)),
            claims(claim("claim8-12", "uid8-12", "10Gi", "volume8-12-2", CLAIM_BOUND, null)),
            NO_EVENTS, Call.SYNC_VOLUME),
        row("8-13 - volume has deletion timestamp and processed",
            volumes(volume("volume8-13", "1Gi", "uid8-13", "claim8-13", BOUND, DELETE, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withAnnotation(PROVISIONED_BY, MOCK_PLUGIN).withFinalizers(FINALIZER)
                .markedForDeletion()),
            volumes(),
            claims(),
            claims(),
            NO_EVENTS, Call.SYNC_VOLUME).withDeleteCalls((String) null));
  }

  static Stream<Case> testDeleteMultiSync() {
    return Stream.of(
        // The first deletion fails (Failed, one event); a later sync deletes the volume.
        row("9-1 - delete returns error",
            volumes(volume("volume9-1", "1Gi", "uid9-1", "claim9-1", BOUND, DELETE, CLASS_EMPTY)
                .withAnnotation(PROVISIONED_BY, MOCK_PLUGIN).withFinalizers(FINALIZER)),
            volumes(),
            claims(),
            claims(),
            List.of("Warning VolumeFailedDelete"), Call.MULTI_SYNC_VOLUME).withDeleteCalls("Mock delete error", null));
  }
}
