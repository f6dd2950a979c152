package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.PodTemplateMetadata;
import io.fleetkit.api.rollouts.Rollout;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Ephemeral pod metadata (Argo Rollouts' {@code rollout/ephemeralmetadata.go} and the metadata helpers of
 * {@code utils/replicaset/canary.go}): the labels and annotations of a role ({@code canaryMetadata} and
 * {@code stableMetadata}, or {@code previewMetadata} and {@code activeMetadata}) are put on a ReplicaSet's pod template
 * and on its pods, and what was put there is remembered in the ReplicaSet's annotation {@value #ANNOTATION} (as JSON)
 * so that it is removed again when the role changes, without touching metadata of other origin. Stateless.
 */
final class EphemeralMetadata {
  private static final Logger LOG = LoggerFactory.getLogger(EphemeralMetadata.class);
  /** Argo's {@code EphemeralMetadataAnnotation}: what was injected into the ReplicaSet's pod template. */
  static final String ANNOTATION = "rollout.argoproj.io/ephemeral-metadata";
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final TypeReference<Map<String, Map<String, String>>> SHAPE = new TypeReference<>() {};

  private EphemeralMetadata() {}

  /**
   * {@code reconcileEphemeralMetadata}: nothing unless the strategy has ephemeral metadata. Fully rolled out (no
   * stable yet, or the stable is the new version): the new ReplicaSet gets the stable (active) metadata; during an
   * update the new one gets the canary (preview) metadata and the stable one the stable (active) metadata. Every other
   * ReplicaSet loses what was injected. The roles are read from the status the sync started with, as Argo does.
   */
  static void reconcile(RolloutSync s) {
    PodTemplateMetadata newMeta;
    PodTemplateMetadata stableMeta;
    if (s.r.canary() != null) {
      newMeta = s.r.canary().canaryMetadata();
      stableMeta = s.r.canary().stableMetadata();
    } else {
      newMeta = s.r.blueGreen().previewMetadata();
      stableMeta = s.r.blueGreen().activeMetadata();
    }
    if (!configured(s.r)) {
      return;
    }
    String stableHash = s.r.status().stableRs();
    String newName = s.newRs.metadata().name();
    boolean fullyRolledOut = stableHash.isEmpty() || stableHash.equals(RolloutSync.hashOf(s.newRs));
    for (ReplicaSet rs : new java.util.ArrayList<>(s.sets.values())) {
      PodTemplateMetadata want;
      if (rs.metadata().name().equals(newName)) {
        want = fullyRolledOut ? stableMeta : newMeta;
      } else if (!fullyRolledOut && stableHash.equals(RolloutSync.hashOf(rs))) {
        want = stableMeta;
      } else {
        want = null;
      }
      sync(s, rs, want);
    }
  }

  /**
   * {@code syncEphemeralMetadata}: the ReplicaSet first (so that pods it creates meanwhile carry the metadata), then
   * every pod it controls (unless it is scaled to 0).
   */
  private static void sync(RolloutSync s, ReplicaSet rs, @Nullable PodTemplateMetadata want) {
    PodTemplateMetadata existing = existing(rs);
    ReplicaSet synced = syncReplicaSet(rs, want);
    if (synced != rs) {
      ReplicaSet latest = s.store.require(ReplicaSet.class, s.ns, rs.metadata().name());
      rs = s.replace(s.store.update(syncReplicaSet(latest, want)));
    }
    if (rs.spec().replicas() == 0) {
      return;
    }
    for (Pod pod : s.store.list(Pod.class, s.ns).items()) {
      if (!pod.metadata().isControlledBy(rs.metadata().uid())) {
        continue;
      }
      ObjectMeta meta = syncMetadata(pod.metadata(), existing, want);
      if (meta == pod.metadata()) {
        continue;
      }
      try {
        s.store.update(pod.withMetadata(meta));
      } catch (NotFoundException e) {
        LOG.debug("pod {} gone before its ephemeral metadata was synced", pod.metadata().key());
      } catch (ConflictException e) {
        LOG.debug("pod {} changed while its ephemeral metadata was synced; next sync", pod.metadata().key());
        s.wakeAt(s.now);
      }
    }
  }

  /**
   * {@code SyncReplicaSetEphemeralPodMetadata}: the ReplicaSet with {@code want} injected into its pod template and
   * what is no longer wanted removed, the annotation recording {@code want} (removed with {@code null}); the same
   * object when nothing changes.
   */
  static ReplicaSet syncReplicaSet(ReplicaSet rs, @Nullable PodTemplateMetadata want) {
    PodTemplateSpec t = rs.spec().template();
    ObjectMeta meta = syncMetadata(t.metadata(), existing(rs), want);
    if (meta == t.metadata()) {
      return rs;
    }
    ObjectMeta.Builder rsMeta = rs.metadata().toBuilder();
    Map<String, String> annotations = new HashMap<>(rs.metadata().annotations());
    if (want != null) {
      annotations.put(ANNOTATION, json(want));
    } else {
      annotations.remove(ANNOTATION);
    }
    return rs.withMetadata(rsMeta.annotations(annotations).build())
        .withSpec(new io.fleetkit.api.apps.ReplicaSetSpec(rs.spec().replicas(), rs.spec().selector(),
            new PodTemplateSpec(meta, t.spec()), rs.spec().minReadySeconds()));
  }

  /**
   * {@code SyncEphemeralPodMetadata}: {@code want}'s labels and annotations set, those of {@code existing} that
   * {@code want} no longer holds removed; the same object when nothing changes.
   */
  static ObjectMeta syncMetadata(ObjectMeta meta, @Nullable PodTemplateMetadata existing,
      @Nullable PodTemplateMetadata want) {
    Map<String, String> labels = new HashMap<>(meta.labels());
    Map<String, String> annotations = new HashMap<>(meta.annotations());
    boolean modified = false;
    if (want != null) {
      modified |= putAll(annotations, want.annotations());
      modified |= putAll(labels, want.labels());
    }
    if (existing != null) {
      modified |= removeUnwanted(annotations, existing.annotations(), want == null ? Map.of() : want.annotations());
      modified |= removeUnwanted(labels, existing.labels(), want == null ? Map.of() : want.labels());
    }
    return modified ? meta.toBuilder().labels(labels).annotations(annotations).build() : meta;
  }

  private static boolean putAll(Map<String, String> into, Map<String, String> add) {
    boolean modified = false;
    for (Map.Entry<String, String> e : add.entrySet()) {
      if (!e.getValue().equals(into.put(e.getKey(), e.getValue()))) {
        modified = true;
      }
    }
    return modified;
  }

  private static boolean removeUnwanted(Map<String, String> from, Map<String, String> injected,
      Map<String, String> wanted) {
    boolean modified = false;
    for (String k : injected.keySet()) {
      if (!wanted.containsKey(k) && from.remove(k) != null) {
        modified = true;
      }
    }
    return modified;
  }

  /** {@code ParseExistingPodMetadata}: what the annotation records; {@code null} when absent or unreadable. */
  static @Nullable PodTemplateMetadata existing(ReplicaSet rs) {
    String text = rs.metadata().annotations().get(ANNOTATION);
    if (text == null) {
      return null;
    }
    try {
      Map<String, Map<String, String>> m = JSON.readValue(text, SHAPE);
      if (m == null) {
        return null;
      }
      return new PodTemplateMetadata(m.getOrDefault("labels", Map.of()), m.getOrDefault("annotations", Map.of()));
    } catch (JacksonException | NullPointerException e) {
      LOG.debug("ReplicaSet {}: unreadable {}: {}", rs.metadata().key(), ANNOTATION, text);
      return null;
    }
  }

  /** The template of {@code rs} without the injected metadata (Argo compares templates this way). */
  static PodTemplateSpec withoutInjected(ReplicaSet rs) {
    return syncReplicaSet(rs, null).spec().template();
  }

  /** The JSON Argo writes: {@code {"labels":{...},"annotations":{...}}}, keys sorted, empty maps left out. */
  static String json(PodTemplateMetadata m) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (!m.labels().isEmpty()) {
      out.put("labels", new TreeMap<>(m.labels()));
    }
    if (!m.annotations().isEmpty()) {
      out.put("annotations", new TreeMap<>(m.annotations()));
    }
    return JSON.writeValueAsString(out);
  }

  /**
   * The metadata a ReplicaSet created for the rollout's template starts with (Argo's {@code getNewReplicaSet}): the
   * canary (preview) metadata when a stable ReplicaSet exists among {@code owned}, else the stable (active) one.
   */
  static @Nullable PodTemplateMetadata forNewReplicaSet(Rollout r, java.util.List<ReplicaSet> owned) {
    String stable = r.status().stableRs();
    boolean stableExists = false;
    for (ReplicaSet rs : owned) {
      stableExists |= !stable.isEmpty() && stable.equals(RolloutSync.hashOf(rs));
    }
    if (r.canary() != null) {
      return stableExists ? r.canary().canaryMetadata() : r.canary().stableMetadata();
    }
    return stableExists ? r.blueGreen().previewMetadata() : r.blueGreen().activeMetadata();
  }

  /** Whether a rollout's strategy puts ephemeral metadata on pods. */
  static boolean configured(Rollout r) {
    return r.canary() != null ? r.canary().canaryMetadata() != null || r.canary().stableMetadata() != null
        : r.blueGreen().previewMetadata() != null || r.blueGreen().activeMetadata() != null;
  }
}
